// `hey doctor`'s report: one line per check with its mark, what was found and what to do, then
// the verdict; or the same as one JSON object. Pure.
import type { Check, Flags, Status, Verdict } from "./checks.ts";

/** What the report is about. */
export interface Subject {
  provider: string;
  protocol: string;
  baseUrl: string;
  /** the variable that set baseUrl, when one did (OPENAI_BASE_URL, OLLAMA_HOST) */
  from?: string;
  model: string;
  /** the variable that set the model, when one did (ANTHROPIC_MODEL) */
  modelFrom?: string;
  /** the project hey runs in (issue 26): its root, whether its files load (`approved`: by --approve, for this run only), which it has */
  project?: { root: string; trusted: boolean; approved: boolean; files: string[] };
  /** other agents' files hey does not use, with what to write instead (peers/found.ts) */
  peers?: string[];
  /** the permission lists in force, one line each, with their files (permission-lines.ts) */
  permissions?: string[];
  /** what grep searches with (fs/ripgrep-choice.ts grepLine): `[tools] rg`, marked `!` when it cannot be run, or the default */
  grep?: string;
  /** the external bash filter and where it is set (tools/filter-watch.ts filterLine), marked `!` when it cannot be run; none for the built-in one */
  filter?: string;
}

/** The project's line: where it is, whether it is trusted, what of it loads. */
function projectLine(p: NonNullable<Subject["project"]>): string {
  if (p.files.length === 0) return `project: ${p.root} (no .hey/config.toml, skills or .mcp.json)`;
  if (p.approved) return `project: ${p.root} (approved for this run (--approve): ${p.files.join(", ")} loaded)`;
  return p.trusted
    ? `project: ${p.root} (trusted: ${p.files.join(", ")} loaded)`
    : `project: ${p.root} (not trusted: ${p.files.join(", ")} left out; hey trust trusts it)`;
}

/** What `--write` did: the file written and its backup; or why it could not. */
export type Written = { file: string; backup?: string; flags: Flags } | { error: string };

const MARKS: Record<Status, string> = { pass: "✓", quirk: "!", fail: "✗", skip: "–" };

/**
 * The report as lines of text. `missing`: flags hey needs and the config does not hold yet;
 * `written`: what --write did (undefined without --write).
 */
export function renderText(subject: Subject, verdict: Verdict, missing: Flags, written: Written | undefined, command: string): string {
  const width = Math.max(...verdict.checks.map((c) => c.title.length));
  const from = subject.from ? ` (from ${subject.from})` : "";
  const modelFrom = subject.modelFrom ? ` (from ${subject.modelFrom})` : "";
  const lines = [`hey doctor: ${subject.provider} (${subject.protocol}) ${subject.baseUrl}${from}, model ${subject.model}${modelFrom}`];
  if (subject.project) lines.push(projectLine(subject.project));
  lines.push(...(subject.permissions ?? []), ...(subject.grep ? [subject.grep] : []), ...(subject.filter ? [subject.filter] : []));
  for (const p of subject.peers ?? []) lines.push(`! ${p}`);
  for (const c of verdict.checks) lines.push(`${MARKS[c.status]} ${c.title.padEnd(width)}  ${c.detail}${c.fix ? ` → ${c.fix}` : ""}`);
  lines.push("", verdictLine(verdict, missing, written, command));
  const recorded = written !== undefined && !("error" in written);
  if (verdict.usable && !recorded && tomlLines(missing).length > 0) lines.push(...tableLines(subject, missing, command));
  if (verdict.help) lines.push("", verdict.help);
  if (written && "error" in written) lines.push(written.error);
  else if (written && Object.keys(written.flags).length > 0)
    lines.push(`wrote ${tomlLines(written.flags).join(", ")} to ${written.file}${written.backup ? ` (the previous file is ${written.backup})` : ""}`);
  return lines.join("\n") + "\n";
}

function verdictLine(verdict: Verdict, missing: Flags, written: Written | undefined, command: string): string {
  if (!verdict.usable)
    return `✗ not usable: ${verdict.checks
      .filter((c) => c.status === "fail")
      .map((c) => c.title)
      .join(", ")} failed`;
  const needed = tomlLines(missing);
  if (needed.length === 0) return "✓ usable";
  if (written && !("error" in written)) return "✓ usable with the flags written below";
  if (command === "cli") return "! usable once these lines are in a [provider.NAME] table for this endpoint (a --base-url run has none):";
  if (written) return `! usable once these lines are in [provider.${command}]:`; // --write could not: why follows them
  return `! usable once these lines are in [provider.${command}] — run hey doctor ${command} --write, or add them yourself:`;
}

/** The flags as lines to paste, one key a line (TOML takes no `a = 1, b = 2`); for --base-url, the whole table it needs. */
function tableLines(subject: Subject, missing: Flags, command: string): string[] {
  const table = command === "cli" ? ["[provider.NAME]", `base_url = ${JSON.stringify(subject.baseUrl)}`] : [];
  return [...table, ...tomlLines(missing)].map((l) => `  ${l}`);
}

/** The report as data: the same checks, flags and verdict. */
export function renderJson(subject: Subject, verdict: Verdict, missing: Flags, written: Written | undefined): string {
  const usable = verdict.usable && (Object.keys(missing).length === 0 || (written !== undefined && !("error" in written)));
  const data = {
    type: "doctor",
    provider: subject.provider,
    protocol: subject.protocol,
    base_url: subject.baseUrl,
    ...(subject.from ? { base_url_from: subject.from } : {}),
    model: subject.model,
    ...(subject.modelFrom ? { model_from: subject.modelFrom } : {}),
    ...(subject.project ? { project: subject.project } : {}),
    ...(subject.peers?.length ? { other_agents: subject.peers } : {}),
    ...(subject.permissions ? { permissions: subject.permissions } : {}),
    ...(subject.grep ? { grep: subject.grep } : {}),
    ...(subject.filter ? { bash_filter: subject.filter } : {}),
    usable,
    checks: verdict.checks.map((c: Check) => ({ id: c.id, title: c.title, status: c.status, detail: c.detail, ...(c.fix ? { fix: c.fix } : {}) })),
    flags: verdict.flags,
    missing_flags: missing,
    ...(verdict.help ? { help: verdict.help } : {}),
    ...(written ? { written } : {}),
  };
  return JSON.stringify(data) + "\n";
}

/** `key = value` lines for flags, as they go into a config file. */
export function tomlLines(flags: Flags): string[] {
  return Object.entries(flags).map(([k, v]) => `${k} = ${typeof v === "string" ? JSON.stringify(v) : String(v)}`);
}

// What the user approved (issue 24): per config file, its guarded keys as last approved
// (config/guard.ts), and the projects trusted at hey's own question. Kept in hey's state
// (`$XDG_STATE_HOME/hey/approvals.json`, 0600) — not in a file the user edits — so a config file
// or trust.json changed behind hey's back (by the agent, between runs) is told apart from one hey
// saw approved. Pure: the format, its parsing and updates; config/approval-store.ts reads and writes it.
import type { Guarded } from "./guard.ts";
import { isTable } from "./table.ts";
import { errorText } from "../kernel/errors.ts";

export interface Approvals {
  version: 1;
  /** a config file's real path → its guarded keys as approved */
  configs: Record<string, Guarded>;
  /** projects (real paths) the user trusted at hey's question */
  trusted: string[];
  /**
   * the user's own instruction files (`~/.config/hey/AGENTS.md`, each user-level skill) as last
   * approved: path → hash of the text (trust/instructions.ts). Undefined in a record written before
   * hey kept them, or only by runs without a permission list: the files there then are taken as
   * approved by the next run with one, as a first run takes the config files.
   */
  instructions?: Record<string, string>;
}

/** approvals.json that is not what hey writes. */
export class ApprovalsError extends Error {
  override name = "ApprovalsError";
}

/**
 * Kept in `trusted` by every record that holds the instruction files' hashes: an older hey that
 * rewrites the record drops the `instructions` key but keeps `trusted` as it is, so the next hey
 * still knows the hashes were kept and approves none (trust/instructions.ts approvedBefore). Not a
 * path: it trusts no project, and it can only make files wait, never approve one.
 */
export const INSTRUCTIONS_KEPT = "hey: your instruction files' hashes were kept";

export const emptyApprovals = (): Approvals => ({ version: 1, configs: {}, trusted: [] });

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** Parses approvals.json. Throws ApprovalsError naming what is wrong. */
export function parseApprovals(text: string): Approvals {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ApprovalsError(`not valid JSON (${errorText(e)})`);
  }
  if (!isTable(data) || data.version !== 1 || !isTable(data.configs) || !strings(data.trusted))
    throw new ApprovalsError('expected {"version": 1, "configs": {...}, "trusted": [...]}');
  const out = emptyApprovals();
  out.trusted = data.trusted.filter((p) => p !== INSTRUCTIONS_KEPT);
  if (data.trusted.includes(INSTRUCTIONS_KEPT)) out.instructions = {}; // an older hey dropped the hashes: none approved, unless they are below
  for (const [file, g] of Object.entries(data.configs)) {
    if (!isTable(g) || !isTable(g.mcp) || !Object.values(g.mcp).every((v) => typeof v === "string"))
      throw new ApprovalsError(`configs[${JSON.stringify(file)}] is not a record of approved keys`);
    const entry: Guarded = { mcp: { ...(g.mcp as Record<string, string>) } };
    for (const key of ["allow", "deny", "keep_env", "vars"] as const) {
      if (g[key] === undefined) continue;
      if (!strings(g[key])) throw new ApprovalsError(`configs[${JSON.stringify(file)}].${key} must be a list of strings`);
      entry[key] = g[key];
    }
    if (g.endpoints !== undefined) {
      if (!isTable(g.endpoints) || !Object.values(g.endpoints).every((v) => typeof v === "string"))
        throw new ApprovalsError(`configs[${JSON.stringify(file)}].endpoints must map provider names to URLs`);
      entry.endpoints = { ...(g.endpoints as Record<string, string>) };
    }
    // a server as the approval showed it, and its tool selection (config/server-approval.ts)
    if (g.servers !== undefined) {
      if (!isTable(g.servers) || !Object.values(g.servers).every((v) => isTable(v) && Object.values(v).every((x) => typeof x === "string")))
        throw new ApprovalsError(`configs[${JSON.stringify(file)}].servers must map server names to what was shown of them`);
      entry.servers = structuredClone(g.servers) as Record<string, Record<string, string>>;
    }
    if (g.selections !== undefined) {
      const valid = (v: unknown) => isTable(v) && (v.tools === undefined || strings(v.tools)) && (v.exclude === undefined || strings(v.exclude));
      if (!isTable(g.selections) || !Object.values(g.selections).every(valid))
        throw new ApprovalsError(`configs[${JSON.stringify(file)}].selections must map server names to their tools and exclude lists`);
      entry.selections = structuredClone(g.selections) as Guarded["selections"];
    }
    for (const key of ["bash_filter", "shell", "rg", "proxy", "ca_file"] as const) {
      if (g[key] === undefined) continue;
      if (typeof g[key] !== "string") throw new ApprovalsError(`configs[${JSON.stringify(file)}].${key} must be a string`);
      entry[key] = g[key];
    }
    out.configs[file] = entry;
  }
  if (data.instructions !== undefined) {
    if (!isTable(data.instructions) || !Object.values(data.instructions).every((v) => typeof v === "string"))
      throw new ApprovalsError("instructions must map file paths to hashes");
    out.instructions = { ...(data.instructions as Record<string, string>) };
  }
  return out;
}

/** The file's text: stable key order, one line per file, so two writes of the same record are equal. */
export function formatApprovals(a: Approvals): string {
  const files = Object.keys(a.configs).sort();
  const configs = files.map((f) => `    ${JSON.stringify(f)}: ${JSON.stringify(a.configs[f])}`).join(",\n");
  const trusted = JSON.stringify([...new Set([...a.trusted, ...(a.instructions ? [INSTRUCTIONS_KEPT] : [])])].sort());
  const kept = a.instructions && Object.keys(a.instructions).sort();
  const instructions = kept
    ? `,\n  "instructions": {${kept.map((f) => `\n    ${JSON.stringify(f)}: ${JSON.stringify(a.instructions![f])}`).join(",")}${kept.length ? "\n  " : ""}}`
    : "";
  return `{\n  "version": 1,\n  "configs": {${files.length ? `\n${configs}\n  ` : ""}},\n  "trusted": ${trusted}${instructions}\n}\n`;
}

/** A copy with `project` recorded as trusted (or not) at hey's question. */
export function withTrusted(a: Approvals, project: string, trusted: boolean): Approvals {
  const others = a.trusted.filter((p) => p !== project);
  return { ...a, trusted: trusted ? [...others, project] : others };
}

/** A copy with these files' approved keys replaced. */
export function withConfigs(a: Approvals, configs: Record<string, Guarded>): Approvals {
  return { ...a, configs: { ...a.configs, ...configs } };
}

/** A copy with these instruction files' hashes recorded as approved (the others kept as they were). */
export function withInstructions(a: Approvals, hashes: Record<string, string>): Approvals {
  return { ...a, instructions: { ...a.instructions, ...hashes } };
}

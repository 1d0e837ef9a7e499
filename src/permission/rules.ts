// Permission rules (SPEC §8, pi's stance: no lists → no checks, never a confirmation prompt).
//
// Entries (entries.ts): "TOOLNAME" (a glob on tool names: "read_file", "github_*", "*"; "bash"
// covers every bash command) and "bash: PATTERN" (for the bash tool's `command`, matched as
// match.ts describes), and a file tool's "read_file: GLOB" (file-paths.ts). Deny is checked first
// and always wins; with an allow list a call runs only if it matches. A bash command is judged on what the shell that runs it will run: every segment —
// chained, piped, substituted, in a subshell, behind a wrapper, inside `sh -c`/eval — is matched
// on its own, and whatever the checker cannot model exactly for that shell is refused as "cannot
// verify" (fail closed). The rules are read once (compileRules) and then decide every call.
import type { ControlFiles } from "./control-files.ts";
import { linkedWrite } from "./control-links.ts";
import { EXACT_NOTE, isExact, readEntry } from "./entries.ts";
import { respelled, doesOtherwise, type Equivalent, equivalents, sameEntries } from "./equivalents.ts";
import { gitDashed } from "./git.ts";
import { asWritten } from "./git-texts.ts";
import { controlRefusal } from "./control-refusal.ts";
import { aliasRisk, denyMatch, equivalentHit } from "./deny.ts";
import { catOfInput, harmless, isStar, namedUnseen, type Pattern } from "./match.ts";
import { type Advice, adviceFor } from "./advice.ts";
import { parsePowerShell, powerShellSpellings } from "./powershell.ts";
import { upperMethods } from "./methods.ts";
import { forcedByConfig } from "./push-config.ts";
import { aliased, configAlias } from "./git-aliases.ts";
import { pipedProgram, withScript, type WrittenScript, writtenScript } from "./written-scripts.ts";
import { shellTexts } from "./shell-texts.ts";
import { gitAllowed, gitMatches } from "./git-allow.ts";
import { parseCommand, type Reading } from "./shell-commands.ts";
import { scriptsRun, unreadOption } from "./run-scripts.ts";
import { packageMatches } from "./moved-scripts.ts";
import { type Parsed, type Segment, unseenCode } from "./shell-model.ts";
import { toolMatch } from "./tool-match.ts";
import { type FilePattern, type FilePlace, judgeFile } from "./file-paths.ts";
import { denyWords, listed, quoted, show } from "./refusal-words.ts";
import type { ToolOrigin } from "../kernel/tool-calls.ts";

/** The `[permission]` lists as configured. */
export interface PermissionRules {
  allow: string[];
  deny: string[];
  /** the config file whose allow list this is, named in a refusal with the entry to add there */
  file?: string;
  /** where each deny entry is written (`~/.config/hey/config.toml:7`), named in its refusal */
  denyAt?: Readonly<Record<string, string>>;
  /** allow entries that file holds which wait for the user's approval (config/guard.ts): a refusal they would lift says so */
  pending?: string[];
}

/** A refusal's reason is one short line for the model; it starts with BLOCKED_PREFIX and names what was refused. */
export type Decision = { allowed: true } | { allowed: false; reason: string };

/** Rules read once by compileRules; only `decide` looks inside. */
export interface CompiledRules {
  /** undefined: no allow list, so every call the deny list lets through runs */
  readonly allow?: RuleList;
  readonly deny: RuleList;
  /** how the bash tool's commands are read; `reading` undefined: a shell the checker does not model; `bash3`: ShellFacts.bash3 */
  readonly shell: { name: string; reading?: Reading | "powershell"; bash3: boolean };
  /** hey's control files, which no redirection may write while a list is set */
  readonly control?: ControlFiles;
  /** file names ignore case where the commands run, so a deny entry's words do too (`rm -rf BUILD` is `rm -rf build`) */
  readonly caseless: boolean;
  /** PermissionRules.file, PermissionRules.denyAt */
  readonly file?: string;
  readonly denyAt?: Readonly<Record<string, string>>;
  /** each pending entry (PermissionRules.pending) with the allow list it would make */
  readonly waiting?: { entries: string[]; allow: RuleList }[];
  /** where the file tools' paths resolve, for path entries; none: a call a path entry would judge is refused as not verifiable */
  readonly place?: FilePlace;
}

/**
 * Whether the file system of the platform hey runs on ignores case in file names: Windows always,
 * macOS by default (APFS and HFS+ as formatted unless chosen otherwise). There a deny entry's words
 * compare case-insensitively — refusing more on a case-sensitive volume, the safe side of a deny
 * list; Linux compares them exactly.
 */
export const CASELESS_FILES = process.platform === "win32" || process.platform === "darwin";

/**
 * The shell that runs the bash tool's commands (tools/shell.ts ShellChoice): its name, and whether
 * it may be bash 3.x (absent: it may not), which ends a `$(…)` where a scan for its `)` does
 * (shell-words.ts scannedEnd).
 */
export type ShellFacts = { name: string; bash3?: boolean };

/** Whether a shell known by its name only may be bash 3.x: on macOS, whose /bin/sh and /bin/bash are bash 3.2. */
export const BASH3_BY_NAME = process.platform === "darwin";

interface RuleList {
  tools: string[];
  patterns: Pattern[];
  files: FilePattern[];
}

export const BLOCKED_PREFIX = "blocked by permission rules:";

/**
 * The allow list that lets no call run: config/guard.ts uses (and the approvals record keeps) it
 * for a list whose approved entries the file all removed while adding others, as an empty list
 * would allow every call. No file can hold it (it is no entry: validateRules refuses it).
 */
export const ALLOWS_NOTHING = "<nothing until approved>";

export const BASH_TOOL = "bash";
const ALLOWED = { allowed: true } as const;
const MAX_SCRIPT_DEPTH = 4; // package.json scripts that run scripts (`npm run a` in `b`), followed this deep
const MAX_SCRIPTS = 64; // and this many in all for one command

/**
 * How the checker reads commands for the shell named `shell` (ShellChoice.name from
 * tools/shell.ts): "sh" is dash or bash (Debian's /bin/sh is dash, macOS's is bash), so both
 * readings must allow a command; zsh, fish, cmd and others are not modelled.
 */
export function readingOf(shell: string): Reading | "powershell" | undefined {
  const name = shell.toLowerCase().replace(/\.exe$/, "");
  if (name === "sh" || name === "bash" || name === "dash") return name;
  return name === "powershell" || name === "pwsh" ? "powershell" : undefined;
}

/**
 * Reads the lists once for `shell`, or the shell so named (default "sh"). Pure; never throws. `errors`
 * holds one complete line per entry that is not a rule (`[permission] allow: "Bash" names no
 * tool …`); such entries are left out of `rules`, and the configuration layer refuses to start.
 * `control`: hey's control files (the caller knows where they are), which bash redirections may
 * not write while any list is set. `caseless`: file names ignore case where commands run (CASELESS_FILES).
 * `place`: where the file tools' paths resolve, for path entries (CompiledRules.place).
 */
export function compileRules(
  lists: PermissionRules,
  shell: string | ShellFacts = "sh",
  control?: ControlFiles,
  caseless = CASELESS_FILES,
  place?: FilePlace,
): { rules: CompiledRules; errors: string[] } {
  const errors: string[] = [];
  const read = (list: "allow" | "deny", entries: string[]): RuleList => {
    const out: RuleList = { tools: [], patterns: [], files: [] };
    for (const entry of entries) {
      if (entry === ALLOWS_NOTHING && list === "allow") continue;
      const e = readEntry(entry, list);
      if ("error" in e) errors.push(errorLine(list, entry, e.error));
      else if ("tool" in e) out.tools.push(e.tool);
      else if ("file" in e) out.files.push(e.file);
      else if (list === "allow") out.patterns.push(e.pattern);
      else {
        const base = openEnded(e.pattern);
        const same = [base, ...sameEntries(base)]; // `oc delete *` is `kubectl delete *` too
        out.patterns.push(...same, ...same.flatMap(equivalents));
      }
    }
    return out;
  };
  const allow = lists.allow.length ? read("allow", lists.allow) : undefined;
  const listed = lists.allow.length > 0 || lists.deny.length > 0; // with no list, nothing is checked (SPEC §8)
  const rules: CompiledRules = {
    allow,
    deny: read("deny", lists.deny),
    shell:
      typeof shell === "string"
        ? { name: shell, reading: readingOf(shell), bash3: BASH3_BY_NAME }
        : { name: shell.name, reading: readingOf(shell.name), bash3: shell.bash3 === true },
    ...(control && listed ? { control } : {}),
    caseless,
    ...(lists.file ? { file: lists.file } : {}),
    ...(lists.denyAt ? { denyAt: lists.denyAt } : {}),
    ...(place ? { place } : {}),
  };
  if (allow && lists.pending?.length) {
    const all = read("allow", [...lists.allow, ...lists.pending]);
    const each = lists.pending.map((entry) => ({ entries: [entry], allow: read("allow", [...lists.allow, entry]) }));
    return { rules: { ...rules, waiting: [...each, { entries: lists.pending, allow: all }] }, errors };
  }
  return { rules, errors };
}

/**
 * The configuration errors of `lists`, as compileRules gives them: each entry read, nothing
 * compiled (a deny entry's equivalents are ~20 patterns to parse, and never an error).
 */
export function validateRules(lists: PermissionRules): string[] {
  return (["allow", "deny"] as const).flatMap((list) =>
    lists[list].flatMap((entry) => {
      const e = readEntry(entry, list);
      return "error" in e ? [errorLine(list, entry, e.error)] : [];
    }),
  );
}

/**
 * A deny pattern matches whatever follows its last word, as one without `*` does: `bash: curl -X
 * POST https://api.example.com/*` refuses `curl -X POST https://api.example.com/v1 -d x`, and `bash:
 * rm -rf build/*` `rm -rf build/x other` (a `*` inside the last word matched within that word only,
 * so one more word let the command run). An allow pattern stays as written.
 */
function openEnded(p: Pattern): Pattern {
  const last = p.words.at(-1);
  return last && isStar(last) ? p : { ...p, words: [...p.words, { text: "*", raw: "*", unknown: false, glob: true }] };
}

const errorLine = (list: "allow" | "deny", entry: string, error: string) => `[permission] ${list}: ${JSON.stringify(entry)} ${error}`;

/**
 * Decide one tool call. Pure and total: never throws, whatever the arguments. `bash: …` rules
 * judge every tool whose name case-folds to `bash` (an MCP server's `Bash` too, and its `bash`
 * offered as `SERVER_bash` after a clash with hey's own).
 */
export function decide(tool: string, args: Record<string, unknown>, rules: CompiledRules, origin?: ToolOrigin): Decision {
  const d = decideCall(tool, args, rules, origin);
  if (d.allowed || !d.unlisted || !rules.waiting) return d.allowed ? d : { allowed: false, reason: d.reason };
  // a call an allow entry waiting for the user's yes would let through: that is why it is refused
  const lifting = rules.waiting.find((w) => decideCall(tool, args, { ...rules, allow: w.allow, waiting: undefined }, origin).allowed);
  if (!lifting) return { allowed: false, reason: d.reason };
  const [entries, wait] = lifting.entries.length > 1 ? ["allow entries", "wait"] : ["allow entry", "waits"];
  const where = rules.file ? ` in ${rules.file}` : "";
  return block(`${d.unlisted}: ${entries} ${quoted(lifting.entries)}${where} ${wait} for your approval (hey asks at a terminal start or /reload)`);
}

/**
 * How far a check has followed scripts (package.json scripts that run scripts, bounded in depth and
 * shared in number), and whether allow entries judge the command, and so what git runs from it too
 * (git-allow.ts): then only what the control checks refuse of git's texts is left to them.
 */
type Follow = { depth: number; budget: { left: number }; allowing: boolean };

/** A refusal by the allow list carries what it refused (`unlisted`), for decide to say when an entry waiting for approval would allow it. */
type Refusal = { allowed: false; reason: string; unlisted?: string };

function decideCall(tool: string, args: Record<string, unknown>, rules: CompiledRules, origin?: ToolOrigin): typeof ALLOWED | Refusal {
  // entries are lowercase; an MCP tool may not be (`getTinyImage`): names match whatever their case
  const name = tool.toLowerCase();
  const deniedBy = rules.deny.tools.find((glob) => toolMatch(glob, name, origin, "deny"));
  if (deniedBy !== undefined) return block(`tool \`${tool}\`${from(tool, origin)} matches ${denyWords(deniedBy, rules.denyAt)}`);
  // a path entry (`read_file: src/**`): deny wins, then an allow list lets the call run by the tool's name or by a path entry
  const paths = judgeFile(name, args, { allow: rules.allow?.files, deny: rules.deny.files, denyAt: rules.denyAt }, rules.place, origin);
  if (paths && "refused" in paths) return block(paths.refused);
  const open = !rules.allow || rules.allow.tools.some((glob) => toolMatch(glob, name, origin, "allow")) || (paths !== undefined && "allowed" in paths);
  // an MCP server's `bash` offered under its prefix (`d_bash`, beside hey's own) is judged as a bash too
  if (name !== BASH_TOOL && origin?.name.toLowerCase() !== BASH_TOOL) {
    if (open) return ALLOWED;
    const allowed = `allowed: ${listed([...rules.allow!.tools, ...rules.allow!.files.map((f) => f.entry)])}`;
    if (!paths || !("subject" in paths)) return unlisted(`tool \`${tool}\`${from(tool, origin)}`, allowed, rules.file, { entry: name, why: "" });
    return unlisted(paths.subject, allowed, rules.file, {
      ...paths,
      why: paths.entry && !rules.file ? `the allow entry ${quoted([paths.entry])} would allow it` : "",
    });
  }
  if (open && !rules.deny.patterns.length && !rules.control) return ALLOWED;
  return decideCommand(args.command, rules, open ? undefined : rules.allow!.patterns);
}

function decideCommand(command: unknown, rules: CompiledRules, allow: Pattern[] | undefined): typeof ALLOWED | Refusal {
  if (typeof command !== "string") return block("the bash call has no `command` string");
  const { name, reading } = rules.shell;
  if (!reading) return block(`cannot verify \`${show(command)}\`: commands for the shell \`${name}\` are not modelled`);
  const parsed: Parsed = reading === "powershell" ? parsePowerShell(command) : parseCommand(command, reading, rules.shell.bash3);
  if (!parsed.ok) return block(`cannot verify \`${show(command)}\`: ${parsed.reason}`);
  const unseen = parsed.segments.find((seg) => unseenCode(seg, allow !== undefined));
  if (unseen) return block(`cannot verify \`${show(unseen.raw)}\`: ${unseenCode(unseen, true)}`);
  // hey's own files before the deny list: whatever else a command does, this is why it may not run
  const controlled = controlRefusal(command, parsed.segments, rules.control, show, allow !== undefined);
  if (controlled) return block(controlled);
  for (const seg of parsed.segments) {
    const refused = deniedSegment(seg, parsed.segments, rules, { depth: 0, budget: { left: MAX_SCRIPTS }, allowing: allow !== undefined });
    if (refused) return block(refused);
  }
  // after the deny list: a write to a file with other hard links (one could be git's or hey's own)
  const linked = rules.control && linkedWrite(parsed.segments, rules.control);
  if (linked?.unknown)
    return block(
      `cannot verify \`${show(command)}\`: hey cannot tell whether \`${show(linked.word)}\` writes its own configuration or trust file: ${linked.unknown}`,
    );
  if (linked)
    return block(
      `\`${show(linked.word)}\` is a file with other hard links, which could be git's or hey's own files (no search finds every name of a file); while a list is set the agent may not write it`,
    );
  if (!allow) return ALLOWED;
  for (const seg of parsed.segments) {
    // runs no program, or one that reads no file (a builtin: `cd`, `set -e`, `x=1`; a `cat` of a heredoc); its file redirections still need a pattern
    if ((seg.inert === "builtin" || catOfInput(seg)) && seg.redirects.every(harmless)) continue;
    // git: matched as written or with its harmless options set aside, then what it runs with the shell judged as commands of their own;
    // a package manager moved to another package.json (`npm run test --prefix=src`): the scripts it runs from there (moved-scripts.ts)
    const git = gitAllowed(seg, parsed.segments, rules.control);
    const { by, judge } = git ? gitMatches(seg, git, allow) : packageMatches(seg, allow, rules.control, parsed.segments);
    if (!by.length) {
      const allowed = allow.length ? `allowed: ${listed(allow.map((p) => p.entry))}` : `no bash entry; allowed: ${listed(rules.allow!.tools)}`;
      return unlisted(`\`${show(seg.raw)}\``, allowed, rules.file, adviceFor(seg, git, allow, show, rules.shell.bash3));
    }
    if ("unknown" in judge) return block(`cannot verify \`${show(seg.raw)}\`: it ${judge.unknown}`);
    const sh = { ...rules, shell: { ...rules.shell, reading: "sh" as const } };
    for (const t of judge) {
      const d = decideCommand(t.text, sh, allow);
      if (!d.allowed) return { ...d, reason: asWritten(`${BLOCKED_PREFIX} \`${show(seg.raw)}\` ${t.from}: ${d.reason.slice(BLOCKED_PREFIX.length + 1)}`) };
    }
  }
  return ALLOWED;
}

/**
 * Why deny list `rules.deny`, or the control checks on the shell text it hands on (shellText),
 * refuse `seg`, a part of `segments` (one line, without the prefix), or undefined. `follow` (Follow): how deep in package.json scripts that run scripts this is, and how many more
 * scripts the whole check may read (run-scripts.ts; shared, so a script fanning out stays bounded).
 */
function deniedSegment(seg: Segment, segments: Segment[], rules: CompiledRules, follow: Follow): string | undefined {
  const { reading } = rules.shell;
  const powershell = reading === "powershell";
  const denying = rules.deny.patterns.length > 0;
  const disk = { control: rules.control, segments };
  const at = `\`${show(seg.raw)}\``;
  const texts = denying || rules.control !== undefined; // what a command hands the shell matters to the control checks too
  const script = texts ? writtenScript(seg, segments, { control: rules.control, caseless: rules.caseless }) : undefined;
  if (script && "unknown" in script) return `cannot verify ${at}: it ${script.unknown}`;
  const piped = denying ? pipedProgram(seg) : undefined;
  if (piped) return `cannot verify ${at}: ${piped}`;
  const read = script ? withScript(seg, script) : seg; // a script the command writes: what it holds counts as the words of what runs it
  // PowerShell: `del x` is `Remove-Item x` is `rm x`; a deny entry naming one names them all. `git-push` and `hub push` are `git push`, `podman run` is
  // `docker run`, `git st` is `git status` where git's config says `alias.st = status`
  const git = denying ? configAlias(read, segments, rules.control) : undefined; // reads git's config: only a deny entry needs an alias's value
  for (const spelled of powershell ? powerShellSpellings(read) : [read, ...gitDashed(read), ...respelled(read), ...upperMethods(read), ...aliased(git)])
    for (const p of rules.deny.patterns) {
      if ("does" in p) {
        const refused = equivalentHit(spelled, p as Equivalent, powershell, rules.caseless, rules.denyAt);
        if (refused) return `${at} ${refused}`;
        continue;
      }
      const hit = denyMatch(spelled, p, powershell, rules.caseless);
      if (hit === "yes") return `${at} matches ${denyWords(p.entry, rules.denyAt)}${git?.note && git.to?.includes(spelled) ? ` (${git.note})` : ""}`;
      if (hit === "maybe") return `${at} is known only at run time and could match ${denyWords(p.entry, rules.denyAt)}`;
      const otherwise = doesOtherwise(spelled, p, rules.caseless, disk);
      if (otherwise) return `${at} does what ${denyWords(p.entry, rules.denyAt)} refuses: ${otherwise}`;
      const alias = aliasRisk(spelled, p, git);
      if (alias) return `${at} could run what ${denyWords(p.entry, rules.denyAt)} names: ${alias}`;
      const named = namedUnseen(spelled, p);
      if (named) return `${at} names \`${named}\`, which \`${show(seg.words[0]!.text)}\` could run: ${denyWords(p.entry, rules.denyAt)}`;
      const config = forcedByConfig(spelled, p, rules.control, rules.caseless, segments);
      if (config) return `${at} may force the push through git's config (${config}): ${denyWords(p.entry, rules.denyAt)}`;
    }
  if (powershell || !texts) return undefined;
  const handed = shellText(seg, script, segments, rules, follow);
  if (handed || !denying) return handed;
  // `npm run release`: what package.json's script runs, read as /bin/sh reads it (npm's script-shell)
  if (follow.depth >= MAX_SCRIPT_DEPTH) return undefined;
  const run = scriptsRun(seg, disk);
  if ("unknown" in run) return `cannot verify ${at}: ${run.unknown}`;
  for (const { name, text, dir, file } of run) {
    if (--follow.budget.left < 0) return `cannot verify ${at}: its package.json scripts run more scripts than hey follows (${MAX_SCRIPTS})`;
    const parsed = parseCommand(text, "sh");
    if (!parsed.ok) continue; // npm's shell would stop on it too, or read it as hey cannot: not seen
    // the script runs in its package.json's directory: what it reads there (another script, a file it names) is judged from there
    const there = rules.control && rules.control.cwd !== dir ? { ...rules, control: { ...rules.control, cwd: dir } } : rules;
    for (const inner of parsed.segments) {
      const why = inner.opaque ? undefined : deniedSegment(inner, parsed.segments, there, { ...follow, depth: follow.depth + 1 });
      if (why) return `${at} runs ${file ?? "package.json"}'s script \`${name}\` (\`${show(text)}\`): ${why}`;
    }
  }
  const option = run.length ? unreadOption(seg) : undefined;
  return option && `cannot verify ${at}: ${option}`;
}

/**
 * Why the shell text `seg` hands on (shell-texts.ts: a script it wrote and runs, a git config
 * value, a make recipe) may not run: read as the shell reads it, it writes git's or hey's own files
 * (under every list, git's options trusted as git-texts.ts GitTrust says), or deniedSegment refuses
 * a command of it; text hey cannot read, or known only at run time: cannot verify.
 */
function shellText(seg: Segment, script: WrittenScript | undefined, segments: Segment[], rules: CompiledRules, follow: Follow): string | undefined {
  const at = `\`${show(seg.raw)}\``;
  const texts = shellTexts(seg, script, segments, rules.deny.patterns.length ? "deny" : follow.allowing ? "allow" : "control", rules.control);
  if ("unknown" in texts) return `cannot verify ${at}: it ${texts.unknown}`;
  for (const { text, from, reading } of texts) {
    if (follow.depth >= MAX_SCRIPT_DEPTH) return `cannot verify ${at}: it nests scripts deeper than hey follows (${MAX_SCRIPT_DEPTH})`;
    const parsed = parseCommand(text, reading);
    if (!parsed.ok) return asWritten(`cannot verify ${at}: it ${from}: \`${show(text)}\`: ${parsed.reason}`);
    // what git or a script runs writes git's or hey's own files as a command line would (`GIT_EDITOR='git config include.path'`)
    const controlled = controlRefusal(text, parsed.segments, rules.control, show, follow.allowing);
    if (controlled) return asWritten(`${at} ${from}: ${controlled}`);
    for (const inner of parsed.segments) {
      if (unseenCode(inner, follow.allowing)) return asWritten(`cannot verify ${at}: it ${from}: \`${show(inner.raw)}\`: ${unseenCode(inner, true)}`);
      const why = deniedSegment(inner, parsed.segments, rules, { ...follow, depth: follow.depth + 1 });
      if (why) return asWritten(`${at} ${from}: ${why}`);
    }
  }
  return undefined;
}

/** ` (MCP server fs's move_file)`: which tool a refused MCP call is, when the model calls it by another name than the server's. */
const from = (tool: string, origin: ToolOrigin | undefined) => (origin && origin.name !== tool ? ` (MCP server ${origin.server}'s ${origin.name})` : "");

/**
 * The allow list's refusal of `subject`: the file and the entry that would allow it (`in FILE: add "bash: npm install *" there`, a form ui/tool-lines.ts
 * shows on a line of its own) when both are known, why the entries close to it do not (advice.ts), then what the list allows.
 */
function unlisted(subject: string, allowed: string, file: string | undefined, { entry, why }: Advice): Refusal {
  const note = entry && isExact(entry) ? ` (${EXACT_NOTE})` : "";
  const text = file && entry ? ` in ${file}: add ${quoted([entry])} there${note}${why ? `, as ${why}` : ""}` : why ? `; ${why}` : "";
  return { ...block(`${subject} matches no allow entry${text} (${allowed})`), unlisted: subject };
}

function block(what: string): Refusal {
  return { allowed: false, reason: `${BLOCKED_PREFIX} ${what}` };
}

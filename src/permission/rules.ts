// Permission rules (SPEC §8, pi's stance: no lists → no checks, never a confirmation prompt).
//
// Entries: "TOOLNAME" (a glob on tool names: "read_file", "github_*", "*"; "bash" covers every
// bash command) and "bash: PATTERN" (for the bash tool's `command`). Deny is checked first and
// always wins; with an allow list a call runs only if it matches. A bash command is judged on
// what the shell will run (shell-words.ts): every segment — chained, piped, substituted, in a
// subshell, behind a wrapper, inside `sh -c`/eval — is matched on its own.
//
// Matching a segment against an allow pattern, both reduced to words:
// - A pattern word `*` matches any number of words (none included) whose values are known
//   before the command runs; `*` inside a word (`*.ts`, `--out=*`) matches within that one word.
//   So `git *` trusts git's own options and arguments, `git -c core.sshCommand=…` included:
//   whoever allows `git *` allows what git can do.
// - A pattern without any `*` matches the segment's leading words, then anything `*` would match:
//   `git` allows `git diff` but not `gitk`.
// - Never matched by `*`, so a pattern has to spell them out (same text) to allow them: an
//   expansion or substitution (`$X`, `$(…)`), a glob in the command name, a leading `VAR=value`
//   (`PATH=. ls` is not `ls`), and a redirection to or from a file (`bash: make * > build.log`).
//   Redirections that touch no file pass: fd duplication (`2>&1`), `/dev/null`, heredocs.
// - A wrapper (`env`, `timeout 5`, `sudo -u x`, `xargs -0`, …) and the command it runs are two
//   segments; both must be allowed. A shell glob in an argument (`git add *.ts`), or what xargs
//   and `find -exec` fill in from their input, is an argument like any other.
// Deny patterns match the same way but err towards refusing: the command name is compared by
// basename (`/bin/rm` is `rm`), redirections and assignments are ignored unless the pattern names
// them, and a word known only at run time could be anything, so it matches.

import { parseCommand } from "./shell-commands.ts";
import { parseSyntax, type Redirect, type Segment, type Word } from "./shell-words.ts";

export interface PermissionRules {
  allow: string[];
  deny: string[];
}

/** A refusal's reason is one short line for the model; it starts with BLOCKED_PREFIX and names what was refused. */
export type Decision = { allowed: true } | { allowed: false; reason: string };

export const BLOCKED_PREFIX = "blocked by permission rules:";

const BASH_TOOL = "bash";
const ALLOWED: Decision = { allowed: true };
const SHOWN_ENTRIES = 6; // entries listed in a refusal; more would not fit on one line
const SHOWN_CHARS = 100; // longer commands are cut in messages
const TOOL_NAME = /^[\w.*:-]+$/;
const STAR: Word = { text: "*", raw: "*", unknown: false, glob: true };

interface Pattern {
  entry: string;
  /** leading assignments, then the command words */
  words: Word[];
  assigns: boolean;
  redirects: Redirect[];
}

type Entry = { tool: string } | { pattern: Pattern } | { malformed: string };

/** Decide one tool call. Pure and total: never throws, whatever the rules or arguments. */
export function decide(tool: string, args: Record<string, unknown>, rules: PermissionRules): Decision {
  const deny = compile(rules.deny);
  const deniedBy = deny.tools.find((glob) => globMatch(glob, tool));
  if (deniedBy !== undefined) return block(`tool \`${tool}\` matches deny entry \`${deniedBy}\``);
  const allow = compile(rules.allow);
  const open = rules.allow.length === 0 || allow.tools.some((glob) => globMatch(glob, tool));
  if (tool !== BASH_TOOL) return open ? ALLOWED : block(`tool \`${tool}\` matches no allow entry (allowed: ${listed(allow.tools)})`);
  if (open && !deny.patterns.length) return ALLOWED;
  return decideCommand(args.command, deny.patterns, open ? undefined : allow.patterns);
}

/** Warnings for entries that match nothing (malformed), for the config layer to print. */
export function validateRules(rules: PermissionRules): string[] {
  const warnings: string[] = [];
  for (const [list, entries] of [["allow", rules.allow], ["deny", rules.deny]] as const) {
    for (const entry of entries) {
      const read = readEntry(entry);
      if ("malformed" in read) warnings.push(`[permission] ${list}: "${entry}" ${read.malformed}; it matches nothing`);
    }
  }
  return warnings;
}

function decideCommand(command: unknown, deny: Pattern[], allow: Pattern[] | undefined): Decision {
  if (typeof command !== "string") return block("the bash call has no `command` string");
  const parsed = parseCommand(command);
  if (!parsed.ok) return block(`\`${show(command)}\` could not be parsed: ${parsed.reason}`);
  for (const seg of parsed.segments) {
    for (const p of deny) {
      const hit = denyMatch(seg, p);
      if (hit === "yes") return block(`\`${show(seg.raw)}\` matches deny entry \`${p.entry}\``);
      if (hit === "maybe") return block(`\`${show(seg.raw)}\` is known only at run time and could match deny entry \`${p.entry}\``);
    }
  }
  if (!allow) return ALLOWED;
  for (const seg of parsed.segments) {
    if (!allow.some((p) => allowMatch(seg, p))) return block(`\`${show(seg.raw)}\` matches no allow entry${hint(seg, allow)} (allowed: ${listed(allow.map((p) => p.entry))})`);
  }
  return ALLOWED;
}

function compile(entries: string[]): { tools: string[]; patterns: Pattern[] } {
  const tools: string[] = [];
  const patterns: Pattern[] = [];
  for (const entry of entries) {
    const read = readEntry(entry);
    if ("tool" in read) tools.push(read.tool);
    else if ("pattern" in read) patterns.push(read.pattern);
  }
  return { tools, patterns };
}

function readEntry(entry: string): Entry {
  const e = entry.trim();
  const bash = /^bash\s*:(.*)$/s.exec(e);
  if (!bash) {
    if (TOOL_NAME.test(e)) return { tool: e };
    return { malformed: /^bash\s*\(/i.test(e) ? 'uses another tool\'s syntax; write "bash: git *"' : 'is neither a tool name nor "bash: PATTERN"' };
  }
  const text = bash[1]!.trim();
  if (!text) return { malformed: "has an empty pattern" };
  const parsed = parseSyntax(text);
  if (!parsed.ok) return { malformed: `cannot be parsed (${parsed.reason})` };
  const top = parsed.segments.filter((s) => !s.nested);
  if (top.length !== 1) return { malformed: "is not one simple command; write one entry per command" };
  const seg = top[0]!;
  const words = [...seg.assigns, ...seg.words];
  const redirects = seg.redirects.filter((r) => !harmless(r));
  const star = (w: Word) => w.glob && w.text.includes("*");
  if (!words.some(star) && !redirects.some((r) => star(r.target))) words.push(STAR);
  return { pattern: { entry: e, words, assigns: seg.assigns.length > 0, redirects } };
}

/** Redirections that touch no file: fd duplication or closing, /dev/null, data given on stdin. */
function harmless(r: Redirect): boolean {
  const op = r.op.replace(/^\d+/, "");
  if (op === "<<" || op === "<<-" || op === "<<<") return true; // substitutions inside are segments of their own
  if (r.target.unknown || r.target.glob) return false;
  if ((op === ">&" || op === "<&") && /^(\d+|-)$/.test(r.target.text)) return true;
  return r.target.text === "/dev/null";
}

const isStar = (w: Word) => w.glob && w.raw === "*";

/** Does `w` match pattern word `t`? `fixed`: the segment word's value is known before the command runs. */
function wordMatches(t: Word, w: Word, fixed: boolean): boolean {
  if (t.unknown || w.unknown || !fixed) return t.raw === w.raw; // spelled out, or nothing
  return t.glob && t.text.includes("*") ? globMatch(t.text, w.text) : t.text === w.text;
}

/**
 * Do the pattern's words match the segment's? Filled from the end: `next[si]` says whether the
 * rest of the pattern matches the segment's words from `si` on (linear in each, no recursion).
 */
function allowWords(seg: Segment, p: Pattern): boolean {
  const words = [...seg.assigns, ...seg.words];
  const n = words.length;
  const fixed = (i: number) => !words[i]!.unknown && !(words[i]!.glob && i === seg.assigns.length);
  let next = words.map(() => false).concat(true);
  for (let pi = p.words.length - 1; pi >= 0; pi--) {
    const t = p.words[pi]!;
    const cur: boolean[] = [];
    cur[n] = isStar(t) && next[n]!;
    for (let si = n - 1; si >= 0; si--) {
      cur[si] = isStar(t) ? next[si]! || (fixed(si) && cur[si + 1]!) : wordMatches(t, words[si]!, fixed(si)) && next[si + 1]!;
    }
    next = cur;
  }
  return next[0]!;
}

function allowMatch(seg: Segment, p: Pattern): boolean {
  if (!allowWords(seg, p)) return false;
  const files = seg.redirects.filter((r) => !harmless(r));
  return (
    files.length === p.redirects.length &&
    files.every((r, i) => r.op === p.redirects[i]!.op && wordMatches(p.redirects[i]!.target, r.target, !r.target.unknown && !r.target.glob))
  );
}

type DenyHit = "yes" | "maybe" | undefined;

/** Like allowWords, with three answers: a word known only at run time matches "maybe". */
function denyMatch(seg: Segment, p: Pattern): DenyHit {
  // assignments count only when the pattern names some (`FOO=1 *`)
  const words = p.assigns ? [...seg.assigns, ...seg.words] : seg.words;
  const n = words.length;
  const cmd = n - seg.words.length;
  const wild = (i: number) => words[i]!.unknown || words[i]!.glob;
  // the command by basename and case-insensitively: `/bin/rm` and, on macOS, `RM` are rm
  const name = (s: string, i: number) => (i === cmd ? s.slice(s.lastIndexOf("/") + 1).toLowerCase() : s);
  const same = (t: Word, i: number) => {
    const [a, b] = [name(t.text, i), name(words[i]!.text, i)];
    return t.unknown ? t.raw === words[i]!.raw : t.glob && t.text.includes("*") ? globMatch(a, b) : a === b;
  };
  const either = (x: DenyHit, y: DenyHit): DenyHit => (x === "yes" || y === "yes" ? "yes" : (x ?? y));
  let next: DenyHit[] = words.map((_, i): DenyHit => (wild(i) ? "maybe" : undefined)).concat("yes");
  for (let pi = p.words.length - 1; pi >= 0; pi--) {
    const t = p.words[pi]!;
    const cur: DenyHit[] = [];
    cur[n] = isStar(t) ? next[n] : undefined;
    for (let si = n - 1; si >= 0; si--) {
      if (isStar(t)) cur[si] = either(next[si], cur[si + 1]);
      else cur[si] = wild(si) ? "maybe" : same(t, si) ? next[si + 1] : undefined;
    }
    next = cur;
  }
  const hit = next[0];
  return hit && denyRedirects(seg, p, hit);
}

/** A deny pattern that names redirections matches only segments that have them. */
function denyRedirects(seg: Segment, p: Pattern, hit: "yes" | "maybe"): DenyHit {
  for (const want of p.redirects) {
    const found = seg.redirects.filter((r) => r.op === want.op);
    if (found.some((r) => !r.target.unknown && !r.target.glob && wordMatches(want.target, r.target, true))) continue;
    if (!found.some((r) => r.target.unknown || r.target.glob)) return undefined;
    hit = "maybe";
  }
  return hit;
}

/** Why a segment failed, when it is not just its command: a run-time value, or a file redirection. */
function hint(seg: Segment, allow: Pattern[]): string {
  const cmd = seg.assigns.length;
  const wild = [...seg.assigns, ...seg.words].find((w, i) => w.unknown || (w.glob && i === cmd));
  if (wild) return `; \`${show(wild.raw)}\` is known only at run time`;
  const file = seg.redirects.find((r) => !harmless(r));
  if (file && allow.some((p) => allowWords(seg, p))) return `; redirection \`${show(file.op + " " + file.target.raw)}\` is not in a pattern`;
  return "";
}

function block(what: string): Decision {
  return { allowed: false, reason: `${BLOCKED_PREFIX} ${what}` };
}

function listed(entries: string[]): string {
  if (!entries.length) return "none";
  return entries.slice(0, SHOWN_ENTRIES).join(", ") + (entries.length > SHOWN_ENTRIES ? ", …" : "");
}

/** One line, control characters escaped, cut to SHOWN_CHARS. */
function show(text: string): string {
  const escapes: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  const line = text.replace(/[\x00-\x1f\x7f]/g, (c) => escapes[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return line.length > SHOWN_CHARS ? line.slice(0, SHOWN_CHARS - 1) + "…" : line;
}

function globMatch(glob: string, text: string): boolean {
  const body = glob
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s").test(text);
}

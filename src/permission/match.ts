// Matching one simple command against one bash pattern (SPEC §8), both reduced to words.
//
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
// Deny patterns match the same way but err towards refusing: the command name is compared by
// basename (`/bin/rm` is `rm`) and case-insensitively, redirections and assignments are ignored
// unless the pattern names them, a word known only at run time could be anything, so it matches, and
// the words naming a subcommand (`git push *`) match past the options before them (`git -C . push`).
import { GIT_COMMANDS, readGit } from "./git.ts";
import { DATA_PROGRAMS } from "./programs.ts";
import { ASSIGN, type Redirect, type Segment, type Word } from "./shell-model.ts";

/** A compiled `bash: PATTERN` entry. */
export interface Pattern {
  entry: string;
  /** leading assignments, then the command words */
  words: Word[];
  assigns: boolean;
  redirects: Redirect[];
}

export type DenyHit = "yes" | "maybe" | undefined;

/** Redirections that touch no file: fd duplication or closing, /dev/null, data given on stdin (a heredoc, a here-string, `< <(cmd)`). */
export function harmless(r: Redirect): boolean {
  const op = r.op.replace(/^\d+/, "");
  if (op === "<<" || op === "<<-" || op === "<<<") return true; // substitutions inside are segments of their own
  if ((op === "<" && r.target.raw.startsWith("<(")) || ((op === ">" || op === ">>") && r.target.raw.startsWith(">(") && r.target.raw.endsWith(")")))
    return true; // a process substitution's pipe, whose commands are segments
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
export function allowWords(seg: Segment, p: Pattern): boolean {
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

export function allowMatch(seg: Segment, p: Pattern): boolean {
  if (!allowWords(seg, p)) return false;
  const files = seg.redirects.filter((r) => !harmless(r));
  return (
    files.length === p.redirects.length &&
    files.every((r, i) => r.op === p.redirects[i]!.op && wordMatches(p.redirects[i]!.target, r.target, !r.target.unknown && !r.target.glob))
  );
}

/**
 * Like allowWords, with three answers: a word known only at run time matches "maybe". The words a
 * pattern names after the program (`git push`, `npm run build`: its subcommand) match past the
 * options before each of them (`git -C dir push`, `npm --prefix x run build`, `gh pr -R x merge`):
 * git's own options as git reads them, others' as any word starting with `-` or `+`, with or
 * without the next word as its value (both readings count).
 */
export function denyMatch(seg: Segment, p: Pattern): DenyHit {
  // assignments count only when the pattern names some (`FOO=1 *`)
  const lead = p.assigns ? seg.assigns : [];
  const pc = p.words.findIndex((w) => !ASSIGN.test(w.raw));
  // git's options are read exactly (`git -C push status` runs status), so only the words after its subcommand skip options
  const git = isGit(p.words[pc]) && isGit(seg.words[0]);
  const sub = git ? readGit(seg.words)?.sub : undefined;
  let hit = denyWords([...lead, ...seg.words], lead.length, p, pc, git ? 2 : 1);
  if (sub !== undefined) hit = either(hit, denyWords([...lead, seg.words[0]!, ...seg.words.slice(sub)], lead.length, p, pc, 2));
  return hit && denyRedirects(seg, p, hit);
}

const either = (x: DenyHit, y: DenyHit): DenyHit => (x === "yes" || y === "yes" ? "yes" : (x ?? y));
const program = (t: string) => t.slice(t.lastIndexOf("/") + 1).toLowerCase();
const isGit = (w: Word | undefined) => !!w && !w.unknown && !w.glob && !w.anyValue && program(w.text) === "git";
/** A pattern word naming a subcommand: spelled out, not an option. */
const subcommand = (t: Word) => !t.unknown && !isStar(t) && !/^[-+]/.test(t.text);

/**
 * denyMatch over `words`, the command at `cmd`. The pattern's command is at `pc`, its subcommand
 * words follow; before each of them from the `skip`th on, the segment's options are skipped.
 */
function denyWords(words: Word[], cmd: number, p: Pattern, pc: number, skip: number): DenyHit {
  const n = words.length;
  const wild = (i: number) => words[i]!.unknown || words[i]!.glob;
  // the command by basename and case-insensitively: `/bin/rm` and, on macOS, `RM` are rm
  const name = (s: string, i: number) => (i === cmd ? program(s) : s);
  const same = (t: Word, i: number) => {
    const [a, b] = [name(t.text, i), name(words[i]!.text, i)];
    return t.unknown ? t.raw === words[i]!.raw : t.glob && t.text.includes("*") ? globMatch(a, b) : a === b;
  };
  const option = (i: number) => i > cmd && !wild(i) && /^[-+]./.test(words[i]!.text);
  const end = p.words.findIndex((t, i) => i > pc && !subcommand(t));
  const path = (pi: number) => pc >= 0 && pi >= pc + skip && (end < 0 || pi < end);
  let next: DenyHit[] = words.map((_, i): DenyHit => (wild(i) ? "maybe" : undefined)).concat("yes");
  for (let pi = p.words.length - 1; pi >= 0; pi--) {
    const t = p.words[pi]!;
    const cur: DenyHit[] = [];
    cur[n] = isStar(t) ? next[n] : undefined;
    for (let si = n - 1; si >= 0; si--) {
      if (isStar(t)) cur[si] = either(next[si], cur[si + 1]);
      else if (wild(si)) cur[si] = "maybe";
      else if (same(t, si)) cur[si] = next[si + 1];
      // an option before a subcommand word: skipped alone, or with the next word as its value
      else if (path(pi) && option(si)) cur[si] = either(cur[si + 1], /^--[^=]+=/.test(words[si]!.text) ? undefined : cur[si + 2]);
      else cur[si] = undefined;
    }
    next = cur;
  }
  return next[0];
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

/**
 * A deny entry's program named among the words of a segment that could run it (issue 24): `make
 * rm`, `python3 -c 'os.system("rm x")'`, `git -c alias.x='!rm x' x`. Words are compared as the
 * shell-ish words inside them (split at anything but letters, digits and `_.+-`); a segment known
 * not to run its words (a builtin, a wrapper's own options, `cat`, `grep`, git's data subcommands)
 * names nothing. Returns the name, or undefined.
 */
export function namedUnseen(seg: Segment, p: Pattern): string | undefined {
  const command = p.words.find((w) => !ASSIGN.test(w.raw));
  const first = seg.words[0];
  if (!command || command.unknown || !first || seg.inert) return undefined;
  const name = program(command.text);
  if (!first.unknown && !first.glob && (DATA_PROGRAMS.has(program(first.text)) || (program(first.text) === "git" && readGit(seg.words)?.runs === false)))
    return undefined;
  const values = [...seg.assigns.map((w) => w.text.slice(w.text.indexOf("=") + 1)), ...seg.words.slice(1).map((w) => w.text)];
  const hit = values.some((v) =>
    v
      .toLowerCase()
      .split(/[^a-z0-9_.+-]+/)
      .some((token) => (command.glob ? globMatch(name, token) : token === name)),
  );
  return hit ? name : undefined;
}

/**
 * Why a git command could run the subcommand a deny entry names (`git push *`) under another name,
 * or undefined: an option the checker does not know (a newer git's could take a value), an alias
 * set on the command line (`git -c alias.p=push p`), or a subcommand that is not one of git's own
 * (an alias from any config file, or a `git-NAME` program).
 */
export function gitAlias(seg: Segment, p: Pattern): string | undefined {
  const pc = p.words.findIndex((w) => !ASSIGN.test(w.raw));
  const named = p.words[pc + 1];
  if (!isGit(p.words[pc]) || !isGit(seg.words[0]) || !named || !subcommand(named)) return undefined;
  const read = readGit(seg.words);
  if (read?.unsure) return read.unsure;
  const sub = read?.sub === undefined ? undefined : seg.words[read.sub]!.text;
  return sub && sub !== named.text && !sub.startsWith("-") && !GIT_COMMANDS.has(sub)
    ? `\`${sub}\` is not a git command hey knows, so it may be an alias`
    : undefined;
}

/** Why a segment failed, when it is not just its command: a run-time value, or a file redirection. */
export function hint(seg: Segment, allow: Pattern[], show: (text: string) => string): string {
  const cmd = seg.assigns.length;
  const wild = [...seg.assigns, ...seg.words].find((w, i) => w.unknown || (w.glob && i === cmd));
  if (wild) return `; \`${show(wild.raw)}\` is known only at run time`;
  const file = seg.redirects.find((r) => !harmless(r));
  if (file && allow.some((p) => allowWords(seg, p))) return `; redirection \`${show(file.op + " " + file.target.raw)}\` is not in a pattern`;
  return "";
}

/** `*` matches any run of characters; everything else is literal. */
export function globMatch(glob: string, text: string): boolean {
  const body = glob
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s").test(text);
}

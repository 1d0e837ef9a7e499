// Matching one simple command against one bash pattern (SPEC §8), both reduced to words.
//
// - A pattern word `*` matches any number of words (none included) whose values are known
//   before the command runs; `*` inside a word (`*.ts`, `--out=*`) matches within that one word.
//   So `git *` trusts git's own options and arguments; what git runs with the shell from them
//   (`-c core.sshCommand=…`, `-c alias.x='!…'`) is judged as a command of its own (git-allow.ts).
// - A pattern without any `*` matches the segment's leading words, then anything `*` would match:
//   `git` allows `git diff` but not `gitk`.
// - Never matched by `*`, so a pattern has to spell them out (same text) to allow them: an
//   expansion or substitution (`$X`, `$(…)`), a glob in the command name, a leading `VAR=value`
//   (`PATH=. ls` is not `ls`), and a redirection to or from a file (`bash: make * > build.log`).
//   Redirections that touch no file pass: fd duplication (`2>&1`), `/dev/null`, heredocs.
//   git's own options that write a file (`--output FILE`, format-patch's `-o DIR`: git.ts
//   gitOutputs) are file writes too: a pattern spells them out (`bash: git log --output=log.txt *`),
//   as it does a `--git-dir` that names no `.git` (gitDirNamed: a directory the agent may have filled),
//   and so are a package manager's options that change what it runs (`npm test --script-shell=x`,
//   `--node-options=…`: manager-options.ts), and a glob that could expand to either (`git diff *`
//   where a file is named `--output=README.md`).
// Deny patterns match the same way but err towards refusing (deny.ts). A deny entry's program named
// in the words of a command that could run it is here too (namedUnseen).
import { gitDirNamed, gitOutputs, readGit } from "./git.ts";
import { gitShellTexts } from "./git-texts.ts";
import { managerOptions } from "./manager-options.ts";
import { DATA_PROGRAMS } from "./programs.ts";
import { ASSIGN, type Redirect, type Segment, type Word } from "./shell-model.ts";
import { stdinSources } from "./shell-stdin.ts";
import { runsStdin } from "./stdin-code.ts";

/** A compiled `bash: PATTERN` entry. */
export interface Pattern {
  entry: string;
  /** leading assignments, then the command words */
  words: Word[];
  assigns: boolean;
  redirects: Redirect[];
  /** an exact entry (`bash: npm run build $`): its words and nothing else, nor code given on stdin (runsInput) */
  exact?: boolean;
}

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

/**
 * A bare `cat` whose input is a heredoc, a here-string or a pipe (`git commit -m "$(cat <<'EOF' …
 * EOF)"`): it reads no file and writes only its output, as `printf` does, so an allow list lets it
 * through as it does a builtin (a file it redirects to or from still needs a pattern, as `cat FILE` does).
 */
export function catOfInput(seg: Segment): boolean {
  const [first, ...rest] = seg.words;
  const given = seg.piped || stdinSources(seg).some(isText);
  return !!first && !first.unknown && !first.glob && first.text === "cat" && !rest.length && !seg.assigns.length && !!given;
}

export const isStar = (w: Word) => w.glob && w.raw === "*";
/** A heredoc or a here-string, on any fd. */
const isText = (r: Redirect) => r.body !== undefined || /^\d*<<<$/.test(r.op);
/**
 * A command's name as a deny entry compares it: its basename, lowercase, without the extension
 * Windows finds a program by (`/bin/rm`, on macOS `RM`, are rm; on Windows `C:\Git\cmd\git.exe`,
 * `/usr/bin/rm.exe` in Git Bash and `npm.cmd` or `npm.ps1` are git, rm and npm).
 */
export const program = (t: string) =>
  t
    .slice(Math.max(t.lastIndexOf("/"), t.lastIndexOf("\\")) + 1)
    .toLowerCase()
    .replace(/\.(exe|com|cmd|bat|ps1)$/, "");

/** Does `w` match pattern word `t`? `fixed`: the segment word's value is known before the command runs. */
export function wordMatches(t: Word, w: Word, fixed: boolean): boolean {
  if (t.unknown || w.unknown || !fixed) return t.raw === w.raw; // spelled out, or nothing
  return t.glob && t.text.includes("*") ? globMatch(t.text, w.text) : t.text === w.text;
}

/**
 * The indexes among `words` (the program first) that only a pattern spelling them out matches:
 * git's options that write a file (git.ts gitOutputs) or name a git directory of another name than
 * `.git` (gitDirNamed: the agent may have filled it), and a package manager's that change what it
 * runs (manager-options.ts: `npm test --node-options=…`), and a glob that could expand to one.
 */
export const spelledOnly = (words: Word[]): number[] => [...gitOutputs(words), ...gitDirNamed(words), ...managerOptions(words)];

/**
 * Do the pattern's words match the segment's? Filled from the end: `next[si]` says whether the
 * rest of the pattern matches the segment's words from `si` on (linear in each, no recursion).
 */
export function allowWords(seg: Segment, p: Pattern): boolean {
  const words = [...seg.assigns, ...seg.words];
  const n = words.length;
  const writes = new Set(spelledOnly(seg.words).map((k) => k + seg.assigns.length));
  const fixed = (i: number) => !words[i]!.unknown && !(words[i]!.glob && i === seg.assigns.length) && !writes.has(i);
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

/**
 * Whether a segment's program may run as code input its words do not show — a heredoc, a
 * here-string, a process substitution on stdin (`< <(cmd)`), a pipe from the command before it (or
 * into `>(…)`), or any stdin a group, loop, function call or `exec` around it gives it (a file too:
 * `{ python3; } < script.py`), however it reaches fd 0: copied from another fd (`{ python3 0<&3; }
 * 3<<EOF`, `exec 3<<<'…'; python3 <&3`), named as a file (`< /dev/fd/3`), or from an fd the command
 * line does not open (`python3 <&3`) — being one that may run what it reads (stdin-code.ts:
 * `python3`, `sh`). Its own file on stdin (`python3 < x.py`) is a redirection an entry spells out.
 */
export function runsInput(seg: Segment): boolean {
  const first = seg.words[0];
  if (!first || first.unknown || first.glob) return false;
  const given =
    seg.piped === true ||
    stdinSources(seg).some(
      (r) => (!seg.redirects.includes(r) && (r.target.text !== "/dev/null" || r.target.unknown)) || isText(r) || r.target.raw.startsWith("<("),
    ) ||
    seg.redirects.some((r) => {
      const op = r.op.replace(/^\d+/, "");
      return op === "<<" || op === "<<-" || op === "<<<" || (op === "<" && r.target.raw.startsWith("<("));
    });
  return (
    given &&
    runsStdin(
      program(first.text),
      seg.words.slice(1).map((w) => w.text),
    )
  );
}

export function allowMatch(seg: Segment, p: Pattern): boolean {
  if (!allowWords(seg, p)) return false;
  // an exact entry spells out the whole command: the code `echo '…' | python3` runs is no word of it
  if (p.exact && runsInput(seg)) return false;
  const files = seg.redirects.filter((r) => !harmless(r));
  return (
    files.length === p.redirects.length &&
    files.every((r, i) => r.op === p.redirects[i]!.op && wordMatches(p.redirects[i]!.target, r.target, !r.target.unknown && !r.target.glob))
  );
}

/**
 * A deny entry's program named among the words of a segment that could run it (issue 24): `make
 * rm`, `python3 -c 'os.system("rm x")'`, `git -c alias.x='!rm x' x`, or in what a heredoc or a
 * here-string gives it on stdin (`python3 - <<EOF`). Words are compared as the
 * shell-ish words inside them (split at anything but letters, digits and `_.+-`); a segment known
 * not to run its words (a builtin, a wrapper's own options, `cat`, `grep`, git's data subcommands)
 * names nothing. Returns the name, or undefined.
 */
export function namedUnseen(seg: Segment, p: Pattern): string | undefined {
  const command = p.words.find((w) => !ASSIGN.test(w.raw));
  const first = seg.words[0];
  if (!command || command.unknown || !first || seg.inert) return undefined;
  const name = program(command.text);
  if (!first.unknown && !first.glob && (DATA_PROGRAMS.has(program(first.text)) || (program(first.text) === "git" && gitReadWhole(seg)))) return undefined;
  const hit = toldValues(seg).some((v) =>
    v
      .toLowerCase()
      .split(/[^a-z0-9_.+-]+/)
      .some((token) => (command.glob ? globMatch(name, token) : token === name)),
  );
  return hit ? name : undefined;
}

/**
 * Whether every word git runs is known: a data subcommand, or one whose command texts git-texts.ts
 * reads whole (`submodule foreach git pull`, `-c core.sshCommand=…`), which the deny list then
 * judges as commands of their own (shell-texts.ts). A word merely holding the program's name (the
 * `git` of `git@github.com:a/b.git`, of `foreach git pull`) is then no command: `git push`
 * inside `submodule foreach` still meets `bash: git push *` as the command it is (r5 #8).
 */
function gitReadWhole(seg: Segment): boolean {
  const read = readGit(seg.words);
  if (!read || read.unsure) return false;
  return !read.runs || !("unknown" in gitShellTexts(seg, [seg]));
}

/**
 * What a segment's program is told: its assignments' values, its arguments, and the heredocs and
 * here-strings open on any of its fds, its own or given (Segment.given): what it reads on stdin
 * (`python3 - <<EOF … EOF`, `{ python3 0<&3; } 3<<EOF`) or opens by name (`python3 /dev/fd/3`).
 */
export function toldValues(seg: Segment): string[] {
  const input = [...seg.redirects, ...(seg.given ?? [])].flatMap((r) => (r.body !== undefined ? [r.body] : /^\d*<<<$/.test(r.op) ? [r.target.text] : []));
  return [...seg.assigns.map((w) => w.text.slice(w.text.indexOf("=") + 1)), ...seg.words.slice(1).map((w) => w.text), ...input];
}

/** `*` matches any run of characters; everything else is literal. */
export function globMatch(glob: string, text: string): boolean {
  const body = glob
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s").test(text);
}

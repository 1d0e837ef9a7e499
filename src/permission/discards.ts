// What throws away the working tree's changes to some files, for the deny entries that throw away
// all of them (`git reset --hard *`, `git checkout -f *`, `git switch -f *`): git-checkout(1) given
// paths, "Overwrite the contents of the files that match the pathspec", and git-restore(1), which
// "by default" restores the working tree (`--staged` alone "will only restore the index", which
// keeps the work). A branch switch keeps local changes and runs. Pure.
import { readGit } from "./git.ts";
import { program, type Pattern } from "./match.ts";
import { type Disk, stateOf } from "./on-disk.ts";
import type { Segment, Word } from "./shell-model.ts";

const known = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob;

/**
 * Does deny pattern `p` throw away local changes: every one (`git reset --hard`, `git checkout -f`,
 * `git switch -f`/`--discard-changes`), or those to any files it is given (`git checkout -- *`,
 * `git restore *` not told `--staged` alone)? Either way what throws away all or some of them is refused under it.
 */
export function discardsAll(p: Pattern): boolean {
  const words = p.words;
  if (!known(words[0]) || program(words[0].text) !== "git" || !known(words[1])) return false;
  const rest = words.slice(2).map((w) => w.text);
  const any = words.slice(2).every((w) => (w.glob && w.raw === "*") || /^-/.test(w.text)); // paths: any
  if (any && words[1].text === "checkout" && rest.includes("--")) return true;
  if (any && words[1].text === "restore") return restoresWorktree(rest);
  if (words[1].text === "reset") return rest.some((t) => /^--hard?$/.test(t));
  // a checkout or switch entry that names paths or a branch (`git checkout -f -- x`) refuses only those
  if (words.slice(2).some((w) => !(w.glob && w.raw === "*") && !/^-./.test(w.text))) return false;
  if (words[1].text === "checkout") return rest.some((t) => /^-[^-]*f|^--force$/.test(t));
  if (words[1].text === "switch") return rest.some((t) => /^-[^-]*f|^--force$|^--discard-changes$/.test(t));
  return false;
}

/** Whether git restore given `options` restores the working tree: unless `-S`/`--staged` (or a cluster holding S before a value-taking `s`) without `-W`/`--worktree`. */
function restoresWorktree(options: string[]): boolean {
  const letters = options.filter((t) => /^-[^-]/.test(t)).map((t) => t.slice(1).split("s")[0]!);
  const staged = letters.some((l) => l.includes("S")) || options.some((t) => /^--sta/.test(t) && "--staged".startsWith(t));
  const worktree = letters.some((l) => l.includes("W")) || options.some((t) => /^--wo/.test(t) && "--worktree".startsWith(t));
  return !staged || worktree;
}

/** git checkout's options that take the next word as their value (`git checkout -h`): the new branch's name, a conflict style, a file. */
const CHECKOUT_VALUE = /^(-[^-]*[bB]|--orphan|--conflict|--pathspec-from-file)$/;

/**
 * Why a segment throws away changes to files as deny entry `p` (discardsAll) does to all of them,
 * or undefined: `git checkout [TREE-ISH] -- PATHS`, `git checkout TREE-ISH PATHS` (two operands:
 * the second is a path), `--pathspec-from-file`, `--ours`/`--theirs` (paths only), `-p`; `git
 * restore` without `--staged`, or with `--worktree`/`-W`.
 */
export function discardsFiles(seg: Segment, p: Pattern, disk?: Disk): string | undefined {
  if (!discardsAll(p) || !known(seg.words[0]) || program(seg.words[0].text) !== "git") return undefined;
  const read = readGit(seg.words);
  if (read?.sub === undefined) return undefined;
  const sub = seg.words[read.sub]!.text;
  const args = seg.words.slice(read.sub + 1);
  const end = args.findIndex((w) => w.text === "--" && !w.unknown);
  const options = (end < 0 ? args : args.slice(0, end)).filter((w) => known(w) && /^-./.test(w.text)).map((w) => w.text);
  if (sub === "restore") return restoresWorktree(options) ? "git restore overwrites the working tree's changes to the files it names" : undefined;
  if (sub !== "checkout") return undefined;
  // the whole tree (`git checkout -- .`) is the equivalent `git checkout * .`'s to name
  if (known(args.at(-1)) && [".", "./", ":/"].includes(args.at(-1)!.text)) return undefined;
  if (end >= 0 && end < args.length - 1) return "git checkout -- PATHS overwrites those files' changes";
  if (options.some((t) => /^--(pathspec-from-file|ours|theirs|patch)|^-[23p]$/.test(t))) return "git checkout given paths overwrites those files' changes";
  const operands: Word[] = [];
  for (let i = 0; i < (end < 0 ? args.length : end); i++) {
    const t = args[i]!.text;
    if (known(args[i]) && CHECKOUT_VALUE.test(t)) i++;
    else if (args[i]!.unknown || !/^-./.test(t)) operands.push(args[i]!);
  }
  if (operands.length > 1) return "git checkout TREE-ISH PATHS overwrites those files' changes";
  // with -b/-B/--orphan, -t/--track or --detach the operand is a start point; with -f it is the equivalent's to judge
  if (options.some((t) => /^-[^-]*[bBtf]|^--(orphan|track|detach|force)/.test(t))) return undefined;
  return operands[0] && loneName(operands[0], seg, read.sub, disk);
}

/**
 * `git checkout NAME`: git-checkout(1) reads NAME as a branch or commit, and otherwise as paths,
 * whose changes it then overwrites. Where nothing is at NAME (on-disk.ts), it can only be a branch;
 * a pattern (`'*.ts'`, `:(glob)…`) or a name where hey cannot look could be paths.
 */
function loneName(name: Word, seg: Segment, sub: number, disk: Disk | undefined): string | undefined {
  if (known(name) && /[*?[]|^:/.test(name.text)) return `git checkout \`${name.raw}\` overwrites the changes to the files the pattern matches`;
  // `git -C DIR checkout NAME`: NAME is relative to DIR; another option before the subcommand may move the work tree
  const before = seg.words.slice(1, sub);
  const at = before.findIndex((w) => w.text === "-C");
  const under = at >= 0 && before.length === at + 2 && known(before[at + 1]) ? before[at + 1]!.text : undefined;
  const state = before.length && under === undefined ? undefined : stateOf(name, seg, disk, under);
  if (state === "none") return undefined;
  return state === undefined
    ? `git checkout \`${name.raw}\` overwrites its changes if it names a file, which hey cannot see`
    : `git checkout \`${name.raw}\` overwrites the changes to the file or directory of that name`;
}

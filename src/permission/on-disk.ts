// What a deny check learns from the files as they are when the command is checked (SPEC §8): whether
// a file a command would empty, or a name `git checkout` could read as a path, holds anything. A
// redirection cannot tell emptying a file from making one (`: > new.txt`), nor `git checkout NAME`
// a branch from a path; the file system can. It is read only where the command cannot have changed
// what is there first: a name decided at run time, one relative to a directory known only then, one
// another part of the command names (`mv a f && : > f`, `ln a f`, `mv src d && : > d/x`; not
// `mkdir -p d`, `touch`, `echo`…, which put no other file's data there), or one no one could look at
// (no start directory) is "cannot tell" (undefined), and the caller refuses. A change made by
// another process between the check and the run is not seen. Pure: the caller's `fileState` reads
// the disk.
import { reads } from "./named-readers.ts";
import { type ControlFiles, decided, directories, expand, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { program } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";

/** What the deny checks may look at: hey's view of the file system, and the whole command. */
export interface Disk {
  control?: ControlFiles;
  segments: Segment[];
}

export type State = "none" | "empty" | "data";

const names = (text: string) => text.split(/[\\/]+/).filter((n) => n && n !== "." && n !== "..");

/** Programs that move or link no file, so put nothing of another file's at a name they are given (`mkdir -p build && : > build/.gitkeep`). */
const MAKE_NOTHING = new Set(["mkdir", "touch", "chmod", "chown", "chgrp", "echo", "printf", "ls", "cat", "true", "test", "[", "[[", "stat", "wc", "grep"]);

/** Programs that put a file at their last operand only: mv(1), cp(1), ln(1), install(1) `SOURCE… DEST` (not with `-t DIR`). */
const TO_LAST = new Set(["mv", "cp", "ln", "install"]);

/** The words of `s` that could name where it puts something: for TO_LAST its destination, else all of them. */
function destinations(s: Segment): Word[] {
  const args = s.words.slice(1);
  const name = s.words[0] && decided(s.words[0]) ? program(s.words[0].text) : "";
  if (!TO_LAST.has(name) || !args.every(decided)) return args;
  const end = args.findIndex((w) => w.text === "--");
  const options = end < 0 ? args : args.slice(0, end);
  // `-t DIR`, `--target-directory`: the directory is named first, the files after it
  if (options.some((w) => /^-[^-]*t|^--t/.test(w.text))) return args;
  const operands = args.filter((w, i) => (end >= 0 && i > end) || !w.text.startsWith("-"));
  return operands.slice(-1);
}

/**
 * Whether another part of the command could put something at `text` before `seg` runs: a word
 * decided at run time, or one where it may put something whose last name is a name on `text`'s
 * path (`mv a /x/f`, `mv src dst` before `dst/x`, `ln -s a f`; not `ln f b`, which leaves f as it
 * is), unless that part runs a builtin or one of MAKE_NOTHING.
 */
function touched(text: string, seg: Segment, segments: Segment[]): boolean {
  const path = new Set(names(text).map((n) => n.toLowerCase()));
  const inert = (s: Segment) => s.inert === "builtin" || (!!s.words[0] && decided(s.words[0]) && MAKE_NOTHING.has(program(s.words[0].text)));
  // any part, also one written after `seg`: in a loop it runs before the next round
  return segments.some(
    (s) =>
      s !== seg &&
      !inert(s) &&
      destinations(s).some((w) => {
        if (!decided(w)) return true;
        // `ln build/a .`, `mv x/f ..`: a destination naming no name of its own takes the sources' names
        return (names(w.text).length ? [w] : s.words.slice(1)).some((d) => {
          const last = names(d.text).pop()?.toLowerCase();
          return !!last && path.has(last);
        });
      }),
  );
}

/**
 * Whether another part of the command could change the file at `text` before `seg` reads it: as
 * `touched` judges (a program that only reads, control-arguments.ts reads, does not), or by a
 * redirection writing there (`echo '{…}' > package.json && npm test`; a target decided at run
 * time could be it).
 */
export function rewritten(text: string, seg: Segment, segments: Segment[]): boolean {
  const last = names(text).pop()?.toLowerCase();
  const redirected = (s: Segment) => s.redirects.some((r) => r.op.includes(">") && (!decided(r.target) || names(r.target.text).pop()?.toLowerCase() === last));
  // `cp ../x/package.json .`: a destination naming no name of its own (`.`, `..`, `/`) takes the sources' names
  const into = (s: Segment) => {
    const to = destinations(s);
    return to.length === 1 && !names(to[0]!.text).length && s.words.slice(1).some((w) => names(w.text).pop()?.toLowerCase() === last);
  };
  const writers = segments.filter((s) => !reads(s)); // `git add package.json`, `jq . package.json` leave it as it is
  return touched(text, seg, writers) || segments.some((s) => s !== seg && (redirected(s) || (!reads(s) && into(s))));
}

/**
 * What is at the path word `w` names, for segment `seg` (`under`: the directory a program is told to
 * work in, `git -C DIR`): the worst of what is there from every directory a `cd` may lead to ("data"
 * before "empty" before "none"), or undefined when that cannot be told.
 */
export function stateOf(w: Word, seg: Segment, disk: Disk | undefined, under?: string): State | undefined {
  const control = disk?.control;
  if (!disk || !control?.fileState || !decided(w) || seg.elsewhere) return undefined;
  const f = onWindows(control) ? WINDOWS : POSIX;
  const text = expand(w, control.home);
  if (text === undefined || touched(text, seg, disk.segments)) return undefined;
  // Windows: `C:foo` is relative to drive C:'s own current directory
  if (f === WINDOWS && /^[A-Za-z]:(?![\\/])/.test(text)) return undefined;
  const rel = under !== undefined && f.absolute(text) === undefined ? f.join(under, text) : text;
  const abs = f.absolute(rel);
  const dirs = abs === undefined ? directories(disk.segments, control, f) : [""];
  if (!dirs) return undefined;
  const states = dirs.map((d) => control.fileState!(abs ?? f.join(d, rel)));
  if (states.includes(undefined)) return undefined; // a read that did not answer in time
  return states.includes("data") ? "data" : states.includes("empty") ? "empty" : "none";
}

/**
 * Whether the path word `w` (for `seg`) is, through a link made before the command (`ln -s
 * important.db sl; : > sl`, a hard link), the file a deny entry names at `named` (as the entry
 * spells it: relative to the start directory, `~` expanded), or (`under`) a file below it.
 * "maybe": a file with other hard links where the directory is too large to search for them
 * (fs/real-target.ts hardLinkUnder), or one another part of the command links there (linkedHere);
 * `unknown`: why it cannot be told (a path that did not answer in time).
 */
export function linksTo(w: Word, seg: Segment, disk: Disk | undefined, named: string, under: boolean): boolean | "maybe" | { unknown: string } {
  if (linkedHere(w, seg, disk, named, under)) return "maybe";
  const control = disk?.control;
  if (!disk || !control?.sameFile || !control.cwd || !decided(w) || seg.elsewhere) return false;
  const f = onWindows(control) ? WINDOWS : POSIX;
  const text = expand(w, control.home);
  const entry = expand({ text: named, raw: named, unknown: false, glob: false }, control.home);
  if (text === undefined || entry === undefined) return false;
  const abs = f.absolute(text);
  const target = f.absolute(entry) ?? f.join(control.cwd, entry);
  const dirs = abs === undefined ? (directories(disk.segments, control, f) ?? []) : [""];
  const same = dirs.map((d) => control.sameFile!(abs ?? f.join(d, text), target, under));
  const unknown = same.find((s) => typeof s === "object");
  return same.includes(true) || unknown || (same.includes("maybe") && "maybe");
}

/**
 * Whether another part of the command may link the path word `w` to the file at `named` (or,
 * `under`, one below it) before `seg` writes it: `ln build/a x; : > x`, `ln -s`, `cp -l`/`-s`,
 * link(1). The file is not there to look at yet; a source or destination decided at run time could
 * be it. The link may be named by its destination or, into a directory, by its source (`ln build/a
 * .; : > a`), and a link to a directory holding the file leads to it (`ln -s build x; : > x/a`,
 * `cp -rs . ../y`): any name on `w`'s path counts.
 */
function linkedHere(w: Word, seg: Segment, disk: Disk | undefined, named: string, under: boolean): boolean {
  if (!disk || !decided(w)) return false;
  const path = new Set(names(w.text).map((n) => n.toLowerCase()));
  const cwd = disk.control?.cwd;
  // both from the root where the start directory is known (`ln /home/u/app/build/a x` under `rm -rf build`)
  const full = (text: string) => (text.startsWith("/") || !cwd ? names(text) : [...names(cwd), ...names(text)]).map((n) => n.toLowerCase());
  const entry = full(named);
  // the entry's file, a directory holding it, or (`under`) a file below it
  const at = (text: string) => {
    if (/(^|[\\/])\.\.([\\/]|$)/.test(text)) return true; // `sub/../build/a`: `..` is not resolved here
    const source = full(text);
    return (source.length <= entry.length || under) && source.every((n, k) => k >= entry.length || entry[k] === n);
  };
  const lastOf = (text: string) => names(text).pop()?.toLowerCase();
  return disk.segments.some((s) => {
    const first = s.words[0];
    if (s === seg || !first || !decided(first)) return false;
    const args = s.words.slice(1);
    const name = program(first.text);
    const links = name === "ln" || name === "link" || (name === "cp" && args.some((a) => decided(a) && /^(-[^-]*[ls]|--link|--symbolic-link)/.test(a.text)));
    if (!links) return false;
    const sources = args.filter((a) => !decided(a) || (!a.text.startsWith("-") && at(a.text)));
    if (!sources.length) return false;
    const made = [...destinations(s), ...sources].map((d) => (decided(d) ? lastOf(d.text) : undefined));
    return made.some((n) => n === undefined || path.has(n));
  });
}

// The directory a command runs in, as an operand (x135): `cd ~/.local/state && git stash -u` takes
// approvals.json away as `mv ~/.local/state/hey x` would, yet names no file. While a list is set, a
// program that changes the tree it runs in (tree-changes.ts) may not run in a directory holding one
// of hey's control files or above one — the start directory, wherever a `cd`/`pushd` may lead,
// `git -C`, `--work-tree` — with two exceptions for the start directory and those above it (the
// project a user works in): there only deleting files no repository keeps counts (`git clean`,
// `git stash -u`), and only when a control file below exists (`.hey/config.toml`, `.mcp.json`);
// `git checkout`, `pull`, `reset --hard` and `init` stay, since what they write is the repository's
// and a config they change waits for the user's yes (config/guard.ts). Pure.
import { type ControlFiles, decided, directories, expand, type Flavour, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { lastComponent, matchesName, runtimeGlob } from "./control-globs.ts";
import { program } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";
import { gitDirectories, type TreeChange, treeChange } from "./tree-changes.ts";

/** Why a segment may not run where it does: the segment, the directory, the control file and how they relate; `unknown`: the directory is known only at run time and could be one. */
export type WorkingDirectory =
  | { command: string; change: TreeChange; dir: string; file: string; relation: "holds" | "above" }
  | { command: string; unknown: string };

/** The first segment that changes the tree of a directory holding a control file, or above one (see above), or undefined. */
export function workingDirectory(segments: Segment[], control: ControlFiles): WorkingDirectory | undefined {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const fold = (p: string) => (control.fold || f === WINDOWS ? p.toLowerCase() : p);
  const sep = f === WINDOWS ? "\\" : "/";
  const within = (p: string, d: string) => fold(p).startsWith(fold(d.endsWith(sep) ? d : d + sep));
  const start = control.cwd === undefined ? undefined : f.normalize(control.cwd);
  // the start directory and those above it (the project the user works in), but not the home or above it:
  // `cd ~ && git checkout .` rewrites hey's config in a dotfiles repository, `--work-tree=/` all of it
  const home = control.home === undefined ? undefined : f.normalize(control.home);
  const homeOrAbove = (d: string) => home !== undefined && (fold(d) === fold(home) || within(home, d));
  const starting = (d: string) => start !== undefined && (fold(d) === fold(start) || (within(start, d) && !homeOrAbove(d)));
  const controls = control.paths.map(f.normalize);
  const there = (c: string) => control.fileState?.(c) !== "none";
  const known = directories(segments, control, f);
  const dirs = known ?? (start !== undefined ? [start] : []);
  for (const seg of segments) {
    const change = seg.inert === "builtin" ? undefined : treeChange(seg);
    if (!change) continue;
    if (seg.elsewhere) return { command: seg.raw, unknown: "it runs in another directory" };
    const runtime = known ? undefined : unknownDirectory(segments, control, f);
    if (runtime) return { command: seg.raw, unknown: runtime };
    // the last place a `cd` leads first: the refusal names where the command was meant to run
    for (const dir of runIn(seg, dirs, control, f).reverse()) {
      if (typeof dir === "object") return { command: seg.raw, unknown: dir.unknown };
      for (const d of new Set([dir, resolved(dir)])) {
        const startHere = starting(d);
        if (startHere && change !== "deletes") continue;
        const below = controls.filter((c) => within(c, d) && (!startHere || there(c)));
        const file = below.find(there) ?? below[0];
        if (file === undefined) continue;
        const holds = fold(file.slice(0, file.lastIndexOf(sep)) || sep) === fold(d);
        return { command: seg.raw, change, dir: d, file, relation: holds ? "holds" : "above" };
      }
    }
  }
  return undefined;

  function resolved(p: string): string {
    const real = control.realDir?.(p);
    return f.normalize(typeof real === "string" ? real : p);
  }
}

/** The directories the segment runs in, from each of `dirs`: git's `-C` and `--work-tree` moved it; `unknown`: one of those is known only at run time. */
function runIn(seg: Segment, dirs: string[], control: ControlFiles, f: Flavour): (string | { unknown: string })[] {
  if (!decided(seg.words[0]!) || program(seg.words[0]!.text) !== "git") return dirs.map(f.normalize);
  const { chdir, workTree } = gitDirectories(seg.words);
  let out = dirs;
  for (const w of [...chdir, ...(workTree ? [workTree] : [])]) {
    const to = decided(w) ? expand(w, control.home) : undefined;
    if (to === undefined) return [{ unknown: `\`${w.raw}\` is a directory known only at run time` }];
    const abs = f.absolute(to);
    out = abs !== undefined ? [abs] : out.map((d) => f.join(d, to));
  }
  return out.map(f.normalize);
}

/** Why a `cd` or `pushd` may lead to a directory holding a control file or above one that only the run knows: its operand's written last name could be one's (`cd "$X/.config"`). */
function unknownDirectory(segments: Segment[], control: ControlFiles, f: Flavour): string | undefined {
  const names = new Set<string>();
  for (const p of control.paths) {
    const parts = f.normalize(p).split(/[\\/]/).filter(Boolean);
    for (const part of parts.slice(0, -1)) names.add(part);
  }
  for (const seg of segments) {
    const [first, ...args] = seg.words;
    if (!first || !decided(first) || !["cd", "pushd"].includes(first.text)) continue;
    const operand: Word | undefined = args.find((w) => !decided(w) || !w.text.startsWith("-"));
    if (!operand || decided(operand)) continue;
    const last = lastComponent(runtimeGlob(operand.raw));
    // a last name all run-time (`cd "$D"`) could be anything, as any word could: only one whose written part could be one's counts
    if (/^\.{0,2}$/.test(last) || (/[^\0]/.test(last) && [...names].some((n) => matchesName(last, n))))
      return `\`${operand.raw}\` is a directory known only at run time`;
  }
  return undefined;
}

// The directory a command runs in, as an operand (x135): `cd ~/.local/state && git stash -u` takes
// approvals.json away as `mv ~/.local/state/hey x` would, yet names no file. While a list is set, a
// program that changes the tree it runs in (tree-changes.ts) may not run in a directory holding one
// of hey's control files or above one — the start directory, wherever a `cd`/`pushd` may lead,
// `git -C`, `--work-tree`, and for git that acts on its whole work tree from any folder of it
// (`git stash`, `checkout BRANCH`, `clean :/`, x144 #2) the top of that tree — with two exceptions
// for the project a user works in (the start directory and those above it up to the project root,
// while every control file below is the project's, x140): there only deleting files no repository
// keeps counts (`git clean`, `git stash -u`, and `git stash`/`reset --hard` after a `git add` that
// may stage one), and only when a control file below exists (`.hey/config.toml`, `.mcp.json`) and
// a `git clean` pathspec could reach it; `git checkout`, `pull`, `reset --hard` and `init` stay,
// since what they write is the repository's and a config they change waits for the user's yes
// (config/guard.ts). After a `cd` hey cannot place (`cd -`, `cd a b`, `~user`), only a directory the
// command names itself can be judged. Pure.
import {
  type ControlFiles,
  decided,
  expand,
  type Flavour,
  gitReach,
  joinWords,
  leadFrom,
  onWindows,
  operandValues,
  relative,
  POSIX,
  PROJECT_FILE,
  placesReached,
  projectFile,
  type Unplaced,
  WINDOWS,
} from "./control-files.ts";
import { expandBraces, type GlobOptions, globMatches, globOptions, lastComponent, matchesName, runtimeGlob } from "./control-globs.ts";
import { readGit } from "./git.ts";
import { checkoutPrefix, gitDirectories } from "./git-targets.ts";
import { program } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";
import { dropsStaged, gitArguments, stages, type TreeChange, treeChange, wholeTree } from "./tree-changes.ts";

/** Why a segment may not run where it does: the segment, the directory, the control file and how they relate (`tree`: the directory is the top of the work tree git acts on from the one it runs in; `prefix`: the one `git checkout-index --prefix` names); `unknown`: the directory is known only at run time and could be one; `git`: the directory is in a git directory (how: "" as written, "by another name", or what it is), where git's config and hooks are. */
export type WorkingDirectory =
  | { command: string; change: TreeChange; dir: string; file: string; relation: "holds" | "above"; tree?: true; staged?: Staged; prefix?: true }
  | { command: string; unknown: string }
  | { command: string; dir: string; git: string };

/** A control file staged but in no commit that a command would take away: its absolute path, and as git names it from its work tree's top. */
export type Staged = { file: string; path: string };

/** The first segment that changes the tree of a directory holding a control file, or above one (see above), or undefined. */
export function workingDirectory(segments: Segment[], control: ControlFiles): WorkingDirectory | undefined {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const fold = (p: string) => (control.fold || f === WINDOWS ? p.toLowerCase() : p);
  const sep = f === WINDOWS ? "\\" : "/";
  const within = (p: string, d: string) => fold(p).startsWith(fold(d.endsWith(sep) ? d : d + sep));
  const start = control.cwd === undefined ? undefined : f.normalize(control.cwd);
  const controls = control.paths.map(f.normalize);
  // the project the user works in: the start directory and those above it up to the project's root
  // (where its `.hey/` or `.mcp.json` is), never the home or above it (`cd ~ && git checkout .`
  // rewrites hey's config in a dotfiles repository), nor one holding a user's control file below
  // it: started in ~/.config/nvim, `cd .. && tar -xf x.tar` replaces ~/.config/hey/config.toml
  const root = controls.filter(projectFile).map((c) => c.replace(PROJECT_FILE, "") || sep);
  const home = control.home === undefined ? undefined : f.normalize(control.home);
  const homeOrAbove = (d: string) => home !== undefined && (fold(d) === fold(home) || within(home, d));
  const starting = (d: string) =>
    start !== undefined &&
    (fold(d) === fold(start) || (within(start, d) && root.some((r) => fold(r) === fold(d) || within(d, r)))) &&
    !homeOrAbove(d) &&
    controls.every((c) => !within(c, d) || projectFile(c));
  const there = (c: string) => control.fileState?.(c) !== "none";
  const { dirs, unplaced } = placesReached(segments, control, f);
  // bash's dotglob lets a loop's `*/` match `.hey/`, its nocaseglob `~/.CONFI?` match ~/.config
  const glob = globOptions(segments);
  const lost = unplaced.map((u) => whyUnplaced(u, control, f, glob)).find((why) => why !== undefined);
  for (const [i, seg] of segments.entries()) {
    const written = seg.inert === "builtin" ? undefined : treeChange(seg);
    if (!written) continue;
    const stagedBefore = segments.slice(0, i).some(stagesControl);
    if (seg.elsewhere) return { command: seg.raw, unknown: "it runs in another directory" };
    const places = runIn(seg, dirs, control, f, glob);
    if ("unknown" in places) return { command: seg.raw, unknown: places.unknown };
    // after a `cd` that leads where only the run knows, only a directory the command names itself can be judged
    if (lost !== undefined && !places.named) return { command: seg.raw, unknown: lost };
    // `git checkout-index --prefix=DIR/` writes below DIR, from the work tree's top (git-targets.ts)
    const prefix = checkoutPrefix(seg.words, control.home);
    if (prefix && "unknown" in prefix) return { command: seg.raw, unknown: prefix.unknown };
    const targets = prefix ? prefixed(seg, places.dirs, prefix.dir) : places.dirs;
    if ("unknown" in targets) return { command: seg.raw, unknown: targets.unknown };
    // git's own files: a work tree (`--work-tree=.git`, `-C .git --work-tree=.`) or a prefix in a git directory, whatever its name,
    // is where git writes the paths its index holds, which earlier commands set (`git update-index --index-info`), hooks too (x2 #5);
    // git run in one without them has no work tree (`git -C repo.git worktree add main` writes where its operand says), other programs write there
    const git = decided(seg.words[0]!) && program(seg.words[0]!.text) === "git";
    for (const d of !git || prefix || gitDirectories(seg.words).workTree ? targets : []) {
      const own = gitReach([d], control, f);
      if (typeof own === "object") return { command: seg.raw, unknown: own.unknown };
      if (own !== undefined) return { command: seg.raw, dir: d, git: own };
    }
    // the last place a `cd` leads first: the refusal names where the command was meant to run
    for (const dir of targets.reverse()) {
      const run = [...new Set([dir, resolved(dir)])];
      const drops = written === "writes" ? dropsStaged(seg.words, (text) => isPath(dir, text)) : undefined;
      // git from a folder of a repository acts on its whole work tree (stash, checkout BRANCH, pull…): judged at its top too
      const whole = !prefix && acrossTree(seg, dir);
      const tops: string[] = [];
      const gitDir = whole ? gitDirGiven(seg) : undefined;
      if (typeof gitDir === "object") return { command: seg.raw, unknown: gitDir.unknown };
      for (const d of whole ? run : []) {
        const top = control.workTreeTop?.(d, gitDir);
        if (typeof top === "object") return { command: seg.raw, unknown: top.unknown };
        if (top !== undefined && !run.includes(f.normalize(top))) tops.push(f.normalize(top));
      }
      for (const d of [...run, ...new Set(tops)]) {
        // `git add -A && git stash` (or `&& git reset --hard`, `checkout -f`…) takes the files it just staged away, as `git stash -u` would,
        // and so does a `git stash` after a `git add -A` in an earlier call: git's index says so now (x157 #3) — in the repository
        // git acts on, and where its pathspecs reach (x165 #4, #5)
        const staged = drops === undefined ? undefined : stagedIn(drops, d, dir, stagedBefore);
        if (typeof staged === "object" && "unknown" in staged) return { command: seg.raw, unknown: staged.unknown };
        const change = staged ? "deletes" : written;
        const startHere = starting(d);
        if (startHere && change !== "deletes") continue;
        const below = controls.filter((c) => within(c, d) && (!startHere || there(c)));
        if (startHere && gitCleanAway(seg, below, dir, d)) continue;
        const file = below.find(there) ?? below[0];
        if (file === undefined) continue;
        const holds = fold(file.slice(0, file.lastIndexOf(sep)) || sep) === fold(d);
        const how = {
          relation: holds ? ("holds" as const) : ("above" as const),
          ...(prefix ? { prefix: true as const } : {}),
          ...(run.includes(d) ? {} : { tree: true as const }),
          ...(staged ? { staged } : {}),
        };
        return { command: seg.raw, change, dir: d, file, ...how };
      }
    }
  }
  return undefined;

  /** Where `git checkout-index --prefix=DIR/` run in each of `dirs` writes: DIR from the top of the work tree git acts on there (the `--work-tree` runIn moved it to), or as written when absolute. */
  function prefixed(seg: Segment, dirs: string[], prefix: string): string[] | { unknown: string } {
    const abs = f.absolute(prefix);
    if (abs !== undefined) return [f.normalize(abs)];
    const gitDir = gitDirectories(seg.words).workTree ? undefined : gitDirGiven(seg);
    if (typeof gitDir === "object") return gitDir;
    const out: string[] = [];
    for (const dir of dirs) {
      const top = gitDirectories(seg.words).workTree ? dir : control.workTreeTop?.(dir, gitDir);
      if (typeof top === "object") return top;
      out.push(f.normalize(f.join(top ?? dir, prefix)));
    }
    return [...new Set(out)];
  }

  /**
   * Whether git in `seg`, run in `dir`, acts beyond it on its work tree (tree-changes.ts wholeTree), whose top git finds
   * above `dir` — or, after `--git-dir`, where that git directory's `core.worktree` says (x157 #5): not after
   * `--work-tree` (runIn already moved it to that top).
   */
  function acrossTree(seg: Segment, dir: string): boolean {
    if (!decided(seg.words[0]!) || program(seg.words[0]!.text) !== "git") return false;
    if (gitDirectories(seg.words).workTree) return false;
    // `checkout NAME` checks out the file NAME only where no branch or tag of that name wins (x157 #4)
    return wholeTree(seg.words, (text) => isPath(dir, text));
  }

  /** Whether a `git checkout` operand run in `dir` names a file or folder there that no branch or tag of that name wins over (x157 #4). */
  function isPath(dir: string, text: string): boolean {
    const abs = f.absolute(text);
    const state = control.fileState?.(f.normalize(abs ?? f.join(dir, text)));
    return state !== undefined && state !== "none" && control.gitRevision?.(dir, text) === false;
  }

  /** The git directory `--git-dir DIR` (or `GIT_DIR=DIR` before git) names, absolute or as written; `unknown`: one only the run knows. */
  function gitDirGiven(seg: Segment): string | undefined | { unknown: string } {
    const sub = readGit(seg.words)?.sub ?? seg.words.length;
    const words = seg.words.slice(1, sub);
    const at = words.findIndex((w) => /^--git-dir(=|$)/.test(w.text));
    const assigned = seg.assigns.find((w) => w.text.startsWith("GIT_DIR="));
    const given =
      at >= 0
        ? words[at]!.text.includes("=")
          ? { ...words[at]!, text: words[at]!.text.slice(10), raw: words[at]!.raw.replace(/^--git-dir=/, "") }
          : words[at + 1]
        : assigned && { ...assigned, text: assigned.text.slice(8), raw: assigned.raw.replace(/^GIT_DIR=/, "") };
    if (!given) return undefined;
    const text = decided(given) ? expand(given, control.home) : undefined;
    return text ?? { unknown: `\`${given.raw}\` names a git directory only the run knows` };
  }

  /** Whether `seg` may stage a control file: `git add` with no pathspec, or one naming it or a directory above it from any place the script reaches. */
  function stagesControl(seg: Segment): boolean {
    const staged = stages(seg.words);
    if (staged === undefined || staged === "all") return staged === "all";
    return staged.some((w) => {
      const abs = f.absolute(w.text);
      const paths = abs !== undefined ? [abs] : dirs.map((d) => f.join(d, w.text));
      return /[*?[]/.test(w.text) || paths.map(f.normalize).some((p) => controls.some((c) => fold(c) === fold(p) || within(c, p)));
    });
  }

  /**
   * The control file there, in the work tree git acts on from `d`, that `drops` (dropsStaged's, pathspecs as written in `dir`)
   * reaches and that is staged but in no commit: staged by an earlier segment (`before`) or so in git's index now; `unknown`
   * where that could not be told in time.
   */
  function stagedIn(drops: Word[] | "all", d: string, dir: string, before: boolean): Staged | undefined | { unknown: string } {
    if (!before && control.stagedOnly === undefined) return undefined;
    const top = control.workTreeTop?.(d);
    if (typeof top === "object") return top;
    if (top === undefined) return undefined;
    const sameTree = (c: string) => {
      const its = control.workTreeTop?.(c.slice(0, c.lastIndexOf(sep)) || sep);
      return typeof its !== "string" || fold(f.normalize(its)) === fold(f.normalize(top));
    };
    const reached = (c: string) =>
      drops === "all" ||
      drops.some((w) => /^:|[*?[]/.test(w.text) || [f.normalize(f.absolute(w.text) ?? f.join(dir, w.text))].some((p) => fold(c) === fold(p) || within(c, p)));
    for (const c of controls.filter((c) => there(c) && within(c, f.normalize(top)) && reached(c) && sameTree(c))) {
      const path = c
        .slice(f.normalize(top).replace(/[\\/]$/, "").length + 1)
        .split(sep)
        .join("/");
      if (before) return { file: c, path };
      if (!projectFile(c)) continue;
      const staged = control.stagedOnly?.(c);
      if (typeof staged === "object") return { unknown: `hey could not tell in time whether \`${c}\` is staged and in no commit (${staged.unknown})` };
      if (staged) return { file: c, path };
    }
    return undefined;
  }

  function resolved(p: string): string {
    const real = control.realDir?.(p);
    return f.normalize(typeof real === "string" ? real : p);
  }

  /**
   * Whether `git clean` (or `git stash -u`) keeps away from every one of `files` below `d`: its pathspecs cannot reach
   * them (`git clean -fd src/` at a project root holding `.mcp.json`). `-X` (ignored files only) earns no exception:
   * git reads its ignore rules when it runs, after an earlier command (`echo .hey/ >> .gitignore`, `git pull`) or a
   * `-c core.excludesFile=…` may have made the control file one of them (x144 #3).
   */
  function gitCleanAway(seg: Segment, files: string[], from: string, d: string): boolean {
    const read = readGit(seg.words);
    if (read?.sub === undefined) return false;
    const sub = seg.words[read.sub]!.text;
    // `git stash push -u -- src/` (or without `push`) stashes only what its pathspecs take; `save`'s words are its message
    const next = seg.words[read.sub + 1];
    const push = sub === "stash" ? (next?.text === "push" ? 2 : !next || next.text.startsWith("-") ? 1 : 0) : 0;
    if (sub !== "clean" && !push) return false;
    const { given, operands, unsure } = gitArguments(seg.words, read.sub + (push || 1), push ? ["stash", "push"] : ["clean"]);
    if (unsure || given.has("pathspec-from-file")) return false;
    if (!operands.length) return false;
    // a pathspec is a prefix of the paths it takes (or a pattern: any `*?[` or `:(magic)` could reach them)
    return operands.every((w) => {
      if (/[*?[\\]|^:/.test(w.text)) return false;
      const abs = f.absolute(w.text);
      const p = f.normalize(abs ?? f.join(from, w.text));
      return within(p, d) && files.every((c) => !(fold(c) === fold(p) || within(c, p)));
    });
  }
}

/** The directories the segment runs in, from each of `dirs`: git's `-C` and `--work-tree` moved it (`named`: to a directory it names, whatever `dirs` is); `unknown`: one of those is known only at run time and could be a control file's directory. */
function runIn(seg: Segment, dirs: string[], control: ControlFiles, f: Flavour, glob: GlobOptions): { dirs: string[]; named?: true } | { unknown: string } {
  if (!decided(seg.words[0]!) || program(seg.words[0]!.text) !== "git") return { dirs: dirs.map(f.normalize) };
  const { chdir, workTree } = gitDirectories(seg.words);
  let out = dirs;
  let named = false as boolean;
  // a `-C` to a glob or a run-time word that could lead nowhere guarded: a later relative one leads on below it (`-C s?c -C ../../x`)
  const wandered: Unplaced[] = [];
  for (const w of [...chdir, ...(workTree ? [workTree] : [])]) {
    // a loop variable over words the checker sees moves it to each of them (`for d in a b; do git -C "$d" pull`), each from where it stood
    const next: string[] = [];
    let absolute = true;
    const more: Unplaced[] = [];
    for (const v of operandValues(w)) {
      const to = decided(v) ? expand(v, control.home) : undefined;
      if (to !== undefined && f.absolute(to) !== undefined) {
        next.push(f.absolute(to)!);
        continue;
      }
      absolute = false;
      if (decided(v) && to === undefined) return { unknown: `\`${v.raw}\` names a home the checker does not know` };
      // as a `cd "$d"` is: refused when it could be a control file's directory (`-C "$X/.config"`, `-C "$D"`); else where it stood
      const here: Unplaced[] = [
        ...(to === undefined ? [{ raw: v.raw, operand: v, from: out }] : []),
        ...(relative(v, control.home, f) ? wandered.map((u) => ({ raw: v.raw, operand: joinWords(u.operand!, v), from: u.from! })) : []),
      ];
      for (const u of here) {
        const why = whyUnplaced(u, control, f, glob);
        if (why !== undefined) return { unknown: why };
      }
      more.push(...here);
      next.push(...(to === undefined ? out : leadFrom(to, out, f)));
    }
    wandered.push(...more);
    if (wandered.length > MAX_WANDERS) return { unknown: `\`${w.raw}\` leads to a directory known only at run time` };
    if (absolute) named = true;
    out = [...new Set(next)];
  }
  return named ? { dirs: out.map(f.normalize), named } : { dirs: out.map(f.normalize) };
}

const MAX_WANDERS = 32; // places a run of `-C`s to globs may lead to before the checker stops counting

/**
 * Why a `cd` or `pushd` leads where only the run knows and that could hold a control file, or
 * undefined. An operand known only at run time could be any directory unless its written last name
 * could not be one's (`cd "$d/src"`): one whose last name is all run time (`D=~/.config; cd "$D"`,
 * `cd "$(dirname ~/.config/hey/x)"`) could lead to any (x144 #1). A loop variable's glob (`for d in
 * pkg*; do cd "$d"`) leads where the glob could match, judged against the control files from the directories it
 * starts at.
 */
function whyUnplaced(u: Unplaced, control: ControlFiles, f: Flavour, glob: GlobOptions): string | undefined {
  if (u.again) return `\`${u.raw}\` may run again, in a loop or a function, from where it led`;
  if (!u.operand) return `\`${u.raw}\` leads to a directory known only at run time`;
  const why = `\`${u.operand.raw}\` is a directory known only at run time`;
  if (u.operand.glob && !u.operand.unknown && !u.operand.anyValue && u.from) {
    const to = expand(u.operand, control.home);
    if (to === undefined) return why;
    const patterns = expandBraces(to)
      .flatMap((t) => leadFrom(t, u.from!, f))
      .map(f.normalize);
    const fold = control.fold || f === WINDOWS || glob.nocase;
    const dotglob = glob.dotglob;
    const reaches = (glob: string[], path: string) => {
      const dir = f.normalize(path).split(/[\\/]/).filter(Boolean).slice(0, -1);
      return glob.length <= dir.length && glob.every((g, k) => matchesName(fold ? g.toLowerCase() : g, fold ? dir[k]!.toLowerCase() : dir[k]!, dotglob));
    };
    if (patterns.some((p) => control.paths.some((c) => reaches(p.split(/[\\/]/).filter(Boolean), c)))) return why;
    // a name it matches now may be a link (`hm` to the home, x151 #5): each judged where it really leads
    if (f !== POSIX || !control.names) return undefined;
    const holds = (d: string) => control.paths.some((c) => (fold ? c.toLowerCase() : c).startsWith(`${fold ? d.toLowerCase() : d}/`));
    for (const p of patterns) {
      const found = globMatches(p, control.names, { dotglob, fold });
      if (!Array.isArray(found)) return `${why}: ${found.unknown}`;
      for (const m of found) {
        const real = control.realDir?.(m);
        if (typeof real === "object") return `${why}: ${real.unknown}`;
        if (holds(f.normalize(m))) return why;
        if (real !== undefined && holds(f.normalize(real))) return `\`${u.operand.raw}\` matches ${m}, which leads to ${real}`;
      }
    }
    return undefined;
  }
  const names = new Set<string>();
  for (const p of control.paths) {
    const parts = f.normalize(p).split(/[\\/]/).filter(Boolean);
    for (const part of parts.slice(0, -1)) names.add(part);
  }
  const last = lastComponent(runtimeGlob(u.operand.raw));
  if (/^\.{0,2}$/.test(last) || !/[^\0]/.test(last) || [...names].some((n) => matchesName(last, n))) return why;
  return undefined;
}

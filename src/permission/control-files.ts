// hey's own control files (issue 24): while a permission list is set, no bash redirection may write
// them — the user config, trust.json, a project's `.hey/config.toml` — or the agent could widen its
// own rules. The caller names the files (hey's directories are not the checker's to compute) and
// says whether a path is one of them by another name (a link, a hard link: the file system is the
// caller's to read). A target decided at run time, or relative to a directory known only at run
// time, could be a link to one of them, so it is refused. git's own files in any repository count
// too (inGit): its config and hooks run commands at the next `git status`. Pure.
import { harmless } from "./match.ts";
import type { Redirect, Segment, Word } from "./shell-model.ts";

/**
 * The files, as absolute paths, and what the checker needs to resolve a target: the user's home
 * (`~`), the directory commands start in, and `named`, which says whether writing an absolute
 * path (`..` and links not yet resolved) would write one of the files; without it, names are
 * compared as written; a string: why that cannot be told (a path that did not answer in time).
 */
export interface ControlFiles {
  paths: string[];
  /** directories no write may land in, and why (hey's cache, whose ripgrep the grep tool runs; the tools' PATH directories the user can write) */
  guarded?: Guarded[];
  home?: string;
  cwd?: string;
  /** the values the commands get of the variables a word's text may be read with (control-globs.ts KNOWN_VARIABLES; HOME is `home`) */
  vars?: Readonly<Record<string, string | undefined>>;
  /** names compare case-insensitively (macOS, Windows) */
  fold?: boolean;
  named?(abs: string): boolean | string;
  /** how many names the regular file at the absolute `abs` has (hard links), undefined when no regular file is there; `unknown`: it did not answer in time */
  links?(abs: string): number | undefined | { unknown: string };
  /** the git config setting that makes a `git push` from the absolute directory `dir` without refspecs force (fs/git-config-files.ts), or undefined */
  pushForcing?(dir: string): string | undefined;
  /** the aliases (lower-case name to last value) in the early config a git run from the absolute `dir` reads, each submodule's `update = !CMD`, and help.autocorrect where it lets git run a guess (fs/git-config-files.ts), or why they are unknown */
  gitAliases?(dir: string): { aliases: Map<string, string>; updates?: Map<string, string>; autocorrect: string | undefined } | { unknown: string };
  /** what is at the absolute path now (fs/real-target.ts fileState): nothing, an empty file, or anything else; undefined: it did not answer in time */
  fileState?(abs: string): "none" | "empty" | "data" | undefined;
  /** whether the absolute path `abs` is, through a link (symbolic or hard), the file at the absolute `named`, or (`under`) a file below that directory (config/control-context.ts); "maybe": a file with other hard links, under a directory too large to search; `unknown`: why it cannot be told (a path that did not answer in time) */
  sameFile?(abs: string, named: string, under: boolean): boolean | "maybe" | { unknown: string };
  /** the `scripts` of the package.json in the absolute directory `dir` (fs/package-scripts.ts): undefined when there is no package.json there, none when it holds none or cannot be read, or why it was not read */
  packageScripts?(dir: string): Record<string, string> | string | undefined;
  /** the absolute directories of the packages the workspace rooted at the absolute `dir` declares (fs/workspace-packages.ts), none when it is no workspace's root, or why they are unknown */
  workspacePackages?(dir: string): string[] | { unknown: string };
  /** why writing the absolute path `abs` writes what git runs commands from, found by what it is (fs/git-places.ts): in a git directory whatever its name, a config file git reads from the start directory, any of `from` or `abs`'s own (an included one too), the hooks directory core.hooksPath names; undefined: none; `unknown`: why it cannot be told */
  gitOwn?(abs: string, from?: readonly string[]): string | { unknown: string } | undefined;
  /** the top of the work tree a git run in the absolute directory `dir` (with `gitDir`: `--git-dir`) acts on (fs/git-places.ts workTreeTop), undefined outside a repository, or why it did not answer in time */
  workTreeTop?(dir: string, gitDir?: string): string | undefined | { unknown: string };
  /** whether `name` could be a revision (a branch, a tag, a remote's branch, `HEAD~1`) in the repository of the absolute `dir` (fs/git-refs.ts): `git checkout NAME` then switches to it, a file of that name there or not; `unknown`: it did not answer in time */
  gitRevision?(dir: string, name: string): boolean | { unknown: string };
  /** whether the file at the absolute `abs` is in its repository's index but in no commit HEAD names (fs/git-staged.ts): a `git stash` or `reset --hard` takes it away; `unknown`: why that could not be told (no answer in time, an object a partial clone lacks) */
  stagedOnly?(abs: string): boolean | { unknown: string };
  /** the absolute directory (or file, there or not) `dir` with its links resolved (where pnpm and yarn look above for a workspace's root; where a write lands), or why it did not answer in time */
  realDir?(dir: string): string | { unknown: string };
  /** the names in the absolute directory `dir`, links followed (where a loop's glob looks for what it matches); undefined when it is no directory; `unknown`: why they were not read */
  names?(dir: string): string[] | undefined | { unknown: string };
  /** every entry below the absolute directory `dir` and its kind (`f` file, `h` file with other hard links, `d`, `l` link, `o` other), links not followed, `more` past 10,000, `top`: the kind of `dir` when it is no directory (fs/disk-walks.ts treeBelow); "maybe": a part unreadable; `unknown`: it did not answer in time */
  tree?(dir: string): { entries: [string, string][]; more?: true; top?: string } | "maybe" | { unknown: string };
}

/** Why a guarded place is: hey's cache, a PATH directory, git's global config (the words a refusal says). */
export const CACHE_WHY = "in hey's cache, whose ripgrep the grep tool runs";
export const PATH_WHY = "in a directory on the commands' PATH, whose programs the tools run";
export const COPIES_WHY = "in hey's copies of your approved instruction files";
export const GIT_CONFIG_WHY = "git's global config, whose settings run commands";

/** A directory (or file) no write may land in, why, whether it is git's (its global config), whether only what is directly in it counts (a PATH directory), and where it really is (links resolved once, when the check is built). */
/** `except`: directories inside `dir` that are not guarded (the work trees checked out inside a bare clone) */
export type Guarded = { dir: string; why: string; git?: true; shallow?: true; real?: string; except?: string[] };

/** Redirections that open their target for writing (`>&2` and `>&-` duplicate or close an fd instead). */
export function writes(r: Redirect): boolean {
  const op = r.op.replace(/^\d+/, "");
  if (op === ">&") return !/^(\d+|-)$/.test(r.target.text) || r.target.unknown;
  return [">", ">>", ">|", "<>", "&>", "&>>"].includes(op);
}

/** How paths are written where the commands run: POSIX, or Windows seen through Git Bash. */
export interface Flavour {
  /** the absolute path `path` names as written, or undefined when it is relative */
  absolute(path: string): string | undefined;
  /** `.` and `..` resolved, separators joined; `..` above the root stays at the root; on Windows lowercase */
  normalize(path: string): string;
  join(dir: string, path: string): string;
}

function normalizeUnder(root: string, rest: string, separators: RegExp, sep: string): string {
  const out: string[] = [];
  for (const part of rest.split(separators)) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return root + out.join(sep);
}

export const POSIX: Flavour = {
  absolute: (path) => (path.startsWith("/") ? path : undefined),
  normalize: (path) => normalizeUnder("/", path, /\//, "/"),
  join: (dir, path) => `${dir}/${path}`,
};

// `C:\…` or `C:/…`; `\\server\share\…`; MSYS's `/c/…`, Cygwin's `/cygdrive/c/…` and WSL's `/mnt/c/…`
// (a configured WSL bash) for drive C:
const DRIVE = /^([A-Za-z]):[\\/]/;
const UNC = /^[\\/]{2}[^\\/]/;
const MSYS_DRIVE = /^\/(?:cygdrive\/|mnt\/)?([A-Za-z])(?=\/|$)/;

export const WINDOWS: Flavour = {
  absolute(path) {
    const msys = MSYS_DRIVE.exec(path);
    if (msys) return `${msys[1]}:\\${path.slice(msys[0].length)}`;
    // `/tmp/…` is under Git's own install, not a drive's root: absolute, and none of hey's files
    return DRIVE.test(path) || UNC.test(path) || path.startsWith("/") || path.startsWith("\\") ? path : undefined;
  },
  normalize(path) {
    const root = DRIVE.exec(path)?.[0] ?? (UNC.test(path) ? "\\\\" : "\\");
    return normalizeUnder(root.replace("/", "\\"), path.slice(root === "\\" ? 0 : root.length), /[\\/]/, "\\").toLowerCase();
  },
  join: (dir, path) => `${dir}\\${path}`,
};

/**
 * Whether the paths are Windows ones — the start directory is `C:\…` or `\\server\…`, so Git
 * Bash runs the commands: there `C:\…`, `C:/…` and MSYS's `/c/…` are absolute, a backslash
 * separates names too, and names compare case-insensitively.
 */
export const onWindows = (control: ControlFiles) => !!control.cwd && (DRIVE.test(control.cwd) || UNC.test(control.cwd));

/** A project's own control file (`.hey/config.toml`, `.mcp.json`), as against the user's (config, trust, approvals): its end. */
export const PROJECT_FILE = /[\\/]\.hey[\\/][^\\/]+$|[\\/]\.mcp\.json$/i;
export const projectFile = (path: string) => PROJECT_FILE.test(path);

export const decided = (w: Word) => !w.unknown && !w.glob && !w.anyValue;

/** `~` and `~/…` with the user's home; undefined for `~user` or an unknown home. */
export function expand(w: Word, home: string | undefined): string | undefined {
  if (!w.raw.startsWith("~")) return w.text;
  const slash = w.text.indexOf("/");
  if ((slash < 0 ? w.text.slice(1) : w.text.slice(1, slash)) || !home) return undefined;
  return home + (slash < 0 ? "" : w.text.slice(slash));
}

const MAX_DIRS = 32; // directories a script's `cd`s may lead to before the checker stops counting

/** A `cd` or `pushd` whose directory only the run knows: its words as written, and (`operand`) the operand known only at run time, when that is why. */
export interface Unplaced {
  raw: string;
  operand?: Word;
  /** the directories a relative operand is taken from */
  from?: string[];
  /** a relative one in a loop's or a function's body: each pass starts where the last one left */
  again?: true;
}

/**
 * Where the script's commands may stand: the start directory, and every directory a `cd` or
 * `pushd` with a known operand may lead to from any of them (as written, with `..` taken
 * lexically, as `cd -L` does, and for `cd -P` or after `set -P` once links are resolved); `unplaced`: the
 * `cd`s that lead somewhere only the run knows (an operand decided then, `cd -`, two operands,
 * `~user`, a command word decided then, which could be `cd`, a relative one that may run again in a
 * loop's or a function's body, or past MAX_DIRS directories; after one to a glob or a run-time word, a
 * relative one as one word with it: `cd s?c; cd ../x` as `s?c/../x`). The directories known before
 * and after one still count: a `cd` that fails or leads nowhere new stays.
 */
export function placesReached(segments: Segment[], control: ControlFiles, f: Flavour): { dirs: string[]; unplaced: Unplaced[] } {
  if (!control.cwd) return { dirs: [], unplaced: [] };
  let dirs = [control.cwd];
  const unplaced: Unplaced[] = [];
  // `set -P` (`set -o physical`) makes every `cd` take the physical path
  const setPhysical = segments.some((s) => s.words[0]?.text === "set" && s.words.some((w) => /^-[a-zA-Z]*P|^physical$/.test(w.text)));
  // the `cd`s to a glob or a run-time word so far, and where a later relative one leads from them: their operand and its words, as one word
  const wandered: Unplaced[] = [];
  const below = (value: Word): Unplaced[] => {
    const more = wandered.map((u) => ({ raw: u.raw, operand: joinWords(u.operand!, value), ...(u.from && { from: u.from }) }));
    if (wandered.length + more.length > MAX_DIRS) return [{ raw: value.raw }];
    wandered.push(...more);
    return more;
  };
  for (const seg of segments) {
    const [first, ...args] = seg.words;
    if (!first) continue;
    if (!decided(first)) {
      unplaced.push({ raw: seg.raw });
      continue;
    }
    if (first.text !== "cd" && first.text !== "pushd") continue;
    let k = 0;
    while (k < args.length && decided(args[k]!) && /^-[LPe@n]+$/.test(args[k]!.text)) k++;
    const noChdir = args.slice(0, k).some((o) => o.text.includes("n"));
    if (args[k] && decided(args[k]!) && args[k]!.text === "--") k++;
    const rest = args.slice(k);
    if (first.text === "pushd" && (noChdir || !rest.length || /^[+-]\d+$/.test(rest[0]!.text))) continue; // no new directory: -n, or a rotation
    // a loop variable over words the checker sees (`for d in ~/.local/state; do cd "$d"`) leads where each of
    // them does, each from where the ones before it led: without a subshell the next `cd` starts there (x151 #4)
    const values = rest.length === 1 ? operandValues(rest[0]!) : [rest[0]];
    const physical = args.slice(0, k).some((o) => o.text.includes("P")) || setPhysical;
    for (const value of values) {
      // in a loop's or a function's body a relative one runs again from where it led (`for i in 1 2; do cd ..; done`)
      if (seg.repeats && value && relative(value, control.home, f)) {
        unplaced.push({ raw: seg.raw, again: true });
        continue;
      }
      if (value && !decided(value)) {
        const here = { raw: seg.raw, operand: value, from: dirs };
        unplaced.push(here, ...(relative(value, control.home, f) ? below(value) : []));
        wandered.push(here);
        continue;
      }
      const to = value ? expand(value, control.home) : control.home;
      if (rest.length > 1 || value?.text === "-" || to === undefined) {
        unplaced.push({ raw: seg.raw });
        continue;
      }
      // from where a `cd` to a glob or a run-time word may have led, a relative one leads on below it (`cd s?c; cd ../../x`)
      if (wandered.length && f.absolute(to) === undefined) {
        if (physical) unplaced.push({ raw: seg.raw });
        else unplaced.push(...below(value!));
      }
      const reached = leadFrom(to, dirs, f);
      // `cd -P dirlink/..` goes where the link really leads, then up: `~/.config` when dirlink is `~/.config/hey`
      const real = physical ? reached.map((d) => control.realDir?.(d)).filter((d): d is string => typeof d === "string") : [];
      const more = [...new Set([...dirs, ...reached, ...reached.map(f.normalize), ...real.map(f.normalize)])];
      if (more.length > MAX_DIRS) {
        unplaced.push({ raw: seg.raw });
        continue;
      }
      dirs = more;
    }
  }
  return { dirs, unplaced };
}

/** The words a `cd` or `git -C` operand stands for: a double-quoted loop variable's list words (loop-variables.ts), else itself. */
export const operandValues = (w: Word): Word[] => (decided(w) ? [w] : (w.loopValues ?? [w]));

/** Where the operand `to` (`~` expanded) leads from each of `from`: itself when absolute. */
export function leadFrom(to: string, from: string[], f: Flavour): string[] {
  const abs = f.absolute(to);
  return abs !== undefined ? [abs] : from.map((d) => f.join(d, to));
}

/** Whether the operand could be a relative path: a run-time word could be either. */
export function relative(w: Word, home: string | undefined, f: Flavour): boolean {
  const to = w.unknown || w.anyValue ? undefined : expand(w, home);
  return to === undefined || f.absolute(to) === undefined;
}

/** `a` and then `b` below it, as one word (`pkg?` then `../x` is `pkg?/../x`), run-time or glob as either is. */
export function joinWords(a: Word, b: Word): Word {
  return {
    text: `${a.text}/${b.text}`,
    raw: `${a.raw}/${b.raw}`,
    unknown: a.unknown || b.unknown,
    glob: a.glob || b.glob,
    ...((a.anyValue || b.anyValue) && { anyValue: true }),
  };
}

/** The directories placesReached finds, or undefined when a `cd` leads somewhere only the run knows. */
export function directories(segments: Segment[], control: ControlFiles, f: Flavour): string[] | undefined {
  const { dirs, unplaced } = placesReached(segments, control, f);
  return unplaced.length || !control.cwd ? undefined : dirs;
}

/**
 * A name git reads as `.git` — a repository's directory, or the file a worktree or a submodule
 * holds instead — in any case (`.GIT` is `.git` on macOS and Windows), with the trailing dots and
 * spaces Windows drops, its short name `git~1`, and NTFS's names for the directory's own index stream
 * (`.git::$INDEX_ALLOCATION`, `.git:$I30:$INDEX_ALLOCATION`: git's CVE-2019-1352).
 */
const GIT_NAME = /^(?:\.git[. ]*|git~1)(?:::\$INDEX_ALLOCATION|:\$I30:\$INDEX_ALLOCATION)?$/i;

/**
 * Whether `path` is git's own: anything in a `.git` directory (`config`, `hooks/…`, `info/…`) or a
 * `.git` file. Its config and hooks run commands (`core.fsmonitor` at the next `git status`), in
 * any repository, a nested one the agent made too, so while a list is set they are control files.
 */
export const inGit = (path: string) => path.split(/[\\/]/).some((part) => GIT_NAME.test(part));

/**
 * Whether writing one of the absolute `paths` writes git's own files: "" as written (inGit), "by
 * another name" once links are resolved, what git runs from there found by what it is
 * (`control.gitOwn`, looked at from the directories `from` a script may stand in), why that cannot
 * be told, or undefined.
 */
export function gitReach(paths: string[], control: ControlFiles, f: Flavour, from?: readonly string[]): string | { unknown: string } | undefined {
  if (paths.some((p) => inGit(f.normalize(p)))) return "";
  for (const p of paths) {
    const real = control.realDir?.(p);
    if (typeof real === "object") return real;
    if (real !== undefined && inGit(real)) return "by another name";
    const own = control.gitOwn?.(p, from);
    if (own !== undefined) return own;
  }
  return undefined;
}

/** Why writing one of the absolute `paths` lands in a directory the guard keeps (`control.guarded`, as written or through links), or undefined; `self`: the directory itself counts too. */
export function guardedBy(paths: string[], control: ControlFiles, f: Flavour, self = true): string | { git: string } | undefined {
  const sep = f === WINDOWS ? "\\" : "/";
  const inside = (p: string, d: string, shallow?: true) =>
    (self && p === d) || (shallow ? p.slice(0, p.lastIndexOf(sep)) === d.replace(/[\\/]$/, "") : p.startsWith(d.endsWith(sep) ? d : d + sep));
  // as written, and once links are resolved (`lk/rg` where lk is hey's cache; a path that did not answer stays as written)
  const real = (p: string) => {
    const r = control.realDir?.(p);
    return typeof r === "string" ? f.normalize(r) : f.normalize(p);
  };
  const spelled = paths.flatMap((p) => [f.normalize(p), real(p)]);
  const hit = control.guarded?.find((g) =>
    spelled.some(
      (p) =>
        (inside(p, f.normalize(g.dir), g.shallow) || (g.real !== undefined && inside(p, f.normalize(g.real), g.shallow))) &&
        !g.except?.some((e) => p === f.normalize(e) || p.startsWith(f.normalize(e) + sep)),
    ),
  );
  return hit && (hit.git ? { git: hit.why } : hit.why);
}

/**
 * Could writing the redirection's target write a control file, from a script standing in one of
 * `dirs`? How, as a phrase for the refusal ("" when it names one as written), or undefined;
 * `git`: one of git's own files (inGit).
 */
function reaches(target: Word, control: ControlFiles, dirs: string[] | undefined, f: Flavour): string | { unknown: string } | { git: string } | undefined {
  if (!decided(target)) return "its name is known only at run time"; // any name, and any name could be a link to a control file
  const text = expand(target, control.home);
  if (text === undefined) return "`~` names a home the checker does not know"; // another user's, or ours unknown: could be anything
  // Windows: `C:foo` is relative to drive C:'s own current directory, which only the run knows
  if (f === WINDOWS && /^[A-Za-z]:(?![\\/])/.test(text)) return "it is relative to a directory known only at run time";
  const abs = f.absolute(text);
  const paths = abs !== undefined ? [abs] : dirs?.map((d) => f.join(d, text));
  if (!paths) return "it is relative to a directory known only at run time";
  const controls = control.paths.map(f.normalize);
  if (paths.some((p) => controls.includes(f.normalize(p)))) return "";
  const named = paths.map((abs) => control.named?.(abs));
  if (named.includes(true)) return "by another name";
  const unknown = named.find((n) => typeof n === "string");
  if (unknown !== undefined) return { unknown };
  const guarded = guardedBy(paths, control, f);
  if (guarded) return guarded;
  const git = gitReach(paths, control, f, dirs);
  return typeof git === "string" ? { git } : git;
}

/**
 * The first redirection among `segments` that could write a control file, as it was written, and
 * how (see reaches), or (`unknown`) why hey cannot tell whether it does. In a command run in another
 * directory or root (`env -C`, `find -execdir`, `chroot`), every file a redirection names could be one.
 */
export function controlWrite(segments: Segment[], control: ControlFiles): { redirect: string; how: string; unknown?: string; git?: true } | undefined {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const dirs = directories(segments, control, f);
  for (const seg of segments)
    for (const r of seg.redirects) {
      if (!writes(r) || harmless(r)) continue;
      const how = seg.elsewhere ? "its command runs in another directory" : reaches(r.target, control, dirs, f);
      if (typeof how === "object")
        return "git" in how
          ? { redirect: `${r.op} ${r.target.raw}`, how: how.git, git: true }
          : { redirect: `${r.op} ${r.target.raw}`, how: "", unknown: how.unknown };
      if (how !== undefined) return { redirect: `${r.op} ${r.target.raw}`, how };
    }
  return undefined;
}

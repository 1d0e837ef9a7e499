// hey's control files named as a program's argument (issue 24, beyond redirections): `cp x
// ~/.config/hey/config.toml`, `tee -a .hey/config.toml`, `sed -i … ~/.local/state/hey/approvals.json`,
// `ln -sf /tmp/x .hey/config.toml`, `dd of=…`, `git checkout other -- .hey/config.toml`, `cp x
// ~/.config/hey/` (the directory holding one), `mv ~/.local/state x` or `rm -rf ~/.config` (a
// directory above one). While a list is set, a command whose words name a
// control file or its directory (for mv and rm, any directory above it but the root and those above the start directory, the home excepted) — as written, after `~`, relative to any directory a `cd` may lead
// to, through a link, or spelled with a variable around the file's own last two names
// (`"$HOME/.config/hey/config.toml"`) — is refused, unless its program only reads (`cat`, `grep`,
// `git diff`). This sees names, not what a program does with them: `cp -r evil/.hey .`, `tar -x`,
// a script or an interpreter can still write the files, which the approvals record
// (config/guard.ts) then holds back until the user says yes. git's own files in any repository
// (`.git/config`, `.git/hooks/…`, a `.git` file: control-files.ts inGit) are refused the same way,
// except as the values of git's own options before its subcommand (`git --git-dir=sub/.git log`).
// A glob or a word known only at run time is matched against all of these (control-globs.ts), and
// so are the directories `control.guarded` keeps (hey's cache, PATH's, git's global config files).
// Pure: `named` and `realDir` do the file system's part.
import {
  type ControlFiles,
  decided,
  directories,
  expand,
  type Flavour,
  gitReach,
  guardedBy,
  inGit,
  onWindows,
  POSIX,
  projectFile,
  WINDOWS,
} from "./control-files.ts";
import { expandBraces, GIT_NAMES, globMatches, globOptions, lastComponent, matchesDirectly, matchesName, matchesPath, runtimeGlob } from "./control-globs.ts";
import { gitOperandDirs } from "./git-targets.ts";
import { readGit } from "./git.ts";
import { addedWorktree, gitDestinations, worktreeInGitDir } from "./git-trees.ts";
import { program } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";
import { patchWrites } from "./patch-paths.ts";
import { sedWrites } from "./sed-scripts.ts";
import { guards, reads } from "./named-readers.ts";
import { splitNames } from "./split-names.ts";
import { findPatterns } from "./find-filters.ts";
import { treeChange } from "./tree-changes.ts";

const parent = (path: string, f: Flavour) => f.normalize(path).replace(/[\\/][^\\/]*$/, "") || f.normalize(path);

const RUNTIME_NAME = "its name is known only at run time";

/** Programs that move or delete the directories they name, and all below them. */
const MOVERS = new Set(["mv", "rm", "move-item", "remove-item", "mi", "ri", "del", "erase", "rd", "rmdir", "move", "trash", "trash-put"]);
/** Of those, the ones that only delete: the directory hey's cache is in may go (`rm -rf ~/.cache/hey`), nothing may be put there. */
const REMOVERS = new Set(["rm", "remove-item", "ri", "del", "erase", "rd", "rmdir", "trash", "trash-put"]);

/**
 * Whether the segment's program moves or deletes what it names: a mover, find with an action (a
 * reader otherwise), `rsync --remove-source-files` or `--delete`, `gio trash|remove|move`, `git rm|mv`, a tree changer.
 */
function moves(seg: Segment): boolean {
  const first = seg.words[0];
  if (!first || !decided(first)) return false;
  const name = program(first.text);
  const texts = seg.words.slice(1).map((w) => (decided(w) ? w.text : "*"));
  if (name === "find") return true;
  // `--delete` empties what the destination holds that the source does not: `rsync -a --delete empty/ ~/.local/state/`
  if (name === "rsync") return texts.some((t) => /^--remove-(source|sent)-files$/.test(t) || /^--del(ete(-[a-z]+)?)?$/.test(t) || t === "*");
  if (name === "gio") return ["trash", "remove", "rm", "move", "mv", "*"].includes(texts[0] ?? "");
  // and what changes the tree of a directory it names as it would the one it runs in (tree-changes.ts): `git init ~/.local/state`, `tar -xf x.tar -C ~/.config`
  if (name === "git") return ["rm", "mv", "*"].includes(texts.find((t) => !t.startsWith("-")) ?? "") || treeChange(seg) !== undefined;
  return MOVERS.has(name) || treeChange(seg) !== undefined;
}

/** A refusal's how for a name a command makes (a patch's path, csplit's joined name): what it is, and how it names the file. */
const joinHow = (note: string, how: string) => (how ? `${note}, ${how}` : note);

const lastName = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? "";

/** The directories above `dir` (normalized), the root excluded. */
function ancestorsOf(dir: string, f: Flavour): string[] {
  const out: string[] = [];
  for (let d = parent(dir, f); d !== dir && !/^([\\/]|[A-Za-z]:[\\/]?)$/.test(d); d = parent(d, f)) {
    out.push(d);
    dir = d;
  }
  return out;
}

/** The last two names of a path (`hey/config.toml`, `.hey/config.toml`), as a word spelled with variables may still show them. */
const tail = (path: string) => path.split(/[\\/]/).slice(-2).join("/");

/**
 * The first word among `segments` naming a control file or the directory that holds one, for a
 * program that may write it, and how ("" as written, "by another name", "by its last names"), or undefined.
 * `allowing`: an allow list judges it, under which what find's `-exec` reaches is judged, not its patterns.
 */
export function controlArgument(
  segments: Segment[],
  control: ControlFiles,
  allowing = false,
): { word: string; how: string; unknown?: string; git?: true } | undefined {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const dirs = directories(segments, control, f);
  const controls = control.paths.map(f.normalize);
  const names = control.paths.map((p) => p.split(/[\\/]/).pop()!);
  // directories that hold a control file, but not the start directory or one above it (a project's `.mcp.json`: `git add .` stays)
  // (and only while every control file below it is a project's: started in ~/.config/nvim, `tar -xf x.tar -C ..` replaces hey's config)
  const started = (d: string) => !!control.cwd && (f.normalize(control.cwd) + "/").startsWith(d.replace(/[\\/]?$/, "/"));
  const sep = f === WINDOWS ? "\\" : "/";
  const above = (d: string) => started(d) && controls.every((c) => !(c + sep).startsWith(d.replace(/[\\/]?$/, sep)) || projectFile(c));
  const holders = control.paths.map((p) => parent(p, f)).filter((d) => !above(d));
  // and the directories above those but the root, for mv and rm: `mv ~/.local/state x` takes approvals.json away as moving its own
  // directory does; not the start directory or one above it but the home (`rm -rf .` in a project is the deny list's to judge)
  const home = control.home === undefined ? undefined : f.normalize(control.home);
  const ancestors = holders.flatMap((d) => ancestorsOf(d, f)).filter((a) => !above(a) || a === home);
  const tails = control.paths.map((p) => tail(p).toLowerCase());
  // macOS and Windows fold case: `~/.LOCAL/state` is `~/.local/state` there
  const fold = (p: string) => (control.fold ? p.toLowerCase() : p);
  const foldedAncestors = ancestors.map(fold);
  /** the path with its links resolved (`lk/state` where lk is ~/.local), as far as the probe answers */
  const resolved = (p: string) => {
    const real = control.realDir?.(p);
    return f.normalize(typeof real === "string" ? real : p);
  };
  // bash's dotglob lets `*` and `?` match a leading `.`, its nocaseglob `CONFIG.TOM?` match config.toml
  const { dotglob, nocase } = globOptions(segments);
  /** whether a word's text ends with, or names a file under, a control file's last two names (in any case: macOS and Windows ignore it) */
  const ending = (text: string) => tails.some((t) => text.toLowerCase().endsWith(t) || text.toLowerCase().includes(`${t}/`));
  let words: Word[] = []; // the segment's, for gitHeld
  let here = dirs; // where the word being judged is relative to: for a directory git makes, where its `-C`s lead
  let worktree = false; // whether it is the directory `git worktree add` makes
  for (const seg of segments) {
    words = seg.words;
    // a wrapper's own words ("words") can name a file it writes: `logsave FILE`, `strace -o FILE`, `time -o FILE`, `valgrind --log-file=FILE`
    if (seg.inert === "builtin" || reads(seg)) continue;
    // mkdir(1) makes a directory that is not there and writes nothing in it: naming the one holding a control file (`mkdir -p .hey`) writes no control file
    const makes = decided(seg.words[0]!) && program(seg.words[0]!.text) === "mkdir";
    // git's own options name the repository it works in, not a file it writes
    const gitOptions = decided(seg.words[0]!) && program(seg.words[0]!.text) === "git" ? (readGit(seg.words)?.sub ?? 0) : 0;
    // the directories git makes or fills (clone's destination, worktree add's, init's) are relative to where its `-C`s lead
    const placed = gitOptions ? gitDestinations(seg.words) : new Set<number>();
    const moved = placed.size ? gitOperandDirs(seg.words, dirs, control.home, f) : dirs;
    const added = placed.size ? addedWorktree(seg.words) : undefined;
    const removes = moves(seg);
    const only = removes && REMOVERS.has(program(seg.words[0]!.text));
    const guarding = guards(seg); // sed's `w FILE` writes: below
    // find's `-name config.toml`, `-path ./.git`: patterns; what its `-delete` reaches is judged apart, and its `-exec`'s `{}` under an allow list (filled-words.ts)
    const patterns =
      decided(seg.words[0]!) && program(seg.words[0]!.text) === "find" && (allowing || !/-(exec|execdir|ok|okdir)\b/.test(seg.raw))
        ? findPatterns(seg.words)
        : undefined;
    for (const [k, w] of seg.words.entries()) {
      if (k === 0 || patterns?.has(k)) continue;
      // `of=x`, `--target-directory=x`: the value, then the word
      const values = [
        ...((decided(w) || (w.glob && !w.unknown && !w.anyValue)) && /^[^=/]+=./.test(w.text)
          ? [{ ...w, raw: w.raw.slice(w.raw.indexOf("=") + 1), text: w.text.slice(w.text.indexOf("=") + 1) }]
          : []),
        w,
      ];
      here = placed.has(k) ? moved : dirs;
      worktree = w === added;
      for (const v of values) {
        // git's options before its subcommand (`-c core.pager=/usr/bin/less`, `--exec-path`) write nothing in a guarded place
        const how = naming(v, !makes, k > gitOptions, removes, only, guarding && k > gitOptions);
        if (typeof how === "object") return "git" in how ? { word: w.raw, how: how.git, git: true } : { word: w.raw, how: "", unknown: how.unknown };
        if (how !== undefined) return { word: w.raw, how };
      }
    }
    here = dirs;
    worktree = false;
    // the files a patch on stdin writes, the name csplit or split makes of two words, sed's `w FILE`: judged as words it names
    const patch = patchWrites(seg, segments);
    const beyond = patch ?? splitNames(seg) ?? sedWrites(seg);
    if (beyond && "unknown" in beyond) return { word: beyond.word, how: "", unknown: beyond.unknown };
    const unread = patch && "names" in patch && patch.unread ? unreadPatch(patch.unread.directory) : undefined;
    if (unread) return { word: seg.words[0]!.raw, ...unread };
    for (const { word: given, note, top } of beyond?.names ?? []) {
      const v = top ? fromTop(given, top) : given;
      if (v === undefined) continue;
      if (!("text" in v)) return { word: given.raw, how: "", unknown: v.unknown };
      // a joined name's folder may be a link (`-f dirlink/con -b 'fig.toml%.0d'`, r1 #9): judged where it leads too
      for (const u of [v, ...linked(v)]) {
        if (!("text" in u)) return { word: v.raw, how: "", unknown: u.unknown };
        const how = naming(u, !makes, true, false, false, true);
        if (typeof how === "object")
          return "git" in how ? { word: v.raw, how: joinHow(note, how.git), git: true } : { word: v.raw, how: "", unknown: how.unknown };
        if (how !== undefined) return { word: v.raw, how: joinHow(note, u === v ? how : `${how || "by another name"}, through a link`) };
      }
    }
  }
  return undefined;

  /**
   * GNU patch given a patch hey cannot read (`-i FILE`, `< FILE`, a pipe) writes any name below where
   * it runs: it refuses `..` and absolute names, not `.git/hooks/pre-commit` (r1 #12). Where a git
   * directory is right there (`-d DIR` from each place a `cd` leads), why; a `.git` deeper down (a
   * nested clone) is not looked for.
   */
  function unreadPatch(directory: string | undefined): { how: string; git: true } | { how: string; unknown: string } | undefined {
    const at = directory === undefined ? undefined : expand({ text: directory, raw: directory, unknown: false, glob: false }, control.home);
    for (const d of dirs ?? []) {
      const from = at === undefined ? d : (f.absolute(at) ?? f.join(d, at));
      const own = control.gitOwn?.(f.normalize(f.join(f.join(from, ".git"), "config")));
      if (typeof own === "object") return { how: "", unknown: own.unknown };
      if (own !== undefined)
        return {
          how: "GNU patch given a patch hey cannot read may write any name below where it runs, `.git/hooks` too: pass the patch as a heredoc, or use `git apply FILE`, which writes no path in .git",
          git: true,
        };
    }
    return undefined;
  }

  /**
   * A name a program joins (csplit's, split's: a glob) with its folder's links resolved, as an
   * absolute glob, for each folder it may be now (a `*` in the folder matched against what is there);
   * none where no link leads elsewhere; `unknown` where a look did not answer in time.
   */
  function linked(w: Word): (Word | { unknown: string })[] {
    if (!w.glob || w.unknown || !control.realDir) return [];
    const text = expand(w, control.home) ?? w.text;
    const abs = f.absolute(text);
    const out: (Word | { unknown: string })[] = [];
    for (const p of (abs !== undefined ? [abs] : (dirs ?? []).map((d) => f.join(d, text))).map(f.normalize)) {
      const cut = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
      const [folder, last] = [p.slice(0, cut) || p.slice(0, 1), p.slice(cut + 1)];
      const found = /[*?[]/.test(folder) ? (f === POSIX && control.names ? globMatches(folder, control.names, { dotglob, fold: nocase }) : []) : [folder];
      if (!Array.isArray(found)) return [found];
      for (const d of found) {
        const real = control.realDir(d);
        if (typeof real === "object") return [real];
        if (f.normalize(real) !== f.normalize(d)) out.push({ ...w, text: f.join(f.normalize(real), last), raw: w.raw });
      }
    }
    return out;
  }

  /** A path git writes from the top of the work tree the directory `top.at` leads to from where it runs (git am's), as an absolute word; undefined outside a repository (judged where it runs). */
  function fromTop(w: Word, top: { at: string; path: string }): Word | { unknown: string } | undefined {
    for (const d of dirs ?? []) {
      const at = f.absolute(top.at) ?? f.join(d, top.at || ".");
      const root = control.workTreeTop?.(f.normalize(at));
      if (typeof root === "object") return root;
      if (root !== undefined) return { ...w, text: f.join(root, top.path) };
    }
    return undefined;
  }

  function naming(
    w: Word,
    holding: boolean,
    git: boolean,
    moving: boolean,
    only: boolean,
    guarding: boolean,
  ): string | { unknown: string } | { git: string } | undefined {
    const spelled = w.raw.replace(/["'\\]/g, "");
    const gits = (text: string) => (git && inGit(text) ? { git: "by its last names" } : undefined);
    if (!decided(w)) {
      if (ending(spelled)) return "by its last names";
      // a last name that is all run-time (`$f`, `"$D"`) could be anything, as any word could: only the ones whose written part could be one count
      if (w.unknown) {
        const last = lastComponent(runtimeGlob(w.raw));
        return gits(spelled) ?? (/[^\0]/.test(last) ? couldName(last, RUNTIME_NAME) : undefined);
      }
      if (w.glob) return globNaming(w);
      return gits(spelled);
    }
    const text = expand(w, control.home);
    if (text === undefined) return tails.some((t) => w.text.includes(t)) ? "by its last names" : gits(w.text);
    const abs = f.absolute(text);
    if (abs === undefined && !here)
      return gits(w.text) ?? (control.cwd ? couldName(lastComponent(text), "it is relative to a directory known only at run time") : undefined);
    // `..` taken as written from where the word is read (`git -C ../bare.git worktree add ../main`: a sibling of bare.git, not a path through it)
    const paths = abs !== undefined ? [abs] : here!.map((d) => f.normalize(f.join(d, text)));
    let unknown: string | undefined; // a path that did not answer in time
    const another = (p: string) => {
      const n = control.named?.(p);
      if (typeof n === "string") unknown ??= n;
      return n === true;
    };
    for (const p of paths) {
      const n = f.normalize(p);
      if (controls.includes(n) || (holding && holders.includes(n))) return "";
      if (moving && (foldedAncestors.includes(fold(n)) || foldedAncestors.includes(fold(resolved(p))))) return "a directory above it";
      const guarded = guarding ? guardedBy([p], control, f, !only) : undefined;
      if (guarded) return guarded;
      const held = git && guarding ? gitHeld(n, resolved(p), holding, moving && !only) : undefined;
      if (held) return { git: held };
      if (another(p)) return "by another name";
      if (holding && names.some((name, i) => holders.includes(parent(control.paths[i]!, f)) && another(f.join(p, name)))) return "by another name";
    }
    if (unknown !== undefined) return { unknown };
    // an option's value in the same word (`-o/home/ana/.config/hey/config.toml`), or a path from a directory known only at run time
    if (ending(w.text)) return "by its last names";
    const reach = git ? gitReach(paths, control, f, here) : undefined;
    // a worktree added right inside a bare clone (`git -C repo.git worktree add main`) is no part of its git directory
    if (reach && worktree && paths.every((p) => worktreeInGitDir(p, control, f))) return undefined;
    if (typeof reach === "string") return { git: reach };
    return reach ?? (git && inGit(w.text.replace(/^-\w/, "")) ? { git: "" } : undefined);

    /**
     * Why the directory `n` (`real` through links) could put a new file where git reads one
     * (control.guarded's git places): a copy or move into the directory holding it of a file or
     * directory of its name (`cp evil/.gitconfig.local ~/`, `cp -r x/.githooks .`; any name
     * there is the place's, so only one that could be its name counts: `cp notes.md ~/` stays), or
     * (moving) a move of it or a directory above it below the start directory (`mv ~/dotfiles old`,
     * `mv evil ~/dotfiles`).
     */
    function gitHeld(n: string, real: string, holding: boolean, moving: boolean): string | undefined {
      const sep = f === WINDOWS ? "\\" : "/";
      const under = (place: string, d: string) => place.startsWith(d.endsWith(sep) ? d : d + sep);
      for (const g of control.guarded ?? []) {
        if (!g.git) continue;
        for (const place of new Set([f.normalize(g.dir), ...(g.real !== undefined ? [f.normalize(g.real)] : [])])) {
          const here = [n, real].map(fold);
          // not the start directory or one above it: `mv x .` is judged by the name rule below
          if (moving && !above(n) && here.some((d) => d === fold(place) || under(fold(place), d))) return g.why;
          if (!(holding || moving) || !here.includes(fold(parent(place, f)))) continue;
          const name = lastName(place);
          if (words.slice(1).some((w) => (decided(w) ? lastName(w.text) === name : w.unknown || matchesName(lastComponent(w.text), name, dotglob))))
            return g.why;
        }
      }
      return undefined;
    }

    /** a name whose directory is unknown: refused when it could be a control file's, its directory's, one git runs commands from, or (moving) a directory above one */
    function couldName(last: string, why: string): string | { git: string } | undefined {
      // `.` or `..` there is a directory known only at run time: `cd .gi?/hooks && cp /tmp/pre-commit .`
      if (why !== RUNTIME_NAME && /^\.{0,2}$/.test(last)) return git ? { git: why } : why;
      if (git && GIT_NAMES.some((n) => (f === WINDOWS || n !== "git~1") && matchesName(last, n, dotglob))) return { git: why };
      const danger = [...names, ...holders.map(lastName), ...(moving ? ancestors.map(lastName) : []), ...(control.guarded ?? []).map((g) => lastName(g.dir))];
      return danger.some((n) => matchesName(last, n, dotglob)) ? why : undefined;
    }

    /** a glob: what it could match, component by component */
    function globNaming(w: Word): string | { git: string } | undefined {
      const text = expand(w, control.home) ?? w.text;
      const abs = f.absolute(text);
      if (abs === undefined && !here) return control.cwd ? couldName(lastComponent(text), "it is relative to a directory known only at run time") : undefined;
      const opts = { dotglob, fold: f === WINDOWS || nocase };
      const patterns = (abs !== undefined ? [abs] : here!.map((d) => f.join(d, text))).flatMap(expandBraces).map(f.normalize);
      const how = "a pattern that could match it";
      for (const p of patterns) {
        if (controls.some((c) => matchesPath(p, c, false, opts)) || (holding && holders.some((h) => matchesPath(p, h, false, opts)))) return how;
        if (moving && ancestors.some((a) => matchesPath(p, a, false, opts))) return "a directory above it, by a pattern";
        const guarded = guarding
          ? (control.guarded ?? []).find(
              (g) =>
                (g.shallow ? matchesDirectly(p, f.normalize(g.dir), opts) : matchesPath(p, f.normalize(g.dir), true, opts)) &&
                !(only && matchesPath(p, f.normalize(g.dir), false, opts)),
            )
          : undefined;
        if (guarded) return guarded.git ? { git: guarded.why } : guarded.why;
        if (git && p.split(/[\\/]/).some((c) => c && (f === WINDOWS ? [".git", "git~1"] : [".git"]).some((n) => matchesName(c, n, dotglob))))
          return { git: how };
      }
      return undefined;
    }
  }
}

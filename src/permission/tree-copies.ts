// A tree copied into a directory (x144 #5): `cp -r x/hey ~/.local/state/` merges x/hey into
// ~/.local/state/hey and overwrites approvals.json; `cp -r x/. ~/.config/` and `rsync -a x/
// ~/.config/` merge x's files into ~/.config (so do `scp -r` and macOS's `ditto`). Neither names a
// control file or the directory holding one, yet each writes them as `cp x
// ~/.config/hey/config.toml` would. The folder a copy lands in — the destination itself for
// `SRC/.`, rsync's `SRC/`, `cp -T` and ditto, else the destination's folder of the source's name
// (that name matched as the shell would, when a glob or a run-time word gives it) — may not hold a
// control file or be above one, but for the project a user works in (the start directory and those
// above it up to the project root, holding none but the project's), where `tar -x` runs too. Pure.
import { type ControlFiles, decided, expand, onWindows, placesReached, POSIX, projectFile, WINDOWS } from "./control-files.ts";
import { expandBraces, globMatches, globOptions, knownVariables, lastComponent, matchesName, matchesPath, runtimeGlob } from "./control-globs.ts";
import { gitDirectories, gitOperandDirs } from "./git-targets.ts";
import { gitTrees } from "./git-trees.ts";
import { program } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";

/**
 * A copy that lands where a control file is: the command, the folder it lands in and the file, or (`why`) the place the guard
 * keeps (control.guarded: git's global config, a PATH directory) and why; `unknown`: a relative destination after a `cd` only the run can place.
 */
export type TreeCopy = { command: string; into: string; file: string; why?: string } | { command: string; unknown: string };

// cp's options that take the next word as their value (GNU coreutils), short and long
const CP_VALUES = { short: "St", long: ["no-preserve", "sparse", "suffix", "target-directory"] };
// scp's (OpenSSH) options that take the next word; its local copies land as cp's do
const SCP_VALUES = { short: "cFiJloPSDX", long: [] };
// macOS ditto's
const DITTO_VALUES = { short: "", long: ["arch", "bom"] };
// rsync's (3.x) options that take the next word, short and long; an unknown long one is taken to take none
const RSYNC_VALUES = {
  short: "efBTM@",
  long: (
    "rsh,rsync-path,filter,exclude,exclude-from,include,include-from,files-from,temp-dir,partial-dir,backup-dir,suffix,chmod,compare-dest," +
    "copy-dest,link-dest,log-file,log-file-format,out-format,password-file,port,timeout,contimeout,bwlimit,max-size,min-size,max-delete," +
    "block-size,modify-window,chown,usermap,groupmap,iconv,checksum-choice,compress-choice,compress-level,skip-compress,sockopts,outbuf," +
    "info,debug,stop-after,stop-at,remote-option,protocol,address,write-batch,read-batch,only-write-batch,copy-as,checksum-seed"
  ).split(","),
};

const COPIERS: Record<string, { short: string; long: string[] }> = { cp: CP_VALUES, rsync: RSYNC_VALUES, scp: SCP_VALUES, ditto: DITTO_VALUES };

/** The first segment copying a tree into a directory that holds a control file or is above one (see above), or undefined. */
export function treeCopy(segments: Segment[], control: ControlFiles): TreeCopy | undefined {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const sep = f === WINDOWS ? "\\" : "/";
  const fold = (p: string) => (control.fold || f === WINDOWS ? p.toLowerCase() : p);
  const within = (p: string, d: string) => fold(p).startsWith(fold(d.endsWith(sep) ? d : d + sep));
  const controls = control.paths.map(f.normalize);
  // and the places the guard keeps (git's global config and what else git runs commands from, the PATH directories, hey's cache):
  // a tree landing on or above one fills it with the tree's files (`git clone . ~/.config/git`, `cp -r x ~/tools` holding `bin/`)
  // (read only once a command copies a tree: where each really is is looked up on disk)
  let keptOnce: { path: string; why: string }[] | undefined;
  const kept = () =>
    (keptOnce ??= (control.guarded ?? []).flatMap((g) =>
      [g.dir, ...(g.real !== undefined ? [g.real] : [])].map((p) => ({ path: f.normalize(p), why: g.why })),
    ));
  const start = control.cwd === undefined ? undefined : f.normalize(control.cwd);
  const home = control.home === undefined ? undefined : f.normalize(control.home);
  const shown = (p: string) => (home !== undefined && within(p, home) ? `~${p.slice(home.replace(/[\\/]$/, "").length)}` : p);
  // the project: the start directory or one above it, below the home, holding no control file but the project's (control-cwd.ts)
  const project = (d: string) =>
    start !== undefined &&
    (fold(d) === fold(start) || within(start, d)) &&
    !(home !== undefined && (fold(d) === fold(home) || within(home, d))) &&
    controls.every((c) => !within(c, d) || projectFile(c));
  /** the control files (not in the project: `keptOnly`), then places the guard keeps, at or below the directory `at` (`near`: only those whose first name below it `near` says could be the tree's) */
  const landings = (at: string, near?: (c: string) => boolean, keptOnly = false): { file: string; why?: string }[] => {
    const on = (c: string) => (near ? within(c, at) && near(c) : fold(c) === fold(at) || within(c, at));
    const files = keptOnly ? [] : controls.filter(on).map((file) => ({ file }));
    return [...files, ...kept().flatMap((k) => (on(k.path) ? [{ file: k.path, why: k.why }] : []))];
  };
  const reached = placesReached(segments, control, f);
  const dirs = reached.unplaced.length || !control.cwd ? undefined : reached.dirs;
  // `cd "$(mktemp -d)"`: a directory made fresh and empty by the command, none the guard keeps; what lands below it is judged from the others
  const fresh = reached.unplaced.length > 0 && reached.unplaced.every((u) => u.operand !== undefined && FRESH.test(u.operand.raw));
  const vars = control.vars ?? { HOME: control.home };
  // `?config` matches `.config` under dotglob, however `shopt` is spelled (control-globs.ts); names are matched in either case
  const { dotglob, nocase } = globOptions(segments);
  for (const seg of segments) {
    if (seg.elsewhere) continue;
    const copier = copyOperands(seg);
    // git's trees land whole in the directory they are given, relative to where its `-C`s lead (git-trees.ts)
    const copies = copier ? [copier] : (gitTrees(seg.words) ?? []).map((t) => ({ from: [t.from], into: t.into, merge: true, rsync: false, parents: false }));
    const base = copier ? dirs : gitOperandDirs(seg.words, dirs, control.home, f);
    // after `cd "$(mktemp -d)"` (or git's last `-C` there) a relative destination without `..` lands below a fresh directory, or,
    // should mktemp fail, where the command stood: `cd ""` and `git -C ""` stay, an unquoted `cd` left with no word goes home
    const chdir = copier ? [] : gitDirectories(seg.words).chdir;
    const lastFresh = chdir.length > 0 && FRESH.test(chdir[chdir.length - 1]!.raw);
    const before = lastFresh ? chdir.slice(0, -1) : chdir;
    const bare = reached.unplaced.some((u) => u.operand && !u.operand.raw.startsWith('"'));
    const stood = fresh ? [...reached.dirs, ...(bare && control.home !== undefined ? [control.home] : [])] : dirs;
    const plain = !fresh || before.every((w) => decided(w) && f.absolute(w.text) === undefined && !/^~|(^|[\\/])\.\.([\\/]|$)/.test(w.text));
    const freshBase =
      !(fresh || lastFresh) || !stood || !plain
        ? undefined
        : copier
          ? stood
          : gitOperandDirs([seg.words[0]!, ...before.flatMap((w) => [{ text: "-C", raw: "-C", unknown: false, glob: false }, w])], stood, control.home, f);
    for (const copy of copies) {
      const found = landed(seg, copy, base, freshBase);
      if (found) return found;
    }
  }
  return undefined;

  /**
   * Where one copy of `seg` lands on a control file or a kept place, from the directories `base` (undefined: known only at
   * run time; `fresh`: but a fresh directory, as `cd "$(mktemp -d)"` leads to, and these known ones), or undefined.
   */
  function landed(seg: Segment, copy: NonNullable<ReturnType<typeof copyOperands>>, base: string[] | undefined, fresh?: string[]): TreeCopy | undefined {
    const written = destinations(copy.into, base, fresh);
    if (written === undefined) return undefined; // a destination only the run knows: as `cp "$src" "$dst"`, a limit
    if (typeof written === "string") return { command: seg.raw, unknown: written };
    for (const as of written) {
      // a link on the way (`st` → ~/.local/state, made by an earlier call) leads the copy where it points: judged there too
      const real = control.realDir?.(as);
      if (typeof real === "object") return { command: seg.raw, unknown: real.unknown };
      for (const into of new Set([as, ...(real !== undefined ? [f.normalize(real)] : [])])) {
        // the project's own files a copy into it may replace (`tar -x` there runs too); a place the guard keeps in it, only by what the tree holds
        const inProject = project(into);
        const state = control.fileState?.(into);
        for (const from of copy.from) {
          // a remote source (`server:hey`) lands by its name on the remote side
          const source = unhosted(decided(from) ? from.text : runtimeGlob(from.raw));
          // `cp --parents`, `rsync -R`: the source's whole relative path (after rsync's `/./`) below the destination; a glob or run-time part: anywhere below it
          if (copy.parents) {
            const rel = source.includes("/./") ? source.slice(source.indexOf("/./") + 3) : source.replace(/^[\\/]+/, "");
            const at = decided(from) ? f.normalize(f.join(into, rel)) : into;
            const hit = landings(at, undefined, inProject)[0];
            if (hit) return { command: seg.raw, into: at, ...hit };
            continue;
          }
          // where the source's own folder goes: into the destination (`SRC/.`, rsync's `SRC/`, `-T`, a destination not there yet), or below it by its name
          const merges = copy.merge || /(^|[\\/])\.{1,2}[\\/]?$/.test(from.raw) || (copy.rsync && /[\\/]$/.test(from.raw));
          const landsIn = merges || state === "none" ? [into] : state === undefined ? [into, ""] : [""];
          for (const at of landsIn) {
            const hits = at ? landings(at, undefined, inProject) : landings(into, (c) => below(into, from, source, c), inProject);
            const name = lastComponent(source.replace(/\0/g, "*").replace(/[\\/]+$/, ""));
            const root = at || `${into.replace(/[\\/]$/, "")}${sep}${name}`;
            for (const hit of hits) {
              const holds = inProject ? treeHolds(seg, from, base, root, hit) : true;
              if (typeof holds === "string") return { command: seg.raw, unknown: holds };
              if (holds) return { command: seg.raw, into: root, ...hit };
            }
          }
        }
      }
    }
    return undefined;
  }

  /**
   * The directories a destination could be: the one it names, or (a glob: `~/.LOCAL/STAT?/` under
   * nocaseglob) each directory above a control file it could match; undefined when only the run knows
   * it; a string: why it cannot be placed (relative to a directory only the run knows).
   */
  function destinations(given: Word, dirs: string[] | undefined, fresh?: string[]): string[] | string | undefined {
    // `"$HOME/.config/git"` is `~/.config/git`: the variables hey gives the commands are read as they hold
    const w = knownVariables(given, vars);
    const glob = w.glob && !w.unknown && !w.anyValue;
    if (!decided(w) && !glob) return w.unknown && !w.anyValue ? couldBe(w, dirs) : undefined;
    const text = expand(w, control.home) ?? (glob ? w.text : undefined);
    if (text === undefined) return undefined;
    const abs = f.absolute(text);
    // below a fresh directory (`cd "$(mktemp -d)" && git clone URL`) by a name without `..`: nothing guarded there
    if (abs === undefined && !dirs && fresh && !/(^|[\\/])\.\.([\\/]|$)/.test(text)) dirs = fresh;
    if (abs === undefined && !dirs)
      return 'it copies into a directory relative to one known only at run time; write that directory out (`cd /tmp/lib && git clone URL x`), or clone into a fresh one (`cd "$(mktemp -d)" && git clone URL`)';
    const written = abs !== undefined ? [abs] : (dirs ?? []).map((d) => f.join(d, text));
    if (!glob) return written.map(f.normalize);
    const above = [...new Set(controls.flatMap((c) => ancestorsOf(c, sep)))];
    const opts = { dotglob, fold: f === WINDOWS || nocase || !!control.fold };
    const patterns = written.flatMap(expandBraces).map(f.normalize);
    const matched = above.filter((a) => patterns.some((p) => matchesPath(p, a, false, opts)));
    // what it matches on disk may be a link (`s?/` matching `st` → ~/.local/state): each match is judged where it leads too (x165 #2)
    if (f !== POSIX || !control.names) return matched;
    const onDisk: string[] = [];
    for (const p of patterns) {
      const found = globMatches(p, control.names, opts);
      if (!Array.isArray(found)) return `\`${w.raw}\` matches what the checker cannot list: ${found.unknown}`;
      onDisk.push(...found.map(f.normalize));
    }
    return [...new Set([...matched, ...onDisk])];
  }

  /**
   * The control files, places the guard keeps and directories above them a destination with parts known only at run time
   * could name (`"$X/git"`, `"$d/.local"`: a run-time part stands for any text, `/` too, as control-globs.ts matches such
   * words); none for one that is run-time as a whole (`"$dst"`), which could be anything, as any word could: a limit.
   */
  function couldBe(w: Word, dirs: string[] | undefined): string[] | undefined {
    let pattern = runtimeGlob(w.raw).replace(/[\\/]+$/, "");
    if (!/[^\0\\/.]/.test(pattern)) return undefined;
    if (pattern.startsWith("~/") && control.home !== undefined) pattern = control.home + pattern.slice(1);
    // a `..` after a run-time part leads anywhere: what follows it is matched from anywhere
    const parts = pattern.split(/[\\/]/);
    const back = parts.lastIndexOf("..");
    if (back >= 0 && parts.slice(0, back).some((p) => p.includes("\0"))) pattern = ["\0", ...parts.slice(back + 1)].join(sep);
    const anywhere = pattern.startsWith("\0") || f.absolute(pattern) !== undefined;
    const full = anywhere ? [pattern] : dirs ? dirs.map((d) => f.normalize(f.join(d, pattern))) : [`\0${sep}${pattern}`];
    const regexes = full.map((p) => {
      // a component all run-time may be empty too (`"$HOME/.config/$g"` is `~/.config/` for an empty `$g`)
      const body = p
        .split(/[\\/]+/)
        .map((c, k) => {
          const part = c
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, "[^/\\\\]*")
            .replace(/\?/g, "[^/\\\\]")
            .replace(/\0/g, ".*");
          return k === 0 ? part : c === "\0" ? "(?:[/\\\\].*)?" : `[/\\\\]${part}`;
        })
        .join("");
      return new RegExp(`^${body}$`, f === WINDOWS || nocase || control.fold ? "is" : "s");
    });
    const places = [...controls, ...kept().map((k) => k.path)];
    const candidates = [...new Set(places.flatMap((c) => [...ancestorsOf(c, sep), c]))];
    // the folders nearest the root first: a refusal names where the tree would land, not a file deep below it
    const depth = (c: string) => c.split(/[\\/]/).length;
    return candidates.filter((c) => regexes.some((r) => r.test(c))).sort((a, b) => depth(a) - depth(b));
  }

  /**
   * Whether the tree `from` copied to `root` in the project holds the path that lands on the kept place `hit` (`cp -r
   * template/. .` writes `.venv/bin/x` only when template holds `.venv/bin`), read on disk; a string: why that cannot be
   * told, naming the place.
   */
  function treeHolds(seg: Segment, from: Word, base: string[] | undefined, root: string, hit: { file: string; why?: string }): boolean | string {
    const place = hit.file;
    const rel = fold(place) === fold(root) ? "" : place.slice(root.replace(/[\\/]$/, "").length + 1);
    if (!rel) return true;
    const cannot = (why: string) => `\`${shown(place)}\` (${hit.why ?? "hey's own"}) is inside where it lands, and ${why}`;
    if (!copyOperands(seg)) return cannot("git lays down a tree hey cannot read before it runs");
    // a command run before it or beside it could fill the tree (`mkdir -p t/.venv/bin && … && cp -r t/. .`)
    if (segments.some((s) => s !== seg && s.inert !== "builtin" && !(s.words[0] && decided(s.words[0]) && BESIDE.has(program(s.words[0].text)))))
      return cannot(`what the tree holds is read before the command runs: run \`${seg.raw}\` as a command of its own`);
    const text = decided(from) && !/^[^/\\]*[^/\\:]:/.test(from.text) ? expand(from, control.home) : undefined;
    const abs = text === undefined ? undefined : f.absolute(text);
    const sources = text === undefined ? undefined : abs !== undefined ? [abs] : base?.map((d) => f.join(d, text));
    if (!sources) return cannot(`hey cannot tell where \`${from.raw}\` is`);
    for (const s of sources) {
      const state = control.fileState?.(f.normalize(f.join(s, rel)));
      if (state === undefined) return cannot(`\`${f.join(s, rel)}\` did not answer in time`);
      if (state !== "none") return true;
    }
    return false;
  }

  /** Whether the path `c` below `into` is in a folder the source's last name (`source`: its text, run-time parts as \0) could be. */
  function below(into: string, from: Word, source: string, c: string): boolean {
    const name = lastComponent(source.replace(/[\\/]+$/, ""));
    const child = c.slice(into.replace(/[\\/]$/, "").length + 1).split(/[\\/]/)[0]!;
    return decided(from) ? fold(child) === fold(name) : matchesName(fold(name), fold(child), dotglob);
  }
}

/** `$(mktemp …)`, as a `cd` or `git -C` operand: a directory made new and empty (or none, and the `cd` fails) */
const FRESH = /^"?\$\(\s*mktemp(\s+[-\w.=/%]+)*\s*\)"?$/;

/** Commands that write nothing a copy beside them could read from: cd's neighbours in a script (`cd x && ls && cp -r t/. .`) */
const BESIDE = new Set(["ls", "pwd", "echo", "printf", "cat", "head", "tail", "wc", "true", "test", "[", "stat", "du"]);

/** A source's path without a remote host (`server:hey`, `user@host:/srv/hey`); a Windows drive (`C:\x`) stays. */
const unhosted = (text: string) => (/^[A-Za-z]:[\\/]/.test(text) ? text : text.replace(/^[^/\\]*[^/\\:]:/, ""));

/** The directories above a file, nearest last, without the root. */
function ancestorsOf(file: string, sep: string): string[] {
  const parts = file.split(/[\\/]/);
  return parts.slice(1, -1).map((_, k) => parts.slice(0, k + 2).join(sep));
}

/** A recursive copy's sources and destination (`-t DIR` or the last operand), and whether its sources merge into it (`cp -T`); undefined for no copy of a tree. */
function copyOperands(seg: Segment): { from: Word[]; into: Word; merge: boolean; rsync: boolean; parents: boolean } | undefined {
  const first = seg.words[0];
  if (!first || !decided(first)) return undefined;
  const name = program(first.text);
  if (!(name in COPIERS)) return undefined;
  const values = COPIERS[name]!;
  const operands: Word[] = [];
  let target: Word | undefined;
  // rsync copies a tree with -a or -r, yet skips one without: taken as a tree; macOS's ditto copies a folder's contents into the destination
  let recursive = name === "rsync" || name === "ditto";
  let merge = name === "ditto";
  let parents = false; // cp --parents, rsync -R/--relative: the source's path is kept below the destination
  const words = seg.words;
  for (let k = 1; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!decided(w) || t === "-" || !t.startsWith("-")) operands.push(w);
    else if (t === "--") {
      operands.push(...words.slice(k + 1));
      break;
    } else if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const long = t.slice(2, eq < 0 ? undefined : eq);
      // GNU cp reads any abbreviation of a long option (getopt_long: `--recur`, `--paren`, `--target-dir=`): one that
      // begins a name below counts as it (an ambiguous one cp refuses, so that costs nothing); rsync's popt and ditto take none
      const is = (full: string) => long === full || (name === "cp" && long.length > 0 && full.startsWith(long));
      if (is("recursive") || is("archive")) recursive = true;
      if (is("no-target-directory")) merge = true;
      if (long === "keepParent") merge = false;
      if ((name === "cp" && is("parents")) || (name === "rsync" && long === "relative")) parents = true;
      if (name === "rsync" && long === "no-relative") parents = false;
      const value = eq >= 0 ? { ...w, text: t.slice(eq + 1), raw: t.slice(eq + 1) } : values.long.some(is) ? words[++k] : undefined;
      if (name === "cp" && is("target-directory") && value) target = value;
    } else {
      for (let j = 1; j < t.length; j++) {
        if ((name === "cp" && "rRa".includes(t[j]!)) || (name === "scp" && t[j] === "r")) recursive = true;
        if (t[j] === "T" && name === "cp") merge = true;
        if (t[j] === "R" && name === "rsync") parents = true;
        if (values.short.includes(t[j]!)) {
          const value = j + 1 < t.length ? { ...w, text: t.slice(j + 1), raw: t.slice(j + 1) } : words[++k];
          if (t[j] === "t" && name === "cp" && value) target = value;
          break;
        }
      }
    }
  }
  if (!recursive) return undefined;
  // a remote side (`host:path`) is no directory here; a run-time part's own `:` (`${XDG_CONFIG_HOME:-…}`) is no host's
  const local = (w: Word) => {
    const t = decided(w) ? w.text : runtimeGlob(w.raw);
    return !/^[^/\\]*[^/\\:]:/.test(t) || /^[A-Za-z]:[\\/]/.test(t);
  };
  const into = target ?? operands.pop();
  if (!into || !local(into) || !operands.length) return undefined;
  return { from: operands, into, merge, rsync: name === "rsync", parents };
}

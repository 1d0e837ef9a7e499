// A tree copied into a directory (x144 #5): `cp -r x/hey ~/.local/state/` merges x/hey into
// ~/.local/state/hey and overwrites approvals.json; `cp -r x/. ~/.config/` and `rsync -a x/
// ~/.config/` merge x's files into ~/.config (so do `scp -r` and macOS's `ditto`). Neither names a
// control file or the directory holding one, yet each writes them as `cp x
// ~/.config/hey/config.toml` would. The folder a copy lands in — the destination itself for
// `SRC/.`, rsync's `SRC/`, `cp -T` and ditto, else the destination's folder of the source's name
// (that name matched as the shell would, when a glob or a run-time word gives it) — may not hold a
// control file or be above one, but for the project a user works in (the start directory and those
// above it up to the project root, holding none but the project's), where `tar -x` runs too. Pure.
import { type ControlFiles, decided, directories, expand, onWindows, POSIX, projectFile, WINDOWS } from "./control-files.ts";
import { expandBraces, globMatches, globOptions, lastComponent, matchesName, matchesPath, runtimeGlob } from "./control-globs.ts";
import { gitOperandDirs } from "./git-targets.ts";
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
  // the project: the start directory or one above it, below the home, holding no control file but the project's (control-cwd.ts)
  const project = (d: string) =>
    start !== undefined &&
    (fold(d) === fold(start) || within(start, d)) &&
    !(home !== undefined && (fold(d) === fold(home) || within(home, d))) &&
    controls.every((c) => !within(c, d) || projectFile(c)) &&
    kept().every((k) => fold(k.path) !== fold(d) && !within(k.path, d));
  /** the first control file, or place the guard keeps, at or below the directory `at` (`near`: only those whose first name below it `near` says could be the tree's) */
  const landing = (at: string, near?: (c: string) => boolean): { file: string; why?: string } | undefined => {
    const on = (c: string) => (near ? within(c, at) && near(c) : fold(c) === fold(at) || within(c, at));
    const file = controls.find(on);
    if (file !== undefined) return { file };
    const k = kept().find((k) => on(k.path));
    return k && { file: k.path, why: k.why };
  };
  const dirs = directories(segments, control, f);
  // `?config` matches `.config` under dotglob, however `shopt` is spelled (control-globs.ts); names are matched in either case
  const { dotglob, nocase } = globOptions(segments);
  for (const seg of segments) {
    if (seg.elsewhere) continue;
    const copier = copyOperands(seg);
    // git's trees land whole in the directory they are given, relative to where its `-C`s lead (git-trees.ts)
    const copies = copier ? [copier] : (gitTrees(seg.words) ?? []).map((t) => ({ from: [t.from], into: t.into, merge: true, rsync: false, parents: false }));
    const base = copier ? dirs : gitOperandDirs(seg.words, dirs, control.home, f);
    for (const copy of copies) {
      const found = landed(seg, copy, base);
      if (found) return found;
    }
  }
  return undefined;

  /** Where one copy of `seg` lands on a control file or a kept place, from the directories `base` (undefined: known only at run time), or undefined. */
  function landed(seg: Segment, copy: NonNullable<ReturnType<typeof copyOperands>>, base: string[] | undefined): TreeCopy | undefined {
    const written = destinations(copy.into, base);
    if (written === undefined) return undefined; // a destination only the run knows: as `cp "$src" "$dst"`, a limit
    if (typeof written === "string") return { command: seg.raw, unknown: written };
    for (const as of written) {
      // a link on the way (`st` → ~/.local/state, made by an earlier call) leads the copy where it points: judged there too
      const real = control.realDir?.(as);
      if (typeof real === "object") return { command: seg.raw, unknown: real.unknown };
      for (const into of new Set([as, ...(real !== undefined ? [f.normalize(real)] : [])])) {
        if (project(into)) continue;
        const state = control.fileState?.(into);
        for (const from of copy.from) {
          // a remote source (`server:hey`) lands by its name on the remote side
          const source = unhosted(decided(from) ? from.text : runtimeGlob(from.raw));
          // `cp --parents`, `rsync -R`: the source's whole relative path (after rsync's `/./`) below the destination; a glob or run-time part: anywhere below it
          if (copy.parents) {
            const rel = source.includes("/./") ? source.slice(source.indexOf("/./") + 3) : source.replace(/^[\\/]+/, "");
            const at = decided(from) ? f.normalize(f.join(into, rel)) : into;
            const hit = landing(at);
            if (hit) return { command: seg.raw, into: at, ...hit };
            continue;
          }
          // where the source's own folder goes: into the destination (`SRC/.`, rsync's `SRC/`, `-T`, a destination not there yet), or below it by its name
          const merges = copy.merge || /(^|[\\/])\.{1,2}[\\/]?$/.test(from.raw) || (copy.rsync && /[\\/]$/.test(from.raw));
          const landsIn = merges || state === "none" ? [into] : state === undefined ? [into, ""] : [""];
          for (const at of landsIn) {
            const hit = at ? landing(at) : landing(into, (c) => below(into, from, source, c));
            const name = lastComponent(source.replace(/\0/g, "*").replace(/[\\/]+$/, ""));
            if (hit) return { command: seg.raw, into: at || `${into.replace(/[\\/]$/, "")}${sep}${name}`, ...hit };
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
  function destinations(w: Word, dirs: string[] | undefined): string[] | string | undefined {
    const glob = w.glob && !w.unknown && !w.anyValue;
    if (!decided(w) && !glob) return undefined;
    const text = expand(w, control.home) ?? (glob ? w.text : undefined);
    if (text === undefined) return undefined;
    const abs = f.absolute(text);
    if (abs === undefined && !dirs) return "it copies into a directory relative to one known only at run time";
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

  /** Whether the path `c` below `into` is in a folder the source's last name (`source`: its text, run-time parts as \0) could be. */
  function below(into: string, from: Word, source: string, c: string): boolean {
    const name = lastComponent(source.replace(/[\\/]+$/, ""));
    const child = c.slice(into.replace(/[\\/]$/, "").length + 1).split(/[\\/]/)[0]!;
    return decided(from) ? fold(child) === fold(name) : matchesName(fold(name), fold(child), dotglob);
  }
}

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
  // a remote side (`host:path`) is no directory here
  const local = (w: Word) => !/^[^/\\]*[^/\\:]:/.test(w.text) || /^[A-Za-z]:[\\/]/.test(w.text);
  const into = target ?? operands.pop();
  if (!into || !local(into) || !operands.length) return undefined;
  return { from: operands, into, merge, rsync: name === "rsync", parents };
}

// The two walks of the disk a permission check makes beyond one read (fs/real-target.ts): the file
// a path really names, and another name of a hard-linked file below a directory. Each is one
// self-contained function of Node's fs and path modules (no name from outside its body: a worker
// made from text can import nothing of hey's), so fs/bounded-reads.ts runs it on its worker, within
// the deadline, and realTarget runs it here; and the one read or walk the worker is asked for (perform).
type Fs = typeof import("node:fs");
type Path = typeof import("node:path");

/** What lstat/stat say of a path: its kind, size, link count and identity (device:inode). */
export interface Stat {
  kind: "file" | "dir" | "link" | "other";
  size: number;
  nlink: number;
  id: string;
}

/** A request to the worker: one read, or one walk. */
export type Op =
  | { op: "lstat" | "stat" | "real"; path: string }
  | { op: "list"; path: string; dirs?: boolean }
  | { op: "head"; path: string; max: number }
  | { op: "links"; path: string; file: string }
  | { op: "tree"; path: string };
/** The worker's answer: what was read, or the system error (its code and message). */
export type Answer = {
  stat?: Stat;
  size?: number;
  real?: string;
  links?: boolean | "maybe";
  tree?: TreeFound;
  names?: string[];
  error?: { code?: string; message: string };
};
export type Walks = { path: Path; real: typeof resolveTarget; links: typeof hardLinkBelow; tree: typeof treeBelow };

/** One read or walk, as fs/bounded-reads.ts's worker runs it and, without one, hey's thread: Node's fs and the walks only, no name from outside (a worker made from text can import nothing of hey's). */
export function perform(fs: Fs, req: Op, walks: Walks): { answer: Answer; bytes?: Uint8Array } {
  const stat = (st: import("node:fs").BigIntStats): Stat => ({
    kind: st.isSymbolicLink() ? "link" : st.isFile() ? "file" : st.isDirectory() ? "dir" : "other",
    size: Number(st.size),
    nlink: Number(st.nlink),
    id: `${st.dev}:${st.ino}`,
  });
  try {
    if (req.op === "lstat") return { answer: { stat: stat(fs.lstatSync(req.path, { bigint: true })) } };
    if (req.op === "stat") return { answer: { stat: stat(fs.statSync(req.path, { bigint: true })) } };
    if (req.op === "real") return { answer: { real: walks.real(fs, walks.path, req.path) } };
    if (req.op === "links") return { answer: { links: walks.links(fs, walks.path, req.file, req.path) } };
    if (req.op === "tree") {
      // the entries go as bytes (`kind` and the path below the folder, NUL-ended): 10,000 of them outgrow the answer's room
      const tree = walks.tree(fs, walks.path, req.path);
      if (tree === "maybe") return { answer: { tree } };
      const text = tree.entries.map(([p, k]) => `${k}${walks.path.relative(req.path, p)}\0`).join("");
      return { answer: { tree: { ...tree, entries: [] } }, bytes: new TextEncoder().encode(text) };
    }
    if (req.op === "list" && req.dirs)
      return { answer: { names: fs.readdirSync(req.path, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? [d.name] : [])) } };
    if (req.op === "list") return { answer: { names: fs.readdirSync(req.path) } };
    // a FIFO is opened non-blocking, so it cannot hang the read; only a regular file is read
    const fd = fs.openSync(req.path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (st.isDirectory()) return { answer: { error: { code: "EISDIR", message: `${req.path} is a directory` } } };
      if (!st.isFile()) return { answer: { error: { code: "EINVAL", message: `${req.path} is not a regular file` } } };
      const bytes = new Uint8Array(Math.min(st.size, (req as { max: number }).max));
      let got = 0;
      for (let n = 1; got < bytes.length && n > 0; got += n) n = fs.readSync(fd, bytes, got, bytes.length - got, got);
      return { answer: { size: st.size }, bytes: bytes.subarray(0, got) };
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { answer: { error: { ...(err.code ? { code: err.code } : {}), message: err.message } } };
  }
}

/**
 * `abs` with every link on the way resolved and `..` taken after the link before it, as the
 * kernel does when it opens the path, spelled as the file system keeps it (on Windows and macOS
 * also its case). A name that does not exist yet is kept as written — also a link whose target
 * does not exist yet: it is followed, since opening it for writing creates its target. Never throws.
 */
export function resolveTarget(fs: Fs, path: Path, abs: string): string {
  const MAX_LINKS = 40; // the kernel's own limit on links followed in one lookup (Linux's MAXSYMLINKS; ELOOP past it)
  const parts = (p: string) => p.slice(path.parse(p).root.length).split(path.sep === "\\" ? /[\\/]+/ : /\/+/);
  // one name at a time, links read, `..` from where the walk stands
  const walk = (start: string) => {
    let at = path.parse(start).root;
    const todo = parts(start);
    for (let links = 0; todo.length; ) {
      const name = todo.shift()!;
      if (name === "" || name === ".") continue;
      if (name === "..") {
        at = path.join(at, "..");
        continue;
      }
      const next = path.join(at, name);
      let link: string | undefined;
      try {
        if (fs.lstatSync(next).isSymbolicLink()) link = fs.readlinkSync(next);
      } catch {} // missing: what creates it (and the names after it) is not a link yet
      if (link === undefined || ++links > MAX_LINKS) {
        at = next;
        continue;
      }
      if (path.isAbsolute(link)) at = path.parse(link).root;
      todo.unshift(...parts(link));
    }
    return at;
  };
  // The spelling the file system keeps: realpathSync.native, as Windows' and macOS's file systems
  // ignore case (`b.txt` and `B.txt`, `c:\` and `C:\` name one file), where realpathSync keeps the
  // case as typed. A name not there yet keeps its own spelling after the longest part that is.
  const kept = (p: string): string => {
    const rest: string[] = [];
    for (let at = p; ; at = path.dirname(at)) {
      try {
        return rest.length ? path.join(fs.realpathSync.native(at), ...rest) : fs.realpathSync.native(at);
      } catch {}
      if (path.dirname(at) === at) return p;
      rest.unshift(path.basename(at));
    }
  };
  // realpathSync takes `..` before the links (it normalizes the path first); the walk takes it after, as the kernel does
  const whole = parts(abs).includes("..") ? walk(abs) : abs;
  try {
    return fs.realpathSync.native(whole);
  } catch {
    return kept(walk(whole));
  }
}

/**
 * Whether the regular file at `abs` (links followed), having other hard links, has one below the
 * directory `dir`: true, false (no other links, another device, or none found in the whole tree),
 * or "maybe" (the tree holds more than 10,000 entries, or a part of it cannot be read). Links in
 * the tree are not followed (a link to the file is another case: resolveTarget).
 */
export function hardLinkBelow(fs: Fs, path: Path, abs: string, dir: string): boolean | "maybe" {
  const MAX_ENTRIES = 10_000;
  let st: import("node:fs").BigIntStats;
  try {
    st = fs.statSync(abs, { bigint: true });
    if (!st.isFile() || st.nlink < 2n || fs.statSync(dir, { bigint: true }).dev !== st.dev) return false;
  } catch {
    return false;
  }
  const todo = [dir];
  let seen = 0;
  while (todo.length) {
    const at = todo.pop()!;
    let entries: import("node:fs").Dirent[];
    try {
      entries = fs.readdirSync(at, { withFileTypes: true });
    } catch {
      return "maybe";
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return "maybe";
      const next = path.join(at, e.name);
      if (e.isDirectory()) todo.push(next);
      else if (e.isFile()) {
        try {
          const other = fs.lstatSync(next, { bigint: true });
          if (other.ino === st.ino && other.dev === st.dev) return true;
        } catch {
          return "maybe";
        }
      }
    }
  }
  return false;
}

/**
 * Every entry below `dir`, as a path below it and its kind: `f` a regular file, `h` one with other
 * hard links, `d` a directory, `l` a link, `o` anything else; `more`: the walk stopped at 10,000
 * entries; `top`: the kind of `dir` when it is no directory; "maybe": a part cannot be read. Links are not followed; a `.git` is walked like any
 * directory (what a search can reach in it is judged by the caller). Self-contained, run on the worker.
 */
export function treeBelow(fs: Fs, path: Path, dir: string): TreeFound {
  const MAX_ENTRIES = 10_000;
  const MAX_BYTES = 2_000_000; // of paths below `dir` in UTF-8 at most, as the worker carries them (TREE_ROOM)
  let bytes = 0;
  const todo = [dir];
  const entries: [string, string][] = [];
  try {
    // a file named where a folder is searched (`grep -rl x src/a.c`): itself, and nothing below
    const top = fs.lstatSync(dir);
    if (!top.isDirectory()) return { entries, top: top.isFile() ? (top.nlink > 1 ? "h" : "f") : "o" };
  } catch {
    return "maybe";
  }
  while (todo.length) {
    const at = todo.pop()!;
    let found: import("node:fs").Dirent[];
    try {
      found = fs.readdirSync(at, { withFileTypes: true });
    } catch {
      return "maybe";
    }
    for (const e of found) {
      const next = path.join(at, e.name);
      bytes += 3 * (next.length - dir.length) + 2;
      if (entries.length >= MAX_ENTRIES || bytes > MAX_BYTES) return { entries, more: true };
      let kind = e.isSymbolicLink() ? "l" : e.isDirectory() ? "d" : e.isFile() ? "f" : "o";
      if (kind === "d") todo.push(next);
      if (kind === "f")
        try {
          if (fs.lstatSync(next).nlink > 1) kind = "h";
        } catch {
          return "maybe";
        }
      entries.push([next, kind]);
    }
  }
  return { entries };
}

/** The room for treeBelow's entries in the worker's buffer: its MAX_BYTES, and a kind and a NUL each. */
export const TREE_ROOM = 2_100_000;

/** treeBelow's answer as `perform` carries it (its entries as `bytes`), made whole again for `dir`. */
export function treeAnswer(dir: string, tree: TreeFound, bytes: Uint8Array | undefined): TreeFound {
  if (tree === "maybe" || !bytes) return tree;
  const names = new TextDecoder().decode(bytes).split("\0").slice(0, -1);
  return { ...tree, entries: names.map((n) => [`${dir.replace(/[\\/]$/, "")}${dir.includes("\\") ? "\\" : "/"}${n.slice(1)}`, n[0]!] as [string, string]) };
}

/** treeBelow's answer: each entry's path and kind (`f`, `h`, `d`, `l`, `o`). */
export type TreeFound = { entries: [string, string][]; more?: true; top?: string } | "maybe";

/**
 * Where the links on the way to `abs` first lead onto one of the mount points `onto` (the network
 * and FUSE ones, where a read can hang): the index of that point and how many of `abs`'s own
 * names led there (`data` of `/p/data/a` when `/p/data` links to `/mnt/nfs/data`); undefined when
 * the walk stays off them. Each name is looked at with readlink(2) on the way, never one on those
 * mounts: the walk itself cannot hang there. Self-contained, run on the worker.
 */
export function leadsOnto(fs: Fs, abs: string, onto: readonly string[]): { point: number; names: number } | undefined {
  const hit = (p: string) => onto.findIndex((m) => p === m || p.startsWith(m.endsWith("/") ? m : `${m}/`));
  const own = abs.split("/").filter(Boolean);
  let todo = [...own];
  let at = "";
  let rest = own.length; // link targets are put in front: the last `rest` names to look at are abs's own
  for (let hops = 0; todo.length > 0 && hops < 40; ) {
    if (todo.length <= rest) rest--;
    const names = own.length - rest;
    const name = todo.shift()!;
    if (name === ".") continue;
    const next = name === ".." ? at.slice(0, Math.max(0, at.lastIndexOf("/"))) : `${at}/${name}`;
    const point = hit(next || "/");
    if (point >= 0) return { point, names };
    let target: string;
    try {
      target = fs.readlinkSync(next || "/");
    } catch {
      at = next; // not a link (or not there): the names below it are looked at as they are
      continue;
    }
    hops++;
    todo = [...target.split("/").filter(Boolean), ...todo];
    if (!target.startsWith("/")) continue;
    at = "";
  }
  return undefined;
}

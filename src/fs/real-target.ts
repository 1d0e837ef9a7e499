// The file a path really names (issue 24): links resolved, also for a file not created yet, so a
// guard comparing paths cannot be passed by a link or a `..` that names the same file differently.
import { type Dirent, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, parse, sep } from "node:path";
import { boundedLstat, Hung } from "./bounded-reads.ts";

/** The kernel's own limit on links followed in one lookup (Linux's MAXSYMLINKS; ELOOP past it). */
const MAX_LINKS = 40;

/**
 * `abs` with every link on the way resolved and `..` taken after the link before it, as the
 * kernel does when it opens the path. A name that does not exist yet is kept as written — also a
 * link whose target does not exist yet: it is followed, since opening it for writing creates its
 * target. Never throws.
 */
export function realTarget(abs: string): string {
  // realpathSync takes `..` before the links (it normalizes the path first); the walk takes it after, as the kernel does
  const path = parts(abs).includes("..") ? walk(abs) : abs;
  try {
    return realpathSync(path);
  } catch {
    return walk(path);
  }
}

const parts = (path: string) => path.slice(parse(path).root.length).split(sep === "\\" ? /[\\/]+/ : /\/+/);

/** realTarget for a path that does not exist whole: one name at a time, links read, `..` from where the walk stands. */
function walk(abs: string): string {
  let at = parse(abs).root;
  const todo = parts(abs);
  for (let links = 0; todo.length; ) {
    const name = todo.shift()!;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      at = join(at, "..");
      continue;
    }
    const next = join(at, name);
    let link: string | undefined;
    try {
      if (lstatSync(next).isSymbolicLink()) link = readlinkSync(next);
    } catch {} // missing: what creates it (and the names after it) is not a link yet
    if (link === undefined || ++links > MAX_LINKS) {
      at = next;
      continue;
    }
    if (isAbsolute(link)) at = parse(link).root;
    todo.unshift(...parts(link));
  }
  return at;
}

/** Which file `abs` is, links followed: its device and inode, so a hard link is known as the same file. Undefined when it does not exist. */
export function fileId(abs: string): string | undefined {
  try {
    const st = statSync(abs, { bigint: true });
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** Entries looked at, at most, for another name of a hard-linked file below a directory. */
const MAX_ENTRIES = 10_000;

/**
 * Whether the regular file at `abs` (links followed), having other hard links, has one below the
 * directory `dir`: true, false (no other links, another device, or none found in the whole tree),
 * or "maybe" (the tree is larger than MAX_ENTRIES, or a part of it cannot be read). Links in the
 * tree are not followed (a link to the file is another case: sameFile's realTarget).
 */
export function hardLinkUnder(abs: string, dir: string): boolean | "maybe" {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(abs, { bigint: true });
    if (!st.isFile() || st.nlink < 2n || statSync(dir, { bigint: true }).dev !== st.dev) return false;
  } catch {
    return false;
  }
  const todo = [dir];
  let seen = 0;
  while (todo.length) {
    const at = todo.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return "maybe";
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return "maybe";
      const path = join(at, e.name);
      if (e.isDirectory()) todo.push(path);
      else if (e.isFile()) {
        try {
          const other = lstatSync(path, { bigint: true });
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
 * What is at `abs`, its last name not followed: "none" (nothing: writing there makes a file),
 * "empty" (a regular file holding nothing), "data" (anything else: a file with content, a
 * directory, a link, or what cannot be read), undefined (it did not answer in time:
 * fs/bounded-reads.ts). Never throws.
 */
export function fileState(abs: string): "none" | "empty" | "data" | undefined {
  try {
    const st = boundedLstat(abs);
    return st.kind === "file" && st.size === 0 ? "empty" : "data";
  } catch (e) {
    if (e instanceof Hung) return undefined;
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "none" : "data";
  }
}

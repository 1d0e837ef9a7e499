// Whether the directory hey started in is still that directory (x136): a project moved or renamed
// while hey runs left hey working at a path to nothing, and the next write made the old tree again —
// a ghost holding only what hey wrote, where bash then ran and /reload recorded trust — while the
// project itself got nothing. The writing tools, bash, /reload and /trust look first (movedFrom).
import { readlinkSync, statSync } from "node:fs";

/** Each launch directory's device and inode when here.ts first named it. */
const started = new Map<string, string>();

/** Remembers which directory `dir` is (here.ts, as hey starts there): what movedFrom compares with. Never throws. */
export function rememberWorkDir(dir: string): void {
  const id = idOf(dir);
  if (id !== undefined && !started.has(dir)) started.set(dir, id);
}

/**
 * Why nothing may be written or run in `dir`, the directory hey started in: it is no longer that
 * directory (moved, renamed or deleted, or another one made at its path since), in one line that
 * names where it went when the system says (Linux: hey's own working directory follows it). Undefined
 * when it still is, or hey did not start there (an embedder's directory). One stat; never throws.
 */
export function movedFrom(dir: string): string | undefined {
  const id = started.get(dir);
  if (id === undefined) return undefined;
  const now = idOf(dir);
  if (now === id) return undefined;
  const where = whereNow();
  if (where === dir) return undefined; // the system still names hey's directory so: a FUSE file system (sshfs) may number its inodes afresh
  return movedLine(dir, now === undefined ? "gone" : "other", where);
}

/**
 * The line movedFrom says: `dir` is `gone` (nothing there) or an `other` directory; `now` is where
 * the directory hey started in is now: a path, "deleted", or undefined when the system does not say.
 */
export function movedLine(dir: string, look: "gone" | "other", now: string | undefined): string {
  if (now === "deleted")
    return look === "gone"
      ? `the project is gone: ${dir} was deleted while hey ran — restart hey in a directory that exists`
      : `the project was replaced: ${dir} is a new directory since hey started (the old one was deleted) — restart hey to work in it`;
  if (look === "gone") return `the project moved: ${dir} no longer exists${now ? ` (now ${now}?) — restart hey there` : " — restart hey where it is now"}`;
  return `the project moved: ${dir} is not the directory hey started in${now ? ` (that one is now ${now}?)` : ""} — restart hey in the one you mean`;
}

/** Which directory `dir` is: its device and inode; undefined when it is not a directory there. */
function idOf(dir: string): string | undefined {
  try {
    const s = statSync(dir);
    return s.isDirectory() ? `${s.dev}:${s.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** Where hey's own working directory (never changed: the one it started in) is now, as Linux's /proc says; "deleted", or undefined elsewhere. */
function whereNow(): string | undefined {
  try {
    const path = readlinkSync("/proc/self/cwd");
    return path.endsWith(" (deleted)") ? "deleted" : path;
  } catch {
    return undefined;
  }
}

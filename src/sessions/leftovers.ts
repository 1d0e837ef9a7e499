// What a hey killed mid-copy (kill -9, a crash) leaves beside the sessions: a header repair's copy
// `ID.jsonl.repair-PID` (writer.ts), as big as the session, or a write-back's `ID.jsonl.restore-PID`
// (vanished.ts), the session's only copy once its file was deleted, or a stale lock set aside to
// be removed (`ID.jsonl.lock.stale-PID`, lock.ts), or a lock written but not yet linked in place
// (`ID.jsonl.lock.new-PID`, fs/file-lock.ts). Nothing else would ever tidy them: the listing
// and pruning do (listing.ts).
// And what a listing says of a name in the directory that cannot be opened as a session file.
import { linkSync, lstatSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { dirSync } from "../fs/dir-sync.ts";
import { alive } from "../fs/file-lock.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { newId } from "../kernel/ir.ts";
import { heldByProcess } from "./lock.ts";

const LEFTOVER = /^(.+\.jsonl)\.(repair|restore|lock\.stale|lock\.new)-(\d+)$/;

/**
 * Tidies in `dir` (whose file names are `names`) every copy whose process no longer holds its
 * session (lock.ts: gone, or from before the machine last started; the copy is made under the
 * session's lock). A copy of this process's is never in the making here: it is made synchronously.
 * A repair's copy is removed (the file it was made from is whole), and so is a stale lock set
 * aside. A write-back's is removed when it is its session's file already (linked there when
 * whole), else it becomes the session again — under its own name when that is free, a new id when
 * another file has it — holding what was copied (at worst a torn last line, which a resume
 * skips): nothing of the conversation is lost.
 * Returns the names of the sessions brought back. Never throws: a copy that cannot be tidied is
 * tried again at the next listing.
 */
export function removeLeftovers(dir: string, names: readonly string[]): string[] {
  const back: string[] = [];
  for (const name of names) {
    const m = LEFTOVER.exec(name);
    // a lock's copy is not the session's yet: its maker is judged by whether it runs
    if (!m || (m[2] === "lock.new" ? alive(Number(m[3])) : heldByProcess(join(dir, m[1]!), Number(m[3])))) continue;
    const copy = join(dir, name);
    try {
      if (m[2] === "restore") {
        const target = bringBack(copy, join(dir, m[1]!), dir);
        if (target) back.push(target);
      }
      unlinkSync(copy);
    } catch {
      // gone meanwhile, or the directory will not let it go
    }
  }
  if (back.length > 0) dirSync.run(dir);
  return back;
}

/** Links the write-back `copy` as the session `target` (or a new id's) unless it is that file already; the name given, else undefined. */
function bringBack(copy: string, target: string, dir: string): string | undefined {
  const made = lstatSync(copy);
  let there: ReturnType<typeof lstatSync> | undefined;
  try {
    there = lstatSync(target);
  } catch (e) {
    if (errnoCode(e) !== "ENOENT") throw e;
  }
  if (there && there.ino === made.ino && there.dev === made.dev) return undefined; // linked before the kill: whole
  const name = there ? `${newId()}.jsonl` : target.slice(dir.length + 1);
  linkSync(copy, join(dir, name)); // EEXIST: something took the name meanwhile; tried again next time
  return name;
}

/**
 * Why the session file at `path` could not be opened or read (`e`), in a few words, and when it
 * was last changed; undefined when it is gone (removed since the directory was read).
 */
export function openProblem(path: string, e: unknown): { why: string; modified: number } | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  const code = errnoCode(e);
  const why = st.isSymbolicLink()
    ? "a symbolic link: hey does not follow links for its own files"
    : st.isDirectory()
      ? "a directory"
      : st.isFIFO()
        ? "a FIFO (named pipe)"
        : !st.isFile()
          ? "not a regular file"
          : code === "EACCES" || code === "EPERM"
            ? `this user may not read it (${code}); see ls -l ${path}`
            : errorText(e);
  return { why, modified: st.mtimeMs };
}

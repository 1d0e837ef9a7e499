// What a hey killed mid-copy (kill -9, a crash) leaves beside the sessions: a header repair's copy
// `ID.jsonl.repair-PID` (writer.ts) or a relocation's `ID.jsonl.restore-PID` (vanished.ts), as big
// as the session. Nothing else would ever remove them: the listing and pruning do (listing.ts).
// And what a listing says of a name in the directory that cannot be opened as a session file.
import { lstatSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { heldByProcess } from "./lock.ts";

const LEFTOVER = /^(.+\.jsonl)\.(?:repair|restore)-(\d+)$/;

/**
 * Removes from `dir` (whose file names are `names`) every copy whose process no longer holds its
 * session (lock.ts: gone, or from before the machine last started; the copy is made under the
 * session's lock). A copy of this process's is never in the making here: it is made synchronously.
 * Never throws: one that cannot be removed is tried again at the next listing.
 */
export function removeLeftovers(dir: string, names: readonly string[]): void {
  for (const name of names) {
    const m = LEFTOVER.exec(name);
    if (!m || heldByProcess(join(dir, m[1]!), Number(m[2]))) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // gone meanwhile, or the directory will not let it go
    }
  }
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

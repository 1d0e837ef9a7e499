// What a hey killed mid-copy (kill -9, a crash) leaves beside the sessions: a header repair's copy
// `ID.jsonl.repair-PID` (writer.ts) or a relocation's `ID.jsonl.restore-PID` (vanished.ts), as big
// as the session. Nothing else would ever remove them: the listing and pruning do (listing.ts).
import { unlinkSync } from "node:fs";
import { join } from "node:path";
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

// The approvals record on disk (config/approvals.ts): read and written by hey alone, atomically,
// private (0600 in a 0700 directory), never through a link, one hey at a time (fs/file-lock.ts).
import { readdirSync } from "node:fs";
import { readOwnFile } from "../fs/own-files.ts";
import { emptyApprovals, formatApprovals, parseApprovals, type Approvals } from "./approvals.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

/** The record holds a few lines per config file; anything bigger is not hey's. */
const APPROVALS_MAX_BYTES = 4 * 1024 * 1024;

/** The record, or undefined when there is none yet (hey's first run). Throws ApprovalsError, OwnFileError or the system error. */
export function readApprovals(file: string): Approvals | undefined {
  const read = readOwnFile(file, APPROVALS_MAX_BYTES);
  return read ? parseApprovals(read.text) : undefined;
}

/**
 * The record as a run goes by it: undefined when there is none yet (hey's first run), or none can be
 * there (the state directory below a file: ENOTDIR); a broken one (or a link) is said to `warn` and
 * approves nothing — no config file, and none of the user's instruction files — until hey records again. Never throws.
 */
export function readApprovalsForRun(file: string, warn: (message: string) => void): Approvals | undefined {
  try {
    return readApprovals(file);
  } catch (e) {
    // below a file (HOME=/dev/null, a state directory in the way of a file): no record can be there, as when there is none
    if (errnoCode(e) === "ENOTDIR") return undefined;
    warn(`${file}: ${errorText(e)}; nothing counts as approved until hey records again`);
    return { ...emptyApprovals(), instructions: {} }; // your AGENTS.md and skills neither: each waits for your yes
  }
}

/**
 * Applies `update` to the record as it is on disk now (another hey may have written it since this
 * one read it; a missing or broken record counts as empty) and replaces the file atomically,
 * holding its lock meanwhile, so that an update of another hey made at the same moment (parallel
 * runs) is kept, not written over. Returns the record written. `existing`: no record yet stays none
 * (undefined returned): the first record is written by a run the model answered
 * (trust/approve.ts), which takes trust.json's answers with it. Throws FileLockedError (another
 * hey held the record for too long: nothing written, as no approval may be lost unsaid),
 * OwnFileError (a link) or the system error.
 */
export async function updateApprovals(file: string, update: (a: Approvals) => Approvals): Promise<Approvals>;
export async function updateApprovals(file: string, update: (a: Approvals) => Approvals, existing: "existing"): Promise<Approvals | undefined>;
export async function updateApprovals(file: string, update: (a: Approvals) => Approvals, existing?: "existing"): Promise<Approvals | undefined> {
  // loaded only to write: `hey upgrade` reads the record, and its start does not pay for the lock and the atomic write
  const [{ withFileLock }, { writeFileAtomic }] = await Promise.all([import("../fs/file-lock.ts"), import("../fs/atomic.ts")]);
  return withFileLock(
    file,
    async () => {
      let current: Approvals | undefined;
      try {
        current = readApprovals(file);
      } catch (e) {
        if ((e as Error).name !== "ApprovalsError") throw e;
        current = emptyApprovals(); // a broken record approves nothing: rewriting it loses no approval
      }
      if (!current && existing) return undefined;
      const next = update(current ?? emptyApprovals());
      await writeFileAtomic(file, formatApprovals(next), { own: true, private: true });
      return next;
    },
    { private: true },
  );
}

/**
 * The first of `places` (hey's sessions: written only once a model answered, when the first record
 * is written too, and kept in the record's own state directory) that holds a session file (`*.jsonl`), or undefined:
 * with none of them, a missing record is hey's first run; with one, the record was removed. Saved
 * command outputs are none: a `!COMMAND` saves them before any answer, and a cache is often restored
 * apart from the state (CI).
 */
export function earlierRunTrace(places: readonly string[]): string | undefined {
  return places.find((dir) => {
    try {
      // a session file, not whatever else sits there: a sync tool's marker (.stfolder), a .DS_Store, a leftover lock
      return readdirSync(dir).some((name) => name.endsWith(".jsonl") && !name.startsWith("."));
    } catch {
      return false; // not there, or not a directory: no trace
    }
  });
}

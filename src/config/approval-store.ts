// The approvals record on disk (config/approvals.ts): read and written by hey alone, atomically,
// private (0600 in a 0700 directory), never through a link, one hey at a time (fs/file-lock.ts).
import { writeFileAtomic } from "../fs/atomic.ts";
import { withFileLock } from "../fs/file-lock.ts";
import { readOwnFile } from "../fs/own-files.ts";
import { emptyApprovals, formatApprovals, parseApprovals, type Approvals } from "./approvals.ts";

/** The record holds a few lines per config file; anything bigger is not hey's. */
const APPROVALS_MAX_BYTES = 4 * 1024 * 1024;

/** The record, or undefined when there is none yet (hey's first run). Throws ApprovalsError, OwnFileError or the system error. */
export function readApprovals(file: string): Approvals | undefined {
  const read = readOwnFile(file, APPROVALS_MAX_BYTES);
  return read ? parseApprovals(read.text) : undefined;
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

// The approvals record on disk (config/approvals.ts): read and written by hey alone, atomically,
// private (0600 in a 0700 directory), never through a link.
import { writeFileAtomic } from "../fs/atomic.ts";
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
 * one read it; a missing or broken record counts as empty) and replaces the file atomically.
 * Returns the record written. Throws OwnFileError (a link) or the system error.
 */
export async function updateApprovals(file: string, update: (a: Approvals) => Approvals): Promise<Approvals> {
  let current: Approvals;
  try {
    current = readApprovals(file) ?? emptyApprovals();
  } catch (e) {
    if ((e as Error).name !== "ApprovalsError") throw e;
    current = emptyApprovals(); // a broken record approves nothing: rewriting it loses no approval
  }
  const next = update(current);
  await writeFileAtomic(file, formatApprovals(next), { own: true, private: true });
  return next;
}

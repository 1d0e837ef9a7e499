// What hey keeps of the user's instruction files as approved, beside the approvals record: a copy
// of each file's text (a folder skill's SKILL.md), so that the question shows what changed since,
// not only that something did (trust/instruction-approval.ts instructionChange). The folder is also
// the mark that the record once held the files' hashes: an older hey that rewrites the record drops
// its `instructions` key, and that must read as "none approved", not as a record from before hey
// weighed these files (trust/instructions.ts approvedBefore). Only hey writes here.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hashOf } from "../prompt/user-instructions.ts";

/** A copy is kept of a file up to this size: an instruction file is a page or two; past it the question shows the file as it is now. */
const COPY_MAX_BYTES = 256 * 1024;

/** The folder of copies beside the approvals record `file`. */
const copiesDir = (file: string) => join(dirname(file), "instructions");
const copyOf = (file: string, path: string) => join(copiesDir(file), hashOf(path));

/** Whether hey ever recorded the instruction files' hashes beside the approvals record `file`. */
export const keptBefore = (file: string): boolean => existsSync(copiesDir(file));

/**
 * Keeps a copy of each of `paths` (path → approved hash; a folder skill's SKILL.md copied) as it
 * is now, and makes the folder (the mark of keptBefore) even for none. A file changed since its
 * hash was taken is not copied. Never throws: a copy that cannot be
 * kept only makes the question show the whole file.
 */
export function keepCopies(file: string, paths: Readonly<Record<string, string>>): void {
  try {
    mkdirSync(copiesDir(file), { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  for (const [path, hash] of Object.entries(paths)) {
    try {
      if (statSync(path).size > COPY_MAX_BYTES) continue;
      const bytes = readFileSync(path);
      if (hashOf(bytes) !== ownHash(hash)) continue;
      const to = copyOf(file, path);
      writeFileSync(`${to}.tmp`, bytes, { mode: 0o600 });
      renameSync(`${to}.tmp`, to);
    } catch {
      // gone since, unreadable: the question says it has no copy
    }
  }
}

/**
 * The copy of `path` as approved with hash `approved`, or undefined when hey has none. A copy whose
 * bytes are not what was approved (written by something else: the agent may write here) is none.
 */
export function readCopy(file: string, path: string, approved: string | undefined): string | undefined {
  try {
    const bytes = readFileSync(copyOf(file, path));
    return approved !== undefined && hashOf(bytes) === ownHash(approved) ? bytes.toString("utf8") : undefined;
  } catch {
    return undefined;
  }
}

/** The hash of a file's own bytes within its recorded hash: a folder skill's follows its folder's (prompt/user-instructions.ts instructionHash). */
const ownHash = (hash: string) => hash.slice(hash.lastIndexOf(".") + 1);

/** The text of `path` now, up to COPY_MAX_BYTES, for the question; "" when it cannot be read. */
export function textNow(path: string): string {
  try {
    return readFileSync(path).subarray(0, COPY_MAX_BYTES).toString("utf8");
  } catch {
    return "";
  }
}

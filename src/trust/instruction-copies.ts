// What hey keeps of the user's instruction files as approved, beside the approvals record: a copy
// of each file's text (a folder skill's SKILL.md), so that the question shows what changed since,
// not only that something did (trust/instruction-approval.ts instructionChange), and a `/reload`
// or `/skill` keeps the text the user approved when the file changed since (trust/instructions.ts).
// Only hey writes here, and while a permission list is set the agent may not (wire.ts guards the
// folder as it guards the record): even so it is written as if the agent could have planted links
// in it — never through one, each copy a fresh file renamed into place, in a folder that is the
// user's own and no link. Whether the record once held the files' hashes is marked in the record
// (config/approvals.ts), not by this folder: the agent could once delete it.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { folderFiles, hashOf } from "../prompt/user-instructions.ts";
import { formatSize } from "../sessions/format.ts";

/** A copy is kept of a file up to this size: an instruction file is a page or two; past it the question shows the file as it is now. */
export const COPY_MAX_BYTES = 256 * 1024;

/** The folder of copies beside the approvals record `file`. */
export const copiesDir = (file: string) => join(dirname(file), "instructions");
const copyOf = (file: string, path: string) => join(copiesDir(file), hashOf(path));

/** Whether hey kept copies beside the approvals record `file` (an older hey's mark that the record held the hashes). */
export const keptBefore = (file: string): boolean => ownFolder(copiesDir(file));

/** Whether `dir` is a real folder (no link) of this user's: else nothing is written in it or read from it. */
function ownFolder(dir: string): boolean {
  try {
    const s = lstatSync(dir);
    return s.isDirectory() && (process.getuid === undefined || s.uid === process.getuid());
  } catch {
    return false;
  }
}

/**
 * Keeps a copy of each of `paths` (path → approved hash; a folder skill's SKILL.md copied): of the
 * bytes in `texts` (what the start read, hashed and showed), else of the file as it is now — only
 * when those bytes are what was approved. Never throws: a copy that cannot be kept only makes the
 * question show the whole file.
 */
export function keepCopies(file: string, paths: Readonly<Record<string, string>>, texts: Readonly<Record<string, Uint8Array>> = {}): void {
  const dir = copiesDir(file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  if (!ownFolder(dir)) return; // a link to elsewhere, or someone else's: hey writes nothing there
  for (const [path, hash] of Object.entries(paths)) {
    try {
      const bytes = texts[path] ?? readNoLink(path, false);
      if (bytes === undefined || bytes.length > COPY_MAX_BYTES || hashOf(bytes) !== ownHash(hash)) continue;
      writeFresh(copyOf(file, path), bytes);
      // a folder skill's files as approved, to name in the question those changed since (folderChanges)
      const each = hash.includes(".") ? folderFiles(path, folderHash(hash)) : undefined;
      if (each) writeFresh(`${copyOf(file, path)}.files`, Buffer.from(JSON.stringify({ digest: folderHash(hash), each })));
    } catch {
      // gone since, unreadable: the question says it has no copy
    }
  }
}

/** Writes `bytes` to `to` by a new file of an unguessable name, opened only if nothing is there (no link followed), then renamed over `to`. */
function writeFresh(to: string, bytes: Uint8Array): void {
  const tmp = `${to}.${process.pid}.${crypto.randomUUID()}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, to); // replaces a link planted at `to` itself, never what it points at
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}

/** The bytes of the regular file `path` up to COPY_MAX_BYTES + 1; `noLink`: a link there is none. Undefined when it cannot be read. */
function readNoLink(path: string, noLink: boolean): Uint8Array | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (noLink ? constants.O_NOFOLLOW : 0));
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(COPY_MAX_BYTES + 1);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The copy of `path` as approved with hash `approved`, or undefined when hey has none. A copy whose
 * bytes are not what was approved (written by something else) is none; so is a link.
 */
export function readCopy(file: string, path: string, approved: string | undefined): string | undefined {
  const bytes = copyBytes(file, path, approved);
  return bytes && Buffer.from(bytes).toString("utf8");
}

/** readCopy's bytes. */
export function copyBytes(file: string, path: string, approved: string | undefined): Uint8Array | undefined {
  if (approved === undefined || !ownFolder(copiesDir(file))) return undefined;
  const bytes = readNoLink(copyOf(file, path), true);
  return bytes !== undefined && hashOf(bytes) === ownHash(approved) ? bytes : undefined;
}

/** The hash of a file's own bytes within its recorded hash: a folder skill's follows its folder's (prompt/user-instructions.ts instructionHash). */
export const ownHash = (hash: string) => hash.slice(hash.lastIndexOf(".") + 1);

/** The hash of a folder skill's folder within its recorded hash. */
const folderHash = (hash: string) => hash.slice(0, hash.lastIndexOf("."));

/**
 * The files of the folder skill `path` (its SKILL.md) changed between the folder as approved
 * (`approved`, whose file list hey kept) and as hashed now (`now`): names within the folder, a new
 * one marked `(new)`, a removed one `(removed)`; SKILL.md itself left out (its lines are shown).
 * Undefined when either list is unknown.
 */
export function folderChanges(file: string, path: string, approved: string | undefined, now: string): string[] | undefined {
  const before = approvedFiles(file, path, approved);
  const current = folderFiles(path, folderHash(now));
  if (!before || !current) return undefined;
  const names = [...new Set([...Object.keys(before), ...Object.keys(current)])].filter((n) => n !== "SKILL.md").sort();
  return names.flatMap((n) => (before[n] === current[n] ? [] : [before[n] === undefined ? `${n} (new)` : current[n] === undefined ? `${n} (removed)` : n]));
}

/** A new folder skill's other files named at most, each with its size; past them a count. */
const OTHERS_NAMED = 8;
/** Of those, a text file up to this size shows its first line: a guide.md the SKILL.md tells the model to follow. */
const FIRST_LINE_MAX_BYTES = 64 * 1024;
/** Columns of that first line shown; past them it is cut with `…`. */
const FIRST_LINE_COLUMNS = 120;

/**
 * What the question says of the other files of the new folder skill `path` (its SKILL.md) hashed
 * with `now`: a yes approves them with it — the model reads its reference files and runs its scripts
 * as the skill's procedure — so each is named, with its size and, a small text file, its first line;
 * past OTHERS_NAMED a count. None when it holds no other file, or its last digest is not `now`'s.
 */
export function folderOthers(path: string, now: string): string[] {
  const names = Object.keys(folderFiles(path, folderHash(now)) ?? {}).filter((n) => n !== "SKILL.md");
  if (names.length === 0) return [];
  const lines = names.slice(0, OTHERS_NAMED).map((n) => {
    const about = fileAbout(join(dirname(path), n));
    return `  ${n}${about ? ` (${about.size})${about.first ? `: ${about.first}` : ""}` : ""}`;
  });
  const more = names.length - OTHERS_NAMED;
  const count = names.length === 1 ? "1 other file" : `${names.length} other files`;
  return [`(its folder holds ${count}, approved with it:)`, ...lines, ...(more > 0 ? [`  … and ${more} more`] : [])];
}

/** A file's size as read, and the first line that is not blank when it is small text (no NUL byte); undefined when it cannot be read. */
function fileAbout(file: string): { size: string; first?: string } | undefined {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const bytes = fstatSync(fd).size;
      const head = Buffer.alloc(Math.min(bytes, FIRST_LINE_MAX_BYTES));
      const n = bytes <= FIRST_LINE_MAX_BYTES ? readSync(fd, head, 0, head.length, 0) : 0;
      const text = n > 0 && !head.subarray(0, n).includes(0) ? head.subarray(0, n).toString("utf8") : "";
      const line = text
        .split(/\r?\n/)
        .find((l) => l.trim() !== "")
        ?.trim();
      const first = line && (line.length > FIRST_LINE_COLUMNS ? `${line.slice(0, FIRST_LINE_COLUMNS)}…` : line);
      return { size: formatSize(bytes), ...(first ? { first } : {}) };
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * The hash of each file of the folder skill `path` (its SKILL.md) as approved with `approved`, from
 * the list hey kept beside its copy: path within the folder → sha256 (hashOf). Undefined when hey
 * kept none, or one an older hey kept with a fast hash, which approves nothing.
 */
export function approvedFiles(file: string, path: string, approved: string | undefined): Record<string, string> | undefined {
  if (approved === undefined || !approved.includes(".") || !ownFolder(copiesDir(file))) return undefined;
  const kept = readNoLink(`${copyOf(file, path)}.files`, true);
  if (!kept) return undefined;
  try {
    const was = JSON.parse(Buffer.from(kept).toString("utf8")) as { digest?: unknown; each?: Record<string, unknown> };
    if (was.digest !== folderHash(approved) || typeof was.each !== "object" || was.each === null) return undefined;
    const each = Object.entries(was.each);
    return each.every(([, h]) => typeof h === "string" && /^[0-9a-f]{32}$/.test(h)) ? (was.each as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}

// Atomic file replacement (SPEC §0 "never lose user data"): write a temporary file next to the
// target, flush it, then rename it over the target. A reader sees the old file or the new one,
// never a half-written one, and a crash leaves at worst a stray temporary file, which the next
// write of the same file removes (as does a resume of the session whose write was cut: wire.ts).
// A rename makes a new file, though: where that would change what the file is — its owner, its
// other hard links — or cannot be done, a user's file is written in place instead (writeInPlace).
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, writeSync } from "node:fs";
import { access, chmod, lstat, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { renameRetrying } from "./busy-rename.ts";
import { firstNonDirectory } from "./dir-problem.ts";
import { dirSync } from "./dir-sync.ts";
import { diskPath } from "./dir-names.ts";
import { sweepDeadCopies } from "./file-lock.ts";
import { checkOwnFile } from "./own-files.ts";
import { realTarget } from "./real-target.ts";

/**
 * Replaces `path` with `data`, creating missing parent directories. An existing file keeps its
 * mode; a symlink is followed and its target replaced (created, when the link dangles), so the
 * link survives. The temporary file lives in the target's directory (rename is only atomic within
 * one filesystem) and is removed on failure. Throws the underlying error (EACCES, EISDIR…) after cleaning up,
 * or a ParentIsFileError when a parent directory to make is a file, or a FileInUseError when on
 * Windows the rename was refused at every try (busy-rename.ts: another program has the file open).
 * Temporary copies of it that a killed hey left (sweepLeftCopies) are removed first.
 * `own`: a file of hey's own (own-files.ts): a link at `path` or its directory is refused
 * (OwnFileError), never followed. `private`: hey's state — missing directories are created 0700
 * and a new file 0600. `follow: false`: a link at `path` is replaced by the file, never written
 * through (a backup next to a file the user owns). `mode`: the file's mode whatever it was before
 * (0o600 for credentials), created so — never readable by others, not even for a moment.
 * `data`: the new content, whole or in pieces (read once: a big file's is never held whole).
 * `unchanged`: what the caller read from the file (Unchanged); when it holds
 * anything else just before the rename — the user saved it while the new file was written and
 * flushed — it is left as it is and this throws. Compared and renamed in one synchronous step, so
 * nothing of this process runs between them.
 * A user's file (none of `own`, `private`, `follow: false` and `mode`) keeps what it is: the new
 * file gets the old one's owner and group when this process may give them (root), and the file is
 * written in place instead — same inode, not atomic for a reader — when it has other hard links,
 * when its owner cannot be kept, or when its directory is not writable but the file is.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<Uint8Array>,
  opts: { own?: boolean; private?: boolean; follow?: boolean; mode?: number; unchanged?: Unchanged } = {},
): Promise<void> {
  if (opts.own) checkOwnFile(path);
  const follow = !opts.own && opts.follow !== false;
  const target = follow ? realTarget(path) : path; // a link to a file not there yet creates it, as `echo > link` does
  const dir = dirname(target);
  await mkdir(diskPath(dir), { recursive: true, ...(opts.private ? { mode: 0o700 } : {}) }).catch((e: unknown) => {
    const code = errnoCode(e);
    // mkdir names the directory it could not make (EEXIST or ENOTDIR), not the file in its way
    const file = code === "EEXIST" || code === "ENOTDIR" ? firstNonDirectory(dir) : undefined;
    throw file ? new ParentIsFileError(file) : e;
  });
  const existing = follow || opts.own ? await stat(diskPath(target)).catch(() => undefined) : await lstat(diskPath(target)).catch(() => undefined);
  if (existing?.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: "EISDIR" });
  // a FIFO or a device is not a file to replace (and reading a FIFO to compare it would wait for a writer)
  if (existing && !existing.isFile() && !existing.isSymbolicLink()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "EINVAL" });
  const keep = existing?.isFile() ? existing.mode & 0o7777 : undefined; // a link replaced has no mode to keep
  const userFile = existing?.isFile() && follow && !opts.private && opts.mode === undefined ? existing : undefined; // whose identity to keep
  if (userFile && userFile.nlink > 1) return writeInPlace(target, data, opts.unchanged);
  // hey's state is private even when an older hey left the file readable to others
  const mode = opts.mode ?? (opts.private ? 0o600 : (keep ?? 0o666));

  // once a run per file, and only copies a minute old: a directory of many files is not read at every edit
  if (!swept.has(target)) sweepDeadCopies(dir, copyName(target), LEFT_COPY_AGE_MS);
  swept.add(target);
  const tmp = join(dir, `.${copyName(target)}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const handle = await open(diskPath(tmp), "wx", mode).catch((e: unknown) => {
    // the file named in the error would be the temporary one, which means nothing to the reader
    const code = errnoCode(e);
    if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw e;
    return Object.assign(new Error(`its directory ${dir} is not writable (${code === "EROFS" ? "read-only file system" : "permission denied"})`), { code });
  });
  if (handle instanceof Error) {
    // as `echo > file` does: a file the user may write, in a directory they may not
    if (userFile && handle.code !== "EROFS" && (await writable(target))) return writeInPlace(target, data, opts.unchanged);
    throw handle;
  }
  if (userFile) {
    const made = await handle.stat();
    const owned = made.uid === userFile.uid && made.gid === userFile.gid;
    if (!owned && !(await handle.chown(userFile.uid, userFile.gid).then(...TRUE_FALSE))) {
      await handle.close();
      await unlink(diskPath(tmp)).catch(() => {});
      return writeInPlace(target, data, opts.unchanged); // a rename would give the file this user's name
    }
  }
  try {
    try {
      if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
      else for (const piece of data) for (let done = 0; done < piece.length; ) done += (await handle.write(piece, done, piece.length - done)).bytesWritten;
      await handle.sync(); // so a power cut after the rename cannot leave an empty file
    } finally {
      await handle.close();
    }
    // open() applied the umask; an existing file's mode (e.g. 0755) must survive unchanged.
    if (keep !== undefined || opts.mode !== undefined || opts.private) await chmod(diskPath(tmp), mode);
    const { unchanged } = opts;
    const replace =
      unchanged === undefined
        ? () => rename(diskPath(tmp), diskPath(target))
        : () => {
            // compared again at every try: the file may have been saved while a refused rename waited
            if (!holds(target, unchanged)) throw new Error(CHANGED_MEANWHILE);
            renameSync(diskPath(tmp), diskPath(target));
          };
    await renameRetrying(replace, target, process.platform, Bun.sleep);
  } catch (error) {
    await unlink(diskPath(tmp)).catch(() => {});
    throw error;
  }
  dirSync.run(dir); // else a power cut can bring the old file back, or leave none where there was none
}

/**
 * Writes `data` over the file at `target` through the file itself, so it stays the same inode:
 * its owner, group, mode and other hard links are kept. Its old content is read first — compared
 * with `unchanged` as writeFileAtomic does — and written back when the write fails (a full disk),
 * so a failure leaves the file as it was. All synchronous: nothing of this process runs between
 * the comparison and the write.
 */
function writeInPlace(target: string, data: string | Uint8Array | Iterable<Uint8Array>, unchanged: Unchanged | undefined): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const fd = openSync(diskPath(target), "r+");
  try {
    const old = readFileSync(fd);
    if (unchanged !== undefined && !sameContent(old, unchanged)) throw new Error(CHANGED_MEANWHILE);
    try {
      writeAll(fd, bytes);
    } catch (error) {
      try {
        writeAll(fd, old);
      } catch (again) {
        throw new Error(`${errorText(error)}; putting its old content back failed too (${errorText(again)}): it may be cut short`);
      }
      throw error;
    }
  } finally {
    closeSync(fd);
  }
}

/** `data` as the whole content of the open file `fd`: written from its start, cut after it, flushed. */
function writeAll(fd: number, data: Uint8Array | Iterable<Uint8Array>): void {
  let at = 0;
  for (const bytes of data instanceof Uint8Array ? [data] : data)
    for (let done = 0; done < bytes.length; ) {
      const n = writeSync(fd, bytes, done, bytes.length - done, at);
      [done, at] = [done + n, at + n];
    }
  ftruncateSync(fd, at); // written before cut: a shorter file is never empty on the way
  fsyncSync(fd);
}

/** A parent of the file to write is a file (`a/notes.txt/b.md`): `file` is that parent's path. */
export class ParentIsFileError extends Error {
  readonly code = "ENOTDIR";
  constructor(readonly file: string) {
    super(parentIsFile(file));
  }
}

/** What a ParentIsFileError says, with the parent named as the reader knows it. */
export const parentIsFile = (name: string) => `${name} is a file, not a directory`;

const TRUE_FALSE = [() => true, () => false] as const;
const writable = (path: string) => access(diskPath(path), constants.W_OK).then(...TRUE_FALSE);

const CHANGED_MEANWHILE =
  "it changed while it was being written (by the user, a command or another program); not replaced, so that change is kept: read it again";

/**
 * Removes the temporary copies of `path` (links followed, as writeFileAtomic follows them) that a hey
 * killed while writing it left beside it, `.NAME.PID.X.tmp` of processes no longer running; a live
 * process's copy is never touched. Never throws.
 */
export function sweepLeftCopies(path: string): void {
  const target = realTarget(path);
  sweepDeadCopies(dirname(target), copyName(target));
}

/** The files whose left copies writeFileAtomic looked for in this process. */
const swept = new Set<string>();
/** A left copy younger than this may be a hey's elsewhere (another container on a shared mount), writing now. */
const LEFT_COPY_AGE_MS = 60_000;

/** The name a temporary copy of `target` starts with (after its dot): the file's, cut to 100 characters. */
const copyName = (target: string) => basename(target).slice(0, 100);

/**
 * What a file held when the caller read it: its bytes, or their SHA-256 (hex) and length (a big
 * file's bytes need not be kept for the comparison); null: there was no file.
 */
export type Unchanged = Uint8Array | { sha256: string; size: number } | null;

const COMPARE_CHUNK = 1024 * 1024; // the file is compared a chunk at a time: a big one is not read whole again

/** Whether the file at `path` holds what `unchanged` says; any error but its absence is thrown. */
function holds(path: string, unchanged: Unchanged): boolean {
  let fd: number;
  try {
    fd = openSync(diskPath(path), "r");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return unchanged === null;
    throw e;
  }
  try {
    if (unchanged === null) return false;
    const size = unchanged instanceof Uint8Array ? unchanged.length : unchanged.size;
    if (fstatSync(fd).size !== size) return false;
    const hasher = new Bun.CryptoHasher("sha256");
    const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(COMPARE_CHUNK, size)));
    for (let at = 0, n = 0; (n = readSync(fd, chunk, 0, chunk.length, at)) > 0; at += n) {
      const read = chunk.subarray(0, n);
      if (!(unchanged instanceof Uint8Array)) hasher.update(read);
      else if (at + n > size || Buffer.compare(read, unchanged.subarray(at, at + n)) !== 0) return false; // grown since the stat
    }
    return unchanged instanceof Uint8Array || hasher.digest("hex") === unchanged.sha256;
  } finally {
    closeSync(fd);
  }
}

/** Whether `bytes`, a file's content, are what `unchanged` says it held. */
const sameContent = (bytes: Uint8Array, unchanged: Unchanged) =>
  unchanged === null
    ? false
    : unchanged instanceof Uint8Array
      ? Buffer.compare(bytes, unchanged) === 0
      : bytes.length === unchanged.size && new Bun.CryptoHasher("sha256").update(bytes).digest("hex") === unchanged.sha256;

/**
 * The mode of the existing file at `path` (links followed) when it is read-only: no write bit at
 * all, or none this user may use. writeFileAtomic replaces a file by renaming over it, which only
 * the directory's permissions govern, so a file kept read-only on purpose (generated, locked by
 * version control) would change; the file tools ask this first. Undefined when writable or absent.
 */
export async function readOnlyMode(path: string): Promise<string | undefined> {
  const info = await stat(diskPath(path)).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const writable =
    (info.mode & 0o222) !== 0 &&
    (await access(diskPath(path), constants.W_OK).then(
      () => true,
      () => false,
    ));
  return writable ? undefined : (info.mode & 0o777).toString(8).padStart(3, "0");
}

// Atomic file replacement (SPEC §0 "never lose user data"): write a temporary file next to the
// target, flush it, then rename it over the target. A reader sees the old file or the new one,
// never a half-written one, and a crash leaves at worst a stray temporary file.
import { chmod, mkdir, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { checkOwnFile } from "./own-files.ts";

/**
 * Replaces `path` with `data`, creating missing parent directories. An existing file keeps its
 * mode; a symlink is followed and its target replaced, so the link survives. The temporary file
 * lives in the target's directory (rename is only atomic within one filesystem) and is removed
 * on failure. Throws the underlying error (ENOTDIR, EACCES, EISDIR…) after cleaning up.
 * `own`: a file of hey's own (own-files.ts): a link at `path` or its directory is refused
 * (OwnFileError), never followed. `mode`: the file's mode whatever it was before (0o600 for
 * credentials), created so — it is never readable by others, not even for a moment.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: { own?: boolean; mode?: number } = {}): Promise<void> {
  if (opts.own) checkOwnFile(path);
  const target = opts.own ? path : await realpath(path).catch(() => path);
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: "EISDIR" });

  const tmp = join(dir, `.${basename(target).slice(0, 100)}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const handle = await open(tmp, "wx", opts.mode ?? (existing ? existing.mode & 0o7777 : 0o666));
  try {
    try {
      await handle.writeFile(data);
      await handle.sync(); // so a power cut after the rename cannot leave an empty file
    } finally {
      await handle.close();
    }
    // open() applied the umask; an existing file's mode (e.g. 0755) must survive unchanged.
    if (opts.mode !== undefined || existing) await chmod(tmp, opts.mode ?? existing!.mode & 0o7777);
    await rename(tmp, target);
  } catch (error) {
    await unlink(tmp).catch(() => {});
    throw error;
  }
}

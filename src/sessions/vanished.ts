// A session file deleted, moved or replaced while hey writes it (`rm`, a cleanup script, a backup
// restored over it, a sync tool): the writer's descriptor still reaches every byte written, but no
// later `hey -c` would ever read them. The writer checks at each turn boundary and writes the
// session back where it can be found (writer.ts).
import { closeSync, constants, fstatSync, fsyncSync, linkSync, lstatSync, readSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { dirSync } from "../fs/dir-sync.ts";
import { copyBytes, writeAll } from "../fs/fd-bytes.ts";
import { errnoCode } from "../kernel/errors.ts";
import { parseHeader, toLine } from "./format.ts";
import { closeQuietly, linesForward, openSessionFile } from "./lines.ts";

/** Where the file open as `fd` is: still at `path`, gone from it, or `path` is another file now. */
export function whereabouts(fd: number, path: string): "there" | "gone" | "replaced" {
  const open = fstatSync(fd);
  try {
    const st = lstatSync(path);
    return st.ino === open.ino && st.dev === open.dev ? "there" : "replaced";
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return "gone";
    throw e;
  }
}

/** whereabouts, or "there" when it cannot be told (what is said as hey ends, which must not throw) */
export function whereaboutsQuietly(fd: number, path: string): ReturnType<typeof whereabouts> {
  try {
    return whereabouts(fd, path);
  } catch {
    return "there";
  }
}

/**
 * Copies the session open as `fd` to `target`, a name no file has (never over one: it is made
 * whole under a temporary name first, then linked), with `id` as its header's id when given;
 * returns the copy opened to append and its size. Throws when the copy cannot be made, leaving nothing behind.
 */
export function copySession(fd: number, target: string, id?: string): { fd: number; bytes: number } {
  const size = fstatSync(fd).size;
  let from = 0;
  let head = Buffer.alloc(0);
  if (id !== undefined) {
    const first = linesForward(fd, size).next();
    const header = first.done ? undefined : parseHeader(first.value.text);
    if (!header || first.done) throw new Error("its header cannot be read");
    head = Buffer.from(toLine({ ...header, id }));
    from = Math.min(size, first.value.end + 1);
  }
  const tmp = `${target}.restore-${process.pid}`;
  const out = openSessionFile(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    writeAll(out, head);
    copyBytes(fd, out, from, size);
    fsyncSync(out);
    closeSync(out);
    linkSync(tmp, target); // EEXIST when something took the name meanwhile: that file is not touched
  } catch (e) {
    closeQuietly(out);
    unlinkSync(tmp);
    throw e;
  }
  unlinkSync(tmp);
  dirSync.run(dirname(target)); // the copy's name, made by the link
  return { fd: openSessionFile(target, constants.O_RDWR | constants.O_APPEND), bytes: head.length + size - from };
}

/** What the writer says when another file took its session's name: the conversation goes on as session `id`, in `target`. */
export function replacedWarning(was: string, id: string, target: string): string {
  return `${was} was replaced by another file while hey was writing it (that file is left as it is); this conversation goes on as session ${id}, ${target} — \`hey --resume ${id}\` continues it`;
}

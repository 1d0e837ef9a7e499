// The jobs a run's commands left running, recorded in their session as hey ends them (format.ts
// `jobs`), after its writer closed: a REPL's session that `/resume` or `/clear` left is closed
// while its jobs run on, and the REPL closes its last one before hey ends them.
import { constants, fstatSync, futimesSync } from "node:fs";
import { join } from "node:path";
import { writeAll } from "../fs/fd-bytes.ts";
import { newId } from "../kernel/ir.ts";
import { toLine } from "./format.ts";
import { closeQuietly, endsWithNewline, openSessionFile } from "./lines.ts";
import { lockSession, unlockSession } from "./lock.ts";

/**
 * Records in session `id` of `dir`, its writer closed, the jobs its commands left running, which
 * ended with hey (format.ts `jobs`): `hey -c` and `/resume` tell its model. Nothing when another hey has it open now,
 * or it has no file. Never throws.
 */
export function appendEndedJobs(dir: string, id: string, ended: string[]): void {
  const path = join(dir, `${id}.jsonl`);
  const self = {};
  let fd: number | undefined;
  try {
    lockSession(path, self);
    fd = openSessionFile(path, constants.O_RDWR | constants.O_APPEND);
    const { size, atime, mtime } = fstatSync(fd);
    if (size === 0) return;
    const line = toLine({ type: "jobs", id: newId(), ended });
    writeAll(fd, Buffer.from(endsWithNewline(fd, size) ? line : `\n${line}`));
    // bookkeeping, not work in it: the session keeps its place in the lists (`hey -c` continues the one the REPL was in last)
    futimesSync(fd, atime, mtime);
  } catch {
    // in use by another hey, gone, unwritable: hey said on stderr that they ended
  } finally {
    if (fd !== undefined) closeQuietly(fd);
    unlockSession(path, self);
  }
}

// The full output of a call whose result was cut or filtered, written to the session's outputs
// folder (outputs.ts) before the result returns: its secrets hidden as the result hides them
// (saved-output.ts), once per run for the same output. No raw spill file and no cut copy outlives
// the call, whether the save fails or hey leaves in the middle of it (outputs.ts whileWritten).
import { existsSync } from "node:fs";
import { open, rename, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { fileChunks } from "../fs/file-chunks.ts";
import { errorText } from "../kernel/errors.ts";
import type { Captured } from "./capture.ts";
import { ensurePrivateDir, keepUnderCeiling, keptAtExit, whileWritten } from "./outputs.ts";
import type { Finished } from "./run-process.ts";
import { hiddenBytes, hiddenChunks, PIECE_BYTES } from "./saved-output.ts";
import { collectAsRead } from "./garbage-watch.ts";

/**
 * Writes stdout, `[stderr]` + stderr and the exit code to `path` (a spilled stdout is moved
 * there, not copied, unless `hide` has secrets to take out of it); says where, or why not. The
 * spill files are gone after, and so is a file the save could not finish.
 */
export async function saveFullOutput(
  path: string,
  run: Finished,
  exitCode: number,
  hide: ((text: string) => string) | undefined,
): Promise<{ note: string; error?: string }> {
  const { stdout, stderr } = run;
  const spills = [stdout.spill, stderr.spill].filter((s) => s !== undefined);
  try {
    const lost = [stdout, stderr].find((c) => c.hidden.bytes > 0 && !c.spill);
    if (lost) throw new Error(lost.spillError ?? "not kept");
    const key = `${join(path, "..")}\n${await contentHash(run, exitCode)}`;
    const same = savedAlready.get(key);
    // the same output saved again (a log read on every call) would only fill the folder; the file the newest
    // result names is the newest one, so the ceiling deletes it last. One deleted meanwhile (another hey's
    // clean-up, /sessions prune) is saved anew.
    const sameSize = same && existsSync(same) ? await madeNewest(same) : undefined;
    if (same && sameSize !== undefined) {
      void keepUnderCeiling(same, sameSize);
      return { note: `[full output: ${same}]` };
    }
    ensurePrivateDir(join(path, ".."));
    await whileWritten(path, async () => {
      await write(path, run, exitCode, hide);
      // in the background, the oldest outputs go past the ceiling; asked while the file still counts as
      // being written, so no parallel call's check deletes it in between
      void keepUnderCeiling(path, (await stat(path)).size);
    });
    savedAlready.set(key, path);
    return { note: `[full output: ${path}]` };
  } catch (e) {
    await rm(path, { force: true }).catch(() => {}); // a cut copy would be read as the whole output
    return { note: `[could not save the full output: ${errorText(e)}]`, error: errorText(e) };
  } finally {
    for (const spill of spills)
      await rm(spill, { force: true }).then(
        () => keptAtExit(spill),
        () => {},
      );
  }
}

/** The full output's file: written piece by piece, a spill's secrets hidden as each piece goes in. Throws what a write throws. */
async function write(path: string, run: Finished, exitCode: number, hide: ((text: string) => string) | undefined): Promise<void> {
  const { stdout, stderr } = run;
  const moved = stdout.spill !== undefined && hide === undefined;
  if (moved) await rename(stdout.spill!, path);
  // 0600 and O_EXCL: output can hold secrets
  const file = await open(path, moved ? "a" : "wx", 0o600);
  const buffer = new Uint8Array(READ_BYTES); // each chunk is written before the next is read into it
  const put = async (c: Captured) => {
    if (c.spill && hide)
      for await (const piece of hiddenChunks(fileChunks(c.spill, buffer), hide)) {
        await file.write(piece);
        // each piece leaves its text, its copy and the regexes' strings behind
        collectAsRead(piece.length);
      }
    else if (c.spill) for await (const chunk of fileChunks(c.spill, buffer)) await file.write(chunk);
    else if (c.raw) await file.write(hide ? hiddenBytes(c.raw, hide) : c.raw);
    else await file.write(hide ? hide(c.head) : c.head);
  };
  try {
    if (!moved) await put(stdout);
    if (stderr.bytes > 0) {
      await file.write(stdout.bytes > 0 ? "\n[stderr]\n" : "[stderr]\n");
      await put(stderr);
    }
    await file.write(`\n[exit code ${exitCode}]\n`);
  } finally {
    await file.close().catch(() => {});
  }
}

/** `path`'s size, its mtime now; undefined when it is gone. Never throws. */
async function madeNewest(path: string): Promise<number | undefined> {
  const now = new Date();
  return utimes(path, now, now)
    .then(
      async () => (await stat(path)).size,
      () => undefined,
    )
    .catch(() => undefined);
}

/**
 * A spill file is read a piece at a time (saved-output.ts), into one buffer (fs/file-chunks.ts):
 * 200 reads of a 50 MB output instead of 800, and no chunk left behind for the collector.
 */
const READ_BYTES = PIECE_BYTES;

/** The full outputs saved this run, by their folder and contentHash. */
const savedAlready = new Map<string, string>();

/** A hash of everything a full output of `run` holds: the same output, in the same folder, is saved once. */
async function contentHash(run: Finished, exitCode: number): Promise<bigint> {
  let seed = BigInt(exitCode);
  const buffer = new Uint8Array(READ_BYTES);
  for (const c of [run.stdout, run.stderr]) {
    seed = BigInt(Bun.hash("\0stream\0", seed));
    if (c.spill) for await (const chunk of fileChunks(c.spill, buffer)) seed = BigInt(Bun.hash(chunk, seed));
    else seed = BigInt(Bun.hash(c.raw ?? c.head, seed));
  }
  return seed;
}

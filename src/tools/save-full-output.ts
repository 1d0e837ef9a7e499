// The full output of a call whose result was cut or filtered, written to the session's outputs
// folder (outputs.ts): its secrets hidden as the result hides them (saved-output.ts), after the
// result when that takes long (saves-pending.ts), and once per run for the same output.
import { existsSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileChunks } from "../fs/file-chunks.ts";
import { errorText } from "../kernel/errors.ts";
import type { Captured } from "./capture.ts";
import { ensurePrivateDir, keepUnderCeiling } from "./outputs.ts";
import type { Finished } from "./run-process.ts";
import { hiddenBytes, hiddenChunks } from "./saved-output.ts";
import { pendingSave } from "./saves-pending.ts";

/**
 * Writes stdout, `[stderr]` + stderr and the exit code to `path` (a spilled stdout is moved
 * there, not copied, unless `hide` has secrets to take out of it); says where, or why not. A
 * spilled stream whose secrets are hidden is written after this returns (saves-pending.ts: the
 * next tool call waits for it), a write that fails then told through `late`. Spill files never outlive the call.
 */
export async function saveFullOutput(
  path: string,
  run: Finished,
  exitCode: number,
  hide: ((text: string) => string) | undefined,
  late: (error: string) => void,
): Promise<{ note: string; error?: string }> {
  const { stdout, stderr } = run;
  const removeSpills = async () => {
    for (const c of [stdout, stderr]) if (c.spill) await rm(c.spill, { force: true }).catch(() => {});
  };
  let file: Awaited<ReturnType<typeof open>>;
  let moved = false;
  let key: string;
  try {
    const lost = [stdout, stderr].find((c) => c.hidden.bytes > 0 && !c.spill);
    if (lost) throw new Error(lost.spillError ?? "not kept");
    key = `${join(path, "..")}\n${await contentHash(run, exitCode)}`;
    const same = savedAlready.get(key);
    if (same && existsSync(same)) {
      await removeSpills();
      return { note: `[full output: ${same}]` }; // the same output saved again (a log read on every call) would only fill the folder
    }
    ensurePrivateDir(join(path, ".."));
    moved = stdout.spill !== undefined && hide === undefined;
    if (moved) await rename(stdout.spill!, path);
    // 0600 and O_EXCL: output can hold secrets
    file = await open(path, moved ? "a" : "wx", 0o600);
  } catch (e) {
    await removeSpills();
    return { note: `[could not save the full output: ${errorText(e)}]`, error: errorText(e) };
  }
  const put = async (c: Captured) => {
    if (c.spill && hide)
      for await (const piece of hiddenChunks(fileChunks(c.spill), hide)) {
        await file.write(piece);
        // each 1 MB piece leaves its text, its copy and the regexes' strings behind: collected now, 50 MB
        // of output peaks at ~92 MB (hey's bench; ~120 MB at the collector's own pace), for ~0.5 s more
        Bun.gc(true);
      }
    else if (c.spill) for await (const chunk of fileChunks(c.spill)) await file.write(chunk);
    else if (c.raw) await file.write(hide ? hiddenBytes(c.raw, hide) : c.raw);
    else await file.write(hide ? hide(c.head) : c.head);
  };
  const write = async (): Promise<string | undefined> => {
    try {
      if (!moved) await put(stdout);
      if (stderr.bytes > 0) {
        await file.write(stdout.bytes > 0 ? "\n[stderr]\n" : "[stderr]\n");
        await put(stderr);
      }
      await file.write(`\n[exit code ${exitCode}]\n`);
      void keepUnderCeiling(path, (await file.stat()).size); // in the background: the oldest outputs go past the ceiling
      return undefined;
    } catch (e) {
      savedAlready.delete(key);
      return errorText(e);
    } finally {
      await file.close().catch(() => {});
      await removeSpills();
    }
  };
  savedAlready.set(key, path); // while it is written too: a call that names it waits for it (saves-pending.ts)
  if (hide && (stdout.spill || stderr.spill)) {
    pendingSave(
      path,
      write().then((error) => void (error !== undefined && late(error))),
    );
    return { note: `[full output: ${path}]` };
  }
  const error = await write();
  return error === undefined ? { note: `[full output: ${path}]` } : { note: `[could not save the full output: ${error}]`, error };
}

/** The full outputs saved this run, by their folder and contentHash. */
const savedAlready = new Map<string, string>();

/** A hash of everything a full output of `run` holds: the same output, in the same folder, is saved once. */
async function contentHash(run: Finished, exitCode: number): Promise<bigint> {
  let seed = BigInt(exitCode);
  for (const c of [run.stdout, run.stderr]) {
    seed = BigInt(Bun.hash("\0stream\0", seed));
    if (c.spill) for await (const chunk of fileChunks(c.spill)) seed = BigInt(Bun.hash(chunk, seed));
    else seed = BigInt(Bun.hash(c.raw ?? c.head, seed));
  }
  return seed;
}

// Where the bash tool keeps the full output of a call whose result was cut (SPEC §7, issue 10):
// `<cache>/hey/outputs/<session>/<call>.log`, directories 0700 and files 0600 (output can hold
// secrets). hey may delete them any time: at start-up, in the background, files older than
// OUTPUTS_MAX_AGE_MS go, then the oldest until all of them fit in OUTPUTS_MAX_BYTES; after each
// save that passes OUTPUTS_MAX_BYTES, the oldest go too, the running session's last (keepUnderCeiling);
// `/sessions prune` removes a deleted session's folder with it.
import { mkdirSync, rmSync } from "node:fs";
import { readdir, rm, rmdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { dirProblem } from "../fs/dir-problem.ts";

export const OUTPUTS_MAX_AGE_MS = 7 * 86_400_000;
export const OUTPUTS_MAX_BYTES = 500 * 1024 * 1024;

/** Creates `dir` (and its parents) private to the user. Throws what mkdir throws. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

let toldUnsaved = false;

/**
 * Once a run: the line that tells the user full outputs cannot be saved in `dir` (a session's
 * outputs folder) and why — the folder's problem when it cannot be made, else `error`, what the
 * save said; undefined after the first time.
 */
export function unsavedNotice(dir: string, error: string): string | undefined {
  if (toldUnsaved) return undefined;
  toldUnsaved = true;
  let why = `in ${dir}: ${error}`;
  try {
    ensurePrivateDir(dir);
  } catch (e) {
    why = dirProblem(dir, e, "XDG_CACHE_HOME"); // names the directory
  }
  return `hey: the full output of a long command cannot be saved: ${why}; the model gets only its first and last lines`;
}

/** Removes one session's outputs (`/sessions prune`). Never throws. */
export function removeSessionOutputs(root: string, session: string): void {
  if (!/^[\w-]+$/.test(session)) return; // an id, never a path
  try {
    rmSync(join(root, session), { recursive: true, force: true });
  } catch {}
  const ledger = ledgers.get(root); // its files no longer count toward the ceiling
  if (ledger)
    ledgers.set(
      root,
      ledger.then(() => readLedger(root)),
    );
}

/**
 * Deletes files under `root/<session>/` older than `maxAgeMs`, then the oldest until the rest fit
 * in `maxBytes`, then emptied session folders; the running session's folder is left alone. Only
 * asynchronous calls: meant to run in the background while hey starts. Never throws.
 */
export async function pruneOutputs(root: string, opts: { current: string; now?: number; maxAgeMs?: number; maxBytes?: number }): Promise<{ deleted: number }> {
  const now = opts.now ?? Date.now();
  const maxAge = opts.maxAgeMs ?? OUTPUTS_MAX_AGE_MS;
  const maxBytes = opts.maxBytes ?? OUTPUTS_MAX_BYTES;
  const files: { path: string; mtime: number; size: number }[] = [];
  const sessions = (await readdir(root).catch(() => [] as string[])).filter((s) => s !== opts.current);
  for (const session of sessions) {
    const dir = join(root, session);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const path = join(dir, name);
      const s = await stat(path).catch(() => undefined);
      if (s?.isFile()) files.push({ path, mtime: s.mtimeMs, size: s.size });
    }
  }
  files.sort((a, b) => b.mtime - a.mtime); // newest first
  let kept = 0;
  let full = false; // from the first file that does not fit on, everything older goes
  let deleted = 0;
  for (const f of files) {
    full ||= kept + f.size > maxBytes;
    if (!full && now - f.mtime <= maxAge) {
      kept += f.size;
      continue;
    }
    await rm(f.path, { force: true }).then(
      () => deleted++,
      () => {},
    );
  }
  for (const session of sessions) await rmdir(join(root, session)).catch(() => {}); // only empty ones go
  return { deleted };
}

/** A root's full outputs, oldest first, and the size of everything under it: walked once a run, then kept by keepUnderCeiling. */
interface Ledger {
  files: { path: string; session: string; size: number }[];
  total: number;
}
const ledgers = new Map<string, Promise<Ledger>>();
/** Saved outputs whose ceiling check has not run yet (by how many checks wait): a parallel call's check must not delete them. */
const checking = new Map<string, number>();

/**
 * After a save of `size` bytes to `path` (`<root>/<session>/<call>.log`, new or the same output
 * named again, which makes it the newest): while the full outputs under root pass `maxBytes`,
 * deletes the oldest, other sessions' first, then the running session's. The file just saved
 * stays, and so does every file saved or being written in this run whose own check has not run
 * yet (parallel calls, each named in its result); job logs and /undo copies neither count nor go
 * (start-up pruning takes them by age and size). A session that runs all day (or `hey -c` going on
 * with one) would otherwise grow its folder without limit. The tree is read once a run and later
 * saves add to a running total; when that total passes `maxBytes` the tree is read again before
 * anything goes (another hey saves there too, and files go away). Saves are queued per root, so
 * parallel calls never delete twice. Never throws.
 */
export function keepUnderCeiling(path: string, size: number, maxBytes = OUTPUTS_MAX_BYTES): Promise<{ deleted: number }> {
  const dir = dirname(path);
  const root = dirname(dir);
  const session = basename(dir);
  let deleted = 0;
  checking.set(path, (checking.get(path) ?? 0) + 1);
  const ledger = (ledgers.get(root) ?? readLedger(root)).then(async (l) => {
    l = withNewest(l, { path, session, size });
    if (l.total <= maxBytes) return l;
    l = withNewest(await readLedger(root), { path, session, size });
    while (l.total > maxBytes) {
      const deletable = (f: Ledger["files"][number]) => f.path !== path && !checking.has(f.path) && !leftAtExit.has(f.path);
      const other = l.files.findIndex((f) => f.session !== session && deletable(f));
      const i = other >= 0 ? other : l.files.findIndex(deletable);
      if (i < 0) break;
      const [gone] = l.files.splice(i, 1);
      l.total -= gone!.size;
      await rm(gone!.path, { force: true }).then(
        () => deleted++,
        () => {},
      );
    }
    return l;
  });
  ledgers.set(root, ledger);
  void ledger.then(() => {
    const left = checking.get(path)! - 1;
    if (left > 0) checking.set(path, left);
    else checking.delete(path);
  });
  return ledger.then(() => ({ deleted }));
}

/** `l` with `file` its newest full output, counted at its size now (a file read at the walk may have been half written). */
function withNewest(l: Ledger, file: Ledger["files"][number]): Ledger {
  const was = l.files.find((f) => f.path === file.path);
  const files = [...l.files.filter((f) => f !== was), file];
  return { files, total: l.total - (was?.size ?? 0) + file.size };
}

/**
 * Every full output under `root/<session>/`, oldest first, and their total size. Job logs, /undo
 * copies and spill files are left out: counted, files the ceiling may not delete would make every
 * save delete the running session's outputs. Never throws.
 */
async function readLedger(root: string): Promise<Ledger> {
  const files: (Ledger["files"][number] & { mtime: number })[] = [];
  let total = 0;
  for (const session of await readdir(root).catch(() => [] as string[])) {
    for (const name of await readdir(join(root, session)).catch(() => [] as string[])) {
      if (!/^[\w-]+\.log$/.test(name)) continue; // not a job log (two dots), an /undo copy nor a spill file
      const path = join(root, session, name);
      const s = await stat(path).catch(() => undefined);
      if (!s?.isFile()) continue;
      total += s.size;
      files.push({ path, session, size: s.size, mtime: s.mtimeMs });
    }
  }
  files.sort((a, b) => a.mtime - b.mtime);
  return { files, total };
}

const leftAtExit = new Set<string>();
let exitHooked = false;

/** `path`, a file hey writes for now (a spill file, a save under way): removed if hey leaves while it is (a second Ctrl-C). */
export function removedAtExit(path: string): string {
  if (!exitHooked)
    process.on("exit", () => {
      for (const left of leftAtExit) rmSync(left, { force: true });
    });
  exitHooked = true;
  leftAtExit.add(path);
  return path;
}

/** `path` no longer removed at exit: it is whole, or gone already. */
export function keptAtExit(path: string): void {
  leftAtExit.delete(path);
}

/** Runs `write`, which makes `path`: a cut copy, or one whose secrets are not hidden yet, never stays on disk when hey leaves meanwhile. */
export async function whileWritten<T>(path: string, write: () => Promise<T>): Promise<T> {
  removedAtExit(path);
  try {
    return await write();
  } finally {
    keptAtExit(path);
  }
}

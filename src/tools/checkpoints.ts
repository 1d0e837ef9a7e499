// `/undo` (x57): before edit or write_file first changes a file in a turn, what the file was — its
// bytes and mode, or that it did not exist — is kept in the session's outputs folder
// (`<cache>/hey/outputs/<session>/undo-*`, 0600, pruned and removed with the session's other
// outputs). `/undo` puts back the files of the last turn that changed any, each only while it is
// still exactly what the agent left; a file changed since (by the user, an editor, a later
// command) is left as it is and named. What bash commands changed is not kept: a turn that ran one
// is said to have, and `/undo` reaches past a newer turn that ran one only when typed again (x59:
// it undid the older turn at once, leaving the newer commands' changes without a word).
// Checkpoints are taken only in a turn the REPL began (beginTurn): a one-shot run cannot be undone
// by a later one and keeps nothing. A file put back also gets back what the file tools had seen of
// it before the turn (x58: with the turn's record kept, every later edit of it said it "had changed
// since you last read it (by a command, the user or another program)").
// The folders write_file made for a new file are the turn's too (x84: `/undo` removed deep/er/x.txt
// and left deep/er/ behind, empty): `/undo` removes them deepest first, each only while it is empty.
// Each step is also appended to a record beside the copies (undo-record.ts), from which a hey
// started again on the session (`hey -c`, `/resume`) rebuilds its turns: before, a restart started
// with none and the copies on disk went unused.
import { readFileSync } from "node:fs";
import { chmod, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { appendWhole } from "../fs/append-whole.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { DEADLINE_MS } from "../fs/bounded-reads.ts";
import { diskPath } from "../fs/dir-names.ts";
import { fileChunks } from "../fs/file-chunks.ts";
import { realTarget, realWithin } from "../fs/real-target.ts";
import { resolveUserPath } from "../fs/user-path.ts";
import { isWithin } from "../fs/within.ts";
import type { Tool } from "../kernel/tool.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { errorText } from "../kernel/errors.ts";
import { diskProblem } from "../fs/dir-problem.ts";
import { type Unsaved, unsavedNotice } from "./undo-unsaved.ts";
import type { Later, UndoOutcome, UndoReport } from "./undo-outcome.ts";
import { newId, type Message } from "../kernel/ir.ts";
import { missingFolders, removeFolders } from "./undo-folders.ts";
import { ensurePrivateDir, OUTPUTS_MAX_AGE_MS, OUTPUTS_MAX_BYTES } from "./outputs.ts";
import { contentHash } from "./read-file.ts";
import type { SeenFile, SeenFiles } from "./seen-files.ts";
import { changedFiles, foldersOfCreated, type KeptFile, RECORD_FILE, type RecordedTurn, recordLine, replayRecords, type UndoRecord } from "./undo-record.ts";

/** A file bigger than this gets no checkpoint (a note says so): copying it on every first edit would cost more than it saves. */
export const CHECKPOINT_MAX_BYTES = 10 * 1024 * 1024;

/** Why a copy, or every copy of a session, may be gone: hey prunes its outputs (outputs.ts). */
const PRUNED = `hey prunes saved outputs older than ${OUTPUTS_MAX_AGE_MS / 86_400_000} days, and the oldest past ${OUTPUTS_MAX_BYTES / 1024 / 1024} MB`;

/** A file's checkpoint (undo-record.ts), with what the file tools had seen of it before the turn. */
interface Kept extends KeptFile {
  /** the run's record of what the file tools saw, and this file's in it before the turn (undefined: none, or a turn of an earlier hey) */
  seen?: { files: SeenFiles; before: SeenFile | undefined };
}

/** A turn: its id names its copies and its steps in the record; `folders`, those write_file made (none was there before its call). */
interface Turn extends RecordedTurn {
  files: Map<string, Kept>;
  /** the copy being made of each file, which a second call on it in the same turn waits for */
  copying: Map<string, Promise<void>>;
  /** its first step is in the record (a turn that changed nothing is never written) */
  recorded: boolean;
  /** the copies (each of its `path`) and record steps (no path) of it that could not be saved, until the user is told (`told`: once a turn) */
  unsaved?: Unsaved[];
  told?: true;
  /** rebuilt from the record: a turn of an earlier hey, possibly elsewhere */
  earlier?: true;
}

/** A session's checkpoints. Its methods never throw: a checkpoint that cannot be kept is said at /undo. */
export interface Checkpoints {
  /** a new turn starts: what the tools change from now on is its */
  beginTurn(): void;
  /** undoes the last turn that changed files and forgets it and the newer turns; past a newer turn that ran bash, only when asked twice */
  undo(): Promise<UndoOutcome>;
}

interface Store extends Checkpoints {
  /**
   * What of the current turn could not be saved, once a turn: the copy of `path` (the file a call
   * changed) or a step of the record; the user is told at once, while the change can be reviewed
   * (x117). `failed`: the call failed, so the copy of `path` is not said, and another call's may be.
   */
  untold(path?: string, failed?: boolean): Unsaved | undefined;
  keep(path: string, seen?: SeenFiles): Promise<void>;
  /** what the run's file tools saw: a file put back of a turn of an earlier hey counts as not seen */
  seen(files: SeenFiles): void;
  left(path: string): Promise<void>;
  /** of `folders`, missing before a write_file call, those there now are the current turn's */
  made(folders: string[]): Promise<void>;
  ranBash(): void;
}

const stores = new Map<string, Store>();

/**
 * The checkpoints kept in `dir` (a session's outputs folder): one store per folder, shared by the
 * tools and the REPL, its turns first rebuilt from the folder's record. `run`: the run's SeenFiles,
 * and the session's messages so far (a session whose record is gone says so when they changed files).
 */
export function checkpointsIn(dir: string, run: { seen?: SeenFiles; history?: readonly Message[]; root?: string } = {}): Checkpoints {
  const store = storeIn(dir, run.history, run.root);
  if (run.seen) store.seen(run.seen);
  return store;
}

/** The record's text; undefined when there is none (or it cannot be read). Never throws. */
function readRecord(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * `root`: the project this hey runs in. A turn records it; `/undo` of a turn an earlier hey made in
 * another project touches nothing and says where it was made, and of one made here puts back no
 * file outside the project (`hey --resume ID` from another directory had /undo write there unasked).
 */
function storeIn(dir: string, history?: readonly Message[], root?: string): Store {
  const known = stores.get(dir);
  if (known) return known;
  const file = join(dir, RECORD_FILE);
  const text = readRecord(file); // read once, at the session's first turn or /undo in this hey: small, and never on the way to the prompt
  const replayed = replayRecords(text ?? "");
  const turns: Turn[] = replayed.turns.map((t) => ({ ...t, copying: new Map(), recorded: true, earlier: true }));
  // turns of an earlier hey changed files, and nothing of them is left: /undo says so rather than that no turn did, as does
  // every later hey, from the first line of the record begun now
  const lost = replayed.lost || (text === undefined && history !== undefined && changedFiles(history));
  let start = lost && !replayed.lost ? recordLine({ type: "lost" }) : "";
  if (text !== undefined && text !== "" && !text.endsWith("\n")) start = "\n"; // a hey killed mid-line: the next line starts on its own
  // what of the turn could not be saved (what /undo cannot do is said at once): a copy once per file, the record once
  const unsaved = (turn: Turn, e: unknown, path?: string, unread?: boolean) => {
    if (turn.unsaved?.some((u) => u.path === path)) return;
    const why = diskProblem(e)?.split(";")[0] ?? errorText(e);
    (turn.unsaved ??= []).push({ ...(path !== undefined && { path }), where: path === undefined ? file : dir, why, ...(unread && { unread }) });
  };
  // the steps a full disk kept out, written with the next step or turn: a later hey rebuilds the turn whole
  let pending = "";
  const flush = (turn?: Turn) => {
    if (pending === "") return;
    let failed: ReturnType<typeof appendWhole>;
    try {
      ensurePrivateDir(dir);
      failed = appendWhole(file, pending, 0o600);
    } catch (error) {
      failed = { error, torn: false };
    }
    if (!failed) {
      pending = "";
      if (current?.unsaved) current.unsaved = current.unsaved.filter((u) => u.path !== undefined); // the record is whole again: nothing to say of it
      return;
    }
    if (turn) unsaved(turn, failed.error);
    if (failed.torn && !pending.startsWith("\n")) pending = `\n${pending}`; // after what the failed write left of a line: a line of its own
  };
  // appended as it happens; one that cannot be written leaves this hey's /undo whole, and is written again with the next
  const record = (turn: Turn, r: UndoRecord) => {
    const begun = turn.recorded ? "" : recordLine({ type: "turn", turn: turn.id, ...(turn.root !== undefined && { root: turn.root }) });
    pending += start + begun + recordLine(r);
    start = "";
    turn.recorded = true;
    flush(turn);
  };
  let runSeen: SeenFiles | undefined; // for a turn of an earlier hey, what this run's file tools saw
  let current: Turn | undefined;
  // the newest turn when /undo last stopped before turns that ran bash: the next /undo, with no turn begun since, goes past them
  let warned: Turn | undefined;
  // undone: the turns that changed files /undo put back, this hey's and (from the record) earlier ones', for the /undo that finds none left
  let [copies, undone] = [0, replayed.undone];
  // read a chunk at a time: the file may be one of 60 MB that edit has just changed
  const hashOf = async (path: string) => {
    const hasher = new Bun.CryptoHasher("sha256");
    try {
      for await (const chunk of fileChunks(diskPath(path))) hasher.update(chunk);
    } catch {
      return null;
    }
    return hasher.digest("hex");
  };
  const copyOf = async (turn: Turn, path: string, seen: SeenFiles | undefined) => {
    let name: string | undefined;
    const kept: Kept = { path, ...(seen && { seen: { files: seen, before: seen.get(path) } }) };
    turn.files.set(path, kept);
    const info = await stat(diskPath(path)).catch(() => undefined);
    if (info) kept.mode = info.mode & 0o7777; // else created by the turn
    if (info && info.size > CHECKPOINT_MAX_BYTES) kept.skipped = `over ${CHECKPOINT_MAX_BYTES / 1024 / 1024} MB, no copy kept`;
    else if (info) {
      // a file hey cannot read: a folder fails the call too (untold's `failed` drops it); a write-only one write_file replaces
      const bytes = await readFile(diskPath(path)).catch((e: unknown) => {
        kept.skipped = `no copy could be kept: ${errorText(e)}`;
        unsaved(turn, e, path, true);
        return undefined;
      });
      if (bytes)
        try {
          ensurePrivateDir(dir);
          name = `undo-${turn.id}-${++copies}`; // the turn's id: a later hey on the session never writes over an earlier one's copy
          await writeFile(join(dir, name), bytes, { mode: 0o600 });
          kept.copy = name;
          kept.copyHash = contentHash(bytes);
        } catch (e) {
          kept.skipped = `no copy could be kept: ${e instanceof Error ? e.message : String(e)}`;
          unsaved(turn, e, path);
          if (name) await rm(join(dir, name), { force: true }).catch(() => {}); // what a full disk took of it: no copy
        }
    }
    const { copy, copyHash: sha256, mode, skipped } = kept;
    const was = skipped !== undefined ? { skipped } : copy !== undefined ? { copy, sha256 } : {};
    record(turn, { type: "before", turn: turn.id, path, ...was, ...(mode !== undefined && { mode }) });
  };
  // a turn undone or passed over: its copies go (those of calls that failed too)
  const forget = async (turn: Turn) => {
    for (const kept of turn.files.values()) if (kept.copy) await rm(join(dir, kept.copy), { force: true }).catch(() => {});
  };
  const store: Store = {
    untold(path, failed) {
      const turn = current;
      if (!turn?.unsaved || turn.told) return undefined;
      // a call that failed changed nothing /undo would put back: its copy's trouble is not worth the turn's one word
      if (failed) turn.unsaved = turn.unsaved.filter((u) => u.path !== path);
      // its own copy first: without it /undo cannot restore the file even in this hey; without the record, only a later hey
      const first = failed ? undefined : (turn.unsaved.find((u) => u.path === path) ?? turn.unsaved.find((u) => u.path === undefined));
      if (first) turn.told = true;
      return first;
    },
    beginTurn() {
      flush();
      current = { id: newId(), files: new Map(), copying: new Map(), ranBash: false, folders: new Set(), recorded: false, ...(root !== undefined && { root }) };
      turns.push(current);
    },
    ranBash() {
      if (current && !current.ranBash) record(current, { type: "bash", turn: current.id });
      if (current) current.ranBash = true;
    },
    seen(files) {
      runSeen = files;
    },
    keep(path, seen) {
      if (seen) runSeen = seen;
      if (!current) return Promise.resolve();
      const copying = current.copying.get(path) ?? copyOf(current, path, seen);
      current.copying.set(path, copying);
      return copying;
    },
    async left(path) {
      const kept = current?.files.get(path);
      const now = kept && (await hashOf(path));
      // not there after a change that worked: the tool wrote under another spelling of the name, which this cannot follow
      if (kept && now) kept.after = now;
      if (current && kept && now) record(current, { type: "after", turn: current.id, path, sha256: now });
    },
    async made(folders) {
      const turn = current;
      if (!turn) return;
      for (const folder of folders)
        if ((await stat(diskPath(folder)).catch(() => undefined))?.isDirectory()) {
          turn.folders.add(folder);
          record(turn, { type: "folder", turn: turn.id, path: folder });
        }
    },
    async undo() {
      // the last turn that changed a file; the newer turns changed none, and are passed over
      const changed = (t: Turn) => [...t.files.values()].filter((k) => k.after !== undefined).map((k) => k.path);
      let at = turns.length - 1;
      while (at >= 0 && changed(turns[at]!).length === 0) at--;
      const passed = turns.slice(at + 1);
      const later: Later = { turns: passed.length, ranBash: passed.filter((t) => t.ranBash).length };
      const turn = turns[at];
      // made in another project: undone only from there, where its paths mean what they meant
      // a project reached through a link is the folder it leads to (a -p turn records real paths; macOS's /tmp is /private/tmp)
      // links looked up only when the names differ, within the read deadline: /undo runs on hey's thread, where a hung network mount would freeze it
      const real = root === undefined || !turn?.earlier ? undefined : realWithin(root);
      if (turn?.earlier && turn.root !== undefined && root !== undefined && turn.root !== root) {
        const there = realWithin(turn.root);
        if (real === undefined || there !== real)
          return {
            kind: "elsewhere",
            root: turn.root,
            files: changed(turn),
            ...(real === undefined || there === undefined ? { unanswered: real === undefined ? root : turn.root } : {}),
          };
      }
      // what those commands changed stays: the user hears so before an older turn is undone under it
      if (turn && later.ranBash > 0 && warned !== turns.at(-1)) {
        warned = turns.at(-1);
        return { kind: "waiting", later, files: changed(turn) };
      }
      warned = undefined;
      const dropped = turns.splice(Math.max(at, 0));
      for (const gone of dropped) if (gone !== turn) await forget(gone);
      if (current && !turns.includes(current)) current = undefined;
      // a later hey's stack ends where this one's does: the first of them in the record, and every newer one, are gone
      const first = dropped.find((t) => t.recorded);
      const recordUndone = () => first && record(first, { type: "undone", turn: first.id });
      if (!turn) recordUndone();
      if (!turn) return { kind: "none", later, ...(undone > 0 && { undone }), ...(lost && { gone: PRUNED }) };
      const older = turns.some((t) => changed(t).length > 0); // what a next /undo would reach
      const report: UndoReport = { restored: [], removed: [], changed: [], skipped: [], ranBash: turn.ranBash, later, older };
      // the file is as it was before the turn, and so is what the agent has seen of it: none, when it had not read it then
      const seenAsBefore = (kept: Kept) => {
        const seen = kept.seen ?? (runSeen && { files: runSeen, before: undefined }); // of an earlier hey's turn: not seen in this run
        if (!seen) return;
        if (seen.before) seen.files.set(kept.path, seen.before);
        else seen.files.delete(kept.path);
      };
      // a turn rebuilt from the record reaches into this project only: the record proves no more
      const outside = (path: string): string | undefined => {
        if (turn.earlier !== true || root === undefined || isWithin(path, root)) return undefined;
        const target = real === undefined ? undefined : realWithin(path);
        if (target === undefined)
          return `it or this project did not answer within ${DEADLINE_MS / 1000} s (a hung network mount?), so /undo cannot tell whether it is inside; not touched`;
        return isWithin(target, real!) ? undefined : `outside this project (${root}), which /undo of an earlier hey's turn does not reach; not touched`;
      };
      for (const kept of turn.files.values()) {
        if (kept.after === undefined) continue; // every change to it failed
        const away = outside(kept.path);
        if (away) report.skipped.push({ path: kept.path, why: away });
        else if (kept.skipped) report.skipped.push({ path: kept.path, why: kept.skipped });
        else if ((await hashOf(kept.path)) !== kept.after) report.changed.push(kept.path);
        else if (kept.copy === undefined) {
          await rm(diskPath(kept.path), { force: true }).then(
            () => {
              report.removed.push(kept.path);
              seenAsBefore(kept);
            },
            (e: unknown) => report.skipped.push({ path: kept.path, why: `cannot remove it: ${e instanceof Error ? e.message : String(e)}` }),
          );
        } else {
          const bytes = await readFile(join(dir, kept.copy)).catch(() => undefined);
          // pruned with the session's other outputs, or not the bytes it was: what the agent left stays
          if (!bytes || contentHash(bytes) !== kept.copyHash) {
            const why = bytes ? "its copy from before that turn is damaged" : `its copy from before that turn is gone (${PRUNED})`;
            report.skipped.push({ path: kept.path, why: `${why}; not touched` });
            continue;
          }
          try {
            await writeFileAtomic(kept.path, bytes, { unchanged: await readFile(diskPath(kept.path)) });
            if (kept.mode !== undefined) await chmod(diskPath(kept.path), kept.mode);
            report.restored.push(kept.path);
            seenAsBefore(kept);
          } catch (e) {
            report.skipped.push({ path: kept.path, why: `cannot restore it: ${e instanceof Error ? e.message : String(e)}` });
          }
        }
      }
      recordUndone(); // once its files are back: a hey killed before has the turn still, each file left as it now is
      await removeFolders(new Set(foldersOfCreated(turn.folders, turn.files.values()).filter((f) => !outside(f))), report.skipped);
      await forget(turn);
      undone++;
      return { kind: "undone", report };
    },
  };
  stores.set(dir, store);
  return store;
}

/**
 * `tool` with checkpoints kept in `dir`: edit and write_file keep what a file was before they
 * change it, bash marks the turn; any other tool is returned as it is. `seen`: what the run's file
 * tools saw, which `/undo` puts back as it was for the files it restores.
 */
export function withCheckpoints(tool: Tool, dir: string, home: string, seen?: SeenFiles, notice?: (line: string) => void): Tool {
  const tell = (store: Store, cwd: string, path?: string, failed?: boolean) => {
    const unsaved = store.untold(path, failed);
    if (unsaved) notice?.(unsavedNotice(unsaved, cwd));
  };
  if (tool.name === TOOL.bash)
    return {
      ...tool,
      run: (args, ctx) => {
        storeIn(dir).ranBash();
        tell(storeIn(dir), ctx.cwd);
        return tool.run(args, ctx);
      },
    };
  if (tool.name !== TOOL.edit && tool.name !== TOOL.writeFile) return tool;
  return {
    ...tool,
    run: async (args, ctx) => {
      const store = storeIn(dir);
      const path = (args as { path?: unknown }).path;
      const where = typeof path === "string" && path !== "" ? resolveUserPath(path, ctx.cwd, home) : undefined;
      const target = where && !("error" in where) ? realTarget(where.abs) : undefined;
      if (target) await store.keep(target, seen);
      // edit changes only a file that is there; write_file makes the folders a new file needs
      const missing = target && tool.name === TOOL.writeFile ? await missingFolders(target) : [];
      const result = await tool.run(args, ctx);
      if (target && !result.isError) await store.left(target);
      if (missing.length) await store.made(missing);
      tell(store, ctx.cwd, target, result.isError);
      return result;
    },
  };
}

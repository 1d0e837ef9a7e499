// Writing sessions (SPEC §19): one append-only JSONL file per conversation. The writer is an
// Output subscriber, so the loop never persists anything itself. The format lives in format.ts.
import { constants, fstatSync, fsyncSync, ftruncateSync } from "node:fs";
import { basename, join } from "node:path";
import { newId, type Effort, type Message } from "../kernel/ir.ts";
import type { AgentEvent, Output } from "../kernel/output.ts";
import { cutBeforeAnswer } from "../kernel/turns.ts";
import { cacheFields, formatSize, toLine, type SessionEntry } from "./format.ts";
import { tornLineEnd, tornNote } from "./torn.ts";
import { emptyKept, keep, rebase, resumedEntries, writeBack, writeBackWarning, type Kept, type KeptText } from "./shrunk.ts";
import { copySession, replacedWarning, whereabouts, whereaboutsQuietly } from "./vanished.ts";
import { writeAll } from "../fs/fd-bytes.ts";
import { endsWithNewline, linesBackward, openSessionFile } from "./lines.ts";
import { headerLine } from "./header-repair.ts";
import { lockSession, relockAfterPause, relockSession, SessionLockedError, unlockSession } from "./lock.ts";
import { emptyBacklog, heldNote, hold, holdAgain, lostWarning, savedAgain, spaceError, stoppedWarning, written } from "./backlog.ts";
import { diskProblem, dirProblem } from "../fs/dir-problem.ts";
import { dirSync, makeDirDurable } from "../fs/dir-sync.ts";
import { removeQuietly } from "../fs/file-lock.ts";
import { streamedAnswer } from "./streamed.ts";
import { errorText } from "../kernel/errors.ts";
import { backgroundSync, unsyncedWarning } from "./background-sync.ts";

/**
 * The session writer: persists `message`, `usage` (with the estimate's ratio when the event has it)
 * and summary `compaction` events, and a `model` entry per `model()` call or `model` event
 * (`/model`, `/effort`) that names a different model or effort than the previous one; a `window` compaction (a context-length error taught the model's window)
 * writes the model entry again with that window, so a resume starts from it.
 * Nothing is created until the first `message` event, or with `untilAnswer` until an answer's first words stream in (a
 * `text_delta` not blank) or the first assistant message that is more than the marker of an answer cut before its first word:
 * then a run that never got an answer (no server, a bad key, Ctrl-C or a signal before the first word) leaves no session; what
 * came before is held in memory and written then (a hey killed mid-answer keeps the question: open-ends.ts). An existing file is appended to (resume).
 * Each entry is written with one write; the file is fsynced at every turn boundary (a step's in the background: background-sync.ts) and on close.
 * The file found shorter than the writer left it (emptied or cut under it) gets the lines of this
 * run it lost written back first, with a warning that says what is lost (shrunk.ts).
 * Never throws. A full disk (a quota, a size limit: backlog.ts) is said once: the lines it would
 * not take are held, the cut one taken off the file's end, and written at a turn's end once there
 * is space, which is said too; lines still held at close are said lost, as is the whole session
 * when its file was deleted or replaced and the disk took no copy of it. Any other failure is passed
 * to `warn` once and the writer stops writing.
 */
export interface SessionWriter extends Output {
  readonly path: string;
  /** `effort`: the effort the run sends (undefined: the provider's default) */
  model(provider: string, model: string, effort?: Effort): void;
  /** fsyncs what was written since the last sync */
  sync(): void;
  /** syncs and closes the file; a later `message` event opens it again. Once closed, a second close does nothing (nothing said twice). */
  close(): void;
  /** `/clear`, `/resume` leave it: closed, unless a full disk still refuses lines it holds: each `sync()` then tries them
   * again (said once written), and only `close()` gives up what is still held */
  leave(): void;
  /** what the full disk still holds back, in words for the line that switches sessions (backlog.ts heldNote); undefined: nothing */
  holding(): string | undefined;
}

/** The sessions directory could not be made, or a file made in it (its `cause`). */
class SessionDirError extends Error {
  constructor(override readonly cause: unknown) {
    super(String(cause));
  }
}

/** A `compaction` event as the writer reads it (the union in kernel/output.ts may grow it). */
type CompactionEvent = {
  type: "compaction";
  kind: string;
  from_id?: string;
  to_id?: string;
  summary?: string;
  before?: { from_id: string; to_id: string; summary: string }[];
  window?: number;
};

/** What a session writer is given: the file is `dir/id.jsonl`; `cwd` and `version` go in its header. */
export interface SessionWriterOptions {
  dir: string;
  id: string;
  cwd: string;
  version: string;
  warn: (message: string) => void;
  /** nothing is written before the run's first answer (see above): hey's own runs, and lib.ts's by default */
  untilAnswer?: boolean;
  /**
   * the session is on disk already (a resume: true, or the resumed session): a summary or a usage
   * entry is written at once, even before this run's first message (`hey -c /compact` keeps its
   * summary and what it cost); the `torn` lines its resume said are recorded as said (torn.ts)
   * when the file is opened, and its `messages` (less the `appended` ones, this run's) are written
   * back if the file is emptied under the writer
   */
  existing?: boolean | { torn?: readonly string[]; messages?: readonly Message[]; appended?: readonly Message[] };
}

export function createSessionWriter(opts: SessionWriterOptions): SessionWriter {
  let path = join(opts.dir, `${opts.id}.jsonl`);
  let fd: number | undefined;
  let failed = false,
    dirty = false;
  let fresh = false; // this writer made the file, and no message is in it yet
  let pendingModel: SessionEntry | undefined;
  let lastModel = "";
  let current: { provider: string; model: string; effort?: Effort } | undefined; // the model of the last model() call
  let held: SessionEntry[] | undefined = opts.untilAnswer ? [] : undefined; // untilAnswer: the entries before the first answer
  let kept: Kept | undefined; // this run's lines, to write back if the file shrinks under the writer
  // the messages the run resumed with, as lines, for a file emptied under the writer: given back once (then they are kept lines)
  const resumed = typeof opts.existing === "object" ? opts.existing : undefined;
  let resumedLines: (() => string[]) | undefined = resumed && (() => resumedEntries(resumed));
  let noted = resumed?.torn ?? []; // torn lines to record as said
  // a full disk (backlog.ts): the lines it did not take, whether the writer waits for space, where a write it cut began
  const backlog = emptyBacklog();
  let stalled = false,
    opening = false;
  let tornAt: number | undefined;
  let heldIn = 0; // held lines written to the file since it was opened
  let saved = opts.existing !== undefined && opts.existing !== false; // the file holds messages
  let left = false; // leave() ran: a later session is the one `hey -c` finds
  let closed = false; // close() ran and nothing was written since: a second close (the REPL's, then the run's) says nothing again
  // the words of an answer still streaming, as `partial` lines (streamed.ts), each written as any line is, to a file that holds the question
  const streamed = streamedAnswer(
    {
      size: () => (fd === undefined || stalled || failed || held ? undefined : kept!.size),
      write: (line, first) => guard(() => spaceSafe(() => write(line, false)) && first && sync(false)),
      cut: (size) => guard(() => fstatSync(fd!).size === kept!.size && ftruncateSync(fd!, (kept!.size = size))), // never bytes another wrote
    },
    newId,
  );
  const self = {}; // this writer as the lock's holder: another writer of the session in this process is refused (lock.ts)
  const resumedHere = saved; // its resume's lock is taken over when it first writes, and given up when it closes without writing

  const why = (e: unknown) => {
    const cause = e instanceof SessionDirError ? e.cause : e;
    return e instanceof SessionDirError ? (diskProblem(cause) ?? dirProblem(opts.dir, cause)) : (diskProblem(e, path) ?? errorText(e));
  };
  const guard = (action: () => void) => {
    if (failed) return;
    try {
      action();
    } catch (e) {
      failed = true;
      if (fd !== undefined) background.close(fd);
      fd = undefined;
      if (fresh) removeQuietly(path); // a file this writer made holds no message: not left as an empty session (a full disk)
      opts.warn(`session not saved: cannot write ${path}: ${why(e)}; the conversation continues without it`);
    }
  };
  /** the disk took no more (`e`, a spaceError): what a write left of a line is cut off, and the writer waits for space */
  const stall = (e: unknown) => {
    try {
      if (fd !== undefined && tornAt !== undefined) ftruncateSync(fd, tornAt); // no torn line: the file ends where it did
      tornAt = undefined;
    } catch {
      // tried again before the next write (retry)
    }
    if (fd !== undefined && (fresh || opening)) {
      background.close(fd); // opened again when there is space: its header, its torn line's end, its notes are written then
      fd = undefined;
      tornAt = undefined;
      if (fresh) removeQuietly(path); // no message in it: not left as an empty session
      if (fresh) holdAgain(backlog, kept?.lines ?? [], heldIn); // what it held (the model's line) is written again with the first message
    }
    opening = false;
    if (!stalled) opts.warn(stoppedWarning(path, why(e)));
    stalled = true;
  };
  /** `action`, or the stall a full disk makes of it (false) */
  const spaceSafe = (action: () => void): boolean => {
    try {
      action();
      return true;
    } catch (e) {
      return stallOrThrow(e);
    }
  };
  /** a full disk's error stalls the writer (false); any other is thrown */
  const stallOrThrow = (e: unknown): false => {
    if (!spaceError(e instanceof SessionDirError ? e.cause : e)) throw e;
    stall(e);
    return false;
  };
  /** an entry's line (`text`, made again by `make`) at the end of the file; held while the disk is full */
  const put = (text: string, make: KeptText, message: boolean) => {
    if (!stalled)
      spaceSafe(() => {
        if (fd === undefined) open();
        write(text, make);
        if (message) fresh = false;
        if (message) saved = true;
      });
    if (stalled) hold(backlog, make, Buffer.byteLength(text), message);
  };
  /** at a turn's end, while the disk was full: the held lines written, in order (a line the disk cut taken off first) */
  const writeHeld = () => {
    if (fd !== undefined && tornAt !== undefined) ftruncateSync(fd, tornAt);
    tornAt = undefined;
    if (fd === undefined && backlog.lines.length > 0) open();
    for (let line = backlog.lines[0]; line; line = backlog.lines[0]) {
      write(typeof line.text === "string" ? line.text : line.text(), line.text);
      written(backlog);
      heldIn++;
      if (line.message) fresh = false;
      if (line.message) saved = true;
    }
  };
  /** writes `text` at the end of the file; `line`: it is an entry's line, kept to write back (as how to make it again) */
  const write = (text: string, line: KeptText | false = text) => {
    relockAfterPause(path, self); // woken after its lock was taken over (Ctrl-Z, docker pause): stopped before the line
    shrunk();
    const bytes = Buffer.from(text);
    tornAt = kept!.size;
    writeAll(fd!, bytes);
    tornAt = undefined;
    dirty = true;
    if (line === false) kept!.size += bytes.length;
    else keep(kept!, line, bytes.length);
  };
  const shrunk = () => {
    const now = fstatSync(fd!).size;
    if (now >= kept!.size) return;
    const back = writeBack(kept!, now, now > 0 && endsWithNewline(fd!, now), resumedLines);
    if (back.truncateTo !== undefined) ftruncateSync(fd!, back.truncateTo);
    tornAt = back.truncateTo ?? now; // a write-back the disk cut is made again whole
    writeAll(fd!, Buffer.from(back.text));
    tornAt = undefined;
    kept = back.kept; // before the sync: a sync the full disk fails leaves the lines written, where the next cut write is taken back to
    if (back.resumed > 0) resumedLines = undefined;
    opts.warn(writeBackWarning(path, now, back));
    fsyncSync(fd!); // what was lost once is not left to the next power cut
  };
  const open = () => {
    opening = true;
    heldIn = 0;
    try {
      makeDirDurable(opts.dir, 0o700); // conversations are private
      lockSession(path, self); // one writer per session: a second hey, or a second writer here, is refused, never interleaved
    } catch (e) {
      if (e instanceof SessionLockedError) throw e;
      throw new SessionDirError(e);
    }
    fd = openSessionFile(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT); // read too: a resume checks the last byte
    const size = fstatSync(fd).size;
    fresh = size === 0;
    const header =
      size === 0 ? toLine({ type: "header", id: opts.id, cwd: opts.cwd, created: new Date().toISOString(), version: opts.version }) : headerLine(fd, size);
    kept = emptyKept(header, size);
    if (size === 0) write(header!, false);
    if (size === 0)
      dirSync.run(opts.dir); // the new file's name: its bytes are synced at the turn's end
    else if (!endsWithNewline(fd, size)) write(tornLineEnd(linesBackward(fd, size).next().value), false); // a torn last line stays alone on its line
    for (; noted.length > 0; noted = noted.slice(1)) write(tornNote(noted[0]!));
    opening = false;
  };
  const flushModel = () => {
    if ((fd === undefined && !stalled) || !pendingModel) return;
    const entry = pendingModel;
    pendingModel = undefined;
    put(toLine(entry), () => toLine(entry), false);
  };
  const append = (entry: SessionEntry) => {
    const onDisk = opts.existing !== undefined && opts.existing !== false && entry.type !== "message"; // its messages are in the file already
    if (held && !onDisk) return void held.push(entry);
    if (fd === undefined && !stalled && entry.type !== "message" && !onDisk) return; // nothing but a message creates the file
    if (fd === undefined && !stalled) spaceSafe(open);
    flushModel();
    put(toLine(entry), () => toLine(entry), entry.type === "message"); // its message is the conversation's: not held again as text
  };
  /** `wait` false: the fsync runs in the background, unless held lines wait on it to be said saved again */
  const sync = (wait = true) => {
    if (stalled && !spaceSafe(writeHeld)) return;
    if (!spaceSafe(() => syncFile(wait || stalled)) || !stalled) return; // synced too (a deleted file written back): saving is said again only then
    stalled = false;
    opts.warn(savedAgain(backlog, path));
  };
  const syncFile = (wait: boolean) => {
    if (fd !== undefined) shrunk();
    if (fd !== undefined) relocate();
    if (fd !== undefined) relockSession(path, self); // a lock deleted by hand: made again, or another hey that took it stops this one
    if (fd !== undefined && dirty) wait ? fsyncSync(fd) : background.start(fd);
    dirty = false;
  };
  // a background fsync the disk failed: synced again at the next turn end; a full disk stalls the writer as a waited-for one does;
  // one that failed after close (the waited one at close may then have found nothing wrong) is said as close would have said it
  const unsynced = (e: unknown) => closed && !failed && !stalled && opts.warn(unsyncedWarning(path, why(e)));
  const background = backgroundSync((synced, e) => synced === fd && guard(() => ((dirty = true), stallOrThrow(e))), unsynced);
  /** a file deleted or replaced under hey: the session is written again where `hey -c` finds it */
  const relocate = () => {
    const where = whereabouts(fd!, path);
    if (where === "there") return;
    const id = where === "gone" ? undefined : newId(); // another file has the name now: this conversation takes a new one
    const target = id === undefined ? path : join(opts.dir, `${id}.jsonl`);
    makeDirDurable(opts.dir, 0o700); // `rm -r` of the sessions directory
    // a lock removed with the directory is made again: another hey must still be refused
    if (id === undefined) relockSession(path, self);
    else lockSession(target, self);
    let copy: ReturnType<typeof copySession>;
    try {
      copy = copySession(fd!, target, id);
    } catch (e) {
      if (id !== undefined) unlockSession(target, self); // a full disk: the next try takes another name, and this lock is no session's
      throw e;
    }
    background.close(fd!);
    fd = copy.fd;
    kept = rebase(kept!, headerLine(fd, copy.bytes), copy.bytes);
    dirty = false; // the copy was synced
    const was = path;
    path = target;
    if (id === undefined)
      return opts.warn(`${was} was deleted while hey was writing it; hey wrote the session back (${formatSize(copy.bytes)}) and goes on saving it there`);
    unlockSession(was, self); // the file there now is not this hey's
    opts.warn(replacedWarning(was, id, target));
  };

  /** untilAnswer: what was held before the first answer, written (an answer is coming) */
  function writeHeldQuestion(): void {
    const before = held ?? [];
    held = undefined;
    if (fd === undefined && !stalled) spaceSafe(open);
    before.forEach(append);
  }

  function model(provider: string, name: string, effort?: Effort): void {
    const key = `${provider}\u0000${name}\u0000${effort ?? ""}`;
    if (key === lastModel) return;
    lastModel = key;
    current = { provider, model: name, ...(effort === undefined ? {} : { effort }) };
    pendingModel = { type: "model", id: newId(), ...current };
    guard(flushModel);
  }

  /** see SessionWriter.close: the lines still held are said lost, once */
  function close(): void {
    if (closed) return;
    closed = true;
    streamed.end(false);
    guard(sync);
    const away = stalled && !failed && fd !== undefined ? whereaboutsQuietly(fd, path) : "there"; // deleted on a full disk, never written back
    if (stalled && !failed && (away !== "there" || backlog.lines.length > 0))
      opts.warn(lostWarning(path, backlog, saved, away === "there" ? undefined : away, left ? basename(path, ".jsonl") : undefined));
    if (fd !== undefined) background.close(fd);
    fd = undefined;
    unlockSession(path, self);
    if (resumedHere) unlockSession(path); // the lock a resume made for it, when it wrote nothing (hey -c, no answer, /clear)
  }

  return {
    get path() {
      return path;
    },
    emit(event: AgentEvent | CompactionEvent) {
      closed = false; // written to again after a close: the next close is that writing's
      guard(() => {
        switch (event.type) {
          case "model":
            // a window the model's server stated, a cap on its answers (context/output-cap.ts): recorded as learned, so `hey -c` starts within them
            if ((event.window ?? event.output_cap) && current) return append({ ...event, id: newId(), ...current });
            return model(event.provider, event.model, event.effort);
          case "message": {
            streamed.end(true); // its message supersedes an answer's partial lines
            // an answer cut before its first word (the marker alone) is none: held with the question
            if (held && event.message.role === "assistant" && !cutBeforeAnswer(event.message)) writeHeldQuestion();
            if (fd === undefined && !held && !stalled) spaceSafe(open);
            return append({ type: "message", message: event.message });
          }
          case "text_delta":
          case "thinking_delta":
            // the answer's first words, or its thinking, are on the screen: the question is kept from now on, whatever stops hey (kill -9)
            if (held && event.text.trim() !== "") writeHeldQuestion();
            return event.type === "text_delta" ? streamed.delta(event.text) : undefined;
          case "usage": {
            const { input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, tokens_per_char, estimated } = event;
            const ratio = tokens_per_char === undefined ? {} : { tokens_per_char: Number(tokens_per_char.toPrecision(4)) };
            const counts = { input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, ...(estimated ? { estimated } : {}) };
            return append({ type: "usage", id: newId(), ...counts, ...ratio, ...cacheFields(event) });
          }
          case "compaction":
            if (event.kind === "window" && current && event.window !== undefined)
              return append({ type: "model", id: newId(), ...current, window: event.window, limit: "limit" in event ? event.limit : undefined });
            if (event.kind !== "summary" || event.from_id === undefined || event.to_id === undefined || event.summary === undefined) return;
            // the earlier stretches it covers first: each its own compaction line, as a summary of its own would be
            for (const b of event.before ?? []) append({ type: "compaction", id: newId(), from_id: b.from_id, to_id: b.to_id, summary: b.summary });
            return append({ type: "compaction", id: newId(), from_id: event.from_id, to_id: event.to_id, summary: event.summary });
          case "turn_start":
            // the end of the previous step, synced while the request goes out; before the first, nothing worth an fsync
            return event.turn > 1 ? sync(false) : undefined;
          case "done":
            return sync();
        }
      });
    },
    model,
    sync: () => guard(sync),
    leave() {
      left = !closed;
      if (!closed) guard(sync); // between turns: no answer is streaming
      if (!stalled || failed) close();
    },
    holding: () => (stalled && !failed && !closed ? heldNote(backlog) : undefined),
    close,
  };
}

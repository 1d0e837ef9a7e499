// Sessions on disk (SPEC §19): one append-only JSONL file per conversation. The writer is an
// Output subscriber, so the loop never persists anything itself; resume reads big files from
// the tail. The format and the window rules live in pure/session-format.ts.
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, unlinkSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { newId, textOf, type Message } from "../kernel/ir.ts";
import type { AgentEvent, Output } from "../kernel/output.ts";
import { alignWindow, closeToolCalls, ENTRY_PREFIX, oneLine, parseEntry, parseHeader, promptOfCutLine, toLine } from "./format.ts";
import type { SessionEntry, SessionHeader, SessionInfo, SessionSummary } from "./format.ts";

export { formatSessionList, type SessionHeader, type SessionInfo, type SessionSummary } from "./format.ts";

/** SPEC §19: resume keeps about the last 500 messages; older context comes from the summary. */
export const DEFAULT_WINDOW = 500;
/** Resume reads backwards this much at a time: a few hundred typical messages per read. */
const TAIL_CHUNK = 256 * 1024;
/** `--sessions` reads this much of each file: the header and the start of the first prompt. */
const LIST_HEAD_BYTES = 4096;
/** The header and the first user message come before this many lines, or the file is not hey's. */
const HEAD_MAX_LINES = 64;
/**
 * How far before the window resume searches for the latest summary and model entry: ~30,000
 * typical messages. A summary older than that says little about the recent window, and the
 * search must stay cheap when a session has none (120 MB took ~50 ms warm, ~250 ms cold).
 */
const SCAN_LIMIT = 32 * 1024 * 1024;

/** `$XDG_STATE_HOME/hey/sessions`, else `~/.local/state/hey/sessions`. */
export function sessionsDir(env: Record<string, string | undefined>): string {
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(state, "hey", "sessions");
}

/**
 * The session writer: persists `message`, `usage` and summary `compaction` events, and a
 * `model` entry per `model()` call that names a different model than the previous one.
 * Nothing is created until the first `message` event; an existing file is appended to (resume).
 * Each entry is written with one write; the file is fsynced at every turn boundary and on close.
 * Never throws: the first failure is passed to `warn` once and the writer stops writing.
 */
export interface SessionWriter extends Output {
  readonly path: string;
  model(provider: string, model: string): void;
  /** fsyncs what was written since the last sync */
  sync(): void;
  /** syncs and closes the file; a later `message` event opens it again */
  close(): void;
}

/** A `compaction` event as the writer reads it (the union in kernel/output.ts may grow it). */
type CompactionEvent = { type: "compaction"; kind: string; from_id?: string; to_id?: string; summary?: string };

export function createSessionWriter(opts: { dir: string; id: string; cwd: string; version: string; warn: (message: string) => void }): SessionWriter {
  const path = join(opts.dir, `${opts.id}.jsonl`);
  let fd: number | undefined;
  let failed = false;
  let dirty = false;
  let pendingModel: SessionEntry | undefined;
  let lastModel = "";

  const guard = (action: () => void) => {
    if (failed) return;
    try {
      action();
    } catch (e) {
      failed = true;
      if (fd !== undefined) closeQuietly(fd);
      fd = undefined;
      opts.warn(`session not saved: cannot write ${path}: ${e instanceof Error ? e.message : String(e)}; the conversation continues without it`);
    }
  };
  const write = (text: string) => {
    const bytes = Buffer.from(text);
    for (let done = 0; done < bytes.length; ) done += writeSync(fd!, bytes, done, bytes.length - done);
    dirty = true;
  };
  const open = () => {
    mkdirSync(opts.dir, { recursive: true, mode: 0o700 }); // conversations are private
    fd = openSync(path, "a+", 0o600); // + so a resume can check the last byte
    const size = fstatSync(fd).size;
    if (size === 0) write(toLine({ type: "header", id: opts.id, cwd: opts.cwd, created: new Date().toISOString(), version: opts.version }));
    else if (!endsWithNewline(fd, size)) write("\n"); // a torn last line stays alone on its line
  };
  const flushModel = () => {
    if (fd === undefined || !pendingModel) return;
    const entry = pendingModel;
    pendingModel = undefined;
    write(toLine(entry));
  };
  const append = (entry: SessionEntry) => {
    if (fd === undefined) return; // nothing but a message opens the file
    flushModel();
    write(toLine(entry));
  };
  const sync = () => {
    if (fd !== undefined && dirty) fsyncSync(fd);
    dirty = false;
  };

  return {
    path,
    emit(event: AgentEvent | CompactionEvent) {
      guard(() => {
        switch (event.type) {
          case "message":
            if (fd === undefined) open();
            return append({ type: "message", message: event.message });
          case "usage": {
            const { input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens } = event;
            return append({ type: "usage", id: newId(), input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens });
          }
          case "compaction":
            if (event.kind !== "summary" || event.from_id === undefined || event.to_id === undefined || event.summary === undefined) return;
            return append({ type: "compaction", id: newId(), from_id: event.from_id, to_id: event.to_id, summary: event.summary });
          case "turn_start":
            // the end of the previous turn; before the first there is nothing worth the fsync's
            // milliseconds on the way to the first request
            return event.turn > 1 ? sync() : undefined;
          case "done":
            return sync();
        }
      });
    },
    model(provider, model) {
      const key = `${provider}\u0000${model}`;
      if (key === lastModel) return;
      lastModel = key;
      pendingModel = { type: "model", id: newId(), provider, model };
      guard(flushModel);
    },
    sync: () => guard(sync),
    close() {
      guard(sync);
      if (fd !== undefined) closeQuietly(fd);
      fd = undefined;
    },
  };
}

/** Every session in `dir`, most recently used first. Reads only the head of each file. */
export function listSessions(dir: string): SessionInfo[] {
  const infos = sessionIds(dir).flatMap((id) => readInfo(join(dir, `${id}.jsonl`)) ?? []);
  return infos.sort((a, b) => b.modified - a.modified || (a.id < b.id ? 1 : -1));
}

/** The most recently used session started in `cwd`, if any. */
export function latestSession(dir: string, cwd: string): SessionInfo | undefined {
  return listSessions(dir).find((s) => s.cwd === cwd);
}

/** The session with id `idOrPrefix`, or the only one whose id starts with it. Throws otherwise. */
export function findSession(dir: string, idOrPrefix: string): SessionInfo {
  const ids = sessionIds(dir);
  const matches = ids.includes(idOrPrefix) ? [idOrPrefix] : idOrPrefix === "" ? [] : ids.filter((id) => id.startsWith(idOrPrefix)).sort();
  if (matches.length === 0) throw new Error(`no session "${idOrPrefix}" in ${dir} (hey --sessions lists them)`);
  if (matches.length > 1) throw new Error(`"${idOrPrefix}" matches ${matches.length} sessions: ${matches.join(", ")}; give more of the id`);
  const path = join(dir, `${matches[0]}.jsonl`);
  const info = readInfo(path);
  if (!info) throw new Error(`${path} is not a hey session (no valid header)`);
  return info;
}

/** Deletes the sessions last used more than `olderThanDays` ago and all but the newest `keep`. */
export function pruneSessions(dir: string, opts: { olderThanDays?: number; keep?: number; now?: number }): { deleted: string[] } {
  const now = opts.now ?? Date.now();
  const deleted: string[] = [];
  for (const [i, s] of listSessions(dir).entries()) {
    const old = opts.olderThanDays !== undefined && now - s.modified > opts.olderThanDays * 86_400_000;
    const extra = opts.keep !== undefined && i >= opts.keep;
    if (!old && !extra) continue;
    try {
      unlinkSync(s.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    deleted.push(s.id);
  }
  return { deleted };
}

export interface LoadedSession {
  header: SessionHeader;
  /** first user message, then the aligned window; every tool call has exactly one result */
  messages: Message[];
  /**
   * the summaries among the window's lines, oldest first, else the latest one within SCAN_LIMIT
   * before the window (none further back): the last one is the latest
   */
  summaries: SessionSummary[];
  /** the latest model entry found the same way, else the one written before the first message */
  model?: { provider: string; model: string };
  /** skipped lines, each a sentence naming its line or byte offset */
  warnings: string[];
  /** synthetic results for calls a crash left open: in `messages`, not yet in the file */
  appended: Message[];
}

/**
 * Resumes from `path` without reading it whole: the head gives the header and the first user
 * message; the tail is read backwards until `window` messages are collected, then only as far as
 * needed (at most SCAN_LIMIT) to find the latest summary and model entry, by a byte search for
 * their line prefix; the model falls back to the one written before the first message.
 * Bad lines are skipped with a warning. Throws when the file cannot be read or its first line is
 * not a session header.
 */
export function loadSession(path: string, opts: { window?: number } = {}): LoadedSession {
  const window = opts.window ?? DEFAULT_WINDOW;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new Error(`cannot read session ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    const size = fstatSync(fd).size;
    const { header, firstUser, firstModel } = readHead(fd, size);
    if (!header) throw new Error(`${path} is not a hey session: its first line is not a session header`);
    const warnings: { offset: number; fromEnd: number; reason: string; torn: boolean }[] = [];
    const found: Message[] = []; // newest first
    const summaries: SessionSummary[] = [];
    let model: LoadedSession["model"];
    let fromEnd = 0;
    let before = 0; // where the tail read stopped; 0 = it reached the header
    for (const line of linesBackward(fd, size)) {
      fromEnd++;
      if (line.offset === 0) break; // the header
      // ...and on while the oldest is a tool result, to reach its call (orphans: not forever)
      const collecting = found.length < window || (found[found.length - 1]!.role === "tool" && found.length < 2 * window);
      if (!collecting) {
        before = line.offset + (line.end - line.start);
        break;
      }
      if (line.start === line.end) continue;
      const parsed = parseEntry(line.buf.toString("utf8", line.start, line.end));
      if (!parsed.ok) {
        if (parsed.reason) warnings.push({ offset: line.offset, fromEnd, reason: parsed.reason, torn: !line.terminated });
        continue;
      }
      const e = parsed.entry;
      if (e.type === "message") found.push(e.message);
      else if (e.type === "model") model ??= { provider: e.provider, model: e.model };
      else if (e.type === "compaction") summaries.unshift({ fromId: e.from_id, toId: e.to_id, text: e.summary });
    }
    if (before > 0 && (summaries.length === 0 || !model)) {
      const older = lastEntriesBefore(fd, before, [...(summaries.length === 0 ? ["compaction" as const] : []), ...(model ? [] : ["model" as const])]);
      if (older.compaction?.type === "compaction") summaries.push({ fromId: older.compaction.from_id, toId: older.compaction.to_id, text: older.compaction.summary });
      if (older.model?.type === "model") model = { provider: older.model.provider, model: older.model.model };
    }
    model ??= firstModel;

    const chronological = found.reverse();
    const recent = chronological.slice(alignWindow(chronological, window));
    const withFirst = firstUser && !recent.some((m) => m.id === firstUser.id) ? [firstUser, ...recent] : recent;
    const { messages, appended } = closeToolCalls(withFirst, () => newId());
    return {
      header,
      messages,
      summaries,
      ...(model ? { model } : {}),
      warnings: warnings.reverse().map((w) => {
        const where = before === 0 ? `line ${fromEnd - w.fromEnd + 1}` : `the line at byte ${w.offset}`;
        return w.torn ? `${path}: skipped a torn last line (${where}): hey stopped while writing it` : `${path}: skipped ${where}: ${w.reason}`;
      }),
      appended,
    };
  } finally {
    closeSync(fd);
  }
}

/** The header, the first user message (the first message, when it is a user's) and the model before it. */
function readHead(fd: number, size: number): { header?: SessionHeader; firstUser?: Message; firstModel?: LoadedSession["model"] } {
  const lines = linesForward(fd, size);
  const first = lines.next();
  const header = first.done ? undefined : parseHeader(first.value.text);
  let firstModel: LoadedSession["model"];
  for (let n = 0; header && n < HEAD_MAX_LINES; n++) {
    const line = lines.next();
    if (line.done) break;
    const parsed = parseEntry(line.value.text);
    if (parsed.ok && parsed.entry.type === "model") firstModel = { provider: parsed.entry.provider, model: parsed.entry.model };
    if (!parsed.ok || parsed.entry.type !== "message") continue;
    return { header, firstModel, ...(parsed.entry.message.role === "user" ? { firstUser: parsed.entry.message } : {}) };
  }
  return { header, firstModel };
}

function sessionIds(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".jsonl")).map((n) => n.slice(0, -".jsonl".length));
  } catch {
    return []; // no sessions yet
  }
}

function readInfo(path: string): SessionInfo | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const lines = linesForward(fd, Math.min(stat.size, LIST_HEAD_BYTES));
    const first = lines.next();
    const header = first.done ? undefined : parseHeader(first.value.text);
    if (!header) return undefined;
    let prompt = "";
    for (const line of lines) {
      if (!line.terminated && line.end < stat.size) {
        prompt = promptOfCutLine(line.text) ?? "";
        break;
      }
      const parsed = parseEntry(line.text);
      if (!parsed.ok || parsed.entry.type !== "message") continue;
      if (parsed.entry.message.role === "user") prompt = textOf(parsed.entry.message);
      break;
    }
    return { id: header.id, created: header.created, modified: stat.mtimeMs, cwd: header.cwd, firstPrompt: oneLine(prompt), size: stat.size, path };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** Lines from byte `from` up to byte `limit`; a line the limit cuts is not `terminated`. */
function* linesForward(fd: number, limit: number, from = 0): Generator<{ text: string; end: number; terminated: boolean }> {
  let offset = from; // file offset of buf[0]
  let buf = Buffer.alloc(0);
  let searched = 0;
  for (;;) {
    const nl = buf.indexOf(10, searched);
    if (nl >= 0) {
      yield { text: buf.toString("utf8", 0, nl), end: offset + nl, terminated: true };
      buf = buf.subarray(nl + 1);
      offset += nl + 1;
      searched = 0;
      continue;
    }
    searched = buf.length;
    const want = Math.min(64 * 1024, limit - offset - buf.length);
    const chunk = Buffer.allocUnsafe(Math.max(0, want));
    const n = want > 0 ? readSync(fd, chunk, 0, want, offset + buf.length) : 0;
    if (n === 0) {
      if (buf.length > 0) yield { text: buf.toString("utf8"), end: offset + buf.length, terminated: false };
      return;
    }
    buf = Buffer.concat([buf, chunk.subarray(0, n)]);
  }
}

interface TailLine {
  buf: Buffer;
  start: number;
  end: number;
  /** file offset of the line's first byte */
  offset: number;
  /** false only for a last line without its newline */
  terminated: boolean;
}

/** Lines from the end of the file to its start, read in TAIL_CHUNK pieces (bigger for a longer line). */
function* linesBackward(fd: number, size: number): Generator<TailLine> {
  let pos = size; // bytes before pos are not read yet
  let carry = Buffer.alloc(0); // the start of a line that began before pos
  let last = true;
  while (pos > 0 || carry.length > 0) {
    const from = Math.max(0, pos - Math.max(TAIL_CHUNK, carry.length));
    const chunk = Buffer.allocUnsafe(pos - from);
    for (let got = 0; got < chunk.length; ) {
      const n = readSync(fd, chunk, got, chunk.length - got, from + got);
      if (n === 0) throw new Error("the session file shrank while it was read");
      got += n;
    }
    const buf = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
    let end = buf.length;
    for (;;) {
      const nl = end > 0 ? buf.lastIndexOf(10, end - 1) : -1;
      if (nl < 0 && from > 0) break;
      const start = nl + 1;
      if (!(last && start === end)) yield { buf, start, end, offset: from + start, terminated: !last };
      last = false;
      if (nl < 0) return;
      end = nl;
    }
    carry = buf.subarray(0, end);
    pos = from;
  }
}

type Marked = keyof typeof ENTRY_PREFIX;

/**
 * The last entry of each `wanted` type that starts in the SCAN_LIMIT bytes before byte `before`,
 * found by searching the bytes for its line prefix: no other line is decoded or parsed.
 */
function lastEntriesBefore(fd: number, before: number, wanted: Marked[]): Partial<Record<Marked, SessionEntry>> {
  const out: Partial<Record<Marked, SessionEntry>> = {};
  const markers = wanted.map((type) => ({ type, bytes: Buffer.from("\n" + ENTRY_PREFIX[type]) }));
  const overlap = Math.max(...markers.map((m) => m.bytes.length)) - 1; // a marker across two reads
  const buf = Buffer.allocUnsafe(TAIL_CHUNK);
  for (let end = before; end > 0 && before - end < SCAN_LIMIT && markers.some((m) => !out[m.type]); ) {
    const from = Math.max(0, end - TAIL_CHUNK);
    const got = readSync(fd, buf, 0, end - from, from);
    const view = buf.subarray(0, got);
    for (const { type, bytes } of markers) {
      for (let at = view.length - 1; !out[type] && at >= 0; at--) {
        at = view.lastIndexOf(bytes, at);
        if (at < 0) break;
        const line = linesForward(fd, Number.MAX_SAFE_INTEGER, from + at + 1).next();
        const parsed = line.done ? undefined : parseEntry(line.value.text);
        if (parsed?.ok && parsed.entry.type === type) out[type] = parsed.entry;
      }
    }
    if (from === 0) break;
    end = from + overlap;
  }
  return out;
}

function endsWithNewline(fd: number, size: number): boolean {
  const b = Buffer.alloc(1);
  return readSync(fd, b, 0, 1, size - 1) === 1 && b[0] === 10;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed or the disk went away: nothing left to save
  }
}

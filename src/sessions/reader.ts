// Finding and reading sessions (SPEC §19): listing, lookup by id or prefix, pruning, and resume,
// which reads big files from the tail. The format and the window rules live in format.ts.
import { closeSync, fstatSync, openSync, readdirSync, readSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { newId, textOf, type Message } from "../kernel/ir.ts";
import type { Summary } from "../context/passes.ts";
import { alignWindow, closeToolCalls, ENTRY_PREFIX, foldSummary, oneLine, parseEntry, parseHeader, promptOfCutLine } from "./format.ts";
import type { SessionEntry, SessionHeader, SessionInfo } from "./format.ts";
import { closeQuietly, linesBackward, linesForward, TAIL_CHUNK } from "./lines.ts";

/** SPEC §19: resume keeps about the last 500 messages; older context comes from the summary. */
export const DEFAULT_WINDOW = 500;
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
  /**
   * first user message, then the aligned window; every tool call has exactly one result. When the
   * latest summary starts before the window, its summary message follows the first user message
   * in place of what it covers (foldSummary).
   */
  messages: Message[];
  /**
   * the summaries among the window's lines, oldest first, else the latest one within SCAN_LIMIT
   * before the window (none further back): the last one is the latest
   */
  summaries: Summary[];
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
    const summaries: Summary[] = [];
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
    const closed = closeToolCalls(withFirst, () => newId());
    const { appended } = closed;
    return {
      header,
      messages: foldSummary(closed.messages, summaries, before > 0),
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

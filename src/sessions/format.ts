// The session file format (SPEC §19) as pure functions: one JSON object per line, a header first.
// Parsing never throws: a bad line is reported so the reader can skip it with a warning. The
// window a resume starts from is decided here (what a crash left open: open-ends.ts); reader.ts
// and writer.ts only move bytes.
import { basename } from "node:path";
import { SUMMARY_ID, summaryMessage, type Summary } from "../context/passes.ts";
import { EFFORTS, type Effort, type Message } from "../kernel/ir.ts";
import type { UsageCounts } from "../kernel/output.ts";
import type { OutputCap } from "../context/output-cap.ts";
import type { TailLine } from "./lines.ts";
import { messageEntry } from "./message-entry.ts";
import { cacheFields, type CacheFields } from "./cache-fields.ts";
import { CONTROL, shownName } from "../fs/odd-names.ts";

export interface SessionHeader {
  type: "header";
  id: string;
  cwd: string;
  /** ISO 8601 */
  created: string;
  /** the hey version that created the file */
  version: string;
}

/**
 * One line after the header. Every entry has a stable id: a message entry uses the message's
 * own id. Only these fields are ever written: no system prompt, no settings, no secrets.
 */
export type SessionEntry =
  | { type: "message"; message: Message }
  /** `tokens_per_char`: the context estimate's ratio after this response (older sessions lack it): `hey -c` starts from it; the rest: Output's `usage` */
  | ({ type: "usage"; id: string; tokens_per_char?: number } & CacheFields & Omit<UsageCounts, "cache_hit_share">)
  /**
   * `window`: the context window the model's context-length error taught (its own entry, after the error);
   * `limit`: that window was the endpoint's limit on one request, by name ("tokens per minute (TPM)"): a resume does not apply it;
   * `effort`: the reasoning effort the run sent with it (`/effort` writes the entry again), absent for the provider's default;
   * `output_cap`: the window and output limit a refusal showed the endpoint counts each answer's limit in (context/output-cap.ts)
   */
  | { type: "model"; id: string; provider: string; model: string; window?: number; limit?: string; effort?: Effort; output_cap?: OutputCap }
  | { type: "compaction"; id: string; from_id: string; to_id: string; summary: string }
  /** the words of an answer still streaming since the last such line (streamed.ts); only those after the last message count */
  | { type: "partial"; id: string; text: string }
  /** the jobs the run's commands left running, which ended with it (their command lines): the next run's model is told */
  | { type: "jobs"; id: string; ended: string[] };

export type ParsedLine = { ok: true; entry: SessionEntry } | { ok: false; reason: string; newer?: string };

/** What `--sessions` shows of one session file. */
export interface SessionInfo {
  id: string;
  /** ISO 8601, from the header */
  created: string;
  /** last write, ms since the epoch: "latest" and pruning by age use this */
  modified: number;
  cwd: string;
  /** the first user message, on one line, cut to FIRST_PROMPT_CHARS */
  firstPrompt: string;
  /** bytes */
  size: number;
  path: string;
  /** the header is damaged: id, directory and date were read from what is left of it */
  damaged?: true;
}

/** Line prefixes the writer produces (type is always the first key), for skipping lines unread. */
export const ENTRY_PREFIX = {
  model: '{"type":"model"',
  compaction: '{"type":"compaction"',
  usage: '{"type":"usage"',
  message: '{"type":"message"',
} as const;

export { cacheFields } from "./cache-fields.ts"; // the writer's, as the reader's
const FIRST_PROMPT_CHARS = 80;
const USAGE_FIELDS = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens"] as const;

/** The line (newline included) for an entry or the header. May throw only on data JSON cannot hold. */
export function toLine(entry: SessionEntry | SessionHeader): string {
  return JSON.stringify(entry) + "\n";
}

/** The header, or undefined when `line` is not a hey session header. */
export function parseHeader(line: string): SessionHeader | undefined {
  const v = parseObject(line);
  if (v?.type !== "header" || !isStr(v.id) || !isStr(v.cwd) || !isStr(v.created) || !isStr(v.version)) return undefined;
  return { type: "header", id: v.id, cwd: v.cwd, created: v.created, version: v.version };
}

/**
 * The header of a file whose first line is damaged (a crash or a disk fault mid-write, an editor),
 * rebuilt from what is still readable in that line and the id in the file's name; undefined when
 * the directory cannot be read from it (the caller may then take the current one).
 */
export function salvageHeader(line: string, id: string): SessionHeader | undefined {
  const field = (name: string) => {
    const m = new RegExp(`"${name}":"((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    try {
      return m ? (JSON.parse(`"${m[1]}"`) as string) : undefined;
    } catch {
      return undefined;
    }
  };
  const cwd = field("cwd");
  return cwd ? { type: "header", id, cwd, created: field("created") ?? "", version: field("version") ?? "unknown" } : undefined;
}

/**
 * One entry line. Unknown `type`s (written by a newer hey) come back as `{ok: false, reason: ""}`
 * with the type as `newer`; anything else unusable carries the reason.
 */
export function parseEntry(line: string): ParsedLine {
  const v = parseObject(line);
  // most often a line of hey's cut short (a crash or a full disk mid-write); one the next run's
  // writer ended with TORN_END was said when it was found, and is skipped without a word after
  if (!v) return { ok: false, reason: line.endsWith(TORN_END) ? "" : line.startsWith('{"type":"') ? CUT_LINE : "not valid JSON" };
  const bad = (what: string): ParsedLine => ({ ok: false, reason: `not a valid ${what} entry` });
  switch (v.type) {
    case "message": {
      const message = messageEntry(v.message);
      return message ? { ok: true, entry: { type: "message", message } } : bad("message");
    }
    case "usage": {
      if (!isStr(v.id) || !USAGE_FIELDS.every((f) => typeof v[f] === "number")) return bad("usage");
      const counts = Object.fromEntries(USAGE_FIELDS.map((f) => [f, v[f]])) as unknown as Omit<UsageCounts, "cache_hit_share">;
      // a ratio that is not a positive number is left out, the counts kept
      const ratio = typeof v.tokens_per_char === "number" && v.tokens_per_char > 0 ? { tokens_per_char: v.tokens_per_char } : {};
      return { ok: true, entry: { type: "usage", id: v.id, ...counts, ...ratio, ...(v.estimated === true ? { estimated: true } : {}), ...cacheFields(v) } };
    }
    case "model": {
      if (!isStr(v.id) || !isStr(v.provider) || !isStr(v.model) || (v.window !== undefined && !isWindow(v.window))) return bad("model");
      const window = v.window === undefined ? {} : { window: v.window, ...(isStr(v.limit) ? { limit: v.limit } : {}) };
      // a level this hey does not know (a newer one's) is left out: the provider's default, not a refused request
      const effort = (EFFORTS as readonly unknown[]).includes(v.effort) ? { effort: v.effort as Effort } : {};
      const cap = asCap(v.output_cap);
      return { ok: true, entry: { type: "model", id: v.id, provider: v.provider, model: v.model, ...window, ...effort, ...(cap ? { output_cap: cap } : {}) } };
    }
    case "compaction":
      return isStr(v.id) && isStr(v.from_id) && isStr(v.to_id) && isStr(v.summary)
        ? { ok: true, entry: { type: "compaction", id: v.id, from_id: v.from_id, to_id: v.to_id, summary: v.summary } }
        : bad("compaction");
    case "partial":
      return isStr(v.id) && isStr(v.text) ? { ok: true, entry: { type: "partial", id: v.id, text: v.text } } : bad("partial");
    case "jobs":
      return isStr(v.id) && Array.isArray(v.ended) && v.ended.every(isStr) ? { ok: true, entry: { type: "jobs", id: v.id, ended: v.ended } } : bad("jobs");
    case "header":
      return bad("entry: a second header is");
    default:
      return typeof v.type === "string" ? { ok: false, reason: "", newer: v.type } : bad("session");
  }
}

/** A model entry as a resume reports it (reader.ts LoadedSession.model). */
export function modelOf(e: Extract<SessionEntry, { type: "model" }>): ResumedModel {
  const { type: _type, id: _id, output_cap: _cap, limit, window, ...model } = e;
  // a per-request limit (Groq's TPM tier) is no window of the model's: a resume keeps it as a hint a raised tier lifts (resumed.ts)
  if (window === undefined) return model;
  return limit === undefined ? { ...model, window } : { ...model, limit: { window, limit } };
}

/** A model a resume goes on with; `limit`: a per-request limit the session learned for it (ContextOverflow.ceiling), its tokens and name. */
export type ResumedModel = { provider: string; model: string; window?: number; effort?: Effort; limit?: { window: number; limit: string } };

/** Characters of an oversized message's text kept in its placeholder. */
const OVERSIZED_TEXT_CHARS = 2000;

/**
 * An entry for a line too long to load (lines.ts `Oversized`): a message keeps its id, role, the
 * start of its text and — when its start or end shows them — its tool calls (arguments left out)
 * or the call it answers, with a note that the file keeps it whole. Anything else is skipped.
 */
export function oversizedEntry(line: { head: string; tail: string; bytes: number }): ParsedLine {
  const m = /^\{"type":"message","message":\{"id":"((?:[^"\\]|\\.)*)","role":"(user|assistant|tool)"/.exec(line.head);
  if (!m) return { ok: false, reason: `a line of ${formatSize(line.bytes)} (more than hey loads) that is not a message` };
  const both = line.head + line.tail;
  const str = (re: RegExp, text = both) => {
    const v = re.exec(text)?.[1];
    return v === undefined ? undefined : decodeCut(v);
  };
  const start = str(/"content":\[\{"type":"text","text":"((?:[^"\\]|\\.)*)/, line.head) ?? "";
  const cut = start.length > OVERSIZED_TEXT_CHARS ? start.slice(0, OVERSIZED_TEXT_CHARS) : start;
  // screenshots make such a line too (two of 3.8 MB): the model is told they are not there, not left to answer about them
  const held = [/\{"type":"image","mediaType":"image\//.test(both) && "images", /\{"type":"document","mediaType":"application\/pdf"/.test(both) && "PDFs"];
  const kinds = held.filter(Boolean).join(" and ");
  const images = kinds ? `; the ${kinds} in it are not sent: attach them again (@FILE) to show them` : "";
  const note = `[… cut: this message is ${formatSize(line.bytes)}, more than hey loads from a session; the session file keeps it whole${images}]`;
  const message: Message = { id: decodeCut(m[1]!), role: m[2] as Message["role"], content: [{ type: "text", text: cut ? `${cut}\n${note}` : note }] };
  if (message.role === "tool") {
    const callId = str(/"toolCallId":"((?:[^"\\]|\\.)*)"/);
    if (callId === undefined) return { ok: false, reason: `a tool result of ${formatSize(line.bytes)} whose call cannot be told` };
    message.toolCallId = callId;
    message.toolName = str(/"toolName":"((?:[^"\\]|\\.)*)"/) ?? "tool";
    message.isError = /"isError":true/.test(both);
  }
  if (message.role === "assistant") {
    const calls = new Map<string, string>();
    for (const c of both.matchAll(/\{"id":"((?:[^"\\]|\\.)*)","name":"((?:[^"\\]|\\.)*)","arguments":"/g)) calls.set(decodeCut(c[1]!), decodeCut(c[2]!));
    if (calls.size > 0) message.toolCalls = [...calls].map(([id, name]) => ({ id, name, arguments: "{}" }));
  }
  return { ok: true, entry: { type: "message", message } };
}

/** A JSON string's body, possibly cut in the middle of an escape or a character, decoded. */
function decodeCut(body: string): string {
  try {
    return (JSON.parse(`"${body.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "")}"`) as string).replace(/\uFFFD$/, "");
  } catch {
    return body;
  }
}

/**
 * Where the resume window starts in `messages` (oldest first) so that it holds about the last
 * `window` messages and no tool result without its call: a start on a tool result moves forward
 * past the results whose call lies before the window. Only when that would leave nothing (one
 * call group larger than the window) does it move back to the group's assistant message.
 */
export function alignWindow(messages: Message[], window: number): number {
  const raw = Math.max(0, messages.length - Math.max(1, window));
  let start = raw;
  while (start < messages.length && messages[start]!.role === "tool") start++;
  if (start < messages.length) return start;
  start = raw;
  while (start > 0 && messages[start]!.role === "tool") start--;
  return messages[start]?.role === "assistant" ? start : messages.length;
}

/**
 * Resume's "latest summary + recent window" (SPEC §19) for a summary the reader did not fold in
 * where it ends (reader.ts: it ends before the loaded messages, or names none of them). When the
 * latest starts before the loaded messages (resume reads only the tail), or at the first prompt,
 * which the request view never lets a summary replace, its summary message goes right after the
 * first user message and stands for everything before the rest of the window — the messages it
 * covers that the window holds are left out, and so is the gap before the window (`gap`: the file
 * has messages that were not loaded). A summary that starts inside the loaded messages is left to
 * the view. The summaries list is not changed; the folded one no longer matches the messages and
 * the view skips it.
 */
export function foldSummary(messages: Message[], summaries: readonly Summary[], gap: boolean): Message[] {
  const latest = summaries.at(-1);
  const first = messages[0];
  if (!latest || first?.role !== "user") return messages;
  const from = messages.findIndex((m) => m.id === latest.fromId);
  const to = messages.findIndex((m) => m.id === latest.toId);
  if (from > 0) return messages;
  if (to > 0) return messages[to + 1]?.role === "tool" ? messages : [first, summaryMessage(latest), ...messages.slice(to + 1)];
  return gap && to < 0 ? [first, summaryMessage(latest), ...messages.slice(1)] : messages;
}

/** `text` on one line (whitespace runs become one space), cut to about 80 characters. */
export function oneLine(text: string, max = FIRST_PROMPT_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1).trimEnd() + "…";
}

/**
 * The text at the start of a user message line cut short (a first prompt bigger than the part of
 * the file `--sessions` reads), or undefined when the cut line is not a user message.
 */
export function promptOfCutLine(cut: string): string | undefined {
  const m = /^\{"type":"message","message":\{"id":"[^"]*","role":"user","content":\[\{"type":"text","text":"((?:[^"\\]|\\.)*)/.exec(cut);
  if (!m) return undefined;
  const escaped = m[1]!.replace(/\\(u[0-9a-fA-F]{0,3})?$/, ""); // an escape the cut split in two
  try {
    return (JSON.parse(`"${escaped}"`) as string).replace(/\uFFFD$/, ""); // a character the cut split
  } catch {
    return undefined;
  }
}

/** How to resume one of the listed sessions from the command line. */
export const RESUME_FROM_CLI =
  "Resume one with `hey --resume ID`, where a unique start or end of the id is enough (SHORT shows the shortest); `hey -c` continues the latest one of this directory (of its project when the directory has none).";

/** A terminal the listing is fitted to: its width, the columns a text takes on it as shown, and a text cut with "…" to `room` columns. */
export interface ListFit {
  columns: number;
  width(text: string): number;
  cut(text: string, room: number): string;
}

/** A first prompt is not cut shorter than this: on a terminal narrower still, its row wraps. */
const MIN_PROMPT_COLUMNS = 12;

/**
 * The `--sessions` listing: aligned columns, then `how` to resume. `home` is shown as `~`. `short`
 * (ids/shortIds of every session file, by the file's id) adds the SHORT column after the id. With
 * `fit`, each session stays one line: a first prompt wider than what is left of the width is cut
 * with "…".
 */
export function formatSessionList(infos: SessionInfo[], home?: string, how = RESUME_FROM_CLI, short?: ReadonlyMap<string, string>, fit?: ListFit): string {
  if (infos.length === 0) return "No sessions yet.\n";
  const shortOf = (s: SessionInfo) => [short?.get(basename(s.path, ".jsonl")) ?? s.id];
  const rows = infos.map((s) => [
    s.id,
    ...(short ? shortOf(s) : []),
    localDate(s.modified),
    formatSize(s.size),
    shortDir(s.cwd, home),
    s.firstPrompt || "(no prompt)",
  ]);
  const head = ["ID", ...(short ? ["SHORT"] : []), "LAST USED", "SIZE", "DIRECTORY", "FIRST PROMPT"];
  const sizeAt = head.indexOf("SIZE");
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  /** the first prompt, cut to what the cells before it (`lead`) leave of the width */
  const fitted = (prompt: string, lead: string) =>
    fit && fit.columns > 0 ? fit.cut(prompt, Math.max(fit.columns - fit.width(lead), MIN_PROMPT_COLUMNS)) : prompt;
  const line = (cells: string[]) => {
    const lead = cells
      .slice(0, -1)
      .map((c, i) => (i === sizeAt ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)) + "  ")
      .join("");
    return (lead + fitted(cells.at(-1)!, lead)).trimEnd();
  };
  return [line(head), ...rows.map(line), "", how].join("\n") + "\n";
}

const MAX_DIR_CHARS = 40;

/** The session's directory under `~`, its last MAX_DIR_CHARS; a control character in it (a newline would split the row) written as file names are (fs/odd-names.ts: `\n`). */
function shortDir(cwd: string, home: string | undefined): string {
  const under = home && (cwd === home || cwd.startsWith(home + "/") || cwd.startsWith(home + "\\")) ? "~" + cwd.slice(home.length) : cwd;
  const dir = CONTROL.test(under) ? shownName(new TextEncoder().encode(under)) : under;
  return dir.length <= MAX_DIR_CHARS ? dir : "…" + dir.slice(dir.length - MAX_DIR_CHARS + 1);
}

function localDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isStr(v: unknown): v is string {
  return typeof v === "string";
}

/**
 * What the writer puts at the end of a torn last line before the newline that ends it (writer.ts):
 * the line stays in the file as it was, marked as known to be cut short, so that the resume that
 * found it said so and later ones do not. Never valid JSON after any cut: a resume skips it.
 */
export const TORN_END = " <cut short: hey stopped while writing this line>";

/** Why a line of hey's that does not parse is skipped, and that nothing else is. */
export const CUT_LINE = "not valid JSON, cut short or damaged (hey stopped while writing it, or it was edited); the lines after it are loaded";

/** A learned context window: a whole number of tokens, as context/window.ts computes it. */
const isWindow = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

/** An entry's output cap when both its numbers are windows' (a damaged one is left out: the next refusal teaches it again). */
const asCap = (v: unknown, c = v as { window?: unknown; asked?: unknown } | null) =>
  c && isWindow(c.window) && isWindow(c.asked) ? { window: c.window, asked: c.asked } : undefined;

const MESSAGE_PREFIX = Buffer.from(ENTRY_PREFIX.message);
const ENTRY_BYTES = { compaction: Buffer.from(ENTRY_PREFIX.compaction), model: Buffer.from(ENTRY_PREFIX.model) };

/** What a message line holding the id `id` holds (a compaction's `from_id` does not match: the quote comes first). */
export const idMarker = (id: string) => Buffer.from(`"id":${JSON.stringify(id)}`);

/**
 * A line inside a summary's range, parsed only when it may matter (found by its bytes): a
 * compaction or model entry, or a message line holding one of the `ids` (idMarker) or that
 * `result` takes (read from its bytes: one look per line, however many results are wanted).
 * Anything else, or a line that does not parse, is undefined.
 */
export function coveredEntry(line: TailLine, ids: readonly Buffer[], result?: (bytes: Buffer) => boolean): SessionEntry | undefined {
  const bytes = line.oversized ? Buffer.from(line.oversized.head) : line.buf.subarray(line.start, line.end);
  const starts = (prefix: Buffer) => bytes.length >= prefix.length && bytes.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
  const wanted =
    starts(ENTRY_BYTES.compaction) ||
    starts(ENTRY_BYTES.model) ||
    (starts(MESSAGE_PREFIX) && (ids.some((id) => bytes.includes(id)) || result?.(bytes) === true));
  if (!wanted) return undefined;
  const parsed = line.oversized ? oversizedEntry(line.oversized) : parseEntry(bytes.toString("utf8"));
  return parsed.ok ? parsed.entry : undefined;
}

/**
 * The first message of a summary's range: a range that starts at an earlier summary's message
 * (`summary-<its first id>`, as a resumed session's history holds it) starts where that one did.
 */
export function rangeStart(fromId: string): string {
  let id = fromId;
  while (id.startsWith(SUMMARY_ID)) id = id.slice(SUMMARY_ID.length);
  return id;
}

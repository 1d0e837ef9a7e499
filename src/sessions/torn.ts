// Lines a crash cut short (SPEC §19: skipped with a warning, never fatal), said once. The writer
// that finds a torn last line ends it marked (format.ts TORN_END). A torn line an older hey ended
// with a bare newline sits among the others, its bytes not to be rewritten: the writer records it
// as seen with a `torn` entry naming it (an older hey skips the entry, as it does every type it
// does not know), and the resumes after it pass over the line without a word. A line torn past
// MAX_LINE_BYTES is judged by its last bytes (lines.ts never reads it whole).
import { newId } from "../kernel/ir.ts";
import { CUT_LINE, formatSize, oversizedEntry, parseEntry, TORN_END, type ParsedLine } from "./format.ts";
import type { Oversized, TailLine } from "./lines.ts";

/** The line prefix of the entry that records a torn line as seen. */
const NOTE_PREFIX = '{"type":"torn"';

/** A line cut short, as one of hey's entries cut mid-write is: a JSON object begun, unclosed, with no error before its end. */
export function cutShort(text: string): boolean {
  const open: string[] = []; // the containers not closed yet
  let want: "value" | "key" | "colon" | "next" | "end" = "value"; // what may come next
  let first = false; // just after `{` or `[`: it may close at once
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\r" || c === "\n") {
      i++;
      continue;
    }
    const top = open.at(-1);
    if ((want === "key" || want === "value" || want === "next") && (c === "}" || c === "]")) {
      if ((want !== "next" && !first) || (c === "}") !== (top === "{")) return false;
      open.pop();
      want = open.length > 0 ? "next" : "end";
      first = false;
      i++;
      continue;
    }
    first = false;
    if (want === "end") return false;
    if (want === "colon") {
      if (c !== ":") return false;
      want = "value";
      i++;
    } else if (want === "next") {
      if (c !== ",") return false;
      want = top === "{" ? "key" : "value";
      i++;
    } else if (c === '"') {
      const end = stringEnd(text, i + 1);
      if (end === undefined) return open.length > 0; // cut inside the string
      if (end < 0) return false;
      want = want === "key" ? "colon" : open.length > 0 ? "next" : "end";
      i = end;
    } else if (want === "key") return false;
    else if (c === "{" || c === "[") {
      open.push(c);
      want = c === "{" ? "key" : "value";
      first = true;
      i++;
    } else {
      const word = /^[-+.0-9a-zA-Z]+/.exec(text.slice(i, i + 32))?.[0] ?? "";
      if (!word) return false;
      if (i + word.length === text.length) return open.length > 0 && /^(-?[0-9][-+.0-9eE]*|-|t|tr|tru|f|fa|fal|fals|n|nu|nul)$/.test(word);
      if (!/^(true|false|null|-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)$/.test(word)) return false;
      want = open.length > 0 ? "next" : "end";
      i += word.length;
    }
  }
  return open.length > 0;
}

/** Where the string whose body starts at `from` ends (after its quote); undefined when the text ends first, -1 for a bad escape or a control character. */
function stringEnd(text: string, from: number): number | undefined {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c) continue;
    const e = text.slice(i + 1, i + 6);
    if (e === "") return undefined;
    if (e[0] === "u") {
      if (!/^u[0-9a-fA-F]{0,4}$/.test(e.slice(0, Math.min(5, e.length)))) return -1;
      if (e.length < 5) return undefined;
      i += 5;
    } else if ('"\\/bfnrt'.includes(e[0]!)) i++;
    else return -1;
  }
  return undefined;
}

/** A name for a line's text that a note records: its length and a 32-bit FNV-1a of its characters. */
export function lineKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${text.length}:${h.toString(16).padStart(8, "0")}`;
}

/** The note line (newline included) that records the torn line named `key` as said. */
export function tornNote(key: string): string {
  return `${JSON.stringify({ type: "torn", id: newId(), line: key })}\n`;
}

/** The key a note line records, or undefined when the line is not a note. */
export function notedKey(text: string): string | undefined {
  if (!text.startsWith(NOTE_PREFIX)) return undefined;
  try {
    const v = JSON.parse(text) as { line?: unknown };
    return typeof v.line === "string" ? v.line : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a line over the loading limit that has no newline was cut mid-write: a whole entry
 * (written with its newline in one write) ends `}}`.
 */
export function oversizedTorn(line: Oversized): boolean {
  return !line.tail.endsWith("}}");
}

/** A line the reader skips: why (`reason`, "" when nothing is said) and, for a torn one, where it is and the key to record it by. */
export interface Skipped {
  ok: false;
  reason: string;
  /** `last`: the file's last line, without its newline; `line`: one ended before (by an older hey) */
  torn?: "last" | "line";
  /** a `line` said for the first time: the writer records it (tornNote) so no later resume says it */
  key?: string;
  /** a `last` line that ends in NUL bytes a power cut left (nulTail): how many */
  nul?: number;
}

/**
 * The fewest bytes a NUL run may have to stand for a lost entry: every line hey writes is longer
 * (`{"type":"torn","id":"…"` alone, with its 19-character id, is 40), so fewer NULs on a line of
 * their own are a stray byte or two, not what a power cut took.
 */
const SHORTEST_ENTRY = 40;

/**
 * The NUL bytes that end a last line when they are what ext4 or XFS leave of the blocks a power cut
 * kept from the disk (x117: a tail of 7 lines, 1.4 KB, read as "a torn last line"): a run as long as
 * an entry at least, or one that cuts into an entry (its start, then NULs). Only the NULs are
 * counted; of a line too long to load, those in the tail read (lines.ts), which may be fewer than
 * there are. 0 for a line hey cut mid-write, and for a stray NUL after a whole line (x122: said as a
 * power loss though every message loaded).
 */
function nulTail(text: string, oversized: Oversized | undefined): number {
  const tail = oversized ? oversized.tail : text;
  const head = tail.replace(/\0+$/, "");
  const nul = tail.length - head.length;
  if (nul === 0) return 0;
  const cut = head !== "" && (oversized ? !head.endsWith("}}") : cutShort(head));
  return nul >= SHORTEST_ENTRY || cut ? nul : 0;
}

/** The warning for a skipped line (`where`: "line N" or "the line at byte B"; `after`: what came before it, to say where the loss begins). */
export function skippedWarning(path: string, w: { reason: string; torn?: "last" | "line"; nul?: number }, where: string, after: string): string {
  if (w.nul)
    return `${path}: the last ${formatSize(w.nul)} of the file are NUL bytes (the machine crashed or lost power before they reached the disk): what hey wrote after ${after} is lost, likely your last exchanges; ask them again`;
  if (w.torn) return `${path}: skipped a torn ${w.torn === "last" ? "last " : ""}line (${where}): hey stopped while writing it`;
  return `${path}: skipped ${where}: ${w.reason}`;
}

/**
 * The entry on a line of the session (`text`, "" when `oversized`), or why it is skipped. A note
 * met adds its key to `noted`; a torn line already noted (read backwards, its note comes first) is
 * skipped without a word, and so is one the writer marked with TORN_END.
 */
export function entryOf(text: string, terminated: boolean, oversized: Oversized | undefined, noted: Set<string>): ParsedLine | Skipped {
  if (oversized?.tail.endsWith(TORN_END)) return { ok: false, reason: "" };
  const last = (r: Skipped): Skipped => ({ ...r, torn: "last", ...(nulTail(text, oversized) > 0 && { nul: nulTail(text, oversized) }) });
  if (oversized && !terminated && oversizedTorn(oversized)) return last({ ok: false, reason: CUT_LINE });
  const parsed = oversized ? oversizedEntry(oversized) : parseEntry(text);
  if (parsed.ok) return parsed;
  const key = oversized ? undefined : notedKey(text);
  if (key !== undefined) {
    noted.add(key);
    return { ok: false, reason: "" }; // this hey's own, not a newer hey's
  }
  if (parsed.reason === "") return parsed;
  if (!terminated) return last(parsed);
  if (oversized || parsed.reason !== CUT_LINE || !cutShort(text)) return parsed;
  const seen = lineKey(text);
  return noted.has(seen) ? { ok: false, reason: "" } : { ok: false, reason: parsed.reason, torn: "line", key: seen };
}

/** Lines a newer hey wrote, of kinds this one does not know (`kinds`: read from the end): said once a resume, since what they meant is left out. */
export function newerNote(path: string, kinds: ReadonlyMap<string, number>): string {
  const n = [...kinds.values()].reduce((a, b) => a + b, 0);
  const shown = (kind: string) => kind.replace(/[^\x20-\x7e]/g, "?").slice(0, 40); // the file's words: nothing the terminal acts on
  const names = [...kinds.keys()].reverse().slice(0, 3).map(shown).join(", ") + (kinds.size > 3 ? ", …" : "");
  return `${path}: skipped ${n === 1 ? "a line" : `${n} lines`} of kinds this hey does not know (${names}), written by a newer hey; the rest is loaded — \`hey upgrade\` reads them`;
}

/**
 * What ends the file's last line (`line`, read from the end), which has no newline: a line the resume just warned of as torn
 * is marked so (format.ts TORN_END) and no resume warns of it again — one too long to read when
 * its end is not an entry's (oversizedTorn above); a whole entry that only lacks its newline gets
 * the newline alone.
 */
export function tornLineEnd(line: TailLine | undefined): string {
  const parsed = line && !line.oversized ? parseEntry(line.buf.toString("utf8", line.start, line.end)) : undefined;
  // a whole entry of a kind a newer hey writes is left whole: that hey reads it after an upgrade
  const torn = line !== undefined && (line.oversized ? oversizedTorn(line.oversized) : !parsed!.ok && parsed!.newer === undefined);
  return torn ? `${TORN_END}\n` : "\n";
}

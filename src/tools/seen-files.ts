// What the file tools know of each file the agent read or wrote this run, so that write_file never
// replaces content it has not seen (the user's, saved in an editor while the agent worked, or a
// command's, or lines past the window read_file showed): the decisions, pure. The tools hash the
// bytes (read-file.ts contentHash), as does an `@file` the user's message brought whole
// (user-input.ts).
import { decodeText } from "../fs/text-encoding.ts";
import { shellWord } from "../kernel/tool-args.ts";
import { lineCounter } from "./edit-matches.ts";

/** 1-based first and last line, inclusive. */
export type LineRange = [number, number];

/** One read_file result, `output`: lines `first`..`last` (none cut) of the file whose bytes hash to `hash`, answered by call `callId`. */
export interface EarlierRead {
  hash: string;
  first: number;
  last: number;
  callId: string;
  output: string;
}

/**
 * What the agent has seen of one file: `hash`, of the bytes it last saw; `lines`, when it saw only
 * some of them — the lines read_file showed whole (a line it cut is not seen whole), the lines an
 * edit wrote — in order, apart; undefined when it saw every line. `reads`: read_file's results of
 * these bytes still shown whole (earlier-reads.ts).
 */
export interface SeenFile {
  hash: string;
  lines?: LineRange[];
  reads?: EarlierRead[];
}

/**
 * The hash of a file read_file showed a window of and did not read to its end (one too large:
 * read-file.ts READ_TO_END_MAX_BYTES): no file's bytes hash to it, and no change since is told by it.
 */
export const UNHASHED = "";

/**
 * What the agent last saw of each file this run, by real path (links resolved): what read_file
 * read, what write_file wrote, what edit made of a file. Shared by the file tools of one run; a
 * resumed run starts with none.
 */
export type SeenFiles = Map<string, SeenFile>;

/**
 * What the agent has seen of a file after read_file showed lines `first`..`last` of its `total`
 * (those in `cut` cut short) when its bytes hash to `hash`: with what it saw of the same bytes
 * before (`prev`), every line, or the windows it has read.
 */
export function sawWindow(prev: SeenFile | undefined, hash: string, window: { first: number; last: number; total: number; cut: readonly number[] }): SeenFile {
  const before = prev?.hash === hash ? prev.lines : [];
  const reads = prev?.hash === hash && prev.reads ? { reads: prev.reads } : {};
  if (before === undefined) return { hash, ...reads };
  const shown: LineRange[] = [];
  let from = window.first;
  for (const line of [...window.cut, window.last + 1]) {
    if (line > from) shown.push([from, line - 1]);
    from = line + 1;
  }
  const lines = merged([...before, ...shown]);
  return lines.length === 1 && lines[0]![0] <= 1 && lines[0]![1] >= window.total ? { hash, ...reads } : { hash, lines, ...reads };
}

/** Sorted ranges with the overlapping and adjacent ones joined. */
function merged(ranges: LineRange[]): LineRange[] {
  const out: LineRange[] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * Why write_file must not replace `path` with `content`, when its bytes now are `now` (undefined:
 * no such file) and the agent last saw `seen` of it (undefined: it never read or wrote the file
 * this run): the file changed since, or the agent never saw it (as after `hey -c`, when its copy
 * is from an earlier run), or `content` drops or changes lines it has not seen whole (past a
 * read_file window, outside what an edit wrote), and what they hold would be lost unseen.
 * Undefined when it may: a new file, one unchanged and seen whole, one whose unseen lines `content`
 * keeps as they are, or one gone (writing it back loses no content).
 */
export function writeRefusal(
  path: string,
  seen: SeenFile | undefined,
  now: { hash: string; bytes: Uint8Array } | undefined,
  content: string,
): string | undefined {
  if (now === undefined) return undefined;
  if (seen === undefined)
    return (
      `${path} exists and has not been read or written in this run; not written, so what it holds is kept: ` +
      "read it with read_file and make your change to what it holds now"
    );
  if (seen.hash === UNHASHED)
    return (
      `${path} is too large for read_file to have read it to its end, so what it holds past the lines you saw is not known; not written, so it is kept: ` +
      `change it with a command that streams it, e.g. sed -i 's/old/new/' ${shellWord(path)} (edit and write_file hold a file this size in memory)`
    );
  if (now.hash !== seen.hash)
    return (
      `${path} has changed since it was last read or written (by the user, a command or another program); not written, so that change is kept: ` +
      "read it again with read_file and make your change to what it holds now"
    );
  if (!seen.lines) return undefined;
  const old = linesOf(decodeText(now.bytes).text);
  const lines = linesOf(content);
  const written = `\n${lines.join("\n")}\n`;
  const changed = unseen(seen.lines, old.length).filter(([a, b]) => !written.includes(`\n${old.slice(a - 1, b).join("\n")}\n`));
  if (changed.length === 0) return undefined;
  // named: the lines of those runs that content has nowhere, or, when it has each somewhere, the runs
  const kept = new Set(lines);
  const lost = changed.flatMap(([a, b]) => {
    const gone = merged(old.flatMap((line, i) => (i + 1 >= a && i + 1 <= b && !kept.has(line) ? [[i + 1, i + 1] as LineRange] : [])));
    return gone.length ? gone : [[a, b] as LineRange];
  });
  const saw = seen.lines.length ? `you have seen ${spans(seen.lines)}` : "you have seen none of it whole";
  return (
    `${path} has ${old.length} line${old.length === 1 ? "" : "s"}, and content drops or changes ${spans(lost)}, which you have not seen whole in this run (${saw}); ` +
    `not written, so they are kept: read them with read_file (offset=${lost[0]![0]}) first, or change the file with edit`
  );
}

/** A text's lines as read_file numbers them: split at "\n", CR of CRLF and a byte-order mark left out, none after a final "\n". */
function linesOf(text: string): string[] {
  const body = text.replace(/^\uFEFF/, "").replace(/\r?\n$/, "");
  return body === "" && !text.includes("\n") ? [] : body.split(/\r?\n/);
}

/** The lines 1..`total` outside `seen`. */
function unseen(seen: LineRange[], total: number): LineRange[] {
  const out: LineRange[] = [];
  let from = 1;
  for (const [a, b] of [...seen, [total + 1, total + 1] as LineRange]) {
    if (a > from) out.push([from, Math.min(a - 1, total)]);
    from = Math.max(from, b + 1);
  }
  return out.filter(([a, b]) => a <= b);
}

/** `line 4`, `lines 3-7, 12, 40-41` (the first 5 ranges, then `…`). */
const spans = (ranges: LineRange[]) =>
  (ranges.length === 1 && ranges[0]![0] === ranges[0]![1] ? "line " : "lines ") +
  ranges
    .slice(0, 5)
    .map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
    .join(", ") +
  (ranges.length > 5 ? ", …" : "");

/**
 * What the agent has seen of a file after edit changed its text `before` (bytes hashing to
 * `hashes.before`) into bytes hashing to `hashes.after`, replacing the text from each of `at` to
 * its `end` with `newString` (as many lines, whatever their line ends): every line when it had seen all of `before`; when it had seen some, those
 * lines where they now are, and the lines edit wrote, which it sent; when it had never seen the
 * file, or when the file had changed unseen since (edit kept that change, which a whole-file write
 * from its memory would undo), only those (edit shows a few lines of diff, not the file). So the
 * note that it had changed (editedUnseen) is said by that edit alone, not by every later edit of
 * lines the agent wrote itself (x58).
 * A line edit only partly wrote (the match starts or ends inside it) is seen only if it was before:
 * the rest of it, a line read_file showed cut or one past old_string's final line break, is the
 * file's, not the model's. Linear in the file's length however many matches (a minified bundle).
 */
export function seenAfterEdit(
  seen: SeenFile | undefined,
  hashes: { before: string; after: string },
  edit: { before: string; at: readonly number[]; end: readonly number[]; newString: string },
): SeenFile {
  const current = seen?.hash === hashes.before ? seen : undefined; // what it saw of the bytes edit changed
  if (current !== undefined && !current.lines) return { hash: hashes.after };
  const { before, at, end, newString } = edit;
  const known = current?.lines ?? [];
  const added = newString.split("\n").length - 1;
  const lineOf = lineCounter(before);
  const kept: LineRange[] = [];
  const wrote: LineRange[] = [];
  const partly: number[] = []; // new lines that keep text of an old line the agent had not seen whole
  let range = 0; // the first of `known` that may hold the lines asked about next (they ascend)
  const sawLine = (line: number) => {
    while (range < known.length && known[range]![1] < line) range++;
    return range < known.length && known[range]![0] <= line;
  };
  let shift = 0; // lines added (or, below 0, removed) by the replacements so far
  let next = 1; // first old line not yet placed
  let placed = 0; // the first of `known` not wholly placed yet
  const place = (to: number) => {
    for (; placed < known.length && known[placed]![0] < to; placed++) {
      const [a, b] = known[placed]!;
      const [from, until] = [Math.max(a, next), Math.min(b, to - 1)];
      if (from <= until) kept.push([from + shift, until + shift]);
      if (b >= to) break; // it goes on past the match: the rest is placed after it
    }
  };
  const bom = before.startsWith("\uFEFF") ? 1 : 0;
  for (let i = 0; i < at.length; i++) {
    const [from, to] = [at[i]!, end[i]!];
    const [first, last] = [lineOf(from), lineOf(to)];
    place(first);
    const [newFirst, newLast] = [first + shift, first + shift + added];
    // the file's own text left on the match's first line (before it) and last line (after it), unless another match takes it
    const head = from > bom && before[from - 1] !== "\n" && from !== end[i - 1];
    // a match ending in a line break ends before the line `to` is on, which keeps all its text
    const tail = to < before.length && (before[to - 1] === "\n" || !lineEndsAt(before, to)) && to !== at[i + 1];
    if (head && !sawLine(first)) partly.push(newFirst);
    if (tail && !sawLine(last)) partly.push(newLast);
    const prev = wrote.at(-1);
    if (prev && prev[1] >= newFirst - 1) prev[1] = Math.max(prev[1], newLast);
    else wrote.push([newFirst, newLast]); // apart: millions of matches on one line are one range
    shift += added - (last - first);
    next = last + 1;
  }
  place(Number.MAX_SAFE_INTEGER);
  return { hash: hashes.after, lines: without(merged([...kept, ...wrote]), partly) };
}

/** Whether a line break (LF or CRLF) starts at `offset` in `text`. */
const lineEndsAt = (text: string, offset: number) => text[offset] === "\n" || (text[offset] === "\r" && text[offset + 1] === "\n");

/** Sorted ranges less the lines of `lines` (ascending). */
function without(ranges: LineRange[], lines: number[]): LineRange[] {
  const out: LineRange[] = [];
  let k = 0;
  for (const [a, b] of ranges) {
    let from = a;
    for (; k < lines.length && lines[k]! <= b; k++) {
      if (lines[k]! < from) continue;
      if (lines[k]! > from) out.push([from, lines[k]! - 1]);
      from = lines[k]! + 1;
    }
    if (from <= b) out.push([from, b]);
  }
  return out;
}

/** read_file's mark after the start of a line it cut: `… [cut: 2000 of 8704 chars]`. */
export const cutMark = (kept: number, chars: number) => `… [cut: ${kept} of ${chars} chars]`;
/** That mark where read_file puts it, ending a line. */
const CUT_MARK_AT_END = /… \[cut: (\d+) of (\d+) chars\]\r?$/m;

/**
 * Why write_file must not write `content` to `path`: a line of it ends in read_file's mark of a
 * line it cut, so it is a copy of the line's start, and the rest of that line would be lost.
 * Undefined when none does.
 */
export function cutLineRefusal(path: string, content: string): string | undefined {
  const mark = CUT_MARK_AT_END.exec(content);
  if (!mark || Number(mark[1]) >= Number(mark[2])) return undefined;
  const line = content.slice(0, mark.index).split("\n").length;
  return (
    `content line ${line} ends with "${mark[0].replace(/\r$/, "")}", read_file's mark of a line it cut: the ${Number(mark[2]) - Number(mark[1])} characters after the cut are not in content; ` +
    `${path} not written, so they are not lost: change that line with edit (old_string can be a part of it), or see the whole line first`
  );
}

/**
 * The line edit adds to its result when it changed `path` whose bytes (hashing to `before`) are
 * not those the agent last saw (`seen`): someone changed the file since, edit kept that change,
 * and the lines the agent remembers may have moved or changed. Undefined when it saw them, never
 * read the file this run, or read a window of one too large to hash (UNHASHED).
 */
export function editedUnseen(path: string, seen: SeenFile | undefined, before: string): string | undefined {
  if (seen === undefined || seen.hash === before || seen.hash === UNHASHED) return undefined;
  return `note: ${path} had changed since you last read it (by a command, the user or another program); your edit went into what it holds now, and that change is kept: read it again before relying on its other lines`;
}

/**
 * What edit says first when old_string is not in `path` and the file's bytes (hashing to `now`)
 * are not those the agent last saw (`seen`): the likely reason, someone changed it since. Undefined
 * when the agent never saw it this run, saw it as it is, or saw a window of it unhashed (UNHASHED).
 */
export function changedSinceRead(path: string, seen: SeenFile | undefined, now: string): string | undefined {
  if (seen === undefined || seen.hash === now || seen.hash === UNHASHED) return undefined;
  return `${path} has changed since you last read it (by the user, a command or another program): read it again with read_file and take old_string from what it holds now`;
}

// What the file tools know of each file the agent read or wrote this run, so that write_file never
// replaces content it has not seen (the user's, saved in an editor while the agent worked, or a
// command's, or lines past the window read_file showed): the decisions, pure. The tools hash the
// bytes (read-file.ts contentHash), as does an `@file` the user's message brought whole
// (user-input.ts).
import { decodeText } from "../fs/text-encoding.ts";

/** 1-based first and last line, inclusive. */
export type LineRange = [number, number];

/**
 * What the agent has seen of one file: `hash`, of the bytes it last saw; `lines`, when it saw only
 * some of them — the lines read_file showed whole (a line it cut is not seen whole), the lines an
 * edit wrote — in order, apart; undefined when it saw every line.
 */
export interface SeenFile {
  hash: string;
  lines?: LineRange[];
}

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
  if (before === undefined) return { hash };
  const shown: LineRange[] = [];
  let from = window.first;
  for (const line of [...window.cut, window.last + 1]) {
    if (line > from) shown.push([from, line - 1]);
    from = line + 1;
  }
  const lines = merged([...before, ...shown]);
  return lines.length === 1 && lines[0]![0] <= 1 && lines[0]![1] >= window.total ? { hash } : { hash, lines };
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
    `${path} has ${old.length} lines, and content drops or changes ${spans(lost)}, which you have not seen whole in this run (${saw}); ` +
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
 * file, only those (edit shows a few lines of diff, not the file); else still `seen`, as the file
 * had changed unseen and edit kept that change, which a whole-file write from its memory would undo.
 */
export function seenAfterEdit(
  seen: SeenFile | undefined,
  hashes: { before: string; after: string },
  edit: { before: string; at: readonly number[]; end: readonly number[]; newString: string },
): SeenFile {
  if (seen !== undefined && seen.hash !== hashes.before) return seen;
  if (seen !== undefined && !seen.lines) return { hash: hashes.after };
  const { before, at, newString } = edit;
  const added = newString.split("\n").length - 1;
  const kept: LineRange[] = [];
  const wrote: LineRange[] = [];
  let line = 1; // line of `pos` in `before`
  let pos = 0;
  let shift = 0; // lines added (or, below 0, removed) by the replacements so far
  let next = 1; // first old line not yet placed
  const lineAt = (offset: number) => {
    for (let nl = before.indexOf("\n", pos); nl !== -1 && nl < offset; nl = before.indexOf("\n", nl + 1)) line++;
    pos = offset;
    return line;
  };
  const place = (to: number) => {
    for (const [a, b] of seen?.lines ?? []) {
      const [from, until] = [Math.max(a, next), Math.min(b, to - 1)];
      if (from <= until) kept.push([from + shift, until + shift]);
    }
  };
  for (let i = 0; i < at.length; i++) {
    const start = lineAt(at[i]!);
    const end = lineAt(edit.end[i]!);
    place(start);
    wrote.push([start + shift, end + shift + added - (end - start)]);
    shift += added - (end - start);
    next = end + 1;
  }
  place(Number.MAX_SAFE_INTEGER);
  return { hash: hashes.after, lines: merged([...kept, ...wrote]) };
}

/**
 * What edit says first when old_string is not in `path` and the file's bytes (hashing to `now`)
 * are not those the agent last saw (`seen`): the likely reason, someone changed it since. Undefined
 * when the agent never saw it this run, or saw it as it is.
 */
export function changedSinceRead(path: string, seen: SeenFile | undefined, now: string): string | undefined {
  if (seen === undefined || seen.hash === now) return undefined;
  return `${path} has changed since you last read it (by the user, a command or another program): read it again with read_file and take old_string from what it holds now`;
}

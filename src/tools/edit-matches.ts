// Where edit's old_string occurs in a file and what each occurrence becomes (SPEC §7). read_file
// shows no line ends, so a line break in old_string matches a CRLF or an LF alike, in every
// occurrence; a line break of new_string keeps the line end the replaced text had at its place,
// and one it adds takes the line end of the line around it, so the lines an edit leaves keep
// theirs byte for byte in a file of CRLF, LF or both. Linear in the file's length however many
// matches it holds (a minified bundle), and it gives the event loop a turn now and then so Esc,
// Ctrl-C and SIGTERM are heard: undefined when `signal` aborted. Pure.

/** Where each replacement starts and ends in the old text and in the new, in order (arrays, not objects: there may be millions). */
export interface Spans {
  oldAt: number[];
  oldEnd: number[];
  newAt: number[];
  newEnd: number[];
}

/** Where each occurrence starts and ends, in order. */
export interface Matches {
  at: number[];
  end: number[];
}

/** Matches handled between looks at the clock. */
const CHECK_EVERY = 4096;
/** The longest the tool works without letting the event loop run (a key, a signal). */
const SLICE_MS = 50;

/**
 * A function to call at each step of a long loop: true when the loop must stop. Now and then it
 * is a promise, awaited so the event loop runs (only then: awaiting each step costs a microtask).
 */
function pacer(signal: AbortSignal): (step: number) => boolean | Promise<boolean> {
  let last = performance.now();
  return (step) => {
    if (step % CHECK_EVERY !== 0 || performance.now() - last < SLICE_MS) return signal.aborted;
    return new Promise((resolve) =>
      setTimeout(() => {
        last = performance.now();
        resolve(signal.aborted);
      }, 0),
    );
  };
}

/** Each occurrence of `oldArg` in `text`, left to right, not overlapping; its line breaks match CRLF or LF. */
export async function findMatches(text: string, oldArg: string, signal: AbortSignal): Promise<Matches | undefined> {
  const found: Matches = { at: [], end: [] };
  const stop = pacer(signal);
  const add = (at: number, end: number) => {
    found.at.push(at);
    found.end.push(end);
    return stop(found.at.length);
  };
  if (!oldArg.includes("\n")) {
    for (let i = text.indexOf(oldArg); i !== -1; i = text.indexOf(oldArg, i + oldArg.length)) {
      const done = add(i, i + oldArg.length);
      if (done === true || (done !== false && (await done))) return undefined;
    }
    return found;
  }
  const pattern = anyLineEnds(oldArg);
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const done = add(m.index, m.index + m[0].length);
    if (done === true || (done !== false && (await done))) return undefined;
  }
  return found;
}

/** A global pattern for `oldArg` whose every line break matches CRLF or LF. */
export const anyLineEnds = (oldArg: string) =>
  new RegExp(
    oldArg
      .split(/\r?\n/)
      .map((p) => p.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"))
      .join("\\r?\\n"),
    "g",
  );

/**
 * `text` with every match replaced by `newArg`, whose line breaks are given the line ends described
 * in this file's header, and where each replacement lies in both texts. `source`: `text` as it is
 * written back (the same length: fs/text-encoding.ts's `raw`, its stray bytes kept as they were),
 * from which the unchanged parts are taken.
 */
export async function replaceMatches(
  text: string,
  matches: Matches,
  newArg: string,
  signal: AbortSignal,
  source = text,
): Promise<{ updated: string; spans: Spans } | undefined> {
  const newLines = newArg.split(/\r?\n/);
  const fileEol = majorityEol(text);
  const stop = pacer(signal);
  const spans: Spans = { oldAt: matches.at, oldEnd: matches.end, newAt: [], newEnd: [] };
  const pieces: string[] = [];
  let length = 0;
  let from = 0;
  let next = text.indexOf("\n"); // the first line break at or after the current match's end
  let last = -1; // the last one before it
  let made = { old: "", around: "", replacement: "" }; // the last replacement made: most matches are alike
  for (let i = 0; i < matches.at.length; i++) {
    const [at, end] = [matches.at[i]!, matches.end[i]!];
    while (next !== -1 && next < end) [last, next] = [next, text.indexOf("\n", next + 1)];
    const around = next !== -1 ? eolAt(text, next) : last !== -1 ? eolAt(text, last) : fileEol;
    const old = text.slice(at, end);
    if (old !== made.old || around !== made.around) made = { old, around, replacement: withLineEnds(old, newLines, around) };
    pieces.push(source.slice(from, at), made.replacement);
    length += at - from;
    spans.newAt.push(length);
    length += made.replacement.length;
    spans.newEnd.push(length);
    from = end;
    const done = stop(i + 1);
    if (done === true || (done !== false && (await done))) return undefined;
  }
  pieces.push(source.slice(from));
  const updated = pieces.join("");
  // a last turn for the event loop: an interrupt now still leaves the file as it was
  if (await new Promise<boolean>((resolve) => setTimeout(() => resolve(signal.aborted), 0))) return undefined;
  return { updated, spans };
}

/** The line end of the line break whose "\n" is at `nl`. */
const eolAt = (text: string, nl: number) => (text[nl - 1] === "\r" ? "\r\n" : "\n");

/** The line end most of `text`'s line breaks are (LF on a tie, or when there is none). */
export function majorityEol(text: string): string {
  let lf = 0;
  let crlf = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) text[nl - 1] === "\r" ? crlf++ : lf++;
  return crlf > lf ? "\r\n" : "\n";
}

/**
 * `newLines` joined with line ends taken from `old`, the text they replace: the line ends of the
 * lines both begin or end with stay, the lines between get theirs one for one when there are as
 * many, else the kind most of them had (or most of the match's); `around` (the line end of the
 * match's last line) on a tie, or when the match has no line break.
 */
function withLineEnds(old: string, newLines: string[], around: string): string {
  const parts = old.split(/(\r?\n)/);
  const oldLines = parts.filter((_, i) => i % 2 === 0);
  const breaks = parts.filter((_, i) => i % 2 === 1);
  const ends: (string | undefined)[] = Array.from({ length: newLines.length - 1 });
  let head = 0;
  while (head < breaks.length && head < ends.length && oldLines[head] === newLines[head]) ends[head] = breaks[head++];
  let tail = 1;
  for (; breaks.length - tail >= head && ends.length - tail >= head; tail++) {
    if (oldLines[breaks.length - tail] !== newLines[ends.length - tail]) break;
    ends[ends.length - tail] = breaks[breaks.length - tail];
  }
  const middle = breaks.slice(head, breaks.length - tail + 1);
  const open = ends.length - head - (tail - 1);
  const most = mostOf(middle) ?? mostOf(breaks) ?? around;
  let out = newLines[0]!;
  for (let i = 0; i < ends.length; i++) out += (ends[i] ?? (middle.length === open ? middle[i - head]! : most)) + newLines[i + 1];
  return out;
}

/** The line end most of `breaks` are; undefined on a tie or when there are none. */
function mostOf(breaks: string[]): string | undefined {
  const crlf = breaks.filter((b) => b === "\r\n").length;
  return 2 * crlf > breaks.length ? "\r\n" : 2 * crlf < breaks.length ? "\n" : undefined;
}

/** A function from ascending character offsets in `text` to their 1-based line numbers: one pass over `text` in all. */
export function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let nl = text.indexOf("\n");
  return (offset) => {
    for (; nl !== -1 && nl < offset; nl = text.indexOf("\n", nl + 1)) line++;
    return line;
  };
}

/** 1-based line numbers of ascending character offsets, in one pass over `text`. */
export const lineNumbers = (text: string, offsets: number[]): number[] => offsets.map(lineCounter(text));

/** The distinct line numbers of ascending character offsets, at most `max` of them: the line scan stops there. */
export function firstLines(text: string, offsets: number[], max: number): number[] {
  const out: number[] = [];
  const lineOf = lineCounter(text);
  for (const offset of offsets) {
    const line = lineOf(offset);
    if (out.at(-1) === line) continue;
    if (out.length === max) break;
    out.push(line);
  }
  return out;
}

// Emphasis in an answer (`*em*`, `_em_`, `**strong**`, `***both***`): which runs of `*` or `_`
// open or close a style, by CommonMark's flanking rules (https://spec.commonmark.org/0.31.2/#emphasis-and-strong-emphasis),
// so `a * b * c`, `snake_case_name` and `file_name.py` stay as written. Pure.
//
// Where an answer on a terminal differs from CommonMark, on purpose:
// - a `*` run between two ASCII letters or digits opens nothing (`2*3*4`, `a**b`, `x*y*z`): in an
//   answer that is arithmetic or a glob, where CommonMark would italicize `foo*bar*`;
// - a `*` run between two of `/ \ . _ -` opens and closes nothing (`src/*/index_*.ts`,
//   `C:\Users\*\file-*.txt`): in an answer that is a path or a glob, where CommonMark italicizes
//   `/index_` and the path shown loses its asterisks;
// - `_` emphasizes only as one `_`: `__init__` and `__dirname` are names, not bold (models write
//   bold as `**`);
// - a run closes an open style whenever no whitespace precedes it: CommonMark's right-flanking rule
//   leaves `**重点：**内容` (Chinese has no spaces around words) unclosed.

export type Marker = "*" | "_";

export interface DelimiterRun {
  marker: Marker;
  /** how many markers in a row */
  length: number;
  canOpen: boolean;
  canClose: boolean;
}

const WHITESPACE = /\s/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;
const ASCII_ALNUM = /[A-Za-z0-9]/;
/** what stands around a glob's `*` inside a path */
const PATH_CHAR = /[/\\._-]/;

/**
 * The run of `text[at]` (a `*` or `_`, the first of its run) with what it may do; the text before
 * `text` and after it counts as whitespace (a word is cut at whitespace).
 */
export function delimiterRun(text: string, at: number): DelimiterRun {
  const marker = text[at] as Marker;
  let end = at;
  while (text[end] === marker) end++;
  const before = text[at - 1] ?? " ";
  const after = text[end] ?? " ";
  const space = (c: string) => WHITESPACE.test(c);
  const punct = (c: string) => PUNCTUATION.test(c);
  const left = !space(after) && (!punct(after) || space(before) || punct(before));
  const right = !space(before) && (!punct(before) || space(after) || punct(after));
  const length = end - at;
  // a run of 4 or more, or of two `_`, is text
  if (length > (marker === "*" ? 3 : 1)) return { marker, length, canOpen: false, canClose: false };
  const inPath = PATH_CHAR.test(before) && PATH_CHAR.test(after);
  const canOpen = marker === "*" ? left && !inPath && !(ASCII_ALNUM.test(before) && ASCII_ALNUM.test(after)) : left && (!right || punct(before));
  const canClose = marker === "*" ? !space(before) && !inPath : !space(before) && (space(after) || punct(after));
  return { marker, length, canOpen, canClose };
}

/** How far ahead a closer is looked for: past it, the opener's markers are shown (a cell of thousands of `a *b` stays fast). */
const MAX_AHEAD = 1000;

/**
 * Whether a run that closes `opener` follows in `text` from `from` on the same line, outside
 * inline code, within MAX_AHEAD characters: true, false (the line ends first, or MAX_AHEAD
 * characters came without one), or undefined (the text ends first: its line is still arriving).
 */
export function closerAhead(text: string, from: number, opener: DelimiterRun): boolean | undefined {
  let code = false;
  for (let i = from; i < text.length; i++) {
    if (i - from >= MAX_AHEAD) return false;
    const c = text[i];
    if (c === "\n") return false;
    if (c === "`") code = !code;
    else if (!code && c === opener.marker) {
      const run = delimiterRun(text, i);
      if (run.canClose && (run.length === opener.length || (run.length === 3 && opener.length < 3))) return true;
      i += run.length - 1;
    }
  }
  return undefined;
}

/** The styles open on a line, each with the marker that opened it. */
export interface Emphasis {
  strong?: Marker;
  em?: Marker;
}

/**
 * What the run at `text[at]` does with the styles `open`: the styles it opens or closes (`**`
 * bold, `*` or `_` italics, `***` both), "text" (its markers are shown), or "wait" when it could
 * open a style whose closer may still arrive (`final`: the text will not grow, so it cannot).
 */
export function emphasisAt(
  text: string,
  at: number,
  open: Emphasis,
  final: boolean,
): { run: DelimiterRun; act: "open" | "close" | "text" | "wait"; strong: boolean; em: boolean } {
  const run = delimiterRun(text, at);
  const [strong, em] = [run.length >= 2, run.length !== 2];
  const c = run.marker;
  if (run.canClose && ((strong && open.strong === c) || (em && open.em === c)))
    return { run, act: "close", strong: strong && open.strong === c, em: em && open.em === c };
  if (!run.canOpen || (strong && open.strong) || (em && open.em)) return { run, act: "text", strong, em };
  const found = closerAhead(text, at + run.length, run);
  return { run, act: found === true ? "open" : found === undefined && !final ? "wait" : "text", strong, em };
}

/** `text` without the markers of its emphasis or inline code, by the rules a streamed line follows (a table cell, drawn unstyled). */
export function withoutMarkers(text: string): string {
  let out = "";
  let code = false;
  const open: Emphasis = {};
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "`") code = !code;
    else if (code || (c !== "*" && c !== "_")) out += c;
    else {
      const { run, act, strong, em } = emphasisAt(text, i, open, true);
      i += run.length - 1;
      if (act === "text") out += c.repeat(run.length);
      if (act === "text") continue;
      if (strong) open.strong = act === "open" ? run.marker : undefined;
      if (em) open.em = act === "open" ? run.marker : undefined;
    }
  }
  return out;
}

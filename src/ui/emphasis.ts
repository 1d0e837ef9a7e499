// Emphasis in an answer (`*em*`, `_em_`, `**strong**`, `***both***`): which runs of `*` or `_`
// open or close a style, by CommonMark's flanking rules (https://spec.commonmark.org/0.31.2/#emphasis-and-strong-emphasis),
// so `a * b * c`, `snake_case_name` and `file_name.py` stay as written. Pure.
//
// Where an answer on a terminal differs from CommonMark, on purpose:
// - a `*` run between two ASCII letters or digits opens nothing (`2*3*4`, `a**b`, `x*y*z`): in an
//   answer that is arithmetic or a glob, where CommonMark would italicize `foo*bar*`;
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
  const canOpen = marker === "*" ? left && !(ASCII_ALNUM.test(before) && ASCII_ALNUM.test(after)) : left && (!right || punct(before));
  const canClose = marker === "*" ? !space(before) : !space(before) && (space(after) || punct(after));
  return { marker, length, canOpen, canClose };
}

/**
 * Whether a run that closes `opener` follows in `text` from `from` on the same line, outside
 * inline code: true, false (the line ends first), or undefined (the text ends first: its line is
 * still arriving).
 */
export function closerAhead(text: string, from: number, opener: DelimiterRun): boolean | undefined {
  let code = false;
  for (let i = from; i < text.length; i++) {
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

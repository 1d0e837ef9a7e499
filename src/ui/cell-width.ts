// How many columns a terminal gives text: the sum of its code points' widths, one at a time, as
// tmux, xterm and most terminals draw them (`👍🏽` is 2 + 2, `❤️` is 1 + 0) — the rule the prompt's
// rows use (prompt-rows.ts), so that the answer's tables and wrapping line up with what is drawn.
// An emoji after a zero-width joiner shares the cell of the one before (a family is two columns).
// Escape sequences (colour) take none. Pure: the width of one code point is passed in.

const ZWJ = "\u200d";
/** colour and other CSI sequences, and OSC ones (a link), which take no columns */
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** The columns of `text` as a terminal draws it, `charWidth` giving one code point's. */
export function cellWidth(text: string, charWidth: (ch: string) => number): number {
  const plain = text.includes("\x1b") ? text.replace(ESCAPES, "") : text;
  if (/^[\x20-\x7e]*$/.test(plain)) return plain.length; // the common case, at once
  let width = 0;
  let joined = false;
  for (const ch of plain) {
    if (!joined) width += charWidth(ch);
    joined = ch === ZWJ;
  }
  return width;
}

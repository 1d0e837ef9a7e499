// Text hey did not write (model text, tool output, file names, server errors) on its way to the
// terminal (SPEC §24, issue 13 row 6): control characters become visible, so an answer or a
// command's output cannot set the window title (OSC 0), write the clipboard (OSC 52), clear the
// screen (ESC[2J) or hide text (ESC[8m). Display only: the model and the session keep the bytes.
// Pure.

/**
 * `text` with every C0 control except newline and tab, DEL and every C1 control made visible:
 * C0 in caret notation (ESC → `^[`, BEL → `^G`, a lone CR → `^M`), DEL → `^?`, C1 as `\x9b`.
 * A CR before a newline is dropped (CRLF text reads as lines, nothing is hidden by that).
 */
export function visible(text: string): string {
  if (!CONTROL.test(text)) return text; // the common case: nothing to do
  return text.replace(/\r\n/g, "\n").replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return "^" + String.fromCharCode(code + 0x40);
    if (code === 0x7f) return "^?";
    return "\\x" + code.toString(16);
  });
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

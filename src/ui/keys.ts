// Terminal input in raw mode, turned into keys (issue 14): text, a bracketed paste as one piece,
// and the editing keys of xterm-like terminals (CSI and SS3 sequences, Alt as an ESC prefix).
// Pure: the caller feeds what it read and keeps `rest` (an unfinished sequence) for next time.

export type KeyName =
  | "enter"
  | "newline"
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "up"
  | "down"
  | "home"
  | "end"
  | "wordLeft"
  | "wordRight"
  | "deleteWordLeft"
  | "deleteWordRight"
  | "killToEnd"
  | "killToStart"
  | "clearScreen"
  | "tab"
  | "escape"
  | "interrupt"
  | "eof"
  | "reverseSearch"
  | "forwardSearch"
  | "cancel"
  | "suspend"
  | "yank"
  /** Ctrl-X, the start of Ctrl-X Ctrl-E (the line in $EDITOR, as bash and zsh have it) */
  | "ctrlX"
  /** Shift+Tab (ESC [ Z): plan mode on or off */
  | "backTab";

export type Key =
  | { type: "text"; text: string }
  | { type: "paste"; text: string }
  /** `alt`: the character after an ESC that made this key an Alt one (Alt-b), which may also have been Esc then that key, typed quickly */
  | { type: "key"; name: KeyName; alt?: string }
  /** the terminal's answer to a cursor position request (CSI 6n): row and column from 1 */
  | { type: "cursorAt"; row: number; col: number };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Control characters that are keys of their own. */
/**
 * Where the paste whose text starts at `from` ends (the index of its end marker; `input.length`
 * when it takes in the rest), or -1 while that cannot be told yet. A paste holding the end marker
 * itself (ESC [ 2 0 1 ~ in a file, a log of terminal output) would end there: the protocol has no
 * escape for it, tmux passes it on as it is, and whether a terminal strips control characters from
 * a paste differs from one to another. A terminal writes a paste whole, its marker
 * last, so text right behind a marker with no start of its own is still the paste: the paste ends
 * at the last marker before the next paste's start, the markers before it kept as text. When the
 * text behind a marker has no marker after it yet, the rest may be on its way (`final`: nothing
 * more came for a moment: the paste takes that text in, so none of it runs as keys — no Enter
 * sends half a paste).
 */
function pasteEnd(input: string, from: number, final: boolean): number {
  let end = input.indexOf(PASTE_END, from);
  if (end < 0) return -1;
  for (;;) {
    const after = end + PASTE_END.length;
    if (after >= input.length) return end;
    const nextStart = input.indexOf(PASTE_START, after);
    if (nextStart === after) return end;
    const next = input.indexOf(PASTE_END, after);
    if (next >= 0 && (nextStart < 0 || next < nextStart)) end = next;
    else if (nextStart >= 0) return end;
    else return final ? input.length : -1;
  }
}

/** Whether `rest` is a paste still waiting for its end marker (no timeout ends that wait). */
export const waitsForPaste = (rest: string) => rest.startsWith(PASTE_START) && !rest.includes(PASTE_END);

const CONTROL: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "newline",
  "\t": "tab",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x01": "home",
  "\x05": "end",
  "\x02": "left",
  "\x06": "right",
  "\x10": "up",
  "\x0e": "down",
  "\x17": "deleteWordLeft",
  "\x0b": "killToEnd",
  "\x15": "killToStart",
  "\x0c": "clearScreen",
  "\x03": "interrupt",
  "\x04": "eof",
  "\x12": "reverseSearch",
  "\x13": "forwardSearch",
  "\x07": "cancel",
  "\x1a": "suspend",
  "\x19": "yank",
  "\x18": "ctrlX",
};

/** CSI sequences by their parameters and final byte. */
const CSI: Record<string, KeyName> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  "1~": "home",
  "7~": "home",
  "4~": "end",
  "8~": "end",
  "3~": "delete",
  "1;5C": "wordRight",
  "1;3C": "wordRight",
  "1;5D": "wordLeft",
  "1;3D": "wordLeft",
  "3;5~": "deleteWordRight",
  "3;3~": "deleteWordRight",
  // Shift-Enter and Ctrl-Enter where the terminal tells them from Enter (CSI u, xterm's
  // modifyOtherKeys): a new line, as Alt-Enter and Ctrl-J are
  "13;2u": "newline",
  "13;5u": "newline",
  "27;2;13~": "newline",
  "27;5;13~": "newline",
  Z: "backTab", // Shift-Tab: plan mode on or off
};

/** What follows ESC O from a terminal: arrows, Home and End (cursor keys mode), F1-F4. */
const SS3_FINALS = "ABCDFHPQRS";

/** Alt+key (ESC then the key); ESC then another key is Escape, then that key. */
const ALT: Record<string, KeyName> = { b: "wordLeft", f: "wordRight", d: "deleteWordRight", "\x7f": "deleteWordLeft", "\r": "newline" };

/**
 * The keys in `input`. An escape sequence cut off at the end is returned in `rest` to be fed
 * again with the next input; with `final` (nothing more came for a moment) a lone ESC is the
 * Escape key. A paste whose end marker has not arrived yet stays in `rest` whole (see pasteEnd
 * for one that holds an end marker of its own). Unknown sequences are dropped; ESC then a key that
 * is no Alt binding is Escape and then that key (Esc followed quickly by a letter: the letter is
 * not lost).
 */
export function parseKeys(input: string, final = false): { keys: Key[]; rest: string } {
  const keys: Key[] = [];
  const text = (t: string) => {
    const last = keys[keys.length - 1];
    if (last?.type === "text") last.text += t;
    else keys.push({ type: "text", text: t });
  };
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === "\x1b") {
      if (input.startsWith(PASTE_START, i)) {
        const end = pasteEnd(input, i + PASTE_START.length, final);
        if (end < 0) return { keys, rest: input.slice(i) };
        keys.push({ type: "paste", text: input.slice(i + PASTE_START.length, end).replace(/\r\n?/g, "\n") });
        i = Math.min(input.length, end + PASTE_END.length);
        continue;
      }
      const next = input[i + 1];
      if (next === undefined) {
        if (final) keys.push({ type: "key", name: "escape" });
        return { keys, rest: final ? "" : "\x1b" };
      }
      if (next === "[") {
        const m = /^[0-9;?]*[@-~]/.exec(input.slice(i + 2));
        if (!m) {
          if (/^[0-9;?]*$/.test(input.slice(i + 2)) && !final) return { keys, rest: input.slice(i) };
          i += 2; // malformed: drop the introducer
          continue;
        }
        const name = CSI[m[0]];
        const report = /^(\d+);(\d+)R$/.exec(m[0]); // at row 1 the same as a modified F3 (CSI 1;2R): repl-state.ts acts on one only when it asked
        if (name) keys.push({ type: "key", name });
        else if (report) keys.push({ type: "cursorAt", row: Number(report[1]), col: Number(report[2]) });
        i += 2 + m[0].length;
        continue;
      }
      if (next === "O") {
        const f = input[i + 2];
        if (f === undefined) {
          if (!final) return { keys, rest: input.slice(i) };
          keys.push({ type: "key", name: "escape" }); // and the O typed after it, kept
          i += 1;
          continue;
        }
        if (!SS3_FINALS.includes(f)) {
          keys.push({ type: "key", name: "escape" }); // Esc, then "Oh…" typed quickly: no sequence a terminal sends
          i += 1;
          continue;
        }
        const name = CSI[f];
        if (name) keys.push({ type: "key", name });
        i += 3;
        continue;
      }
      if (next === "\x1b") {
        keys.push({ type: "key", name: "escape" });
        i += 1;
        continue;
      }
      const alt = ALT[next];
      if (alt) {
        keys.push({ type: "key", name: alt, alt: next });
        i += 2;
      } else {
        keys.push({ type: "key", name: "escape" });
        i += 1;
      }
      continue;
    }
    const control = CONTROL[c];
    if (control) {
      keys.push({ type: "key", name: control });
      i++;
      continue;
    }
    const code = c.charCodeAt(0);
    if (code < 0x20 || (code >= 0x80 && code < 0xa0)) {
      i++; // other control characters do nothing
      continue;
    }
    text(c);
    i++;
  }
  return { keys, rest: "" };
}

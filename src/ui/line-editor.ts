// The prompt's text being edited (issue 14): the buffer and cursor, the editing keys, history,
// and where the text lands on the screen at a given width. Pure: repl.ts reads keys, draws, and
// decides what Enter, Ctrl-C, Esc, Ctrl-D and Tab mean.
import type { KeyName } from "./keys.ts";

export interface EditorState {
  text: string;
  /** index into `text`, never inside a surrogate pair */
  cursor: number;
  /** history.length = the line being written (not a history entry) */
  historyIndex: number;
  /** the line being written, kept while browsing history */
  draft: string;
}

export const emptyEditor = (history: readonly string[], text = ""): EditorState => ({ text, cursor: text.length, historyIndex: history.length, draft: "" });

/** Inserts `text` at the cursor. */
export function insert(s: EditorState, text: string): EditorState {
  return { ...s, text: s.text.slice(0, s.cursor) + text + s.text.slice(s.cursor), cursor: s.cursor + text.length };
}

/**
 * Applies an editing key. Keys with a meaning beyond editing (enter, tab, escape, interrupt,
 * eof, clearScreen) are the caller's and leave the state as it is.
 */
export function editKey(s: EditorState, key: KeyName, history: readonly string[]): EditorState {
  const { text, cursor } = s;
  const set = (t: string, c: number): EditorState => ({ ...s, text: t, cursor: c });
  switch (key) {
    case "newline":
      return insert(s, "\n");
    case "backspace":
      return cursor === 0 ? s : set(text.slice(0, prevChar(text, cursor)) + text.slice(cursor), prevChar(text, cursor));
    case "delete":
      return cursor >= text.length ? s : set(text.slice(0, cursor) + text.slice(nextChar(text, cursor)), cursor);
    case "left":
      return set(text, prevChar(text, cursor));
    case "right":
      return set(text, nextChar(text, cursor));
    case "home":
      return set(text, text.lastIndexOf("\n", cursor - 1) + 1);
    case "end": {
      const nl = text.indexOf("\n", cursor);
      return set(text, nl < 0 ? text.length : nl);
    }
    case "wordLeft":
      return set(text, wordStart(text, cursor));
    case "wordRight":
      return set(text, wordEnd(text, cursor));
    case "deleteWordLeft": {
      const at = wordStart(text, cursor);
      return set(text.slice(0, at) + text.slice(cursor), at);
    }
    case "deleteWordRight":
      return set(text.slice(0, cursor) + text.slice(wordEnd(text, cursor)), cursor);
    case "killToEnd": {
      const nl = text.indexOf("\n", cursor);
      const end = nl === cursor ? cursor + 1 : nl < 0 ? text.length : nl;
      return set(text.slice(0, cursor) + text.slice(end), cursor);
    }
    case "killToStart": {
      const start = text.lastIndexOf("\n", cursor - 1) + 1;
      return set(text.slice(0, start) + text.slice(cursor), start);
    }
    case "up":
    case "down":
      return moveLine(s, key === "up" ? -1 : 1, history);
    default:
      return s;
  }
}

/** Up/Down: to the line above or below in a multi-line text, else through history. */
function moveLine(s: EditorState, dir: -1 | 1, history: readonly string[]): EditorState {
  const lineStart = s.text.lastIndexOf("\n", s.cursor - 1) + 1;
  const column = s.cursor - lineStart;
  if (dir < 0 && lineStart > 0) {
    const prevStart = s.text.lastIndexOf("\n", lineStart - 2) + 1;
    return { ...s, cursor: Math.min(prevStart + column, lineStart - 1) };
  }
  const nextNl = s.text.indexOf("\n", s.cursor);
  if (dir > 0 && nextNl >= 0) {
    const nextEnd = s.text.indexOf("\n", nextNl + 1);
    return { ...s, cursor: Math.min(nextNl + 1 + column, nextEnd < 0 ? s.text.length : nextEnd) };
  }
  const index = s.historyIndex + dir;
  if (index < 0 || index > history.length) return s;
  const draft = s.historyIndex === history.length ? s.text : s.draft;
  const text = index === history.length ? draft : history[index]!;
  return { text, cursor: text.length, historyIndex: index, draft };
}

/** Tab completion: replaces the word before the cursor by the candidates' common prefix. */
export function complete(s: EditorState, candidates: string[]): { state: EditorState; unique: boolean } {
  if (candidates.length === 0) return { state: s, unique: false };
  const before = s.text.slice(0, s.cursor);
  const wordAt = Math.max(before.lastIndexOf(" "), before.lastIndexOf("\n")) + 1;
  const common = candidates.reduce((a, b) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  });
  const unique = candidates.length === 1;
  const replacement = unique && !common.endsWith("/") ? common + " " : common;
  if (replacement.length < s.cursor - wordAt) return { state: s, unique };
  const text = s.text.slice(0, wordAt) + replacement + s.text.slice(s.cursor);
  return { state: { ...s, text, cursor: wordAt + replacement.length }, unique };
}

export interface Layout {
  /** where the cursor goes, relative to the first row */
  cursorRow: number;
  cursorCol: number;
  /** where the terminal's cursor is after the text is written; endCol = columns when the last row is exactly full (the drawer then moves to the next row itself) */
  endRow: number;
  endCol: number;
}

/**
 * Where the prompt and `text` land with `columns` columns: the first line after `prompt`, each
 * further line after `continuation`, long lines wrapped by the terminal.
 */
export function layout(promptWidth: number, continuationWidth: number, text: string, cursor: number, columns: number, width: (s: string) => number): Layout {
  const cols = Math.max(1, columns);
  let row = 0;
  let col = promptWidth;
  let cursorRow = 0;
  let cursorCol = col;
  const wrapIfFull = () => {
    if (col >= cols) {
      row += Math.floor(col / cols);
      col %= cols;
    }
  };
  let i = 0;
  for (const ch of text) {
    if (i === cursor) {
      wrapIfFull();
      [cursorRow, cursorCol] = [row, col];
    }
    if (ch === "\n") {
      row++;
      col = continuationWidth;
    } else {
      const w = width(ch);
      if (col + w > cols) {
        row++;
        col = 0;
      }
      col += w;
    }
    i += ch.length;
  }
  const [endRow, endCol] = [row, col];
  if (cursor >= text.length) {
    wrapIfFull();
    [cursorRow, cursorCol] = [row, col];
  }
  return { cursorRow, cursorCol, endRow, endCol };
}

function prevChar(text: string, i: number): number {
  if (i <= 0) return 0;
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? i - 2 : i - 1;
}

function nextChar(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const high = text.charCodeAt(i);
  return high >= 0xd800 && high <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
}

const isWordChar = (c: string | undefined) => c !== undefined && !/\s/.test(c);

function wordStart(text: string, i: number): number {
  while (i > 0 && !isWordChar(text[i - 1])) i--;
  while (i > 0 && isWordChar(text[i - 1])) i--;
  return i;
}

function wordEnd(text: string, i: number): number {
  while (i < text.length && !isWordChar(text[i])) i++;
  while (i < text.length && isWordChar(text[i])) i++;
  return i;
}

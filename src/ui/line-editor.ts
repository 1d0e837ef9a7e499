// The prompt's text being edited (issue 14): the buffer and cursor, the editing keys, history.
// The cursor moves and deletes a character as the user sees it (a grapheme: a letter with its
// accents, an emoji with its joined parts, a flag). Pure: repl.ts reads keys, draws (where the
// text lands: prompt-rows.ts), and decides what Enter, Ctrl-C, Esc, Ctrl-D and Tab mean.
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

/** The keys whose cut Ctrl-Y brings back, by where they cut: before the cursor or after it. */
const KILLS: Partial<Record<KeyName, "before" | "after">> = { deleteWordLeft: "before", killToStart: "before", deleteWordRight: "after", killToEnd: "after" };

/** Whether `key` cuts text that Ctrl-Y brings back. */
export const isKill = (key: KeyName) => KILLS[key] !== undefined;

/**
 * What Ctrl-Y brings back once `key` has made `after` of `before`: a kill's cut, else `killed` as it
 * was. A kill right after another (`joining`) adds to what that one cut, as readline, zsh and Emacs
 * do: a cut before the cursor goes in front, one after it behind, so Ctrl-W Ctrl-W then Ctrl-Y puts
 * both words back as they stood.
 */
export function killedBy(key: KeyName, before: EditorState, after: EditorState, killed: string, joining: boolean): string {
  const cut = before.text.length - after.text.length; // a kill takes a stretch from where the cursor ends up
  const side = KILLS[key];
  if (side === undefined || cut <= 0) return killed;
  const text = before.text.slice(after.cursor, after.cursor + cut);
  if (!joining) return text;
  return side === "before" ? text + killed : killed + text;
}

/** Up/Down: to the line above or below in a multi-line text (as many characters in), else through history. */
function moveLine(s: EditorState, dir: -1 | 1, history: readonly string[]): EditorState {
  const lineStart = s.text.lastIndexOf("\n", s.cursor - 1) + 1;
  const column = graphemes(s.text.slice(lineStart, s.cursor)).length;
  /** `column` characters into the line starting at `start`, or its end */
  const into = (start: number) => {
    const end = s.text.indexOf("\n", start);
    const line = graphemes(s.text.slice(start, end < 0 ? s.text.length : end));
    return start + line.slice(0, column).join("").length;
  };
  if (dir < 0 && lineStart > 0) return { ...s, cursor: into(s.text.lastIndexOf("\n", lineStart - 2) + 1) };
  const nextNl = s.text.indexOf("\n", s.cursor);
  if (dir > 0 && nextNl >= 0) return { ...s, cursor: into(nextNl + 1) };
  const index = s.historyIndex + dir;
  if (index < 0 || index > history.length) return s;
  const draft = s.historyIndex === history.length ? s.text : s.draft;
  const text = index === history.length ? draft : history[index]!;
  return { text, cursor: text.length, historyIndex: index, draft };
}

/**
 * Tab completion: replaces the word before the cursor by the candidates' common prefix. A unique
 * candidate gets a space after it, unless it ends in `/` or `\` (a folder; `\` as Windows spells
 * it) or `:` (`/skill:`, `/mcp:`): those name a place the next Tab completes inside.
 */
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
  const replacement = unique && !/[/\\:]$/.test(common) ? common + " " : common;
  const word = before.slice(wordAt).normalize("NFC");
  // several files found by name (`@cli` → app/deep/cli.py, app/ui/cli_args.py) share a start that is not the word: it stays, they are listed
  if (replacement.length < s.cursor - wordAt || (!unique && !common.normalize("NFC").startsWith(word))) return { state: s, unique };
  const text = s.text.slice(0, wordAt) + replacement + s.text.slice(s.cursor);
  return { state: { ...s, text, cursor: wordAt + replacement.length }, unique };
}

/** At most this many completions are listed (readline asks before listing more than 100). */
export const LISTED_COMPLETIONS = 100;

/**
 * What Tab lists when several completions add nothing: each by what follows the folder they share
 * (`f10  f11`, not `@flat/f10  @flat/f11`, as a shell lists them) when the word before the cursor
 * has that folder: else in full, as Tab would write them (`@../../a/dup.md`, files
 * found by name from a subdirectory: x58 listed `a/dup.md`, which is not a file from there). The
 * first LISTED_COMPLETIONS only, then how many more (a folder of 20,000 files is not thousands of rows).
 */
export function completionList(candidates: string[], editor: Pick<EditorState, "text" | "cursor">, fit?: ListFit): string {
  const first = candidates[0] ?? "";
  const typed = editor.text.slice(0, editor.cursor);
  const word = typed.slice(Math.max(typed.lastIndexOf(" "), typed.lastIndexOf("\n")) + 1).normalize("NFC");
  const lastSep = (f: string) => Math.max(f.lastIndexOf("/"), f.lastIndexOf("\\")); // `@src\cr` as Windows spells it
  let folder = first.slice(0, lastSep(first) + 1);
  const shorter = (f: string) => f.slice(0, lastSep(f.slice(0, -1)) + 1);
  while (folder && !candidates.every((c) => c.startsWith(folder))) folder = shorter(folder);
  while (folder.length > 1 && !word.startsWith(folder.normalize("NFC"))) folder = shorter(folder);
  if (folder === "/") folder = ""; // slash commands keep their slash
  const quote = /^@(["'])/.exec(folder)?.[1]; // @"my dir/…": the closing quote is no part of the name
  const shown = candidates.slice(0, LISTED_COMPLETIONS).map((c) => {
    const rest = c.slice(folder.length);
    return quote && rest.endsWith(quote) ? rest.slice(0, -1) : rest;
  });
  const more = candidates.length - shown.length;
  const tail = more > 0 ? `… and ${more.toLocaleString("en-US")} more: type more of the name` : "";
  if (!fit || fit.columns <= 0) return [...shown, ...(tail ? [tail] : [])].join("  ");
  return [...inColumns(shown, fit), ...(tail ? [tail] : [])].join("\n");
}

/** The terminal's width and how many columns a text takes on it. */
export interface ListFit {
  columns: number;
  width: (text: string) => number;
}

/**
 * `names` in columns read down then across, as ls and readline list them: as many columns as fit in
 * `fit.columns`, each as wide as its widest name, two spaces apart; no name is broken at a row's end.
 */
function inColumns(names: string[], fit: ListFit): string[] {
  const widths = names.map(fit.width);
  const layout = (rows: number) => Array.from({ length: Math.ceil(names.length / rows) }, (_, c) => Math.max(...widths.slice(c * rows, c * rows + rows)));
  let rows = 1;
  while (rows < names.length && layout(rows).reduce((a, w) => a + w + 2, -2) > fit.columns) rows++;
  const columnWidths = layout(rows);
  return Array.from({ length: rows }, (_, r) => {
    let line = "";
    for (let c = 0, i = r; i < names.length; c++, i += rows) line += (c > 0 ? " ".repeat(columnWidths[c - 1]! + 2 - widths[i - rows]!) : "") + names[i];
    return line;
  });
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** `text` as the characters a user sees: a letter with its accents, an emoji with its modifiers and joined parts, a flag. */
export const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (g) => g.segment);

/** Where the character before index `i` starts (a whole grapheme: Backspace and Left never split one). */
function prevChar(text: string, i: number): number {
  if (i <= 0) return 0;
  // a grapheme is short: looking back a little is enough, except for absurd runs of combining marks
  const from = Math.max(0, i - 64);
  let at = from;
  for (const g of segmenter.segment(text.slice(from, i))) at = from + g.index;
  return at;
}

/** Where the character holding index `i` starts (`i` itself when a character starts there). */
export function graphemeStart(text: string, i: number): number {
  const before = prevChar(text, i);
  return i >= text.length || nextChar(text, before) === i ? i : before;
}

/** Where the character at index `i` ends. */
function nextChar(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const first = segmenter
    .segment(text.slice(i, i + 64))
    [Symbol.iterator]()
    .next().value;
  return i + (first?.segment.length ?? 1);
}

const isWordChar = (c: string | undefined) => c !== undefined && !/\s/.test(c);

/** Chinese and Japanese characters and their punctuation (`、。，`): text written without spaces between words */
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u;
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/**
 * The words of `word` (text between spaces) the word keys stop at: in Chinese and Japanese, the
 * dictionary's words, punctuation no word (as browsers and editors do); anything else between them
 * stays one word, as between spaces. [start, end] in `word`.
 */
function wordsIn(word: string): [number, number][] {
  const found: [number, number, boolean][] = []; // [start, end, CJK]
  for (const seg of wordSegmenter.segment(word)) {
    const cjk = CJK.test(seg.segment);
    const last = found.at(-1);
    if (last && !cjk && !last[2]) last[1] = seg.index + seg.segment.length;
    else if (cjk && !seg.isWordLike)
      found.push([seg.index, seg.index, true]); // punctuation: a boundary only
    else found.push([seg.index, seg.index + seg.segment.length, cjk]);
  }
  return found.filter(([a, b]) => b > a).map(([a, b]) => [a, b]);
}

/** The text between spaces around index `i`: [start, end]. */
function spaced(text: string, i: number): [number, number] {
  let start = i;
  while (start > 0 && isWordChar(text[start - 1])) start--;
  let end = i;
  while (end < text.length && isWordChar(text[end])) end++;
  return [start, end];
}

function wordStart(text: string, i: number): number {
  while (i > 0 && !isWordChar(text[i - 1])) i--;
  const [start, end] = spaced(text, i);
  if (!CJK.test(text.slice(start, end))) return start;
  const before = wordsIn(text.slice(start, end)).filter(([a]) => start + a < i);
  return start + (before.at(-1)?.[0] ?? 0);
}

function wordEnd(text: string, i: number): number {
  while (i < text.length && !isWordChar(text[i])) i++;
  const [start, end] = spaced(text, i);
  if (!CJK.test(text.slice(start, end))) return end;
  const after = wordsIn(text.slice(start, end)).find(([, b]) => start + b > i);
  return after ? start + after[1] : end;
}

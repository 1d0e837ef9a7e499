// Big pastes folded in the prompt (issue 14): a bracketed paste of PASTE_FOLD_CHARS characters or
// PASTE_FOLD_LINES lines stands in the line as one mark, drawn as `[Pasted text #1 +120 lines]`,
// so a 2,000-line paste neither fills the screen nor costs a layout of all its text per key. The
// mark is one code point of Supplementary Private Use Area-B (no font draws it, no terminal sends
// it), so the line editor's grapheme steps take it as one character: the cursor moves over it
// whole, Backspace deletes it whole, Ctrl-U cuts it and Ctrl-Y puts it back. The model, the
// session and the history file get the full text (expand); history entries read at start are
// folded again (foldEntry), so recalling one is as fast. Pure.

/**
 * A paste this long is folded: Codex CLI's threshold (kimi-cli took it up too), in characters as a
 * user counts them (graphemes: `é`, `👍🏽`, `你` are one each), so 1,000 of any script fold alike.
 */
export const PASTE_FOLD_CHARS = 1000;
/** A paste of this many lines is folded, even short ones: kimi-cli's (Claude Code folds at 3, which its users find too eager). */
export const PASTE_FOLD_LINES = 15;

/**
 * The pastes folded so far this session; the one at index i is marked by the code point
 * FIRST_MARK + i. `n` numbers the user's pastes (#1, #2 …); an entry of earlier sessions' history
 * folded again has none.
 */
export type Pastes = readonly { text: string; n?: number }[];

const FIRST_MARK = 0x100000;
const LAST_MARK = 0x10fffd;
const MARKS = /[\u{100000}-\u{10fffd}]/gu;

// a final line end ends the last line, starting none: 40 lines copied from a file (`seq 40`) are 40
const lineCount = (text: string) => {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < text.length - 1; i = text.indexOf("\n", i + 1)) n++;
  return n;
};

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** text every UTF-16 unit of which is a character of its own (ASCII, no CR, which joins the LF after it) */
const ONE_UNIT_EACH = /^[\x00-\x0c\x0e-\x7f]*$/;

/** The characters of `text` as the user sees them (graphemes), counted up to `cap` at most. */
function characters(text: string, cap = Number.POSITIVE_INFINITY): number {
  if (text.length <= cap && ONE_UNIT_EACH.test(text)) return text.length; // a megabyte of ASCII at once, not in 140 ms
  let n = 0;
  for (const _ of segmenter.segment(text)) if (++n >= cap) break;
  return n;
}

/**
 * UTF-16 units a character takes at most, as far as folding goes: most scripts take 1 to 3, a family
 * emoji 11. One character can hold any number (combining marks piled up, "Zalgo" text copied from a
 * web page: 999 characters of 200,799 units took 0.7 s to draw at every key), and drawing costs by
 * the unit, so text of this many units per character counted is as long as that many characters.
 */
const UNITS_PER_CHAR = 8;

/** Whether `text` is at least `count` characters long, or as costly to draw (UNITS_PER_CHAR). */
const atLeast = (text: string, count: number) => text.length >= count * UNITS_PER_CHAR || characters(text, count) >= count;

/** Whether a paste of `text` is folded: PASTE_FOLD_CHARS characters (or as many units as that many draw: UNITS_PER_CHAR), or PASTE_FOLD_LINES lines. */
export const folds = (text: string) => atLeast(text, PASTE_FOLD_CHARS) || lineCount(text) >= PASTE_FOLD_LINES;

/** `text` kept as a paste: the mark that stands for it in the line, and the pastes with it. */
export function foldPaste(pastes: Pastes, text: string, numbered = true): { mark: string; pastes: Pastes } {
  if (FIRST_MARK + pastes.length > LAST_MARK) return { mark: text, pastes }; // 65,534 pastes in one session: inline
  const n = numbered ? (pastes.findLast((p) => p.n !== undefined)?.n ?? 0) + 1 : undefined;
  return { mark: String.fromCodePoint(FIRST_MARK + pastes.length), pastes: [...pastes, { text, n }] };
}

/** The paste a code point marks, or undefined (any other character, or a mark of no paste). */
export function pasteOf(pastes: Pastes, ch: string): string | undefined {
  const code = ch.codePointAt(0)!;
  return code >= FIRST_MARK && code <= LAST_MARK && ch.length === 2 ? pastes[code - FIRST_MARK]?.text : undefined;
}

/**
 * How a mark is drawn: `[Pasted text #3 +120 lines]`, `[Pasted text #3 4,210 chars]` for one long
 * line, `[Pasted text +120 lines]` in a line of earlier sessions; undefined for any other character.
 */
export function pasteLabel(pastes: Pastes, ch: string): string | undefined {
  if (pasteOf(pastes, ch) === undefined) return undefined;
  const paste = pastes[ch.codePointAt(0)! - FIRST_MARK]!;
  let label = labels.get(paste);
  if (label === undefined) {
    const lines = lineCount(paste.text);
    const size = lines > 1 ? `+${lines} lines` : `${characters(paste.text).toLocaleString("en-US")} chars`;
    labels.set(paste, (label = `[Pasted text ${paste.n === undefined ? "" : `#${paste.n} `}${size}]`));
  }
  return label;
}

/** each paste's label, made once: it is drawn at every key, and counting a megabyte's characters takes 140 ms */
const labels = new WeakMap<Pastes[number], string>();

/** `text` with each mark replaced by its paste: what is sent and saved. */
export function expand(pastes: Pastes, text: string): string {
  if (pastes.length === 0) return text;
  return text.replace(MARKS, (ch) => pasteOf(pastes, ch) ?? ch);
}

/**
 * A history entry as the prompt shows it when recalled. An entry that a paste would fold is
 * folded after its first line (most often what was typed before the paste), or whole when that
 * line is itself long or the only one; the others are left as they are.
 */
export function foldEntry(pastes: Pastes, entry: string): { text: string; pastes: Pastes } {
  if (!folds(entry)) return { text: entry, pastes };
  const nl = entry.indexOf("\n");
  const short = nl >= 0 && !atLeast(entry.slice(0, nl), PASTE_FOLD_CHARS / 10);
  const head = short && folds(entry.slice(nl + 1)) ? entry.slice(0, nl + 1) : "";
  const { mark, pastes: next } = foldPaste(pastes, entry.slice(head.length), false);
  return { text: head + mark, pastes: next };
}

/**
 * Where `query` is found in `line` through `match` (an index into `line`), looking inside the
 * pastes it marks too: a match inside one is at its mark. -1 when nowhere.
 */
export function matchFolded(pastes: Pastes, line: string, query: string, match: (text: string, query: string) => number): number {
  const at = match(line, query);
  if (at >= 0 || pastes.length === 0) return at;
  for (const m of line.matchAll(MARKS)) {
    const text = pasteOf(pastes, m[0]);
    if (text !== undefined && match(text, query) >= 0) return m.index;
  }
  return -1;
}

// Where a line may break, for answers (markdown.ts), table cells (table.ts) and hey's own notices
// (wrap.ts): at spaces, and inside a run without spaces where CJK text allows it, as Unicode's line
// breaking does (UAX #14, https://www.unicode.org/reports/tr14/, the part CJK needs): between
// ideographs and kana and after full-width punctuation, never before closing
// punctuation, small kana or ー (，。」 do not start a line) nor after opening punctuation (「（ do
// not end one). Letters, digits and ASCII punctuation stay whole, so an English word is never
// split; nor is anything next to `*`, `_`, a backtick or an ASCII quote (emphasis.ts reads the
// characters on both sides of its markers), nor inside a path, an address or inline code. Pure.

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** `text` as the terminal shows it, one character (a letter with its accents, a whole emoji) at a time */
export const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

/**
 * a line may break before and after these: CJK ideographs, kana, CJK and full-width punctuation and
 * forms — not Hangul syllables: Korean is written with spaces and breaks at them (UAX #14's tailoring
 * for Korean), a word whole
 */
const CJK =
  /^[\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3200-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]/u;
/** text with none of these has no break inside (checked first: a long word streamed in small pieces is looked at again with each) */
const ANY_CJK = new RegExp(CJK.source.slice(1), "u");
/** may not start a line: closing punctuation, small kana, the prolonged sound and iteration marks */
const CLOSING = /^[)\]},.;:!?%…‥、。，．：；！？）］｝〉》」』】〕〗〙〛”’〞〟ゝゞ々〻ーぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰ-ㇿ・゠｠｡｣､･ｧ-ｯｰ]/u;
/** may not end a line: opening punctuation */
const OPENING = /^[([{“‘（［｛〈《「『【〔〖〘〚〝｟｢]/u;
/** never a break next to these: emphasis and code markers, ASCII quotes (opening or closing, who knows) */
const GLUE = /^[*_`'"]/;

/** What ends a path or an address: whitespace, a backtick, CJK punctuation. */
const STOP = "\\s`，。、；：！？）」』】》“”‘’…";

/**
 * What is never broken inside, though CJK text is around it: inline code (a backtick to the next),
 * a path or an address — from `/`, `\`, `~/`, `C:\`, `scheme://` or the ASCII word before a `/` on,
 * up to whitespace or CJK punctuation (`/home/me/项目/文档.md`, `https://例え.jp/路径`, a relative one written after a word):
 * a copied path or a terminal's link would get a newline in it. The CJK text around it breaks as
 * ever, so a paragraph holding one still streams.
 */
const KEPT = new RegExp(
  [
    "`[^`]*`?", // inline code
    `[A-Za-z][\\w+.-]*://[^${STOP}]*`, // an address, to its end
    // a path: its directories (CJK names too), then a last name with its extension, else its ASCII letters
    `(?:[A-Za-z]:\\\\|[\\w.~-]*[/\\\\])(?:[^${STOP}/\\\\]*[/\\\\])*(?:[^${STOP}/\\\\]*\\.[A-Za-z0-9]+|[\\w.-]*)`,
  ].join("|"),
  "g",
);

/** Where a path or an address begins (KEPT's starts). */
const PATH_START = /[A-Za-z][\w+.-]*:\/\/|[A-Za-z]:\\|[\w.~-]*[/\\]/g;
const STOPS = new RegExp(`[${STOP}]`);

/**
 * Whether a break at `at` (a UTF-16 index of `text`) would fall inside something KEPT whole. With
 * `open`, text still arriving: a path or an address not yet ended (no STOP after its start) may go
 * on with a CJK name and its extension, so nothing after its start breaks yet.
 */
function insideKept(text: string, open = false): (at: number) => boolean {
  const spans = Array.from(text.matchAll(KEPT), (m) => [m.index, m.index + m[0].length] as const).filter(([a, b]) => b > a);
  const unended = open ? Array.from(text.matchAll(PATH_START)).find((m) => !STOPS.test(text.slice(m.index)))?.index : undefined;
  return (at) => (unended !== undefined && at > unended) || spans.some(([a, b]) => at > a && at < b);
}

/** Whether a line may break between the characters `a` and `b` (graphemes, no whitespace). */
function breaksBetween(a: string, b: string): boolean {
  if (GLUE.test(a) || GLUE.test(b) || OPENING.test(a) || CLOSING.test(b)) return false;
  return CJK.test(a) || CJK.test(b);
}

/**
 * `word` (text without whitespace) in the pieces a line may break between, each kept whole:
 * "中文，abc" → ["中", "文，", "abc"]; an English word is one piece.
 */
export function breakUnits(word: string): string[] {
  if (!ANY_CJK.test(word)) return [word];
  const inside = insideKept(word);
  const units: string[] = [];
  let unit = "";
  let last = "";
  let at = 0;
  for (const g of graphemes(word)) {
    if (unit !== "" && breaksBetween(last, g) && !inside(at)) units.push(unit), (unit = "");
    unit += g;
    last = g;
    at += g.length;
  }
  if (unit !== "") units.push(unit);
  return units;
}

/**
 * The length of `text`'s first piece (text without whitespace, more of which may still be on its
 * way) when a line may break after it inside `text`, both its sides known; 0 when no break is known yet.
 */
export function firstBreak(text: string): number {
  if (!ANY_CJK.test(text)) return 0;
  const inside = insideKept(text, true); // a path still open at the end (more may come) has no break inside yet
  let at = 0;
  let last = "";
  for (const { segment } of segmenter.segment(text)) {
    if (last !== "" && breaksBetween(last, segment) && !inside(at)) return at;
    at += segment.length;
    last = segment;
  }
  return 0;
}

/**
 * `text` in lines of at most `width` columns, broken at spaces and where CJK text allows (pieces
 * that follow one another with no space between stay so). A piece wider than `width` is cut between
 * characters as shown (an emoji or a letter with its accents stays whole; one wider than `width`
 * gets a line of its own), or with `cut` false left whole on a line of its own (the terminal breaks
 * it where it must, and a long path or address is not split by an indent).
 */
export function wrapText(text: string, width: number, stringWidth: (s: string) => number, cut = true): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/[ \t]+/).filter(Boolean)) {
    breakUnits(word).forEach((unit, k) => {
      const gap = k === 0 && line !== "" ? " " : "";
      let w = unit;
      while (cut && stringWidth(w) > width) {
        if (line) lines.push(line), (line = "");
        let head = "";
        for (const g of graphemes(w)) {
          if (head && stringWidth(head + g) > width) break;
          head += g;
          if (stringWidth(head) >= width) break;
        }
        lines.push(head);
        w = w.slice(head.length);
      }
      if (w === "") return;
      if (line === "") line = w;
      else if (stringWidth(line + gap + w) <= width) line += gap + w;
      else lines.push(line), (line = w);
    });
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

// Where a line may break in an answer (markdown.ts): at spaces, and inside a run without spaces
// where CJK text allows it, as Unicode's line breaking does (UAX #14,
// https://www.unicode.org/reports/tr14/, the part CJK needs): between ideographs, kana and Hangul
// syllables and after full-width punctuation, never before closing punctuation, small kana or ー
// (，。」 do not start a line) nor after opening punctuation (「（ do not end one). Letters, digits
// and ASCII punctuation stay whole, so an English word is never split; nor is anything next to
// `*`, `_`, a backtick or an ASCII quote (emphasis.ts reads the characters on both sides of its
// markers). Pure.

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** a line may break before and after these: CJK ideographs, kana, Hangul, CJK and full-width punctuation and forms */
const CJK =
  /^[\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3200-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]/u;
/** may not start a line: closing punctuation, small kana, the prolonged sound and iteration marks */
const CLOSING = /^[)\]},.;:!?%…‥、。，．：；！？）］｝〉》」』】〕〗〙〛”’〞〟ゝゞ々〻ーぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰ-ㇿ・゠｠｡｣､･ｧ-ｯｰ]/u;
/** may not end a line: opening punctuation */
const OPENING = /^[([{“‘（［｛〈《「『【〔〖〘〚〝｟｢]/u;
/** never a break next to these: emphasis and code markers, ASCII quotes (opening or closing, who knows) */
const GLUE = /^[*_`'"]/;

/** Whether a line may break between the characters `a` and `b` (graphemes, no whitespace). */
function breaksBetween(a: string, b: string): boolean {
  if (GLUE.test(a) || GLUE.test(b) || OPENING.test(a) || CLOSING.test(b)) return false;
  return CJK.test(a) || CJK.test(b);
}

/**
 * The length of `text`'s first piece (text without whitespace, more of which may still be on its
 * way) when a line may break after it inside `text`, both its sides known; 0 when no break is known yet.
 */
export function firstBreak(text: string): number {
  let at = 0;
  let last = "";
  for (const { segment } of segmenter.segment(text)) {
    if (last !== "" && breaksBetween(last, segment)) return at;
    at += segment.length;
    last = segment;
  }
  return 0;
}

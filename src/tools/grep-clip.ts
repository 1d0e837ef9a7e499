// A long line as grep shows it (SPEC §7): the GREP_LINE_CHARS around its first match. The line may
// come a piece at a time (createClip): a one-line file of 150 MB is then held as a window of it, not
// whole, which read whole cost grep 1.7 GB for a match ripgrep had already found. Pure.

const GREP_LINE_CHARS = 300; // a result line is cut after this many characters (minified code)
const BEFORE = Math.floor(GREP_LINE_CHARS / 3); // shown before a match far into the line
/**
 * The characters before a piece the regex looks at again with it: a match across the seam of two
 * pieces is found whole up to this long (a longer one is found where its last window starts).
 */
const OVERLAP = 4096;

/**
 * Long lines (minified code, a one-line JSON) are cut once, when they are stored: to the
 * GREP_LINE_CHARS around the first match when it lies beyond them, else from the start.
 */
export function clip(text: string, regex?: RegExp): string {
  if (text.length <= GREP_LINE_CHARS) return text;
  const cut = createClip(regex);
  cut.push(text);
  return cut.end();
}

/** A line given a piece at a time (`push`), then cut as `clip` cuts it (`end`). */
export interface Clip {
  push(piece: string): void;
  end(): string;
}

/** Holds the line's first and last GREP_LINE_CHARS, the text around the match and a window of OVERLAP + a piece until it is found. */
export function createClip(regex?: RegExp): Clip {
  let head = "";
  let length = 0;
  let at: number | undefined = regex ? undefined : 0; // the first match's offset in the line
  let seam = ""; // the last OVERLAP characters before the next piece, while no match is found
  let around = ""; // from `at - BEFORE`, GREP_LINE_CHARS long once the line reaches that far
  let tail = "";
  const keep = (text: string, more: string) => (text.length >= GREP_LINE_CHARS ? text : text + more.slice(0, GREP_LINE_CHARS - text.length));
  return {
    push(piece) {
      head = keep(head, piece);
      tail = piece.length >= GREP_LINE_CHARS ? piece.slice(-GREP_LINE_CHARS) : (tail + piece).slice(-GREP_LINE_CHARS);
      if (at !== undefined) around = keep(around, piece);
      else {
        const text = seam + piece;
        const start = length - seam.length;
        const match = regex!.exec(text);
        if (match) {
          at = start + match.index;
          const from = Math.max(0, match.index - BEFORE);
          around = text.slice(from, from + GREP_LINE_CHARS);
          seam = "";
        } else seam = text.slice(-OVERLAP);
      }
      length += piece.length;
    },
    end() {
      if (length <= GREP_LINE_CHARS) return head;
      const match = at ?? 0;
      if (match < GREP_LINE_CHARS / 2) return head + "…";
      const start = Math.min(match - BEFORE, length - GREP_LINE_CHARS);
      return `…${start === match - BEFORE ? around : tail}${start + GREP_LINE_CHARS < length ? "…" : ""}`;
    },
  };
}

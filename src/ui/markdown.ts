// Streamed answer text for a terminal (issue 14): light markdown (headings, bold and italics:
// emphasis.ts, inline code, fenced code, lists, quotes, tables: table.ts) and word wrap at the
// terminal's width, applied as the text arrives (a table once its last row has).
// A word is written once it is complete (the next space or newline arrives), CJK text a character
// or two at a time (once a line may break after it: line-breaks.ts); a line that may open
// or close a code fence is held until its end; a word that opens a style is held until its closer
// arrives on the same line (or the line ends, or EMPHASIS_LOOKAHEAD characters came without one:
// then its markers are shown as written, as CommonMark does with `*.py` or `**kwargs`). A list
// item's rows keep its hanging indent and a quote's its `│`. Pure. The width comes from the caller,
// read at each word, so a resize applies from the next word on.

import { emphasisAt, type Marker } from "./emphasis.ts";
import { firstBreak, graphemes } from "./line-breaks.ts";
import { renderTable } from "./table.ts";

export interface TextFormat {
  /** columns available now; 0 = do not wrap */
  width(): number;
  /** display columns of a string without escape codes (wide characters take two) */
  stringWidth(text: string): number;
  /** render markdown with ANSI styles; false = the text as written (still wrapped) */
  markdown: boolean;
}

export interface TextStream {
  /** takes the next piece of text; returns what to write now */
  push(text: string): string;
  /** writes out whatever is held and ends the line if anything is on it; the next text starts a fresh block */
  finish(): string;
  /** true when nothing is on the current line and nothing is held */
  atLineStart(): boolean;
}

const BOLD = "\x1b[1m";
const NORMAL = "\x1b[22m";
const ITALIC = "\x1b[3m";
const NOT_ITALIC = "\x1b[23m";
const CODE = "\x1b[36m";
const DEFAULT_FG = "\x1b[39m";
const HEADING = "\x1b[1;35m";
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";
const TAB = "    ";
/** how far ahead on its line a style's closer is waited for: the words after an opener stream this much later at most */
const EMPHASIS_LOOKAHEAD = 240;
/** how far into the held text a break inside CJK text is looked for: a long run arriving at once is not scanned whole for each character */
const BREAK_LOOKAHEAD = 256;

const FENCE = /^ {0,3}(```|~~~)/;
/** text at a line start that may still turn into a fence */
const FENCE_PREFIX = /^ {0,3}([`~]{0,2})$/;

export function createTextStream(fmt: TextFormat): TextStream {
  let held = "";
  let space = ""; // whitespace after the last word, written only if the next word fits on the line
  let col = 0;
  let indent = 0; // continuation indent of the current line (a list item's text)
  let hang = ""; // what its continuation rows start with: `indent` columns (a quote's marker, spaces)
  let lineStart = true; // no word yet on this line
  let fence: string | undefined; // the open fence's marker
  let strong: Marker | undefined; // the marker that opened bold
  let em: Marker | undefined; // the marker that opened italics
  let code = false;
  let styled = false; // a style is open on this line
  let table: string[] = []; // the lines of a table, held until it ends: its columns depend on every row

  const endOfLine = (): string => {
    const out = (styled ? RESET : "") + "\n";
    col = 0;
    indent = 0;
    hang = "";
    space = "";
    lineStart = true;
    code = styled = false;
    strong = em = undefined;
    return out;
  };

  /**
   * A word with its inline markdown turned into styles; `rest` is the text held after it. Undefined
   * when the word opens a style whose closer may still arrive: the word waits for more text.
   */
  const inline = (word: string, rest: string, flush: boolean): string | undefined => {
    if (!fmt.markdown) return word;
    let out = "";
    let [inCode, isStrong, isEm, isStyled] = [code, strong, em, styled];
    for (let i = 0; i < word.length; i++) {
      const c = word[i]!;
      if (c === "`") {
        inCode = !inCode;
        out += inCode ? CODE : DEFAULT_FG;
        isStyled = true;
      } else if (!inCode && (c === "*" || c === "_")) {
        const step = emphasisAt(word + rest, i, { strong: isStrong, em: isEm }, flush || rest.length >= EMPHASIS_LOOKAHEAD);
        i += step.run.length - 1;
        if (step.act === "wait") return undefined;
        if (step.act === "text") {
          out += c.repeat(step.run.length);
          continue;
        }
        const opens = step.act === "open";
        if (step.strong) [out, isStrong] = [out + (opens ? BOLD : NORMAL), opens ? c : undefined];
        if (step.em) [out, isEm] = [out + (opens ? ITALIC : NOT_ITALIC), opens ? c : undefined];
        isStyled = true;
      } else out += c;
    }
    [code, strong, em, styled] = [inCode, isStrong, isEm, isStyled];
    return out;
  };
  const plainWidth = (styledText: string) => fmt.stringWidth(styledText.replace(/\x1b\[[0-9;]*m/g, ""));

  /** a word, styled, placed on the line (or the next one when it does not fit); `bold`: bold was open before it */
  const word = (text: string, bold: boolean): string => {
    const width = fmt.width();
    const wordWidth = plainWidth(text);
    let gap = space;
    space = "";
    let out = "";
    if (width > 0 && col > indent && col + fmt.stringWidth(gap) + wordWidth > width) {
      out += "\n" + hang + (bold && hang.includes(NORMAL) ? BOLD : ""); // a quote's marker ends bold
      col = indent;
      gap = "";
    }
    out += gap + text;
    if (width <= 0) col += fmt.stringWidth(gap) + wordWidth;
    else for (const g of graphemes(gap + text.replace(/\x1b\[[0-9;]*m/g, ""))) col = wrapped(col, fmt.stringWidth(g), width);
    return out;
  };

  /** the first word of a line: a heading, list or quote marker, or an ordinary word */
  const lineMarker = (w: string, follows: string): string | undefined => {
    if (!fmt.markdown || !/^[ \t]$/.test(follows)) return undefined;
    let shown: string;
    if (/^#{1,6}$/.test(w)) {
      styled = true;
      return HEADING;
    }
    if (/^[-*+]$/.test(w)) shown = "• ";
    else if (/^\d{1,9}[.)]$/.test(w)) shown = w + " ";
    else if (w === ">") shown = DIM + "│" + NORMAL + " ";
    else return undefined;
    col += plainWidth(shown);
    indent = col;
    hang += w === ">" ? shown : " ".repeat(plainWidth(shown));
    return shown;
  };

  /** a whole line inside a fence, or a fence line itself */
  const codeLine = (line: string): string => {
    const isFence = FENCE.test(line);
    if (fence === undefined && isFence) fence = FENCE.exec(line)![1];
    else if (fence !== undefined && isFence && line.trim().startsWith(fence) && line.trim().slice(3).trim() === "") fence = undefined;
    const out = !fmt.markdown ? line : isFence ? DIM + line + RESET : CODE + line + DEFAULT_FG;
    col = 0;
    return out;
  };

  /** the held table drawn (or its lines as written, when they were no table) */
  const endTable = (): string => {
    if (table.length === 0) return "";
    const drawn = renderTable(table, fmt.width(), fmt.stringWidth, true) ?? table;
    table = [];
    return drawn.map((l) => l + "\n").join("");
  };

  /** processes `held` as far as it can; at the end (`flush`) everything held is written */
  const drain = (flush: boolean): string => {
    let out = "";
    while (held !== "") {
      const fresh = lineStart && col === 0 && space === "";
      if (fmt.markdown && fresh && fence === undefined && (held.startsWith("|") || (table.length > 0 && held !== ""))) {
        if (!held.startsWith("|")) {
          out += endTable(); // a line that is no row: the table is complete
          continue;
        }
        const nl = held.indexOf("\n");
        if (nl < 0 && !flush) break; // wait for the whole row
        table.push(nl < 0 ? held : held.slice(0, nl));
        held = nl < 0 ? "" : held.slice(nl + 1);
        continue;
      }
      if (fresh && (fence !== undefined || FENCE.test(held) || FENCE_PREFIX.test(held))) {
        const nl = held.indexOf("\n");
        if (nl < 0 && !flush) break; // wait for the whole line
        if (fence !== undefined || FENCE.test(held)) {
          const line = nl < 0 ? held : held.slice(0, nl);
          held = nl < 0 ? "" : held.slice(nl + 1);
          out += codeLine(line) + (nl < 0 ? "" : "\n");
          continue;
        }
      }
      const c = held[0]!;
      if (c === "\n") {
        held = held.slice(1);
        out += endOfLine();
        continue;
      }
      if (c === " " || c === "\t") {
        held = held.slice(1);
        if (lineStart && col === indent) {
          // leading indentation is kept (nested lists, indented text)
          out += c === "\t" ? TAB : c;
          hang += c === "\t" ? TAB : c;
          col += c === "\t" ? TAB.length : 1;
          indent = col;
        } else space += c === "\t" ? TAB : c;
        continue;
      }
      // up to where a line may break inside CJK text, or else up to the next space
      const near = held.slice(0, BREAK_LOOKAHEAD);
      const nearBlank = near.search(/[ \t\n]/);
      const end = firstBreak(nearBlank < 0 ? near : near.slice(0, nearBlank)) || held.search(/[ \t\n]/);
      if (end < 0 && !flush) break;
      const w = end < 0 ? held : held.slice(0, end);
      const rest = end < 0 ? "" : held.slice(end);
      const marker = lineStart ? lineMarker(w, rest[0] ?? "") : undefined;
      if (marker !== undefined) {
        lineStart = false;
        out += marker;
        held = rest.slice(1); // the one space after the marker is part of it
        continue;
      }
      const bold = strong !== undefined;
      const text = inline(w, rest, flush);
      if (text === undefined) break; // an opened style's closer may be on its way
      lineStart = false;
      held = rest;
      out += word(text, bold);
    }
    return out;
  };

  return {
    push(text) {
      held += text;
      return drain(false);
    },
    finish() {
      let out = drain(true);
      out += endTable();
      if (col > 0 || styled) out += endOfLine();
      fence = undefined;
      space = "";
      lineStart = true;
      return out;
    },
    atLineStart: () => held === "" && col === 0 && table.length === 0,
  };
}

/**
 * The column after a character `w` columns wide is written at `col` on a row `width` wide: the
 * terminal moves one that does not fit to the next row, leaving a blank where a wide one did not fit.
 */
const wrapped = (col: number, w: number, width: number) => (col + w > width ? w : col + w);

/** Text as it comes: no wrapping, no markdown (stdout is a file or a pipe). */
export function rawTextStream(): TextStream {
  let last = "\n";
  return {
    push(t) {
      if (t !== "") last = t;
      return t;
    },
    finish() {
      const out = last.endsWith("\n") ? "" : "\n";
      last = "\n";
      return out;
    },
    atLineStart: () => last.endsWith("\n"),
  };
}

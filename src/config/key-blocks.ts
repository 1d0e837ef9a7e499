// Whole private keys in a text: a `-----BEGIN … PRIVATE KEY-----` line starts one only when key body
// follows it (x82 #1). Code that names the armour line (`const begin = "-----BEGIN RSA PRIVATE
// KEY-----"`, a detector's `line.startswith(…)`) is no key, and what follows it is shown as it is.
// The body is base64, as a PEM file, a YAML block, `cat -n` or grep show it, a code string writes it
// (`"MIIE…\n" +`) or a JSON string holds it on one line (`\nMIIE…\n`), after any PEM headers
// (`Proc-Type:`, PGP's `Version:`). A key with no END line runs to its last whole body line.
// Redaction (secret-shapes.ts) and read_file's windows (tools/key-lines.ts) both ask this. Pure.
import { BEGIN_PRIVATE, END_PRIVATE, LINE_PREFIX, MIN_BODY_LINE } from "./key-shapes.ts";

/** A line and a column (0-based) in the lines given to a KeyScanner. */
export type Place = [line: number, column: number];
/** A private key: from its BEGIN armour to the end of its END armour, or of its last whole body line. */
export interface KeySpan {
  from: Place;
  to: Place;
}

const RUN = "=?[A-Za-z0-9+/]+={0,2}";
const ESCAPE = String.raw`(?:\\+[rn])`; // `\n` in a code or JSON string, `\\n` in one inside another
const OPEN = String.raw`^${LINE_PREFIX}?[ \t]*["'\x60]?`;
/** What may follow a body on its line: a closing quote, and code's joining of strings (`+`, `,`, PHP's `.`, a `\` continuation). */
const CLOSE = String.raw`["'\x60]?[ \t]*(?:[+,.&\\]|& _)?[ \t\r]*$`;
const BODY_LINE = new RegExp(`${OPEN}(${RUN}(?:${ESCAPE}+${RUN})*)${ESCAPE}*${CLOSE}`);
const BLANK_LINE = new RegExp(`${OPEN}${ESCAPE}*${CLOSE}`);
const BEFORE_END = new RegExp(`${OPEN}(?:(${RUN}(?:${ESCAPE}+${RUN})*)${ESCAPE}+)?$`);
/** The headers a PEM (RFC 1421) or PGP armour may put before the body. */
const HEADER_NAME = "(?:Proc-Type|DEK-Info|Content-Domain|Version|Comment|Hash|Charset|MessageID):[ \\t]";
const HEADER_LINE = new RegExp(`${OPEN}${HEADER_NAME}`);
const BEGIN_G = new RegExp(BEGIN_PRIVATE.source, "g");
const END_Y = new RegExp(END_PRIVATE.source, "y");
const SEPARATOR_Y = new RegExp(`(?:${ESCAPE}|[ \\t])+`, "y");
const RUN_Y = new RegExp(RUN, "y");
const HEADER_Y = new RegExp(`${HEADER_NAME}[^\\\\\\n"]*`, "y");
const INLINE_REST = new RegExp(`^${CLOSE}`);

interface Open {
  from: Place;
  runs: number;
  /** a short run was seen: it is the body's last, so only a PGP checksum (`=AbCd`) or the END line may follow */
  short: boolean;
  lastLong?: Place;
}

/** The longest base64 run of a body. */
const widest = (body: string) => Math.max(...body.split(/\\+[rn]/).map((r) => r.length));

/**
 * A reader of a text's lines, fed in order, that finds its private keys. `line` returns the keys
 * that ended on or before it; `finish` (the text ended) those still open; `openSince` is the line
 * of a key begun and not yet ended, whose lines a caller keeps.
 */
export function keyScanner() {
  let open: Open | undefined;
  /** A key ends where its last long run did, if it had one. */
  const closed = (o: Open): KeySpan[] => (o.lastLong ? [{ from: o.from, to: o.lastLong }] : []);
  /** Takes a run of body (a line's, `width` its widest) ending at `at`: false when it cannot follow those before it. */
  const take = (o: Open, run: string, width: number, at: Place): boolean => {
    if (o.short && !run.startsWith("=")) return false;
    o.runs++;
    if (width >= MIN_BODY_LINE && !o.short) o.lastLong = at;
    else o.short = true;
    return true;
  };

  /** The keys that begin on line `no` at or after column `col`; may leave one open. */
  const begins = (no: number, text: string, col: number): KeySpan[] => {
    const found: KeySpan[] = [];
    BEGIN_G.lastIndex = col;
    for (let m = BEGIN_G.exec(text); m; m = BEGIN_G.exec(text)) {
      const o: Open = { from: [no, m.index], runs: 0, short: false };
      let at = m.index + m[0].length;
      // the rest of the BEGIN line: a JSON string's `\nMIIE…\n-----END…`, or one line of runs and blanks
      for (;;) {
        SEPARATOR_Y.lastIndex = at;
        if (SEPARATOR_Y.test(text)) at = SEPARATOR_Y.lastIndex;
        HEADER_Y.lastIndex = at;
        RUN_Y.lastIndex = at;
        END_Y.lastIndex = at;
        if (END_Y.test(text)) {
          if (o.runs > 0) found.push({ from: o.from, to: [no, END_Y.lastIndex] });
          BEGIN_G.lastIndex = END_Y.lastIndex;
          break;
        }
        if (o.runs === 0 && HEADER_Y.test(text)) at = HEADER_Y.lastIndex;
        else if (RUN_Y.test(text) && take(o, text.slice(at, RUN_Y.lastIndex), RUN_Y.lastIndex - at, [no, RUN_Y.lastIndex])) at = RUN_Y.lastIndex;
        else {
          // the string closes (`\n" +`): the body goes on below; anything else ends the key here
          if (INLINE_REST.test(text.slice(at))) {
            open = o;
            return found;
          }
          found.push(...closed(o));
          BEGIN_G.lastIndex = Math.max(at, m.index + m[0].length);
          break;
        }
      }
    }
    return found;
  };

  return {
    openSince: () => open?.from[0],
    line(no: number, text: string): KeySpan[] {
      if (!open) return text.includes("PRIVATE KEY") ? begins(no, text, 0) : [];
      const o = open;
      const end = END_PRIVATE.exec(text);
      const before = end ? BEFORE_END.exec(text.slice(0, end.index)) : null;
      if (end && before) {
        open = undefined;
        if (before[1]) o.runs++;
        return [...(o.runs > 0 ? [{ from: o.from, to: [no, end.index + end[0].length] as Place }] : []), ...begins(no, text, end.index + end[0].length)];
      }
      if (o.runs === 0 && (HEADER_LINE.test(text) || BLANK_LINE.test(text))) return [];
      const body = BODY_LINE.exec(text);
      if (body) {
        const run = body[1]!;
        if (take(o, run, widest(run), [no, text.lastIndexOf(run) + run.length])) return [];
      }
      open = undefined;
      return [...closed(o), ...begins(no, text, 0)];
    },
    finish(): KeySpan[] {
      const o = open;
      open = undefined;
      return o ? closed(o) : [];
    },
  };
}

/** The spans (start, end offsets) of the private keys in `text`, in order. */
export function keySpans(text: string): [number, number][] {
  if (!BEGIN_PRIVATE.test(text)) return [];
  const lines = text.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  const scanner = keyScanner();
  const spans = [...lines.flatMap((line, no) => scanner.line(no, line)), ...scanner.finish()];
  return spans.map(({ from, to }) => [starts[from[0]]! + from[1], starts[to[0]]! + to[1]]);
}

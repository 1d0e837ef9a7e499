// Whole private keys in a text: a `-----BEGIN … PRIVATE KEY-----` line starts one only when key body
// follows it (x82 #1). Code that names the armour line (`const begin = "-----BEGIN RSA PRIVATE
// KEY-----"`, a detector's `line.startswith(…)`) is no key, and what follows it is shown as it is.
// The body is base64, as a PEM file, a YAML block, `cat -n` or grep show it, a code string writes it
// (`"MIIE…\n" +`) or a JSON string holds it on one line (`\nMIIE…\n`), after any PEM headers
// (`Proc-Type:`, PGP's `Version:`). A key with no END line runs to its last whole body line.
// Whatever a line carries before the BEGIN armour (`grep -n`'s `2:`, `# `, ` * `, `> `, a log's time
// and host, kubectl's `[pod/api/app] `) is the key's own line prefix, taken off its other lines before
// they are judged (x83 #1); and lines that are mostly base64 up to an END line (`echo "MIIE…" >> k`)
// are a key whatever else they hold.
// Redaction (secret-shapes.ts) and read_file's windows (tools/key-lines.ts) both ask this. Pure.
import { BEGIN_PRIVATE, END_PRIVATE, LINE_PREFIX, MIN_BODY_LINE, type PrefixShape, prefixLength, prefixShape } from "./key-shapes.ts";

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
  /** the width of the body's first run */
  width?: number;
  lastLong?: Place;
  /** what the BEGIN line holds before its armour, the shape of the same text on the key's other lines */
  prefix?: PrefixShape;
  /** base64 characters taken, strictly or loosely */
  chars: number;
  /** the body broke the strict shape: it is a key only if an END line follows the lines that are mostly base64 (lines after the last long run are counted) */
  loose?: { tail: number };
}

/** The fewest base64 characters of a key's whole body: an Ed25519 PKCS#8 key's one line of 64. */
const MIN_KEY_CHARS = 64;
/** Lines after a loose body's last long run: its short last line, PGP's checksum. */
const MAX_TAIL_LINES = 2;

/** `text` without the key's line prefix, when it starts with one. */
const unprefixed = (o: Open, text: string) => {
  const skip = o.prefix && prefixLength(o.prefix, text);
  return skip === undefined ? undefined : text.slice(skip);
};
/** The first match of `pattern` in `text` whole, or in it without the key's line prefix. */
const judged = (o: Open, pattern: RegExp, text: string) => {
  const whole = pattern.exec(text);
  if (whole) return { found: whole, offset: 0 };
  const rest = unprefixed(o, text);
  const found = rest === undefined ? null : pattern.exec(rest);
  return found ? { found, offset: text.length - rest!.length } : undefined;
};

const RUNS = /[A-Za-z0-9+/]+={0,2}/g;
/**
 * How a line reads as a key's body whatever else it holds: "long" when its widest base64 run has
 * MIN_BODY_LINE characters, more than half the line's (after the key's prefix), and the body's width
 * (a key's whole lines are alike; names in code are not); "short" when it holds a narrower run.
 */
function looseBody(o: Open, text: string): { kind: "long" | "short"; chars: number } | undefined {
  const rest = unprefixed(o, text) ?? text;
  const runs = rest.match(RUNS) ?? [];
  const chars = Math.max(0, ...runs.map((r) => r.length));
  if (chars === 0 || (o.width !== undefined && chars > o.width)) return undefined;
  const long = chars >= MIN_BODY_LINE && chars * 2 > rest.replace(/\s/g, "").length && (o.width === undefined || chars === o.width);
  return { kind: long ? "long" : "short", chars };
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
    o.chars += run.replace(/[^A-Za-z0-9+/]/g, "").length;
    o.width ??= width;
    // a body wrapped narrower than MIN_BODY_LINE is whole lines of its first line's width, once they add up to a key
    if (!o.short && (width >= MIN_BODY_LINE || width === o.width)) {
      if (width >= MIN_BODY_LINE || o.chars >= MIN_KEY_CHARS) o.lastLong = at;
    } else o.short = true;
    return true;
  };

  /** The keys that begin on line `no` at or after column `col`; may leave one open. */
  const begins = (no: number, text: string, col: number): KeySpan[] => {
    const found: KeySpan[] = [];
    BEGIN_G.lastIndex = col;
    for (let m = BEGIN_G.exec(text); m; m = BEGIN_G.exec(text)) {
      const o: Open = { from: [no, m.index], runs: 0, short: false, chars: 0 };
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
          // the string closes (`\n" +`): the body goes on below; so it may after anything else on a
          // line of no body (`echo "-----BEGIN…" > k`), if lines mostly base64 and an END line follow
          if (INLINE_REST.test(text.slice(at)) || o.runs === 0) {
            // its prefix only now, for its other lines: taken for every BEGIN of a line of many, it made the line's time quadratic
            o.prefix = prefixShape(text.slice(0, m.index));
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
      if (end) {
        const before = judged(o, BEFORE_END, text.slice(0, end.index));
        // a loose body's END line may hold anything before its armour (`echo "-----END…" >> k`)
        const ends = o.loose ? o.chars >= MIN_KEY_CHARS : before !== undefined;
        if (ends) {
          open = undefined;
          if (before?.found[1] && !o.loose) o.runs++;
          const key = o.runs > 0 || o.loose ? [{ from: o.from, to: [no, end.index + end[0].length] as Place }] : [];
          return [...key, ...begins(no, text, end.index + end[0].length)];
        }
      }
      if (!o.loose) {
        if (o.runs === 0 && (judged(o, HEADER_LINE, text) || judged(o, BLANK_LINE, text))) return [];
        const body = judged(o, BODY_LINE, text);
        if (body) {
          const run = body.found[1]!;
          if (take(o, run, widest(run), [no, body.offset + body.found.index + body.found[0].lastIndexOf(run) + run.length])) return [];
        }
      }
      // off the strict shape: the lines may still be a key's if an END line follows them
      const loose = text.includes("PRIVATE KEY") ? undefined : looseBody(o, text);
      const tail = o.loose?.tail ?? 0;
      // a short line ends a body that has had a long one; a long one follows only long ones
      if (loose && (loose.kind === "short" ? (o.loose || o.lastLong) && tail < MAX_TAIL_LINES : tail === 0 && !o.short)) {
        o.loose = { tail: loose.kind === "short" ? tail + 1 : 0 };
        o.chars += loose.chars;
        if (loose.kind === "long") o.width ??= loose.chars;
        return [];
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

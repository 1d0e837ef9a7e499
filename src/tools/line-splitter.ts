// How the built-in filter (bash-filter.ts) reads a stream: the lines a terminal would show, and,
// when the filter can take them as a count, long stretches of lines that cannot matter passed on
// as one number. Tested per line, 45 MB of `seq` cost ~2 s of regexes and strings; searched a
// piece at a time for the few words a signal needs, the same output is counted in ~0.2 s. Pure.
import { ESCAPES } from "./bash-output.ts";

/** Of a longer line only this much is read for signals and kept (its length is still counted): a 50 MB line is not held. */
export const LINE_READ_CHARS = 4096;

/**
 * What a line the filter cares about holds, at least: every line that is a signal, a console
 * header or a numbered failure (bash-filter.ts SIGNALS, CONSOLE_HEADER, NUMBERED_FAILURE) holds a
 * match of one of these, and so does a line a `\r` or an escape could change (a test checks them
 * against the filter's own). Several searches, not one: Bun's engine searches each of them in
 * milliseconds, their union (a `\d` first beside words) ~40 times slower.
 */
export const HINTS = [
  /error|exception|traceback|panic|fatal|fail|abort|assert|warn|denied|not found|cannot|unable|ERR!|not ok|--> |file "|ran \d|console\.|build |expected|received|actual|left|right|(?:tests?|test suites|snapshots|time|duration|test result)\s*:|\bok\b/gi,
  /\d(?: (?:passed|passing|failed|failing|pass|fail|errors?|warnings?|skipped|pending|todo|tests?|suites?)\b|\) )/gi,
  /\S\.[a-z]\w*[:(]\d/gi,
  /e\s\s/gi,
  /[✗✘×✕●\r\x1b]/g,
  /\n=/g, // a line that starts with `=` (pytest's `=== 1 failed ===`): searched from the newline before it
];

/**
 * Turns text pushed in pieces into the lines a terminal would show: ANSI colours removed, a
 * carriage return redraws its line (progress bars keep their last state), a final newline ends
 * the last line. Each line is passed on with its length; at most LINE_READ_CHARS of it are kept.
 * With `skipping`, a run of lines none of the HINTS touches goes to `skip` as a count, less `margin`
 * lines each side read as lines, once the stream's first `head` lines are read, and never among a
 * piece's last `tail` + `margin` lines (the stream's last `tail` lines are shown, so never skipped).
 */
export function createLineSplitter(
  onLine: (text: string, length: number) => void,
  skipping?: { skip: (lines: number) => void; head: number; tail: number; margin: number },
): { push(piece: string): void; end(): void } {
  let text = "";
  let length = 0;
  let open = false; // something of the current line was read
  let pendingCr = false; // a `\r` ended the last piece: a redraw, unless a newline follows
  let passed = 0; // lines passed on, skipped ones too

  const reset = () => {
    text = "";
    length = 0;
  };
  const add = (piece: string) => {
    if (piece === "") return;
    open = true;
    if (pendingCr) reset();
    pendingCr = piece.endsWith("\r");
    if (pendingCr) piece = piece.slice(0, -1);
    const cr = piece.lastIndexOf("\r");
    if (cr >= 0) {
      reset();
      piece = piece.slice(cr + 1);
    }
    if (text.length < LINE_READ_CHARS) text += piece.slice(0, LINE_READ_CHARS - text.length);
    length += piece.length;
  };
  const finish = () => {
    const plain = text.replace(ESCAPES, "");
    onLine(plain, length - (text.length - plain.length));
    passed++;
    reset();
    open = pendingCr = false;
  };
  /** The text of `piece` from `at` to `to` (just after a newline, or the piece's end), line by line. */
  const lines = (piece: string, at: number, to: number) => {
    while (at < to) {
      const nl = piece.indexOf("\n", at);
      if (nl < 0 || nl >= to) {
        add(piece.slice(at, to));
        return;
      }
      add(piece.slice(at, nl));
      finish();
      at = nl + 1;
    }
  };
  /** Lines `at`..`to` that no hint touches: their middle skipped when long enough, past the head. */
  const plain = (piece: string, at: number, to: number) => {
    const { margin, head } = skipping!;
    const from = after(piece, at, to, margin);
    const until = before(piece, from, to, margin);
    const count = from < until && passed + margin >= head ? newlines(piece, from, until) : 0;
    if (count === 0) return lines(piece, at, to);
    lines(piece, at, from);
    skipping!.skip(count);
    passed += count;
    lines(piece, until, to);
  };
  return {
    push(piece) {
      const first = skipping ? piece.indexOf("\n") : -1;
      const stop = first < 0 ? -1 : before(piece, first + 1, piece.length, skipping!.tail + skipping!.margin);
      if (stop <= first + 1) return lines(piece, 0, piece.length);
      lines(piece, 0, first + 1); // the end of the line an earlier piece began
      const next = HINTS.map(() => -1); // each hint's next match, searched again once it falls behind
      const nextEnd = HINTS.map(() => 0);
      let at = first + 1;
      while (at < stop) {
        let hit = stop;
        let hitEnd = stop;
        HINTS.forEach((re, i) => {
          if (next[i]! >= 0 && next[i]! < at - 1) next[i] = -1;
          if (next[i] === -1) {
            re.lastIndex = at - 1; // the newline before the line, for `\n=`
            const m = re.exec(piece);
            next[i] = m && m.index < stop ? m.index : stop;
            nextEnd[i] = m ? re.lastIndex : stop;
          }
          if (next[i]! < hit) [hit, hitEnd] = [next[i]!, nextEnd[i]!];
        });
        const touched = Math.max(at, piece.lastIndexOf("\n", hit - 1) + 1); // the first line the match touches
        plain(piece, at, touched);
        at = touched;
        if (at >= stop) break;
        const end = piece.indexOf("\n", Math.max(hitEnd - 1, touched));
        const past = end < 0 ? piece.length : end + 1;
        lines(piece, touched, past);
        at = past;
      }
      lines(piece, Math.min(at, piece.length), piece.length);
    },
    end: () => void (open && finish()),
  };
}

/** The start of the line `n` lines after `at` (a line's start) before `to`, or `to`. */
function after(piece: string, at: number, to: number, n: number): number {
  for (let k = 0; k < n && at < to; k++) {
    const nl = piece.indexOf("\n", at);
    at = nl < 0 || nl >= to ? to : nl + 1;
  }
  return at;
}

/** The start of the line `n` lines before `to` (a line's start, or the piece's end), not before `from`. */
function before(piece: string, from: number, to: number, n: number): number {
  let at = to;
  for (let k = 0; k < n && at > from; k++) at = piece.lastIndexOf("\n", at - 2) + 1;
  return Math.max(at, from);
}

function newlines(piece: string, from: number, to: number): number {
  let n = 0;
  for (let at = piece.indexOf("\n", from); at >= 0 && at < to; at = piece.indexOf("\n", at + 1)) n++;
  return n;
}

// The built-in bash output filter (SPEC §13.1). Deterministic and pure: the same output always
// gives the same text, so results stay cacheable and testable. It reads each stream once, line by
// line, holding only a few dozen lines and the kept ones: 50 MB of output spilled to a file is
// filtered as a whole in bounded memory, and the counts it reports are of the whole output.
import { formatOutput, isVerbatimCommand, type CommandOutput } from "./bash-output.ts";
import { createLineSplitter } from "./line-splitter.ts";

/** Output at or under both limits is shown whole: filtering it would save little and hide context. */
export const FILTER_MIN_LINES = 100;
export const FILTER_MIN_CHARS = 8 * 1024;
/** The first and last lines of each stream are always kept: what ran, and the summaries and final state, which come last (only exact repeats fold, as ×N). */
export const HEAD_LINES = 5;
export const TAIL_LINES = 20;
/** Lines kept around an error line: the test name above an assertion, the expected/received below. */
const CONTEXT_BEFORE = 2;
const CONTEXT_AFTER = 3;
/** A line is decided once the lines that can still change it have been read: its after-context and the one-line-gap rule's. */
const LOOKAHEAD = CONTEXT_BEFORE + 2;
/** Lines read as lines each side of a stretch the filter skips (line-splitter.ts): past all a signal's context and the gap rule reach. */
const SKIP_MARGIN = 2 * LOOKAHEAD;
/** Lines a filtered result may show (tails included); a flood of errors is shown from its start. */
const MAX_KEPT_LINES = 150;
/**
 * Distinct warnings a stream may show; later ones are counted, not shown (their exact repeats
 * still fold into `(×N)`). 160 `npm WARN deprecated` lines on stderr filled the whole budget and the
 * test failures on stdout after them were lost: errors, failures and summaries outrank warnings.
 */
const MAX_WARNINGS = 8;
/** Summary lines (`40 passing`, `3 failing`, `1 failed, 29 passed`) are shown past the budget, up to this many a stream. */
const MAX_SUMMARIES = 40;
/** The last lines of a stream shown whatever they are; above them a warning past MAX_WARNINGS in the tail is counted too. */
const LAST_LINES = 3;
/** A kept line longer than this is cut: minified code and base64 blobs cost tokens and say little. */
const MAX_LINE_CHARS = 300;
/**
 * Distinct error lines remembered to fold their repeats into `(×N)`. Past this many, later
 * distinct errors are not remembered (their repeats count as omitted lines): the shown lines are
 * among the first ones anyway, and memory stays bounded (≤ this × LINE_READ_CHARS).
 */
const MAX_REMEMBERED = 2000;

/** Errors, warnings, failures, positions and summaries of common compilers and test runners (each line one matches must hold a match of line-splitter.ts HINTS). */
const SIGNALS = [
  /error|exception|traceback|panic|fatal|fail|abort|assert|warn|denied|not found|cannot|unable|\bERR!/i,
  /[✗✘×✕●]|^\s*E\s{2,}\S|^\s*not ok\b/, // mocha/jest/vitest marks, pytest `E   `, TAP
  /\S\.[A-Za-z]\w*:\d+(:\d+)?\b|\S\.[A-Za-z]\w*\(\d+,\d+\)|^\s*File ".+", line \d+|^\s*--> /, // file:line:col, tsc, Python, rustc
  /^\s*(expected|received|actual|left|right)\b/i, // assertion diffs
  /(?<![\d.])\d+ (passed|passing|failed|failing|pass|fail|errors?|warnings?|skipped|pending|todo|tests?|suites?)\b/i,
  /^\s*(Tests?|Test Suites|Snapshots|Time|Duration|test result)\s*:|^\s*Ran \d+ tests?|^=+ .+ =+$|^\s*(OK|FAILED|BUILD \w+)\b/,
];
/** A signal that is only a warning (a deprecation, a lint warning), unless it also says error or failure. */
const WARNING = /warn|deprecat/i;
const NOT_WARNING = /error|exception|traceback|panic|fatal|fail|abort|assert|denied|\bERR!|[✗✘×✕●]|^\s*E\s{2,}\S|^\s*not ok\b/i;
/** Test runners' counts and verdicts: kept past the budget. */
const SUMMARY =
  /(?<![\d.])\d+ (passed|passing|failed|failing|errors?|tests?|suites?)\b|^\s*(Tests?|Test Suites)\s*:|^\s*Ran \d+ tests?|^\s*(test result|OK|FAILED|BUILD \w+)\b/i;
/** mocha's numbered failures (`  1) Cart`), listed before the counts and again above each failure's assertion. */
const NUMBERED_FAILURE = /^\s+\d+\) \S/;

/** Lines that match a signal by accident: a passing test named "handles errors", framework frames. */
const NOISE = /^\s*(✓|✔|√|PASS\b|ok\b|\(pass\)|--- PASS|=== (RUN|PAUSE|CONT))|\bPASSED\b|^\s*at .*(node_modules|node:internal)/;
/**
 * jest prints a stack frame under every console.log (`console.log` / message / `at f (x.ts:3:5)`);
 * dozens of those frames would crowd out the failures, so a frame this close below such a header
 * is not a signal.
 */
const CONSOLE_HEADER = /^\s*console\.(log|info|warn|error|debug|trace)\s*$/;
const CONSOLE_FRAME_WINDOW = 6;
const FRAME = /^\s*at\s/;

/** Whether `line` reads as an error, a warning, a failure, a position or a summary (the terminal's preview uses it too). */
export const isSignal = (line: string) => !NOISE.test(line) && (SIGNALS.some((re) => re.test(line)) || NUMBERED_FAILURE.test(line));
const isWarning = (line: string) => WARNING.test(line) && !NOT_WARNING.test(line) && !SUMMARY.test(line);

/** A stream's text in order, in pieces of any size (one string, or a file decoded as it is read). */
export type Chunks = Iterable<string> | AsyncIterable<string>;

/**
 * Long output cut down to its errors, warnings, failures and summaries (with context), repeated
 * lines collapsed to one with `(×N)`, and the last lines of each stream; stderr comes first.
 * Short output, and output of commands that show content (git diff, cat, grep…), is returned
 * as `formatOutput` gives it with `filtered: false`. A filtered text says how many lines were
 * dropped; the caller adds where the full output is. Never throws.
 */
export async function filterOutput(out: CommandOutput): Promise<{ text: string; filtered: boolean }> {
  const plain = { text: formatOutput(out), filtered: false };
  const size = out.stdout.length + out.stderr.length;
  const count = lineCount(out.stdout) + lineCount(out.stderr);
  if ((count <= FILTER_MIN_LINES && size <= FILTER_MIN_CHARS) || isVerbatimCommand(out.command)) return plain;
  const text = await filterStreams({ stdout: [out.stdout], stderr: [out.stderr], exitCode: out.exitCode });
  return text === undefined ? plain : { text, filtered: true };
}

/**
 * The filtered form of output of any size, read once in order (stderr, then stdout); undefined
 * when filtering would drop nothing. The caller decides whether output is worth filtering.
 * `unkept`: of a stream whose chunks hold only its ends (a middle not kept), the line that stands
 * for the middle and the stream's true line count.
 */
export async function filterStreams(out: {
  stdout: Chunks;
  stderr: Chunks;
  exitCode: number;
  unkept?: { stdout?: Unkept; stderr?: Unkept };
}): Promise<string | undefined> {
  const body: string[] = [];
  let budget = MAX_KEPT_LINES;
  let total = 0;
  let shown = 0;
  let hadStderr = false;
  let warnings = 0;
  for (const [label, chunks] of [
    ["[stderr]", out.stderr],
    ["[stdout]", out.stdout],
  ] as const) {
    const unkept = out.unkept?.[label === "[stderr]" ? "stderr" : "stdout"];
    const filter = createLineFilter(Math.max(budget, TAIL_LINES));
    // a stream whose middle was not kept has the line standing for it to find: read line by line
    const skipping = unkept ? undefined : { skip: filter.skip, head: HEAD_LINES, tail: TAIL_LINES, margin: SKIP_MARGIN };
    const split = createLineSplitter((text, length) => filter.push(text, length, text === unkept?.line), skipping);
    for await (const chunk of chunks) split.push(chunk);
    split.end();
    const kept = filter.end(unkept?.lines);
    if (kept.total === 0) continue;
    if (label === "[stderr]") hadStderr = true;
    if (hadStderr) body.push(label);
    body.push(...kept.lines);
    budget -= kept.shown;
    warnings += kept.warnings;
    total += kept.total;
    shown += kept.shown;
  }
  if (shown >= total) return undefined;
  const among = warnings > 0 ? ` (${warnings} warning${warnings === 1 ? "" : "s"} among them)` : "";
  const header = `[output filtered: ${total - shown} of ${total} lines dropped${among}; errors, failures, summaries, the first warnings, the first ${HEAD_LINES} and the last ${TAIL_LINES} lines kept]`;
  return [header, ...body, `[exit code ${out.exitCode}]`].join("\n");
}

/** A stream's middle that was not kept: the line that stands for it in its chunks, and the stream's true line count. */
export type Unkept = { line: string; lines: number };

interface Line {
  text: string;
  length: number;
  /** 1: shown (a signal or its context); 2: a repeat of an earlier signal, never shown */
  keep: 0 | 1 | 2;
  signal: boolean;
  /** on the first occurrence of a remembered signal: how often it occurs */
  occurrences?: { n: number };
  /** a summary line: shown past the budget */
  summary?: boolean;
  /** a warning past MAX_WARNINGS: counted, never shown */
  dropped?: boolean;
  /** the line that stands where a middle not kept was (filterStreams' `unkept`) */
  gap?: boolean;
}

interface Shown {
  text: string;
  length: number;
}
/**
 * A shown line, or a run of shown lines folded into it: identical ones (`count`), or near-identical
 * ones (`similar`: only digits differ) of which `run` holds the first three and `latest` the last.
 * `verbatim` (a head or tail line): nothing folds into it.
 */
type Item =
  | (Shown & { count: number; signal: boolean; verbatim: boolean; similar?: boolean; run: Shown[]; latest: Shown; occurrences?: { n: number } })
  | { omitted: number; gap?: boolean };

/** A similar run of up to this many lines is shown whole: a marker would save nothing. */
const SIMILAR_SHOWN_WHOLE = 3;
/** Lines an item puts on screen. */
const displayed = (it: Item) => ("omitted" in it ? 0 : !it.similar ? 1 : it.count <= SIMILAR_SHOWN_WHOLE ? it.count : 2);

/**
 * The kept lines of one stream, fed one at a time: `end()` gives them with omission markers,
 * how many distinct lines are shown and how many lines the stream had. Memory: the last
 * TAIL_LINES + LOOKAHEAD lines, the kept ones and the remembered signals.
 */
export function createLineFilter(budget: number): {
  push(text: string, length: number, gap?: boolean): void;
  /** `lines` lines pushed at once that are neither signals nor console headers and are not near one, past the head and before the tail (line-splitter.ts) */
  skip(lines: number): void;
  /** `total`: the stream's true line count when more than were pushed (a middle not kept: its lines join the gap line's omission) */
  end(total?: number): { lines: string[]; shown: number; total: number; warnings: number };
} {
  const window: Line[] = []; // lines rendered..n-1
  let n = 0; // lines pushed
  let detected = 0; // lines known not to be in the tail, and scanned for signals
  let rendered = 0;
  let consoleHeader = -Infinity;
  let previousKeep = 0; // keep of line rendered-1, after the gap rule
  const seen = new Map<string, { n: number }>();
  const items: Item[] = [];
  let shown = 0;
  let warningsShown = 0; // distinct warnings taken as signals
  let warningsDropped = 0; // warnings past MAX_WARNINGS, counted
  let summaries = 0;
  const at = (i: number) => window[i - rendered];
  let blanks = 0; // lines last pushed by skip: blank ones, all alike

  const detect = (i: number) => {
    const line = at(i)!;
    if (CONSOLE_HEADER.test(line.text)) consoleHeader = i;
    if (!isSignal(line.text) || (FRAME.test(line.text) && i - consoleHeader <= CONSOLE_FRAME_WINDOW)) return;
    const first = i < HEAD_LINES ? undefined : seen.get(line.text); // head lines are all shown
    if (first) {
      first.n++;
      line.keep = 2; // a repeat: counted on its first occurrence, never shown
      return;
    }
    // a warning shows only itself and the line below (where it is, the code it names); past the first few it is counted
    const warning = isWarning(line.text);
    if (warning && i >= HEAD_LINES && warningsShown >= MAX_WARNINGS) {
      // the line below a shown warning stays shown, as its context
      if (line.keep === 0) {
        line.dropped = true;
        warningsDropped++;
      }
      return;
    }
    if (warning) warningsShown++;
    if (!seen.has(line.text) && seen.size < MAX_REMEMBERED) seen.set(line.text, (line.occurrences = { n: 1 }));
    line.signal = true;
    line.summary = SUMMARY.test(line.text) && summaries++ < MAX_SUMMARIES;
    const [before, after] = warning ? [0, 1] : [CONTEXT_BEFORE, CONTEXT_AFTER];
    for (let j = Math.max(rendered, i - before); j <= i + after; j++) {
      const near = at(j)!;
      if (near.keep !== 2 && !near.dropped && !NOISE.test(near.text)) near.keep = 1;
    }
  };

  /**
   * `verbatim`: a head or tail line, shown as it is: never folded with merely similar neighbours
   * (the values stay readable), while exact repeats still fold into one line with `(×N)`.
   */
  const render = (line: Line, show: boolean, verbatim = false) => {
    if (line.keep === 2) return;
    const last = items.at(-1);
    const shownLine = { text: line.text, length: line.length };
    if (!show) {
      if (last && "omitted" in last) last.omitted++;
      else items.push({ omitted: 1 });
      if (line.gap) (items.at(-1) as { gap?: boolean }).gap = true;
    } else if (
      last &&
      "text" in last &&
      (last.latest.text === line.text || (!verbatim && !last.verbatim && !last.signal && !line.signal && mask(last.text) === mask(line.text)))
    ) {
      const before = displayed(last);
      last.count++;
      if (last.latest.text !== line.text) last.similar = true;
      if (last.run.length < SIMILAR_SHOWN_WHOLE) last.run.push(shownLine);
      last.latest = shownLine;
      shown += displayed(last) - before;
    } else {
      items.push({ ...shownLine, count: 1, signal: line.signal, verbatim, run: [shownLine], latest: shownLine, occurrences: line.occurrences });
      shown++;
    }
  };

  /** Renders the oldest line of the window, known not to be in the tail. */
  const renderNext = () => {
    const line = window.shift()!;
    const next = window[0];
    // a one-line gap costs as much as its "omitted" marker: show the line instead
    if (rendered > 0 && line.keep === 0 && previousKeep === 1 && next?.keep === 1 && !NOISE.test(line.text) && !line.dropped) line.keep = 1;
    if (rendered < HEAD_LINES) render(line, true, true);
    else render(line, line.keep === 1 && (shown < budget - TAIL_LINES || line.summary === true));
    previousKeep = line.keep;
    rendered++;
  };

  const push = (text: string, length: number, gap?: boolean) => {
    window.push({ text, length, keep: 0, signal: false, gap });
    n++;
    while (n - detected > TAIL_LINES) detect(detected++);
    while (detected - rendered >= LOOKAHEAD) renderNext();
  };

  return {
    push(text, length, gap) {
      blanks = 0;
      push(text, length, gap);
    },
    skip(lines) {
      // as many blank lines as render the window's real ones; from then on each line pushed would
      // only add one to the omission being counted, the window all blanks as before
      for (; lines > 0; lines--) {
        const last = items.at(-1);
        if (blanks >= window.length && rendered >= HEAD_LINES && last && "omitted" in last && !last.gap) {
          last.omitted += lines;
          n += lines;
          detected += lines;
          rendered += lines;
          return;
        }
        push("", 0);
        blanks++;
      }
    },
    end(total = n) {
      while (rendered < detected) renderNext();
      // the tail as it is, but for warnings past the first few above its last lines (160 npm WARN lines end stderr)
      for (const [k, line] of window.entries()) {
        const counted =
          k < window.length - LAST_LINES &&
          rendered + k >= HEAD_LINES &&
          isSignal(line.text) &&
          isWarning(line.text) &&
          !seen.has(line.text) &&
          warningsShown >= MAX_WARNINGS;
        if (counted) warningsDropped++;
        render({ ...line, keep: 1 }, !counted, true);
      }
      const unread = Math.max(0, total - n);
      const gap = items.find((it) => "omitted" in it && it.gap) as { omitted: number } | undefined;
      if (gap) gap.omitted += unread;
      const lines = items.flatMap((it) => {
        if ("omitted" in it) return `… ${it.omitted} line${it.omitted === 1 ? "" : "s"} omitted …`;
        // near-identical lines (an epoch counter, a progress count): the first and the last, so the values stay visible
        if (it.similar && it.count <= SIMILAR_SHOWN_WHOLE) return it.run.map((l) => cut(l.text, l.length));
        if (it.similar) return [cut(it.text, it.length), `… ${it.count - 2} similar lines omitted …`, cut(it.latest.text, it.latest.length)];
        const count = it.count + (it.occurrences ? it.occurrences.n - 1 : 0);
        return cut(it.text, it.length) + (count > 1 ? ` (×${count})` : "");
      });
      return { lines, shown, total: n + unread, warnings: warningsDropped };
    },
  };
}

const lineCount = (s: string) => (s ? s.split("\n").length - (s.endsWith("\n") ? 1 : 0) : 0);
const mask = (line: string) => line.replace(/\d+/g, "#");
function cut(line: string, length: number): string {
  const over = length - MAX_LINE_CHARS;
  return over > 0 ? `${line.slice(0, MAX_LINE_CHARS)}… (+${over} char${over === 1 ? "" : "s"})` : line;
}

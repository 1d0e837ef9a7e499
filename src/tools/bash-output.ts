// The built-in bash output filter (SPEC §13.1) and head+tail truncation. Deterministic and pure:
// the same output always gives the same text, so results stay cacheable and testable.

/** Output at or under both limits is shown whole: filtering it would save little and hide context. */
export const FILTER_MIN_LINES = 100;
export const FILTER_MIN_CHARS = 8 * 1024;
/** The last lines of each stream are always kept: summaries and the final state come last. */
export const TAIL_LINES = 20;
/** Lines kept around an error line: the test name above an assertion, the expected/received below. */
const CONTEXT_BEFORE = 2;
const CONTEXT_AFTER = 3;
/** Lines a filtered result may show (tails included); a flood of errors is shown from its start. */
const MAX_KEPT_LINES = 150;
/** A kept line longer than this is cut: minified code and base64 blobs cost tokens and say little. */
const MAX_LINE_CHARS = 300;

/** Errors, warnings, failures, positions and summaries of common compilers and test runners. */
const SIGNALS = [
  /error|exception|traceback|panic|fatal|fail|abort|assert|warn|denied|not found|cannot|unable|\bERR!/i,
  /[✗✘×✕●]|^\s*E\s{2,}\S|^\s*not ok\b/, // mocha/jest/vitest marks, pytest `E   `, TAP
  /\S\.[A-Za-z]\w*:\d+(:\d+)?\b|\S\.[A-Za-z]\w*\(\d+,\d+\)|^\s*File ".+", line \d+|^\s*--> /, // file:line:col, tsc, Python, rustc
  /^\s*(expected|received|actual|left|right)\b/i, // assertion diffs
  /(?<![\d.])\d+ (passed|passing|failed|failing|pass|fail|errors?|warnings?|skipped|pending|todo|tests?|suites?)\b/i,
  /^\s*(Tests?|Test Suites|Snapshots|Time|Duration|test result)\s*:|^\s*Ran \d+ tests?|^=+ .+ =+$|^\s*(OK|FAILED|BUILD \w+)\b/,
];
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
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  command: string;
}

const isSignal = (line: string) => !NOISE.test(line) && SIGNALS.some((re) => re.test(line));

/** stdout, then stderr under a `[stderr]` label, then the exit code: the unfiltered form. */
export function formatOutput(out: CommandOutput): string {
  const parts: string[] = [];
  if (out.stdout) parts.push(out.stdout.replace(/\n$/, ""));
  if (out.stderr) parts.push("[stderr]", out.stderr.replace(/\n$/, ""));
  if (!out.stdout && !out.stderr) parts.push("(no output)");
  parts.push(`[exit code ${out.exitCode}]`);
  return parts.join("\n");
}

/**
 * Long output cut down to its errors, warnings, failures and summaries (with context), repeated
 * lines collapsed to one with `(×N)`, and the last lines of each stream; stderr comes first.
 * Short output, and output of commands that show content (git diff, cat, grep…), is returned
 * as `formatOutput` gives it with `filtered: false`. A filtered text says how many lines were
 * dropped; the caller adds where the full output is. Never throws.
 */
export function filterOutput(out: CommandOutput): { text: string; filtered: boolean } {
  const plain = { text: formatOutput(out), filtered: false };
  const size = out.stdout.length + out.stderr.length;
  const count = lineCount(out.stdout) + lineCount(out.stderr);
  if ((count <= FILTER_MIN_LINES && size <= FILTER_MIN_CHARS) || isVerbatimCommand(out.command)) return plain;

  const body: string[] = [];
  let budget = MAX_KEPT_LINES;
  let total = 0;
  let shown = 0;
  for (const [label, stream] of [["[stderr]", out.stderr], ["[stdout]", out.stdout]] as const) {
    if (!stream) continue;
    const lines = splitLines(stream);
    const kept = filterLines(lines, Math.max(budget, TAIL_LINES));
    if (label === "[stderr]" || out.stderr) body.push(label);
    body.push(...kept.lines);
    budget -= kept.shown;
    total += lines.length;
    shown += kept.shown;
  }
  if (shown >= total) return plain;
  const header = `[output filtered: ${total - shown} of ${total} lines dropped; errors, warnings, summaries and the last ${TAIL_LINES} lines kept]`;
  return { text: [header, ...body, `[exit code ${out.exitCode}]`].join("\n"), filtered: true };
}

type Item = { text: string; count: number; signal: boolean; similar?: boolean } | { omitted: number };

/** The kept lines of one stream, with omission markers; `shown` counts distinct lines shown. */
function filterLines(lines: string[], budget: number): { lines: string[]; shown: number } {
  const n = lines.length;
  const tailStart = Math.max(0, n - TAIL_LINES);
  const keep = new Uint8Array(n);
  const signal = new Uint8Array(n);
  const repeats = new Map<number, number>(); // first occurrence → how many times the line occurs
  const seen = new Map<string, number>();
  let consoleHeader = -Infinity;
  for (let i = 0; i < tailStart; i++) {
    if (CONSOLE_HEADER.test(lines[i]!)) consoleHeader = i;
    if (!isSignal(lines[i]!) || (FRAME.test(lines[i]!) && i - consoleHeader <= CONSOLE_FRAME_WINDOW)) continue;
    const first = seen.get(lines[i]!);
    if (first !== undefined) {
      repeats.set(first, (repeats.get(first) ?? 1) + 1);
      keep[i] = 2; // a repeat: counted on its first occurrence, never shown
      continue;
    }
    seen.set(lines[i]!, i);
    signal[i] = 1;
    for (let j = Math.max(0, i - CONTEXT_BEFORE); j <= Math.min(n - 1, i + CONTEXT_AFTER); j++) {
      if (keep[j] !== 2 && !NOISE.test(lines[j]!)) keep[j] = 1;
    }
  }
  for (let i = tailStart; i < n; i++) signal[i] = isSignal(lines[i]!) ? 1 : 0;
  // a one-line gap costs as much as its "omitted" marker: show the line instead
  for (let i = 1; i < tailStart; i++) if (!keep[i] && keep[i - 1] === 1 && keep[i + 1] === 1 && !NOISE.test(lines[i]!)) keep[i] = 1;

  const items: Item[] = [];
  let shown = 0;
  for (let i = 0; i < n; i++) {
    const text = lines[i]!;
    const last = items.at(-1);
    const show = i >= tailStart || (keep[i] === 1 && shown < budget - (n - tailStart));
    if (keep[i] === 2) continue;
    if (!show) {
      if (last && "omitted" in last) last.omitted++;
      else items.push({ omitted: 1 });
    } else if (last && "text" in last && (last.text === text || (!last.signal && !signal[i] && mask(last.text) === mask(text)))) {
      last.count++;
      if (last.text !== text) last.similar = true;
      last.text = text; // of near-identical lines (progress), the latest is the most useful
    } else {
      items.push({ text, count: repeats.get(i) ?? 1, signal: signal[i] === 1 });
      shown++;
    }
  }
  const rendered = items.map((it) =>
    "omitted" in it ? `… ${it.omitted} line${it.omitted === 1 ? "" : "s"} omitted …` : cut(it.text) + (it.count > 1 ? ` (×${it.count}${it.similar ? " similar" : ""})` : ""),
  );
  return { lines: rendered, shown };
}

function splitLines(text: string): string[] {
  const lines = text.replace(ANSI, "").replace(/\r?\n$/, "").split("\n");
  // a carriage return redraws the line (progress bars): keep what the terminal would show
  return lines.map((l) => (l.includes("\r") ? l.replace(/\r$/, "").split("\r").at(-1)! : l));
}

const lineCount = (s: string) => (s ? s.split("\n").length - (s.endsWith("\n") ? 1 : 0) : 0);
const mask = (line: string) => line.replace(/\d+/g, "#");
const cut = (line: string) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (+${line.length - MAX_LINE_CHARS} chars)` : line);

const GIT_VERBATIM = new Set(["diff", "status", "log", "show", "blame", "grep"]);
/** Commands whose output is the content the model asked for, not a log to skim. */
const VIEWERS = new Set(["cat", "head", "tail", "sed", "nl", "less", "more", "bat", "grep", "egrep", "rg", "ag", "find", "fd", "ls", "tree", "diff", "jq", "stat"]);
const WRAPPERS = new Set(["sudo", "env", "time", "nice", "nohup", "command", "exec", "timeout", "stdbuf"]);
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"]);

/**
 * True when output must not be filtered: any `git diff|status|log|show|blame|grep` in the
 * command (seen through `cd x &&`, `VAR=1`, `git -C dir`, `--no-pager`), or a last command that
 * shows content (`cat`, `sed -n`, `grep`, `ls`…).
 */
export function isVerbatimCommand(command: string): boolean {
  const programs = splitCommands(command).map(program).filter((p) => p.length > 0);
  if (programs.some((p) => p[0] === "git" && GIT_VERBATIM.has(gitSubcommand(p)))) return true;
  const last = programs.at(-1);
  return last !== undefined && VIEWERS.has(last[0]!);
}

/** Words of each simple command, split at `;`, `&`, `|`, `(`, `)` and newlines outside quotes. */
function splitCommands(command: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let quote = "";
  const end = () => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = "";
      else word = (word ?? "") + (c === "\\" && quote === '"' ? command[++i] ?? "" : c);
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\") word = (word ?? "") + (command[++i] ?? "");
    else if (/\s/.test(c) && c !== "\n") end();
    else if (/[;&|()\n]/.test(c)) {
      end();
      commands.push([]);
    } else word = (word ?? "") + c;
  }
  end();
  return commands;
}

/** The words from the program name on: assignments and wrappers (`env`, `timeout 5`…) skipped. */
function program(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_]\w*=/.test(words[i]!)) i++;
  while (i < words.length && WRAPPERS.has(basename(words[i]!))) {
    i++;
    while (i < words.length && /^(-|\d|[A-Za-z_]\w*=)/.test(words[i]!)) i++;
  }
  return words.slice(i).map((w, k) => (k === 0 ? basename(w) : w));
}

function gitSubcommand(words: string[]): string {
  let i = 1;
  while (i < words.length && words[i]!.startsWith("-")) i += GIT_OPTIONS_WITH_VALUE.has(words[i]!) ? 2 : 1;
  return words[i] ?? "";
}

const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * `text` cut to at most `maxLines` lines and about `maxBytes` UTF-8 bytes, keeping the head and the
 * tail (half the budget each) around a `… N lines (B bytes) omitted …` marker. Never throws.
 */
export function truncateHeadTail(text: string, maxLines: number, maxBytes: number): { text: string; truncated: boolean } {
  const total = utf8Length(text);
  const lines = text.split("\n");
  if (lines.length <= maxLines && total <= maxBytes) return { text, truncated: false };
  const lineBudget = Math.max(1, Math.floor(maxLines / 2));
  const byteBudget = Math.floor(maxBytes / 2);
  const head = take(lines, lineBudget, byteBudget, false);
  const tail = take(lines.slice(head.whole), lineBudget, byteBudget, true);
  const omittedLines = lines.length - head.whole - tail.whole;
  const omittedBytes = total - utf8Length(head.text) - utf8Length(tail.text);
  const marker = `… ${omittedLines} line${omittedLines === 1 ? "" : "s"} (${omittedBytes} bytes) omitted …`;
  return { text: [head.text, marker, tail.text].filter((s) => s !== "").join("\n"), truncated: true };
}

/** Whole lines from the start (or end) within the budgets; a first line too long is cut instead. */
function take(lines: string[], maxLines: number, maxBytes: number, fromEnd: boolean): { text: string; whole: number } {
  const picked: string[] = [];
  let bytes = 0;
  for (let k = 0; k < lines.length && picked.length < maxLines; k++) {
    const line = lines[fromEnd ? lines.length - 1 - k : k]!;
    const size = utf8Length(line) + 1;
    if (bytes + size > maxBytes) {
      if (picked.length > 0) break;
      const part = sliceBytes(line, maxBytes, fromEnd);
      return { text: part, whole: 0 };
    }
    picked.push(line);
    bytes += size;
  }
  if (fromEnd) picked.reverse();
  return { text: picked.join("\n"), whole: picked.length };
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? (i++, 4) : 3;
  }
  return n;
}

/** The first (or last) characters of `s` that fit in `maxBytes` UTF-8 bytes. */
function sliceBytes(s: string, maxBytes: number, fromEnd: boolean): string {
  const chars = Array.from(fromEnd ? s.slice(-maxBytes) : s.slice(0, maxBytes));
  let bytes = 0;
  const out: string[] = [];
  for (let k = 0; k < chars.length; k++) {
    const c = chars[fromEnd ? chars.length - 1 - k : k]!;
    bytes += utf8Length(c);
    if (bytes > maxBytes) break;
    out.push(c);
  }
  return (fromEnd ? out.reverse() : out).join("");
}

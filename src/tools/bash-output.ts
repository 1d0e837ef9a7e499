// The bash tool's result text (SPEC §13.1): the plain form of an output, which commands are never
// filtered, and head+tail truncation. Pure; the filter itself is bash-filter.ts.

export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  command: string;
}

/** stdout, then stderr under a `[stderr]` label, then the exit code: the unfiltered form, as a terminal shows it (asShown). */
export function formatOutput(out: CommandOutput): string {
  const parts: string[] = [];
  // a file's content (cat of a CSV with old-Mac CR line ends) keeps its lone CRs: they are its line breaks, not redraws
  const redraws = !showsFiles(out.command);
  if (out.stdout) parts.push(asShown(out.stdout, redraws).replace(/\n$/, ""));
  if (out.stderr) parts.push("[stderr]", asShown(out.stderr, redraws).replace(/\n$/, ""));
  if (!out.stdout && !out.stderr) parts.push("(no output)");
  parts.push(`[exit code ${out.exitCode}]`);
  return parts.join("\n");
}

/**
 * Terminal escape sequences: CSI (colours, cursor moves), the string ones — OSC (titles,
 * hyperlinks), DCS (vim's terminal queries), SOS, PM, APC — and the rest of ESC, any intermediate
 * bytes, a final byte: charset selection (tput sgr0's ESC ( B), keypad modes (ESC =), cursor save (ESC 7).
 */
export const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]/g;

/**
 * `text` as a terminal shows it, which is what the model should read: escape sequences (a forced
 * `--color`, `ls --color=always`, a hyperlink) removed, CRLF line ends as LF, and (`redraws`) a
 * line redrawn after a carriage return (a progress bar) in its last state, as the filter reads lines too.
 */
export function asShown(text: string, redraws = true): string {
  if (!/[\x1b\r]/.test(text)) return text;
  return text
    .replace(ESCAPES, "")
    .split("\n")
    .map((line) => (redraws ? line.replace(/\r+$/, "").replace(/^[^]*\r/, "") : line.replace(/\r$/, "")))
    .join("\n");
}

const GIT_VERBATIM = new Set(["diff", "status", "log", "show", "blame", "grep"]);
/** Commands whose output is the content the model asked for, not a log to skim. */
const VIEWERS = new Set([
  "cat",
  "head",
  "tail",
  "sed",
  "nl",
  "less",
  "more",
  "bat",
  "grep",
  "egrep",
  "rg",
  "ag",
  "find",
  "fd",
  "ls",
  "tree",
  "diff",
  "jq",
  "stat",
]);
const WRAPPERS = new Set(["sudo", "env", "time", "nice", "nohup", "command", "exec", "timeout", "stdbuf"]);
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"]);

/**
 * True when output must not be filtered: any `git diff|status|log|show|blame|grep` in the
 * command (seen through `cd x &&`, `VAR=1`, `git -C dir`, `--no-pager`), or a last command that
 * shows content (`cat`, `sed -n`, `grep`, `ls`…).
 */
export function isVerbatimCommand(command: string): boolean {
  const programs = splitCommands(command)
    .map(program)
    .filter((p) => p.length > 0);
  if (programs.some((p) => p[0] === "git" && GIT_VERBATIM.has(gitSubcommand(p)))) return true;
  const last = programs.at(-1);
  return last !== undefined && VIEWERS.has(last[0]!);
}

/** True when every program of the command shows files (`cat a.csv | head`, `git show HEAD:a.csv`): its output is their content. */
export function showsFiles(command: string): boolean {
  const programs = splitCommands(command)
    .map(program)
    .filter((p) => p.length > 0);
  return programs.length > 0 && programs.every((p) => VIEWERS.has(p[0]!) || (p[0] === "git" && GIT_VERBATIM.has(gitSubcommand(p))));
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
      else word = (word ?? "") + (c === "\\" && quote === '"' ? (command[++i] ?? "") : c);
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

/** What a text held in memory lacks from its middle: the bytes and newlines between its head and its tail. */
export interface Hidden {
  lines: number;
  bytes: number;
}

/**
 * `text` cut to at most `maxLines` lines and about `maxBytes` UTF-8 bytes, keeping the head and the
 * tail (half the budget each) around a `… N lines (B bytes) omitted …` marker. `hidden` is what a
 * longer output lost from the middle of `text` before it got here (its middle lies well inside the
 * omitted part): the counts in the marker are of the whole output. A `text` within the budgets is
 * not cut, nor is one whose cut would take no fewer bytes than the text whole: a hidden middle of
 * no lines is redraws its ends drew over (nothing to say), one of lines is said before the last
 * line (`[exit code N]`), never after it. Never throws.
 */
export function truncateHeadTail(
  text: string,
  maxLines: number,
  maxBytes: number,
  hidden: Hidden = { lines: 0, bytes: 0 },
): { text: string; truncated: boolean } {
  const total = utf8Length(text);
  const lines = text.split("\n");
  const note = hidden.lines === 0 ? "" : omitted(hidden.lines, hidden.bytes);
  const uncut = () => (note === "" ? { text, truncated: false } : { text: [...lines.slice(0, -1), note, ...lines.slice(-1)].join("\n"), truncated: true });
  if (lines.length <= maxLines && total <= maxBytes) return uncut();
  const lineBudget = Math.max(1, Math.floor(maxLines / 2));
  const byteBudget = Math.floor(maxBytes / 2);
  const head = take(lines, lineBudget, byteBudget, false);
  const tail = take(lines.slice(head.whole), lineBudget, byteBudget, true);
  const marker = omitted(lines.length + hidden.lines - head.whole - tail.whole, total + hidden.bytes - utf8Length(head.text) - utf8Length(tail.text));
  const cut = [head.text, marker, tail.text].filter((s) => s !== "").join("\n");
  // a few short lines over the budget (2000 lines of output and hey's `[exit code 0]`) take no
  // more than the marker that would stand for them: the model gets them, not a cut
  if (total + (note === "" ? 0 : utf8Length(note) + 1) <= utf8Length(cut)) return uncut();
  return { text: cut, truncated: true };
}

const omitted = (lines: number, bytes: number) => `… ${lines} line${lines === 1 ? "" : "s"} (${bytes} bytes) omitted …`;

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

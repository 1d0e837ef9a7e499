// How a tool call and its result read on the terminal (SPEC §17, issue 14): one line per call in
// the words people use (`$ git status`, `read src/cli.ts:1-200`, `edit src/cli.ts`,
// `write notes.md (12 lines)`, `grep "TODO" src/`; any other tool as `name key=value …`, an MCP
// tool with its server, `read_file (fs) notes/todo.md`, so it never passes for a built-in), one short status per result (`✓ 3 matches`, `✗ exit 1: …`), and the
// unified diff of an edit or a write, capped. Pure: the colours and the I/O are terminal.ts's.
import { structuredPatch } from "diff";
import { TOOL } from "../kernel/tool-names.ts";
// arguments with a slip of one meaning (a stray `}`, single quotes) are shown as they ran
import { parseArguments } from "../kernel/ir.ts";
import { INTERRUPTED } from "../kernel/tool.ts";
import { isSignal } from "../tools/bash-filter.ts";
import { BLOCKED_PREFIX } from "../permission/rules.ts";
import { PLAN_PREFIX } from "../kernel/tool-calls.ts";
import { cutToWidth } from "./wrap.ts";
import { visible } from "./visible.ts";
import { shownName } from "../fs/odd-names.ts";
import { writtenPattern } from "../tools/written-pattern.ts";

/** A call line or a status is cut to this many characters; on a terminal a status is cut further, to its width (terminal.ts). */
const LINE_MAX = 160;
/** A generic call shows each argument value cut to this many characters. */
const VALUE_MAX = 40;
/** Diff lines shown for an edit or a write; the rest is counted in "… N more lines". */
export const DIFF_SHOWN_LINES = 40;
/** Context lines around each change of a write's diff (edit's diff comes from the tool itself). */
const DIFF_CONTEXT = 3;
/** A write's diff is skipped past this size: diffing megabytes would stall the display. */
const DIFF_MAX_CHARS = 1_000_000;
/** Give up on a write's diff after this long; the status line still says what happened. */
const DIFF_TIMEOUT_MS = 200;

/**
 * The one line that announces a call, from the tool name and its JSON arguments; `server` names
 * the MCP server of an MCP tool (whose `read_file` is not hey's, even when it replaced it).
 */
export function toolLine(name: string, argsJson: string, server?: string): string {
  const args = parseArguments(argsJson);
  if (server !== undefined) {
    const head = `${name} (${server})`;
    if (!args) return cut(`${head} ${oneLine(argsJson)}`.trim());
    const entries = Object.entries(args);
    // a lone path reads best bare: `read_file (fs) notes/todo.md`
    if (entries.length === 1 && entries[0]![0] === "path" && typeof entries[0]![1] === "string") return cut(`${head} ${entries[0]![1]}`);
    return cut([head, ...entries.map(([k, v]) => `${k}=${shortValue(v)}`)].join(" "));
  }
  if (!args) return cut(`${name} ${oneLine(argsJson)}`.trim());
  const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  const num = (k: string) => (typeof args[k] === "number" ? (args[k] as number) : undefined);
  const path = oneLinePath(str("path"));
  switch (name) {
    case TOOL.bash:
      if (str("command") !== undefined) return cut(`$ ${firstLine(str("command")!)}`);
      break;
    case TOOL.readFile:
      if (path !== undefined) return cut(`read ${path}${lineRange(num("offset"), num("limit"))}`);
      break;
    case TOOL.edit:
      if (path !== undefined) return cut(`edit ${path}${args.replace_all === true ? " (every match)" : ""}`);
      break;
    case TOOL.writeFile:
      if (path !== undefined) return cut(`write ${path} (${plural(countLines(str("content") ?? ""), "line")})`);
      break;
    case TOOL.grep: {
      const pattern = str("pattern"); // as the model wrote it: JSON's quoting would double its backslashes
      if (pattern !== undefined) return cut(`grep ${writtenPattern(pattern)}${path ? ` ${path}` : ""}${str("glob") ? ` (${str("glob")})` : ""}`);
      break;
    }
  }
  const shown = Object.entries(args).map(([k, v]) => `${k}=${shortValue(v)}`);
  return cut([name, ...shown].join(" "));
}

/** A path as hey writes a file name (fs/odd-names.ts): a newline or other control character in it escaped, so the call stays one line. */
const oneLinePath = (path: string | undefined) => (path === undefined ? undefined : shownName(Buffer.from(path)));

/** `:1-200` for offset 1 and limit 200; `:50-` for an offset alone; "" for neither. */
function lineRange(offset: number | undefined, limit: number | undefined): string {
  if (offset === undefined && limit === undefined) return "";
  const first = Math.max(1, offset ?? 1);
  return limit === undefined ? `:${first}-` : `:${first}-${first + limit - 1}`;
}

export interface ResultStatus {
  ok: boolean;
  /** the status text without its mark (✓ or ✗) */
  text: string;
  /** the diff lines to show under the status, already capped */
  diff: string[];
  /** bash: the last lines the command printed (a failure's error lines first), at most PREVIEW_LINES */
  preview: string[];
}

/** Lines of what a command printed shown under its status: enough to see how it ended. */
export const PREVIEW_LINES = 5;
/** Of a failure's preview without stderr, at most this many are the output's error lines; the rest is how it ended. */
const PREVIEW_SIGNALS = 3;
/** Lines of a multi-line command shown under its call line; the rest is "…". */
export const COMMAND_LINES = 10;

/** The lines of a bash call's command after its first (the call line shows that one), at most COMMAND_LINES in all. */
export function commandRest(name: string, argsJson: string): string[] {
  const command = name === "bash" ? parseArguments(argsJson)?.command : undefined;
  if (typeof command !== "string") return [];
  const lines = command
    .trim()
    .split("\n")
    .map((l) => l.trimEnd());
  if (lines.length <= 1) return [];
  const rest = lines.slice(1, COMMAND_LINES).map(cut);
  return lines.length > COMMAND_LINES ? [...rest, `… ${plural(lines.length - COMMAND_LINES, "more line")}`] : rest;
}

/**
 * The status of one result. `argsJson` are the call's arguments; `before` is the file's text
 * before a write_file call (undefined: a new file or unknown) for the write's diff.
 */
export function resultStatus(name: string, ok: boolean, output: string, argsJson = "{}", before?: Before): ResultStatus {
  const bad = (text: string): ResultStatus => ({ ok: false, text: cut(text), diff: [], preview: [] });
  const good = (text: string, diff: string[] = []): ResultStatus => ({ ok: true, text: cut(text), diff, preview: [] });
  // the kernel's result for a call the turn's interrupt cut short, or never started (a batch's later calls): why is the turn's own line, next
  if (!ok && CUT_SHORT.test(output)) return bad("stopped");
  if (!ok && NOT_STARTED.test(output)) return bad("not run");
  // a call the rules refused ran nothing: their words (one line), not a command's "failed"; a
  // command that ran has its exit code under what it printed, so printing their words reads as failed
  if (!ok && (output.startsWith(BLOCKED_PREFIX) || output.startsWith(PLAN_PREFIX)) && !output.includes("\n")) return refused(output);
  if (name === TOOL.bash) return bashStatus(ok, output);
  if (!ok) return bad(firstLine(output) || "failed");
  switch (name) {
    case TOOL.readFile: {
      const numbered = output.split("\n").filter((l) => /^\s*\d+\t/.test(l)).length;
      // a file over tools/read-file.ts READ_TO_END_MAX_BYTES: lines follow, not counted
      const more = /^… (?:(\d+) more lines?;|more lines follow)/m.exec(output);
      // tools/earlier-reads.ts: a re-read of unchanged lines, answered by a note
      const unchanged = /^\[unchanged: .*? (lines? [\d-]+)/.exec(output);
      if (unchanged) return good(`${unchanged[1]} unchanged: not sent again`);
      return numbered > 0 ? good(`${plural(numbered, "line")}${more ? ` (${more[1] ? `${more[1]} more` : "more follow"})` : ""}`) : good(firstLine(output));
    }
    case TOOL.grep: {
      // tools/grep-search.ts: binary files are named, never shown
      const binary = /^no matches .* but in (\d+ binary files?), not shown|^binary file .*: (\d+ lines?) \(cut at/.exec(firstLine(output));
      if (binary) return good(binary[1] ? `no matches but in ${binary[1]}` : `binary file: ${binary[2]} match`);
      if (output.startsWith("no matches")) return good("no matches");
      // the note under a cut result: `(42 in all)`, `(32544 in all, in 218 files…)`
      const all = /\((\d+) in all(?:, in (\d+) files)?/.exec(output);
      const matches = all ? Number(all[1]) : output.split("\n").filter((l) => /^.+?:\d+: /.test(l)).length;
      const shown = new Set(output.split("\n").flatMap((l) => /^(.+?):\d+: /.exec(l)?.[1] ?? [])).size;
      const files = all?.[2] ? Number(all[2]) : shown;
      const where = files > 1 ? ` in ${files} files${files > shown ? ` (${shown} shown)` : ""}` : "";
      return good(`${plural(matches, "match", "matches")}${where}`);
    }
    case TOOL.edit: {
      const [head = "", ...rest] = output.split("\n");
      return good(head.replace(/^edited .*?: /, ""), capDiff(rest));
    }
    case TOOL.writeFile: {
      const args = parseArguments(argsJson);
      const content = typeof args?.content === "string" ? args.content : undefined;
      // a file whose encoding could not hold the content is now UTF-8: every byte of its other characters changed too
      const converted = /; (now UTF-8: .*)\)$/.exec(output.split("\n")[0]!)?.[1];
      const what = (/^(created|overwrote)\b/.exec(output)?.[1] ?? firstLine(output)) + (converted ? `, ${converted}` : "");
      if (content === undefined) return good(what);
      return good(what, typeof before === "object" ? [replaced(before, content)] : writeDiff(before ?? "", content));
    }
    default:
      return good(firstLine(output) || "done");
  }
}

/** An allow list's advice in a refusal (permission/rules.ts unlisted): ` in FILE: add "ENTRY" there`, then what an exact entry's `$` means. */
const ADD_THERE = / in (\S.*?): add ("(?:[^"\\]|\\.)*") there( \(`\$`: [^()]*\))?/;

/**
 * A refusal by the rules: its words on the status line; the entry an allow list says to add, with
 * its file, on a line of its own under it, where a status cut to the terminal's width cannot lose it.
 */
function refused(output: string): ResultStatus {
  const add = ADD_THERE.exec(output);
  if (!add) return { ok: false, text: cut(output), diff: [], preview: [] };
  const text = output.slice(0, add.index) + output.slice(add.index + add[0].length);
  return { ok: false, text: cut(text), diff: [], preview: [`add ${add[2]} to ${add[1]}${add[3] ?? ""}`] };
}

/** The colour of a line of a diff: added, removed, a hunk's head, context. */
export function diffColor(line: string): string {
  if (line.startsWith("+")) return "\x1b[32m";
  if (line.startsWith("-")) return "\x1b[31m";
  if (line.startsWith("@@")) return "\x1b[36m";
  return "\x1b[2m";
}

/** What a result line adds when the model asked for the same call `copies` more times in its reply (kernel/repeats.ts firstOfSame). */
export function askedAgain(copies = 0): string {
  return copies > 0 ? ` (asked for ${copies + 1} times in one reply; run once)` : "";
}

/**
 * A past call's result in a few words, for a resumed session's recap (no turn's own line is there
 * to say why it stopped): ✓ or ✗ and its status, with why a command was stopped
 * (`✗ stopped (the terminal closed)`).
 */
export function pastStatus(name: string, ok: boolean, output: string, argsJson?: string): string {
  const status = resultStatus(name, ok, output, argsJson);
  const why =
    output
      .split("\n")
      .map((l) => STOPPED.exec(l)?.[1])
      .find(Boolean) ?? (CUT_SHORT.test(output) ? output : undefined);
  return `${status.ok ? "✓" : "✗"} ${status.text}${why && !status.text.includes(why) ? ` (${why})` : ""}`;
}

/**
 * bash: whether it failed is the result's (`ok`, as JSON says it); a failure is labelled with why
 * (exit code, timeout, `stopped` by an interrupt) and shows the first error line.
 */
function bashStatus(ok: boolean, output: string): ResultStatus {
  const lines = output.split("\n");
  const code = lines.findLast((l) => EXIT_LINE.test(l))?.match(EXIT_LINE)?.[1];
  const note = lines.map((l) => STOPPED.exec(l)).find(Boolean);
  const text = (l: string) => !MARKER.test(l) && !OMITTED.test(l) && l.trim() !== "" && l !== "(no output)";
  // the error is on stderr when there is one: after the [stderr] label, before the next label
  const at = lines.indexOf("[stderr]");
  const end = lines.findIndex((l, i) => i > at && MARKER.test(l));
  const stderr = at < 0 ? [] : lines.slice(at + 1, end < 0 ? undefined : end).filter(text);
  const printed = lines.filter(text);
  if (ok) {
    const n = lineCount(lines.filter((l) => !MARKER.test(l) && !OMITTED.test(l) && l !== "(no output)")); // blank lines count, as they do for the model
    const all = outputLines(lines, n);
    const what = n === 0 ? "no output" : all > n ? `${plural(all, "line")} of output, ${n} shown to the model` : `${plural(n, "line")} of output`;
    return { ok: true, text: what, diff: [], preview: printed.slice(-PREVIEW_LINES).map(cut) };
  }
  const first = [...stderr, ...printed][0]?.trim();
  // a call the turn's interrupt cut short says "stopped": why (Ctrl-C, a signal) is the turn's own line, next, said once
  const head = note ? (TIMED_OUT.test(note[1]!) ? note[1]! : "stopped") : code !== undefined ? `exit ${code}` : "failed";
  // a failure shows its error lines first — stderr's, else the lines of the output that read as
  // errors (a test runner's on stdout), past the one the status shows — then how the output ended
  // the line the status shows is not shown again under it
  const shown = [...stderr, ...printed].find((l) => l.trim() === first);
  const rest = (l: string) => l !== shown;
  const errors = stderr.length > 0 ? stderr.filter(rest).slice(-PREVIEW_LINES) : printed.filter((l) => isSignal(l) && rest(l)).slice(0, PREVIEW_SIGNALS);
  const other = printed.filter((l) => !stderr.includes(l) && !errors.includes(l) && rest(l));
  const preview = [...errors, ...other.slice(Math.max(0, other.length - (PREVIEW_LINES - errors.length)))];
  return { ok: false, text: cut(first ? `${head}: ${first}` : head), diff: [], preview: preview.map(cut) };
}

/**
 * How many lines the command printed, when the result holds fewer (`shown`): the filter's header
 * counts them all; a cut output adds its `… N lines (B bytes) omitted …` markers to what it shows.
 */
/** How many lines `lines` are, those before the first and after the last that has text left out. */
function lineCount(lines: readonly string[]): number {
  const first = lines.findIndex((l) => l.trim() !== "");
  return first < 0 ? 0 : lines.findLastIndex((l) => l.trim() !== "") - first + 1;
}

function outputLines(lines: readonly string[], shown: number): number {
  const header = lines.map((l) => FILTERED.exec(l)).find(Boolean);
  if (header) return Number(header[1]);
  return lines.reduce((sum, l) => sum + Number(CUT.exec(l)?.[1] ?? 0), shown);
}

const FILTERED = /^\[output filtered: \d+ of (\d+) lines dropped/;
const CUT = /^… (\d+) lines? \(.*\) omitted …$/;
const EXIT_LINE = /^\[exit code (-?\d+)\]$/;
/** the bash tool's own lines: labels, the exit code, notes about filtering, saving and stopping */
const MARKER =
  /^\[(exit code -?\d+|stderr|stdout|full output: .*|could not save .*|output filtered.*|external filter .*|.*; the process group was killed|.* before the command started|the shell was killed .*|\d+ bytes? (?:is|are) not UTF-8, .*)\]$/;
/** why bash stopped the command: `[timed out after 2 s; …]`, `[interrupted by user; …]`, `[terminated (SIGTERM); …]` */
const STOPPED = /^\[([^;\]]*); the process group was killed\]$/;
const OMITTED = /^… .* omitted …$/;
/** the kernel's result for a call the interrupt came before (notStarted) */
const NOT_STARTED = /^not run: .+ before it started$/;
/** a call's whole result when the turn was cancelled: Ctrl-C's words, or a signal's (`terminated (SIGTERM)`, ui/signals.ts) */
const CUT_SHORT = new RegExp(`^(?:${INTERRUPTED}|[a-z ]+ \\(SIG[A-Z]+\\))$`);
/** the one stop that is the call's own and not the turn's: its time ran out */
const TIMED_OUT = /^timed out after /;

/** The least a batch's status keeps of its call's label when the line must be cut: enough to tell the calls apart. */
const LABEL_MIN = 12;

/**
 * A status line, `label: text` in a batch (the label repeats the call's line) or `text` alone, cut
 * to `room` columns (none: whole): what must go is taken from the label first, down to LABEL_MIN,
 * so the outcome (`exit 3: …`, the error) stays; only then is the text cut too.
 */
export function fitStatus(label: string, text: string, room: number, width: (s: string) => number): string {
  const whole = label === "" ? text : `${label}: ${text}`;
  if (room <= 0 || width(whole) <= room) return whole;
  if (label === "") return cutToWidth(text, room, width);
  const short = cutToWidth(label, Math.max(LABEL_MIN, room - width(`: ${text}`)), width);
  return cutToWidth(`${short}: ${text}`, room, width);
}

/**
 * A file's text before write_file replaced it, or, for a file too big to read for a diff, its size
 * in bytes, its line count (undefined when too big to count) and the size over which no diff is made.
 */
export type Before = string | { bytes: number; lines?: number; maxBytes: number };

/** What a write replaced when the old text was not read: `replaced 8.4 MB, 200,000 lines, with 1 line (no diff: …)`. */
function replaced(before: Exclude<Before, string>, content: string): string {
  const lines = (n: number) => `${n.toLocaleString("en-US")} line${n === 1 ? "" : "s"}`;
  const old = before.lines === undefined ? "" : `, ${lines(before.lines)}`;
  return `replaced ${size(before.bytes)}${old}, with ${lines(countLines(content))} (no diff: the old file is over ${size(before.maxBytes)})`;
}

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB` : `${Math.round(bytes / 1024)} KB`);

/**
 * The unified diff of a write (`@@` hunks, no file headers), capped; [] when it cannot be made.
 * `before` is the old file decoded as write_file decodes it; a byte-order mark and CR line ends
 * are the file's form, which write_file keeps, not lines that changed.
 */
export function writeDiff(before: string, after: string): string[] {
  if (before.length + after.length > DIFF_MAX_CHARS) return [];
  const bare = (text: string) => text.replace(/^\uFEFF/, "");
  const patch = structuredPatch("a", "b", bare(before), bare(after), undefined, undefined, {
    context: DIFF_CONTEXT,
    timeout: DIFF_TIMEOUT_MS,
    stripTrailingCr: true,
  });
  if (!patch) return []; // timed out
  const lines = patch.hunks.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines.filter((l) => !l.startsWith("\\"))]);
  return capDiff(lines);
}

/** At most DIFF_SHOWN_LINES lines; a tool's own "… N more diff lines" note is folded into ours. */
export function capDiff(lines: string[]): string[] {
  let more = 0;
  const body = lines.filter((l) => {
    const note = /^… (\d+) more diff lines?$/.exec(l);
    if (note) more += Number(note[1]);
    return !note && l !== "";
  });
  more += Math.max(0, body.length - DIFF_SHOWN_LINES);
  const shown = body.slice(0, DIFF_SHOWN_LINES).map((l) => (l.length > LINE_MAX ? l.slice(0, LINE_MAX - 1) + "…" : l));
  return more > 0 ? [...shown, `… ${plural(more, "more line")}`] : shown;
}

function shortValue(v: unknown): string {
  const text = typeof v === "string" ? (/^[\w./:@-]+$/.test(v) ? v : JSON.stringify(oneLine(v))) : oneLine(JSON.stringify(v) ?? String(v));
  return text.length > VALUE_MAX ? text.slice(0, VALUE_MAX - 1) + "…" : text;
}

/** The first line; " …" marks that more lines follow. */
function firstLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines.length > 1 ? `${lines[0]!.trimEnd()} …` : (lines[0] ?? "");
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const cut = (text: string) => (text.length > LINE_MAX ? text.slice(0, LINE_MAX - 1) + "…" : text);
const countLines = (text: string) => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
const plural = (n: number, word: string, many = word + "s") => `${n} ${n === 1 ? word : many}`;

const RESULT_INDENT = "  ";
/** a call's diff, preview and live lines start after it */
export const DIFF_INDENT = "    ";
const [DIM, RED, GREEN, RESET] = ["\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[0m"];

/**
 * A call's result as the terminal shows it, each row with the style it is written in (none without colour): its mark and status
 * (after `label`, the call's line, when calls ran side by side; how often it was asked for again), then the diff of an edit or a
 * write and a preview of the output, each cut with "…" to `columns` (0: unknown, whole) — a row must not wrap into the next.
 */
export function resultLines(status: ResultStatus, label: string, copies: number | undefined, columns: number, width: (s: string) => number, color: boolean) {
  const room = (lead: number) => (columns <= 0 ? 0 : Math.max(1, columns - lead));
  const fitted = (text: string) => (columns <= 0 ? text : cutToWidth(text, room(0), width));
  const mark = status.ok ? "✓" : "✗";
  const text = fitStatus(label, status.text + askedAgain(copies), room(width(`${RESULT_INDENT}${mark} `)), width);
  const head = color ? `${RESULT_INDENT}${status.ok ? GREEN : RED}${mark}${RESET} ${status.ok ? DIM : RED}${text}${RESET}` : `${RESULT_INDENT}${mark} ${text}`;
  // a write's diff holds file text: cut, not wrapped away from its +/-; the output was made visible by the caller
  const rows: [string, string | undefined][] = [[head, undefined]];
  for (const line of status.diff) rows.push([fitted(DIFF_INDENT + visible(line)), diffColor(line)]);
  for (const line of status.preview) rows.push([fitted(DIFF_INDENT + line), DIM]);
  return rows;
}

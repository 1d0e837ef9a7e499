// The REPL history files (issue 28): the project's and the global one, read at start (their
// ends) and appended to a line at a time. Never through a link.
import { appendOwnFile, readOwnFile } from "../fs/own-files.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { fileProblem } from "../fs/dir-problem.ts";
import { wrapColumns } from "./wrap.ts";
import { decodeHistoryLine, encodeHistoryEntry } from "./history-line.ts";
import { HISTORY_SIZE } from "./history-line.ts";
import { terminalWidth } from "./term.ts";

/** The end of the history file read at start: far more than HISTORY_SIZE typical entries. */
export const HISTORY_READ_BYTES = 1024 * 1024;

/**
 * The history at start, oldest first: the project's, after the lines of the global file it lacks
 * (what other projects ran), so ↑ and Ctrl-R go through this project's lines first.
 */
export function loadHistories(project: string, global: string): string[] {
  const own = loadHistory(project);
  if (own.length >= HISTORY_SIZE) return own;
  const mine = new Set(own);
  return [...loadHistory(global).filter((l) => !mine.has(l)), ...own].slice(-HISTORY_SIZE);
}

/** Oldest first; one entry a line (history-line.ts). Never through a link. */
function loadHistory(file: string): string[] {
  try {
    const read = readOwnFile(file, HISTORY_READ_BYTES, { tail: true });
    if (!read) return [];
    const lines = read.text.split("\n");
    if (read.truncated) lines.shift(); // the cut first line
    return lines
      .filter((l) => l.replace(/\0/g, "") !== "") // NUL bytes alone: what a crash can leave of the file's end
      .map(decodeHistoryLine)
      .slice(-HISTORY_SIZE);
  } catch {
    return [];
  }
}

let historyWarned = false;

/**
 * Appends `entry` to the history `file`, but for one longer than a start reads: it would never come
 * back, and the start would read only its cut end — every line before it lost to ↑ and Ctrl-R.
 */
export function appendHistory(file: string, entry: string): void {
  const line = encodeHistoryEntry(entry) + "\n";
  if (Buffer.byteLength(line) > HISTORY_READ_BYTES) return; // kept in this run's history (repl-state.ts), not the file
  try {
    appendOwnFile(file, line);
  } catch (e) {
    // a sentence wrapped at spaces (not mid-word by the terminal), naming what to do rather than the system call
    const line = `hey: cannot save history to ${file}: ${errnoCode(e) ? fileProblem(file, e, "XDG_STATE_HOME") : errorText(e)}`;
    if (!historyWarned) process.stderr.write(`${wrapColumns(line, process.stderr.columns || 0, terminalWidth)}\n`);
    historyWarned = true;
  }
}

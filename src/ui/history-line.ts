// One REPL history entry per line of the history file (at most HISTORY_SIZE kept: remembered).
// A newline in an entry is written `\n`; so
// that a typed `\n` (as in `grep -P "a\nb"`) survives, a run of backslashes right before an `n`
// or a newline is doubled. Decoding reads a run of k backslashes before `n` as k/2 backslashes
// and, when k is odd, a newline. Lines written before the doubling decode as they always did,
// except a run of two or more backslashes before `n`, which they could not tell apart anyway.

/** `entry` as one line of the history file (no newline in it). */
export function encodeHistoryEntry(entry: string): string {
  return entry.replace(/(\\*)(n|\n)/g, (_, run: string, c: string) => run + run + (c === "\n" ? "\\n" : "n"));
}

/** The entry a line of the history file holds; the inverse of encodeHistoryEntry. */
export function decodeHistoryLine(line: string): string {
  return line.replace(/(\\+)n/g, (_, run: string) => "\\".repeat(Math.floor(run.length / 2)) + (run.length % 2 === 1 ? "\n" : "n"));
}

/** Keep this many history entries. */
export const HISTORY_SIZE = 1000;

/** The history with `entry` last (not twice in a row), at most HISTORY_SIZE long. */
export function remembered(history: readonly string[], entry: string): readonly string[] {
  const next = history.at(-1) === entry ? [...history] : [...history, entry];
  return next.slice(-HISTORY_SIZE);
}

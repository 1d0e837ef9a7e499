// What `/undo` did (checkpoints.ts), as the words for it (ui/undo-report.ts) read it. Types only.

/** What `/undo` did, file by file (paths as the agent's tools resolved them). */
export interface UndoReport {
  restored: string[];
  removed: string[];
  /** changed since the agent left it: not touched */
  changed: string[];
  /** no copy was kept (too big, unreadable): not touched */
  skipped: { path: string; why: string }[];
  /** the turn also ran bash commands, whose changes are not undone */
  ranBash: boolean;
  /** the newer turns passed over (they changed no file with edit or write_file) */
  later: Later;
  /** an older turn changed files too: a next `/undo` has one to undo */
  older: boolean;
}

/** Turns newer than the one `/undo` reaches: how many, and how many of those ran bash commands (whose changes stay). */
export interface Later {
  turns: number;
  ranBash: number;
}

/**
 * What `/undo` did: `undone`, the report; `waiting`, nothing yet: newer turns ran bash commands,
 * and the next `/undo` (no turn begun between) undoes the turn that changed `files`; `none`, no
 * turn changed a file with edit or write_file (`later`: the newer turns it looked at; `gone`: the
 * session's earlier turns changed files but their record is gone, and why it may be; `undone`: the
 * turns that changed files `/undo` already put back, in this hey or, as its record says, an earlier one).
 */
export type UndoOutcome =
  | { kind: "undone"; report: UndoReport }
  | { kind: "elsewhere"; root: string; files: string[]; unanswered?: string }
  | { kind: "waiting"; later: Later; files: string[] }
  | { kind: "none"; later: Later; gone?: string; undone?: number };

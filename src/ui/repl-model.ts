// The interactive prompt's state (repl-state.ts steps it): what it holds between keys, and the state it starts in. Pure.
import { emptyEditor, type EditorState } from "./line-editor.ts";
import { foldEntry, type Pastes } from "./paste-fold.ts";
import type { Search } from "./history-search.ts";
import type { TurnEndTimes } from "./typed-ahead.ts";

/** The turn-end times: keys read right after a turn ended may have been typed during it (typed-ahead.ts). */
export interface ReplState extends TurnEndTimes {
  /** prompt: editing a line; search: Ctrl-R at the prompt; busy: a turn runs; ask: a question during a turn takes the keys; done: left */
  mode: "prompt" | "search" | "busy" | "ask" | "done";
  editor: EditorState;
  /** earlier lines, oldest first, their big pastes folded (paste-fold.ts) */
  history: readonly string[];
  /** the pastes folded this session, in the line and in history; sent and saved in full */
  pastes: Pastes;
  /** when Ctrl-C last hit an empty prompt (ms), 0 when it did not */
  lastCtrlC: number;
  /** the running turn was cancelled (Ctrl-C, Esc, a signal) */
  cancelled: boolean;
  /** Ctrl-C presses since the cancel the turn has not honoured */
  cancelPresses: number;
  /** when the running turn was cancelled by a key (ms) */
  cancelledAt?: number;
  /** what was typed during the last turn, shown when it ended: a Ctrl-C that clears it as it stands says so (it was never seen being typed) */
  typedAhead?: string;
  /** lines Enter queued during a turn, oldest first, pastes folded: each is sent as a turn of its own as the one before ends; a cancel puts them back at the prompt */
  queued: readonly string[];
  /** the line typed during a turn that a Ctrl-C then cleared, unsent since: a Ctrl-C that leaves hey keeps it in the history */
  clearedAhead?: string;
  /** the line as the last paste left it, the cursor after the paste: a `\` it ends in is text, not a line continuation */
  pasted?: string;
  /** the question being asked, and the line that waits under it */
  asking?: { question: string; saved: EditorState };
  /** the exit code after a signal (or the terminal closing) */
  signalled?: number;
  /** the history search under way, and the line it started from (given back when it is cancelled) */
  search?: { state: Search; saved: EditorState };
  /** the query of the last search (Ctrl-R Ctrl-R takes it up again) */
  lastQuery: string;
  /** lines that did not come from a turn (an MCP server connected), kept while a turn runs */
  later: readonly string[];
  /** what the last Ctrl-U, Ctrl-K, Ctrl-W, Alt-D or Ctrl-C (the whole line) cut, for Ctrl-Y; kept across lines (cut a draft, send another line, bring it back) */
  killed: string;
  /** the last key was one of those kills: the next adds to `killed` (Ctrl-W Ctrl-W then Ctrl-Y brings both words back) */
  killing?: boolean;
  /** the screen column Up and Down in a row keep to, the cursor's at the first of them: a short row between does not change it */
  goalCol?: number;
  /** when Esc last hit an empty prompt (ms): Esc Esc, Claude Code's rewind, points to /undo */
  lastEscape?: number;
  /** Ctrl-L during a turn asked the terminal where the cursor is: the next cursorAt is its answer, not a modified F3 (CSI 1;2R) */
  cursorAsked?: boolean;
  /** Ctrl-X was the last key at the prompt: a Ctrl-E next opens the line in the user's editor */
  ctrlX?: boolean;
}

/** `history`: the lines of earlier sessions, oldest first, in full (folded here as a paste would be). */
export function initialRepl(history: readonly string[]): ReplState {
  let pastes: Pastes = [];
  const folded = history.map((entry) => {
    const f = foldEntry(pastes, entry);
    pastes = f.pastes;
    return f.text;
  });
  return {
    mode: "prompt",
    editor: emptyEditor(folded),
    history: folded,
    pastes,
    lastCtrlC: 0,
    cancelled: false,
    cancelPresses: 0,
    lastQuery: "",
    later: [],
    queued: [],
    killed: "",
  };
}

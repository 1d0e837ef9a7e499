// What reaches the interactive prompt's step (repl-state.ts) and what it asks its driver (repl.ts) to do, in order.
import type { Key } from "./keys.ts";
import type { ListFit } from "./line-editor.ts";

export type ReplEvent =
  | {
      type: "key";
      key: Key;
      /** more keys arrived with it (an unbracketed paste): Enter is a newline */
      more: boolean;
      now: number;
      /** where Up or Down lands in the line as drawn (a long line wraps) */
      rowMove?: RowMove;
    }
  /** the completions of the line before the cursor, asked for by a `complete` effect */
  | { type: "completed"; candidates: string[]; fit?: ListFit }
  /**
   * a turn's line ended (at `now`, ms); `quit`: /quit; `failed`: it did not do all it meant to (ReplOptions.onLine's "failed", or it
   * threw): what was queued during it waits at the prompt
   */
  | { type: "ended"; line: string; quit: boolean; now: number; failed?: boolean }
  | { type: "ask"; question: string }
  /** SIGTERM, SIGHUP or the terminal gone: `code` is the exit code, `why` what the cancelled turn says */
  | { type: "signal"; code: number; why: string }
  | { type: "aside"; line: string }
  /** the user's editor closed (an `edit` effect): `text` as it left the file, or undefined and `why` not */
  | { type: "edited"; text: string | undefined; why?: string };

/**
 * Where Up (-1) or Down (1) lands in the line as drawn: the index in the text at screen column
 * `goal` on the row above or below, or the nearest before it (the cursor's column when no goal is
 * given), and the goal it kept to; undefined on the first or last row.
 */
export type RowMove = (dir: -1 | 1, goal?: number) => { index: number; goal: number } | undefined;

export type Effect =
  /**
   * draw the prompt (or the question) and the line again, where they stand; `fresh`: from the
   * cursor's line (output came since); `line`: that line after the prompt instead of the state's
   * (a line a search found, sent: shown as a typed line is before the turn takes the editor)
   */
  | { type: "draw"; fresh?: true; line?: string }
  /** leave the drawn prompt: the cursor goes to a fresh line below it */
  | { type: "below" }
  /** lines above the prompt; `dim`: a hint */
  | { type: "print"; text: string; dim?: boolean }
  /** clear the prompt as drawn, print `text` (a line that is not a turn's) and draw again */
  | { type: "aside"; text: string }
  | { type: "clearScreen" }
  /** during a turn, Ctrl-L: ask the terminal where the cursor is (it answers with a cursorAt key) */
  | { type: "askCursor" }
  /** the screen cleared but for the row the turn is writing on (where the cursor is: `row`, `col` from 1), which goes to the top */
  | { type: "keepRow"; row: number; col: number }
  /** append to the history file */
  | { type: "remember"; entry: string }
  /** run `line` as a turn (the driver answers with an `ended` event) */
  | { type: "run"; line: string }
  /** cancel the running turn, saying why (undefined: interrupted by the user) */
  | { type: "abort"; why?: string }
  /** the question's answer (undefined: cancelled) */
  | { type: "answer"; text: string | undefined }
  /** compute the completions of `line` (the driver answers with a `completed` event) */
  | { type: "complete"; line: string }
  /** leave the REPL with `code` */
  | { type: "leave"; code: number }
  /** exit the process now (a turn that ignores its cancel): what the turn shows cleared, `why` said on a line of its own */
  | { type: "exit"; code: number; why: string }
  /** exit with `code` if the cancelled turn has not ended within the grace period */
  | { type: "grace"; code: number }
  /** Ctrl-Z: give the terminal back, stop until the shell's `fg`, then take it again and draw */
  | { type: "suspend" }
  /** Ctrl-G or Ctrl-X Ctrl-E: `text` (the line, its pastes whole) in the user's editor; the driver answers with an `edited` event */
  | { type: "edit"; text: string }
  | { type: "plan" }; // Shift-Tab at the prompt: plan mode on or off, said above the prompt, which is drawn again as the mode shows it

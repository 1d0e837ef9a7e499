// What the terminal's output takes and gives (terminal.ts createTerminalOutput): the streams it
// writes to, its options, and what the REPL and the commands call on it besides the agent's events.
import type { Output } from "../kernel/output.ts";
import type { Before } from "./tool-lines.ts";

export interface Stream {
  write(text: string): void;
  /** ANSI colours and styles (term.ts wantsColor: a terminal, NO_COLOR unset, or FORCE_COLOR) */
  color: boolean;
  /** a person is watching (a terminal): the spinner, markdown (with colour) and word wrap */
  tty: boolean;
  /** the terminal's width now; absent or 0 = no wrapping */
  columns?(): number;
  /** the terminal's height now; absent or 0 = unknown */
  rows?(): number;
}

export interface TerminalOptions {
  maxRetries?: number;
  /** the key that cancels /compact, said with its spinner: Esc at the prompt; none with -p, which reads no keys (Ctrl-C ends hey) */
  cancelKey?: string;
  /** display columns of a string (wide characters take two); default: one per code point */
  stringWidth?(text: string): number;
  /** the text of a file before a write_file call replaces it, for the diff (or its size when too big to read); undefined = none */
  readBefore?(path: string): Before | undefined;
  /** what to tell the user after an error (a setup hint), if anything */
  hint?(error: { kind: string; message: string; max_tokens?: number }): string | undefined;
  /** the host of the endpoint answering now, which the spinner names when a reply is long in coming (spinner-words.ts) */
  host?(): string | undefined;
  /** ms clock for the spinner's elapsed seconds */
  now?(): number;
  /** runs `run` once after `ms` unless the returned function is called first (the quiet status's wait); default: a timer */
  later?(ms: number, run: () => void): () => void;
}

/**
 * `answer` receives the assistant's text; `info` thinking, tool lines, retries and errors.
 * In the REPL both are stdout; in `-p` mode `info` is stderr.
 */
export interface TerminalOutput extends Output {
  /** stops the spinner and clears its line (the caller is about to write) */
  stopSpinner(): void;
  /** flips whether thinking is shown (display only; what is sent never changes); returns the new state */
  toggleThinking(): boolean;
  /** a line about background work (an MCP server connected) on its own line; a running spinner goes on under it */
  notice(line: string): void;
  /**
   * hey is stopping (Ctrl-Z, SIGTSTP): the status row cleared, the cursor on a line of its own under the answer's
   * unfinished line; returns what writes that line again once hey continues (after the shell's lines: the stream goes on
   * there), its status under it. `moved`: hey was stopped unseen (SIGSTOP) and has continued: nothing drawn is cleared.
   */
  suspend(moved: boolean): () => void;
  /**
   * The REPL's rows under the status while a turn runs (what the user types and queues meanwhile), drawn at the width given,
   * again at each frame; a stream's text that has gone on shows them under it at once. Undefined: none.
   */
  typing(rows: ((columns: number) => string[]) | undefined): void;
}

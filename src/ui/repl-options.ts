// What the REPL's driver (repl.ts) takes from the run that opens it, and lends a line's handler.

export interface ReplIo {
  /** asks one question at a prompt of its own; undefined when the user cancels (Ctrl-C, Esc, Ctrl-D) */
  ask(question: string): Promise<string | undefined>;
  /**
   * Lends the terminal to `use` (a `!` command): cooked mode, the keys its own; a Ctrl-C is a
   * SIGINT to it and cancels the line. The REPL takes the terminal back when `use` settles.
   */
  lend<T>(use: () => Promise<T>): Promise<T>;
}

export interface ReplOptions {
  /** plain text, e.g. "› "; read at each draw (plan mode shows in it) */
  prompt: string;
  /** Shift-Tab: turns plan mode on or off; what to say above the prompt */
  togglePlan?(): string;
  color: boolean;
  /**
   * this project's history (read and appended to) and every project's (appended to, read where this
   * one's runs out); `hide`: an entry as written to them (the secrets hey knows replaced)
   */
  history: { project: string; global: string; hide(entry: string): string };
  /** completions for the text before the cursor (slash commands, @paths, model names) */
  complete(line: string): string[];
  /**
   * Handles one message or slash command. `signal` aborts on Ctrl-C or Esc. Returns "quit" to
   * leave the REPL; "failed" when the line did not do all it meant to (the agent's run ended in an
   * error, at a limit or cut off; a mistyped command), having said why: the lines queued during it
   * wait at the prompt, unsent. May throw: the message is shown, and it counts as failed.
   */
  onLine(line: string, signal: AbortSignal, io: ReplIo): Promise<"quit" | "failed" | void>;
  /**
   * Called once at start with the REPL's way to show a line that did not come from a turn (an MCP
   * server connected): above the prompt while it is drawn, after the turn while one runs.
   */
  aside?(print: (line: string) => void): void;
  /**
   * hey stops (Ctrl-Z, SIGTSTP) during a turn, or (`moved`) has continued after a stop it could not see (SIGSTOP): what
   * the turn shows is put aside; returns what writes it again below the shell's lines (TerminalOutput.suspend).
   */
  stopping?(moved: boolean): () => void;
  /**
   * hey quits while a turn has not stopped after its cancel (Ctrl-C again): what the turn shows is cleared and the
   * session closed as it stands; returns what to say of the session (empty: nothing saved). Must not throw.
   */
  quitMidTurn?(): string;
  /** while a turn runs, the rows that show what is typed and queued meanwhile, at a width (TerminalOutput.typing); undefined: none */
  typing?(rows: ((columns: number) => string[]) | undefined): void;
  /** whether a pasted path names a file: a paste that is one dropped image or PDF becomes its mention (ui/dropped-file.ts); unset, pastes stay text */
  isFile?(path: string): boolean;
}

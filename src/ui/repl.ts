// The interactive prompt's driver (SPEC §17, issues 14 and 28): hey's own line editor in raw mode.
// What each key does in each mode is repl-state.ts's pure step; this file reads the terminal, draws
// the line, runs lines (`onLine`: what a line means is the caller's business) and carries out the
// steps' effects. History persists per project, the global file read where a project's runs out;
// Tab completes; a bracketed paste is one message; a resize redraws; Ctrl-Z suspends. The terminal
// is restored on every way out (Ctrl-D, Ctrl-C, /quit, SIGTERM, SIGHUP, process exit) and while
// hey is stopped or a `!` command has it.
import { writeSync } from "node:fs";
import { appendHistory, loadHistories } from "./history-store.ts";
import { parseKeys, waitsForPaste, type Key } from "./keys.ts";
import { pasteLabel } from "./paste-fold.ts";
import { droppedKey } from "./dropped-file.ts";
import { drawnLines, promptRows, reflowedRow, rowMove as rowMoveOf, windowTop, type DrawnLines, type Row } from "./prompt-rows.ts";
import { editText } from "./external-editor.ts";
import { drawn, initialRepl, promptOf, runInitial, step, type Effect, type ReplEvent } from "./repl-state.ts";
import { aheadRows, type AheadLook } from "./typed-ahead.ts";
import { exitAfterGrace, onJobControl, onSignals, SIGNAL_EXIT, SIGNAL_REASON, stopJob, type EndSignal } from "./signals.ts";
import { visible } from "./visible.ts";
import { wrapColumns } from "./wrap.ts";
import { errorText } from "../kernel/errors.ts";
import { codePointWidth, isTty, letGo, terminalWidth } from "./term.ts";

export type { ReplIo, ReplOptions } from "./repl-options.ts";
import type { ReplIo, ReplOptions } from "./repl-options.ts";

/** An ESC with nothing after it for this long is the Escape key, not the start of a sequence. */
const ESC_TIMEOUT_MS = 50;
/** The terminal went away without a SIGHUP first: its input ended (read 0) or failed (EIO). */
const CLOSED = "the terminal closed";

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const CONTINUATION = "… ";
const DIM = "\x1b[2m";
const PROMPT_STYLE = "\x1b[1;36m";
const RESET = "\x1b[0m";
const ERASE_LINE = "\x1b[K";
/** everything from the cursor's row down cleared, never from the screen's top corner (see draw) */
const CLEAR_BELOW = "\r \x1b[J\r";

/**
 * Runs until /quit, Ctrl-D at an empty prompt, a second Ctrl-C at an empty prompt, SIGTERM,
 * SIGHUP, SIGQUIT or the terminal closing (a hang-up too). Resolves to 143 / 129 / 131 after a signal or a
 * hang-up, 130 when the last turn was interrupted, else 0. What each key does is repl-state.ts's;
 * this driver reads the terminal, draws the line and carries out what a step says.
 */
export function runRepl(opts: ReplOptions, initial?: string): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  const out = (t: string) => {
    try {
      stdout.write(t);
    } catch {} // the terminal is gone (SIGHUP): nothing left to show
  };
  const columns = () => stdout.columns || 80;
  let asking = false; // draw() is asking the terminal its size: the resize it finds is drawn by that draw
  /**
   * The terminal's width as it is now. The runtime learns of a resize at its SIGWINCH, read after a
   * key typed meanwhile (a key typed just after a resize is drawn at the old width, leaving a copy
   * of the line's first rows) and never sent to a job stopped while the window changed (at `fg`):
   * asked again, as the runtime itself does at a SIGWINCH (Node's and Bun's _refreshSize).
   */
  const columnsNow = () => {
    asking = true;
    try {
      (stdout as { _refreshSize?: () => void })._refreshSize?.();
    } catch {} // the terminal is gone: the width known stays
    asking = false;
    return columns();
  };
  /** text of several lines as the terminal needs them: a raw terminal moves down a row at \n but stays in its column */
  const shownLines = (text: string) => (restored ? visible(text) : visible(text).replaceAll("\n", "\r\n"));
  /** a tab as spaces, a folded paste as its label, a control character made visible */
  const shown = (ch: string) => (ch === "\t" ? "    " : (pasteLabel(state.pastes, ch) ?? visible(ch)));
  /** a code point's columns as a terminal counts them (one at a time, as tmux and xterm do) */
  const width = codePointWidth;
  const style = (t: string, s: string) => (opts.color ? s + t + RESET : t);

  let state = initialRepl(loadHistories(opts.history.project, opts.history.global));
  let drawnRow = 0; // the cursor's row within the drawn prompt
  let drawnBelow = 0; // rows from the cursor's to the drawn prompt's end (the step may have changed the line since)
  let pending = ""; // an unfinished escape sequence or paste
  let escTimer: ReturnType<typeof setTimeout> | undefined;
  let turn: AbortController | undefined;
  let answerAsk: (answer: string | undefined) => void = () => {};
  let resolveRepl: (code: number) => void = () => {};

  /** what a draw shows: the prompt (or the question, or the search) and the line with its cursor */
  type View = { prompt: string; text: string; cursor: number };
  const current = (): View => ({ prompt: promptOf(state, opts.prompt), text: state.editor.text, cursor: state.editor.cursor });
  const place = (view = current(), cols = columns(), stops = false) => promptRows(view.prompt, CONTINUATION, view.text, view.cursor, cols, shown, width, stops);
  const screenRows = () => Math.max(1, stdout.rows || 24);
  let top = 0; // the first row shown of a line taller than the screen
  let windowed: View | undefined; // the last draw showed only part of this view
  const NOTHING: DrawnLines = { cells: [[]], line: 0, offset: 0, cols: 1 };
  let lines = NOTHING; // what the last draw left, as the terminal reflows it
  let drawnCols = 0; // the width it was drawn at
  /** output came since the last draw (or it was left): the line is drawn from where the cursor is */
  const forget = () => {
    drawnRow = 0;
    lines = NOTHING;
  };
  /** the cursor's row in the drawn prompt now: after a resize, where the terminal's reflow of what was drawn put it */
  const rowNow = (cols = columns()) => (cols === drawnCols ? drawnRow : reflowedRow(lines, cols));
  const styled = (row: Row) => (row.prompt && style(row.prompt, PROMPT_STYLE)) + (row.continuation && style(row.continuation, DIM)) + row.text;
  /** `whole`: every row, even of a line taller than the screen (it is being left, and stays above what follows) */
  function draw(view = current(), whole = false): void {
    const cols = columnsNow();
    drawnRow = rowNow(cols);
    const at = place(view, cols);
    const height = whole ? at.rows.length : screenRows();
    top = windowTop(at.rows.length, at.cursorRow, height, top);
    const rows = at.rows.slice(top, top + height);
    // a row the terminal wraps is written on from the one above, so a resize reflows it; in a
    // window every row is a line of its own, and the window never scrolls. What a row does not
    // fill is cleared as it is written: a clear from the screen's top corner would scroll the old
    // screen into the scrollback in tmux and some terminals (a copy per key)
    const rest = (row: Row) => (row.width < cols ? ERASE_LINE : "");
    const joined = rows.length === at.rows.length;
    const continues = (row: Row) => joined && row.wrapped && row.text !== "";
    let s = (drawnRow > 0 ? `\x1b[${drawnRow}A` : "") + CLEAR_BELOW;
    s += rows.map((row, i) => (i === 0 || continues(row) ? "" : "\r\n") + styled(row) + rest(row)).join("");
    const last = top + rows.length - 1;
    if (last > at.cursorRow) s += `\x1b[${last - at.cursorRow}A`;
    s += "\r" + (at.cursorCol > 0 ? `\x1b[${at.cursorCol}C` : "");
    drawnRow = at.cursorRow - top;
    drawnBelow = last - at.cursorRow;
    lines = drawnLines(rows, continues, cols, drawnRow, at.cursorCol);
    drawnCols = cols;
    windowed = rows.length < at.rows.length ? view : undefined;
    out(s);
  }
  /** leaves the drawn prompt: the cursor goes to a fresh line below it, past all of the line as drawn (Enter with the cursor mid-line) */
  function moveBelow(): void {
    if (windowed) draw(windowed, true);
    out((drawnBelow > 0 ? `\x1b[${drawnBelow}B` : "") + "\r\n");
    forget();
    drawnBelow = 0;
    top = 0;
  }

  /** One event through the step, its effects carried out in order. */
  function dispatch(event: ReplEvent): void {
    const next = step(state, event);
    state = next.state;
    for (const effect of next.effects) apply(effect);
    showAhead();
  }
  const look: AheadLook = { shown, width: terminalWidth, mark: (ch) => (opts.color ? `\x1b[7m${ch}\x1b[27m` : ch) };
  let aheadShown = false;
  /** during a turn, what is typed and queued is drawn under its status (the turn's output draws it, at each frame's width) */
  function showAhead(): void {
    const { mode, queued, editor } = state;
    const shows = mode === "busy" && !lent && !restored && (queued.length > 0 || editor.text !== "");
    if (shows || aheadShown) opts.typing?.(shows ? (cols) => aheadRows(queued, editor.text, editor.cursor, cols, look) : undefined);
    aheadShown = shows;
  }
  function apply(e: Effect): void {
    switch (e.type) {
      case "draw":
        if (e.fresh) forget();
        return draw(e.line === undefined ? undefined : { prompt: opts.prompt, text: e.line, cursor: e.line.length });
      case "below":
        return moveBelow();
      case "print":
        return out(style(shownLines(e.text), e.dim ? DIM : "") + (restored ? "\n" : "\r\n"));
      case "aside":
        out((rowNow() > 0 ? `\x1b[${rowNow()}A` : "") + CLEAR_BELOW + shownLines(e.text) + "\r\n");
        forget();
        return draw();
      case "clearScreen":
        out("\x1b[H\x1b[2J");
        forget();
        return;
      case "askCursor":
        return out("\x1b[6n");
      case "keepRow":
        // the rows above deleted (the kept one moves up), those below it cleared, the cursor where it was on it
        return out(`\x1b[H${e.row > 1 ? `\x1b[${e.row - 1}M` : ""}\x1b[2;1H\x1b[J\x1b[1;${e.col}H`);
      case "remember":
        for (const file of [opts.history.project, opts.history.global]) appendHistory(file, opts.history.hide(e.entry));
        return;
      case "run":
        return void runLine(e.line);
      case "abort":
        return turn?.abort(e.why);
      case "answer":
        return answerAsk(e.text);
      case "complete":
        return dispatch({ type: "completed", candidates: opts.complete(e.line), fit: { columns: columns(), width: terminalWidth } });
      case "leave":
        restore();
        return resolveRepl(e.code);
      case "exit": {
        // the turn's status cleared (not left half-drawn for the shell to write over), and why hey ends said
        const session = opts.quitMidTurn?.();
        out(wrapColumns(visible(session ? `${e.why}; ${session}` : e.why), columns(), terminalWidth).replaceAll("\n", "\r\n") + "\r\n");
        restore();
        return process.exit(e.code);
      }
      case "grace":
        return exitAfterGrace(e.code, restore);
      case "suspend":
        return suspend();
      case "edit": // the drawn line cleared: the editor may not take the whole screen; its text is drawn after it
        out((rowNow() > 0 ? `\x1b[${rowNow()}A` : "") + CLEAR_BELOW);
        return void io.lend(() => editText(e.text)).then((done) => dispatch({ type: "edited", ...done }));
      case "plan": {
        const said = opts.togglePlan?.();
        return said ? apply({ type: "aside", text: said }) : undefined;
      }
    }
  }

  /**
   * Ctrl-Z, or a SIGTSTP from outside: the terminal as the shell left it, hey stopped; after `fg`
   * raw mode again and the line redrawn. While a `!` command has the terminal (a Ctrl-Z there
   * stops it and hey alike) it stays the command's.
   */
  function suspend(): void {
    const ours = !lent;
    let goOn = () => {};
    if (ours) {
      if (drawn(state)) moveBelow();
      else if (turn) goOn = opts.stopping?.(false) ?? goOn; // an answer mid-line: its status cleared, a line of its own
      release();
    }
    stoppedHere = true;
    // here after the shell's `fg` (SIGCONT), or at once when the shell has no job control and the
    // kernel discarded the stop (an orphaned process group)
    stopJob();
    setImmediate(() => (stoppedHere = false)); // after a SIGCONT's listener: a discarded stop brings none to reset it
    if (!ours || restored) return;
    acquire();
    columnsNow(); // the window may have changed while hey was stopped: the answer goes on at the width it has now
    goOn();
    if (drawn(state)) draw();
  }
  /**
   * SIGCONT: after a stop suspend() made, nothing more (it has taken the terminal back); after a
   * SIGSTOP (`kill -STOP`, which no program can catch) the shell has set the terminal its own way
   * meanwhile and written below the line: raw mode again, and the line drawn where the cursor is.
   */
  function continued(): void {
    if (stoppedHere) {
      stoppedHere = false;
      return;
    }
    if (lent || restored) return;
    try {
      if (stdin.isTTY) {
        stdin.setRawMode(false); // raw already as far as the runtime knows: it would not set it again
        stdin.setRawMode(true);
      }
    } catch {}
    out(PASTE_ON);
    columnsNow(); // as after a Ctrl-Z: no SIGWINCH came while stopped
    if (turn && !drawn(state)) opts.stopping?.(true)(); // the answer's unfinished line again, below the shell's lines
    if (drawn(state)) {
      forget();
      draw();
    }
  }

  async function runLine(line: string): Promise<void> {
    turn = new AbortController();
    let how: "quit" | "failed" | void = "failed";
    try {
      how = await opts.onLine(line, turn.signal, io);
    } catch (e) {
      out(`${wrapColumns(`hey: ${visible(errorText(e))}`, columns(), terminalWidth)}\n`); // at spaces, never mid-word
    }
    turn = undefined;
    dispatch({ type: "ended", line, quit: how === "quit", failed: how === "failed", now: Date.now() });
  }

  const io: ReplIo = {
    ask: (question) =>
      new Promise((resolve) => {
        answerAsk = resolve;
        dispatch({ type: "ask", question });
      }),
    async lend(use) {
      release();
      try {
        return await use();
      } finally {
        // the terminal's Ctrl-C went to hey too (cooked mode, one process group): its handler may
        // still be queued behind the command's exit, and must run while the terminal is lent, where
        // it stops the command, not at the prompt, where it would ask "press Ctrl-C again"
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!restored) acquire();
      }
    },
  };

  function onData(chunk: string | Buffer): void {
    clearTimeout(escTimer);
    const { keys, rest } = parseKeys(pending + chunk.toString());
    pending = rest;
    const rowMove = (dir: -1 | 1, goal?: number) => rowMoveOf(place(undefined, undefined, true), dir, goal);
    const feed = (ks: Key[]) => {
      for (const [i, key] of ks.entries())
        dispatch({ type: "key", key: droppedKey(key, state.editor, opts.isFile), more: i < ks.length - 1, now: Date.now(), rowMove });
    };
    if (rest !== "" && !waitsForPaste(rest))
      escTimer = setTimeout(() => {
        const flushed = parseKeys(pending, true);
        pending = flushed.rest;
        feed(flushed.keys);
      }, ESC_TIMEOUT_MS);
    feed(keys);
  }

  // ---- the terminal, and giving it back ----
  // the terminal reflowed the drawn line (draw finds where that put the cursor): drawn again at the new width (the rows under a
  // turn's status are drawn at each frame's width)
  const onResize = () => drawn(state) && !lent && !asking && draw();
  // closing a terminal window ends its input (often just before the SIGHUP): a hang-up, not a /quit
  const onEnd = () => dispatch({ type: "signal", code: SIGNAL_EXIT.SIGHUP, why: CLOSED });
  const ignore = () => {};
  let offSignals = (_keep?: readonly EndSignal[]) => {};
  let restored = false;
  let stoppedHere = false; // suspend() stopped hey: the SIGCONT that follows needs nothing more
  let offJobControl = () => {};
  let lent = false; // a `!` command or the shell (Ctrl-Z) has the terminal
  /** the terminal as it was before hey: keys stop coming, bracketed paste is off */
  function release(): void {
    lent = true;
    clearTimeout(escTimer);
    pending = "";
    out(PASTE_OFF);
    stdin.off("data", onData);
    stdin.pause();
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {}
  }
  /** the terminal hey's again: raw mode, bracketed paste, keys read */
  function acquire(): void {
    lent = false;
    forget();
    try {
      if (stdin.isTTY) stdin.setRawMode(true);
    } catch {}
    stdin.on("data", onData);
    stdin.resume();
    out(PASTE_ON);
  }
  function restore(): void {
    if (restored) return;
    restored = true;
    clearTimeout(escTimer);
    try {
      writeSync(1, PASTE_OFF);
    } catch {}
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {}
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.off("error", onEnd);
    stdin.pause();
    stdout.off("resize", onResize);
    offJobControl();
    // after a hang-up the SIGHUP that follows must not kill hey (by default) before the session is closed and unlocked
    offSignals(state.signalled === SIGNAL_EXIT.SIGHUP ? ["SIGHUP"] : []);
    // and what hey still says as it ends (the jobs it stops, a session not saved) is not written to the
    // terminal gone: a write there fails with EIO, which Bun's writer can raise past any catch and end hey before it has
    if (state.signalled === SIGNAL_EXIT.SIGHUP) for (const fd of onTerminal) letGo(fd);
  }

  const onTerminal = ([1, 2] as const).filter((fd) => isTty(fd)); // known now: a hung-up terminal no longer answers as one
  return new Promise((resolve) => {
    resolveRepl = resolve;
    process.on("exit", restore);
    offSignals = onSignals({
      interrupt: () => dispatch({ type: "key", key: { type: "key", name: "interrupt" }, more: false, now: Date.now() }), // `kill -INT`: raw mode keeps Ctrl-C from being a signal
      end: (name) => dispatch({ type: "signal", code: SIGNAL_EXIT[name], why: SIGNAL_REASON[name] }),
    });
    offJobControl = onJobControl(suspend, continued);
    stdout.on("error", ignore);
    stdout.on("resize", onResize);
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.on("end", onEnd);
    stdin.on("error", onEnd); // EIO: the terminal is gone
    stdin.resume();
    out(PASTE_ON);
    // a notice is a sentence: wrapped at spaces, not mid-word by the terminal
    opts.aside?.((line) => dispatch({ type: "aside", line: wrapColumns(visible(line), columns(), terminalWidth) }));
    if (initial && initial.trim() !== "") {
      out(style(opts.prompt, PROMPT_STYLE) + visible(initial) + "\r\n");
      const first = runInitial(state, initial);
      state = first.state;
      for (const effect of first.effects) apply(effect);
    } else draw();
  });
}

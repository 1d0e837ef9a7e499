// The interactive prompt (SPEC §17, issue 14): hey's own line editor in raw mode, so keys behave
// like the peers': Ctrl-C or Esc cancels a turn; at an empty prompt the first Ctrl-C warns and a
// second within 2 s exits; keys typed during a turn are kept (not echoed, never sent by
// themselves) and shown at the next prompt; a bracketed paste is one message; a resize redraws.
// History persists; Tab completes. The terminal is restored on every way out (Ctrl-D, Ctrl-C,
// /quit, SIGTERM, SIGHUP, process exit). What a line means is the caller's business (`onLine`).
import { writeSync } from "node:fs";
import { appendOwnFile, readOwnFile } from "../fs/own-files.ts";
import { decodeHistoryLine, encodeHistoryEntry } from "./history-line.ts";
import { parseKeys, type Key, type KeyName } from "./keys.ts";
import { complete, editKey, emptyEditor, insert, layout, type EditorState } from "./line-editor.ts";
import { exitAfterGrace, onSignals, SIGNAL_EXIT, SIGNAL_REASON, type EndSignal } from "./signals.ts";
import { visible } from "./visible.ts";
import { errorText } from "../kernel/errors.ts";

export interface ReplIo {
  /** asks one question at a prompt of its own; undefined when the user cancels (Ctrl-C, Esc, Ctrl-D) */
  ask(question: string): Promise<string | undefined>;
}

export interface ReplOptions {
  /** plain text, e.g. "› " */
  prompt: string;
  color: boolean;
  historyFile: string;
  /** completions for the text before the cursor (slash commands, @paths, model names) */
  complete(line: string): string[];
  /**
   * Handles one message or slash command. `signal` aborts on Ctrl-C or Esc. Returns "quit" to
   * leave the REPL. May throw: the message is shown and the REPL goes on.
   */
  onLine(line: string, signal: AbortSignal, io: ReplIo): Promise<"quit" | void>;
  /**
   * Called once at start with the REPL's way to show a line that did not come from a turn (an MCP
   * server connected): above the prompt while it is drawn, after the turn while one runs.
   */
  aside?(print: (line: string) => void): void;
}

/** Keep this many history entries on disk and in memory. */
const HISTORY_SIZE = 1000;
/** The end of the history file read at start: far more than HISTORY_SIZE typical entries. */
const HISTORY_READ_BYTES = 1024 * 1024;
/** A second Ctrl-C at an empty prompt within this window exits. */
const EXIT_CTRL_C_MS = 2000;
/** An ESC with nothing after it for this long is the Escape key, not the start of a sequence. */
const ESC_TIMEOUT_MS = 50;
/** Ctrl-C presses after a cancel the turn has not honoured yet before hey stops waiting and exits. */
const FORCE_QUIT_PRESSES = 3;
/** The terminal went away without a SIGHUP first: its input ended (read 0) or failed (EIO). */
const CLOSED = "the terminal closed";

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const CONTINUATION = "… ";
const DIM = "\x1b[2m";
const PROMPT_STYLE = "\x1b[1;36m";
const RESET = "\x1b[0m";

/**
 * Runs until /quit, Ctrl-D at an empty prompt, a second Ctrl-C at an empty prompt, SIGTERM,
 * SIGHUP or the terminal closing (a hang-up too). Resolves to 143 / 129 after a signal or a
 * hang-up, 130 when the last turn was interrupted, else 0.
 */
export function runRepl(opts: ReplOptions, initial?: string): Promise<number> {
  const history = loadHistory(opts.historyFile);
  const stdin = process.stdin;
  const stdout = process.stdout;
  const out = (t: string) => {
    try {
      stdout.write(t);
    } catch {} // the terminal is gone (SIGHUP): nothing left to show
  };
  const columns = () => stdout.columns || 80;
  const shown = (ch: string) => (ch === "\t" ? "    " : visible(ch));
  const width = (ch: string) => Bun.stringWidth(shown(ch));
  const style = (t: string, s: string) => (opts.color ? s + t + RESET : t);

  let state: EditorState = emptyEditor(history);
  let mode: "prompt" | "busy" | "ask" | "done" = "prompt";
  let drawnRow = 0; // the cursor's row within the drawn prompt
  let pending = ""; // an unfinished escape sequence or paste
  let escTimer: ReturnType<typeof setTimeout> | undefined;
  let lastCtrlC = 0;
  let turn: AbortController | undefined;
  let cancelPresses = 0;
  let lastInterrupted = false;
  let signalled: number | undefined;
  let asking: { question: string; saved: EditorState; resolve(answer: string | undefined): void } | undefined;
  let resolveRepl: (code: number) => void = () => {};

  const promptText = () => (mode === "ask" && asking ? asking.question : opts.prompt);
  const place = (cols = columns()) => layout(Bun.stringWidth(promptText()), CONTINUATION.length, state.text, state.cursor, cols, width);

  function draw(): void {
    const cols = columns();
    const at = place(cols);
    let s = drawnRow > 0 ? `\x1b[${drawnRow}A` : "";
    s += "\r\x1b[J" + style(promptText(), PROMPT_STYLE);
    s += state.text.split("\n").map((line) => [...line].map(shown).join("")).join("\r\n" + style(CONTINUATION, DIM));
    let endRow = at.endRow;
    if (at.endCol >= cols) {
      s += "\r\n"; // the last row is exactly full: move to the next one, where the layout puts the cursor
      endRow++;
    }
    if (endRow > at.cursorRow) s += `\x1b[${endRow - at.cursorRow}A`;
    s += "\r" + (at.cursorCol > 0 ? `\x1b[${at.cursorCol}C` : "");
    drawnRow = at.cursorRow;
    out(s);
  }
  const redraw = () => {
    if (mode === "prompt" || mode === "ask") draw();
  };
  /** leaves the drawn prompt: the cursor goes to a fresh line below it */
  function moveBelow(): void {
    const at = place();
    const down = at.endRow - drawnRow + (at.endCol >= columns() ? 1 : 0);
    out((down > 0 ? `\x1b[${down}B` : "") + "\r\n");
    drawnRow = 0;
  }
  const exitCode = () => signalled ?? (lastInterrupted ? 130 : 0);

  let later: string[] = []; // aside lines that arrived during a turn
  function aside(line: string): void {
    if (mode === "busy") return void later.push(line);
    if (mode === "done") return out(visible(line) + "\n");
    out((drawnRow > 0 ? `\x1b[${drawnRow}A` : "") + "\r\x1b[J" + visible(line) + "\r\n");
    drawnRow = 0;
    draw();
  }
  const flushAside = () => {
    for (const line of later) out(visible(line) + "\r\n");
    later = [];
  };

  function leave(): void {
    if (mode === "done") return;
    mode = "done";
    restore();
    resolveRepl(exitCode());
  }

  function onCtrlC(): void {
    if (mode === "ask") return answer(undefined);
    if (mode === "busy") {
      if (turn && !turn.signal.aborted) return turn.abort();
      if (++cancelPresses >= FORCE_QUIT_PRESSES) {
        restore();
        process.exit(130); // the turn ignores its cancel: do not hold the user hostage
      }
      return;
    }
    if (state.text !== "") {
      state = emptyEditor(history);
      lastCtrlC = 0;
      return draw();
    }
    const now = Date.now();
    moveBelow();
    if (now - lastCtrlC < EXIT_CTRL_C_MS) return leave();
    lastCtrlC = now;
    out(style("press Ctrl-C again or Ctrl-D to exit", DIM) + "\r\n");
    draw();
  }

  function answer(text: string | undefined): void {
    if (!asking) return;
    const { saved, resolve } = asking;
    if (text === undefined) moveBelow();
    asking = undefined;
    mode = "busy";
    state = saved;
    resolve(text);
  }

  function submit(): void {
    const text = state.text;
    moveBelow();
    if (mode === "ask") return answer(text.trim());
    if (text.trim() === "") {
      state = emptyEditor(history);
      return draw();
    }
    addHistory(text);
    void runLine(text);
  }

  function onTab(): void {
    const candidates = opts.complete(state.text.slice(0, state.cursor));
    const { state: next, unique } = complete(state, candidates);
    if (next.text === state.text && !unique && candidates.length > 1) {
      moveBelow();
      out(candidates.join("  ") + "\r\n");
    }
    state = next;
    draw();
  }

  function onKey(key: Key, more: boolean): void {
    if (mode === "done") return;
    if (key.type !== "key") {
      state = insert(state, key.text);
      return redraw();
    }
    const name: KeyName = key.name;
    switch (name) {
      case "enter":
        // during a turn, and for lines that arrive together (a paste the terminal did not bracket), Enter is a newline
        if (mode === "busy" || more) break;
        if (state.text.endsWith("\\") && state.cursor === state.text.length) {
          state = insert({ ...state, text: state.text.slice(0, -1), cursor: state.cursor - 1 }, "\n");
          return draw();
        }
        return submit();
      case "interrupt":
        return onCtrlC();
      case "escape":
        if (mode === "busy" && turn && !turn.signal.aborted) turn.abort();
        if (mode === "ask") answer(undefined);
        return;
      case "eof":
        if (mode === "busy" || state.text !== "") break;
        if (mode === "ask") return answer(undefined);
        moveBelow();
        return leave();
      case "tab":
        if (mode === "prompt") onTab();
        return;
      case "clearScreen":
        if (mode === "busy") return;
        out("\x1b[H\x1b[2J");
        drawnRow = 0;
        return draw();
    }
    state = name === "enter" ? insert(state, "\n") : name === "eof" ? editKey(state, "delete", history) : editKey(state, name, mode === "prompt" ? history : []);
    redraw();
  }

  function onData(chunk: string | Buffer): void {
    clearTimeout(escTimer);
    const { keys, rest } = parseKeys(pending + chunk.toString());
    pending = rest;
    if (rest !== "" && !rest.startsWith("\x1b[200~"))
      escTimer = setTimeout(() => {
        const flushed = parseKeys(pending, true);
        pending = flushed.rest;
        flushed.keys.forEach((k, i) => onKey(k, i < flushed.keys.length - 1));
      }, ESC_TIMEOUT_MS);
    keys.forEach((k, i) => onKey(k, i < keys.length - 1));
  }

  const io: ReplIo = {
    ask(question) {
      if (mode !== "busy") return Promise.resolve(undefined);
      return new Promise((resolve) => {
        asking = { question, saved: state, resolve };
        mode = "ask";
        state = emptyEditor([]);
        drawnRow = 0;
        draw();
      });
    },
  };

  async function runLine(text: string): Promise<void> {
    mode = "busy";
    cancelPresses = 0;
    lastCtrlC = 0;
    state = emptyEditor(history); // keys typed during the turn collect here, unseen
    turn = new AbortController();
    let quit = false;
    try {
      quit = (await opts.onLine(text, turn.signal, io)) === "quit";
    } catch (e) {
      out(`hey: ${visible(errorText(e))}\n`);
    }
    // a slash command after a cancelled turn does not make the exit a clean one
    if (turn.signal.aborted && signalled === undefined) lastInterrupted = true;
    else if (!text.startsWith("/")) lastInterrupted = false;
    turn = undefined;
    flushAside();
    if (quit || signalled !== undefined) return leave();
    mode = "prompt";
    drawnRow = 0;
    state = { ...state, cursor: state.text.length, historyIndex: history.length };
    draw(); // with whatever was typed meanwhile
  }

  function addHistory(entry: string): void {
    if (history[history.length - 1] !== entry) history.push(entry);
    if (history.length > HISTORY_SIZE) history.splice(0, history.length - HISTORY_SIZE);
    appendHistory(opts.historyFile, entry);
  }

  // ---- the terminal, and giving it back ----
  const onResize = () => {
    drawnRow = place().cursorRow; // where the terminal's reflow put the cursor, near enough
    redraw();
  };
  /** SIGTERM, SIGHUP or the terminal gone: a running turn is cancelled saying why (its tools killed, session flushed), then leave() */
  const stop = (code: number, why: string) => {
    if (signalled !== undefined || mode === "done") return; // the first one says what happened
    signalled = code;
    if (mode === "prompt") moveBelow(); // the shell's prompt goes on a line of its own
    if (mode !== "busy" && mode !== "ask") return leave();
    turn?.abort(why);
    if (mode === "ask") answer(undefined);
    exitAfterGrace(code, restore);
  };
  let offSignals = (_keep?: readonly EndSignal[]) => {};
  // closing a terminal window ends its input (often just before the SIGHUP): a hang-up, not a /quit
  const onEnd = () => stop(SIGNAL_EXIT.SIGHUP, CLOSED);
  const ignore = () => {};
  let restored = false;
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
    // after a hang-up the SIGHUP that follows must not kill hey (by default) before the session is closed and unlocked
    offSignals(signalled === SIGNAL_EXIT.SIGHUP ? ["SIGHUP"] : []);
  }

  return new Promise((resolve) => {
    resolveRepl = resolve;
    process.on("exit", restore);
    offSignals = onSignals({
      interrupt: onCtrlC, // `kill -INT`: raw mode keeps Ctrl-C from being a signal
      end: (name) => stop(SIGNAL_EXIT[name], SIGNAL_REASON[name]),
    });
    stdout.on("error", ignore);
    stdout.on("resize", onResize);
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.on("end", onEnd);
    stdin.on("error", onEnd); // EIO: the terminal is gone
    stdin.resume();
    out(PASTE_ON);
    opts.aside?.(aside);
    if (initial && initial.trim() !== "") {
      out(style(opts.prompt, PROMPT_STYLE) + visible(initial) + "\r\n");
      addHistory(initial);
      void runLine(initial);
    } else draw();
  });
}

/** Oldest first; one entry a line (history-line.ts). Never through a link. */
function loadHistory(file: string): string[] {
  try {
    const read = readOwnFile(file, HISTORY_READ_BYTES, { tail: true });
    if (!read) return [];
    const lines = read.text.split("\n");
    if (read.truncated) lines.shift(); // the cut first line
    return lines
      .filter((l) => l !== "")
      .map(decodeHistoryLine)
      .slice(-HISTORY_SIZE);
  } catch {
    return [];
  }
}

let historyWarned = false;

function appendHistory(file: string, entry: string): void {
  try {
    appendOwnFile(file, encodeHistoryEntry(entry) + "\n");
  } catch (e) {
    if (!historyWarned) process.stderr.write(`hey: cannot save history to ${file}: ${errorText(e)}\n`);
    historyWarned = true;
  }
}

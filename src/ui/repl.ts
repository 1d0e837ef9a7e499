// The interactive prompt (SPEC §17): a line editor with persistent history and tab completion,
// multi-line input with a trailing backslash, Ctrl-C that cancels a running turn, and the
// terminal always restored. What a line means is the caller's business (`onLine`).
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import * as readline from "node:readline";

export interface ReplOptions {
  prompt: string;
  historyFile: string;
  /** completions for the text before the cursor (slash commands, @paths, model names) */
  complete(line: string): string[];
  /**
   * Handles one line (a message or a slash command). `signal` aborts on Ctrl-C. Returns
   * "quit" to leave the REPL.
   */
  onLine(line: string, signal: AbortSignal): Promise<"quit" | void>;
}

/** Keep this many history entries on disk and in memory. */
const HISTORY_SIZE = 1000;
/** A second Ctrl-C within this window at the prompt exits even with text on the line. */
const DOUBLE_CTRL_C_MS = 1000;

/**
 * Runs until /quit, Ctrl-D, or Ctrl-C at an empty prompt. Resolves to 130 when the last turn
 * was interrupted, else 0.
 */
export function runRepl(opts: ReplOptions, initial?: string): Promise<number> {
  const history = loadHistory(opts.historyFile);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: opts.prompt,
    history,
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string) => {
      const hits = opts.complete(line);
      return [hits, line.slice(line.lastIndexOf(" ") + 1)];
    },
  });

  return new Promise((resolve) => {
    let pending: string[] = []; // lines of a multi-line message (each ended with "\")
    let busy = false;
    const queued: string[] = []; // complete lines not yet sent
    let lastInterrupted = false;
    let lastCtrlC = 0;

    const finish = () => rl.close();

    rl.on("SIGINT", () => {
      // at the prompt (readline owns raw mode, so Ctrl-C arrives here, not as a signal)
      const now = Date.now();
      if (rl.line === "" && pending.length === 0) return finish();
      if (now - lastCtrlC < DOUBLE_CTRL_C_MS) return finish();
      lastCtrlC = now;
      pending = [];
      rl.write(null, { ctrl: true, name: "u" }); // clear the line
      process.stdout.write("\n");
      rl.setPrompt(opts.prompt);
      rl.prompt();
    });
    rl.on("close", () => {
      // Ctrl-D, /quit or Ctrl-C at the prompt: leave the shell's prompt on a line of its own
      process.stdout.write("\n");
      if (!busy) resolve(lastInterrupted ? 130 : 0);
    });
    rl.on("line", (line) => {
      if (line.endsWith("\\")) {
        pending.push(line.slice(0, -1));
        rl.setPrompt("… ");
        rl.prompt();
        return;
      }
      const text = [...pending, line].join("\n");
      pending = [];
      rl.setPrompt(opts.prompt);
      if (text.trim() === "" && queued.length === 0) return rl.prompt();
      // A paste delivers all its lines at once, and lines typed during a turn still arrive
      // (pause() does not hold back buffered ones): gather them into one message, sent when free.
      queued.push(text);
      if (!busy) setImmediate(next);
    });

    /** Sends what was queued, as one message, if nothing is running. */
    function next(): void {
      if (busy || queued.length === 0) return;
      const text = queued.splice(0).join("\n").trim();
      if (text === "") return rl.prompt();
      appendHistory(opts.historyFile, text);
      void runLine(text);
    }

    async function runLine(text: string): Promise<void> {
      busy = true;
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      // During a turn Ctrl-C must be a real SIGINT: leave raw mode, listen for the signal.
      rl.pause();
      setRawMode(false);
      process.on("SIGINT", onSigint);
      let quit = false;
      try {
        quit = (await opts.onLine(text, abort.signal)) === "quit";
      } catch (e) {
        process.stderr.write(`hey: ${e instanceof Error ? e.message : String(e)}\n`);
      } finally {
        process.off("SIGINT", onSigint);
        // a slash command after a cancelled turn does not make the exit a clean one
        if (abort.signal.aborted) lastInterrupted = true;
        else if (!text.startsWith("/")) lastInterrupted = false;
        setRawMode(true); // must come before resume, or the terminal stays in cooked mode
        rl.resume();
        busy = false;
      }
      if (quit) {
        rl.close();
        return resolve(lastInterrupted ? 130 : 0);
      }
      if (queued.length > 0) return next();
      rl.prompt();
    }

    if (initial && initial.trim() !== "") {
      queued.push(initial);
      next();
    } else rl.prompt();
  });
}

function setRawMode(on: boolean): void {
  if (process.stdin.isTTY) process.stdin.setRawMode(on);
}

/** Newest first, as readline wants it. Multi-line entries are stored with escaped newlines. */
function loadHistory(file: string): string[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.replace(/\\n/g, "\n"))
      .slice(-HISTORY_SIZE)
      .reverse();
  } catch {
    return [];
  }
}

let historyWarned = false;

function appendHistory(file: string, entry: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, entry.replace(/\n/g, "\\n") + "\n", { mode: 0o600 });
  } catch (e) {
    if (!historyWarned) process.stderr.write(`hey: cannot save history to ${file}: ${(e as Error).message}\n`);
    historyWarned = true;
  }
}

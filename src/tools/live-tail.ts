// The last lines of a running command's output as it comes (SPEC §17), for the terminal: the bash
// tool hands every chunk of stdout and stderr to `take`; at most every LIVE_TAIL_MS, when something
// new came, `show` gets the last LIVE_LINES lines. A chunk costs a copy of at most TAIL_BYTES, so a
// command that prints fast is not slowed. Display only: the model's result is made as before. The
// bytes are decoded as that result is (decodeOutput: a byte that is not UTF-8 as its Windows-1252
// character), a character split between chunks shown once all of it came.
import { decodeOutput } from "../fs/output-text.ts";
import { ESCAPES } from "./bash-output.ts";

/** lines shown under a running command */
export const LIVE_LINES = 5;
/** at most ten redraws a second */
export const LIVE_TAIL_MS = 100;
/** what is kept of the output's end: enough for LIVE_LINES lines of a wide terminal */
const TAIL_BYTES = 4096;

export interface LiveTail {
  take(chunk: Uint8Array): void;
  /** no more `show` calls */
  stop(): void;
}

export function liveTail(show: (lines: string[]) => void, everyMs = LIVE_TAIL_MS): LiveTail {
  const buffer = new Uint8Array(TAIL_BYTES * 2);
  let length = 0;
  let cut = false; // the buffer's start is not the output's start: its first line is partial
  let changed = false;
  let shown = "";
  const tick = () => {
    if (!changed) return;
    changed = false;
    const lines = lastLines(decodeOutput(buffer.subarray(0, length), true).text, LIVE_LINES, cut); // a cut first line is left out
    const key = lines.join("\n");
    if (key === shown) return;
    shown = key;
    show(lines);
  };
  const timer = setInterval(tick, everyMs);
  return {
    take(chunk) {
      if (chunk.length === 0) return;
      changed = true;
      if (chunk.length >= TAIL_BYTES) {
        buffer.set(chunk.subarray(chunk.length - TAIL_BYTES));
        length = TAIL_BYTES;
        cut = true;
        return;
      }
      if (length + chunk.length > buffer.length) {
        buffer.copyWithin(0, length - TAIL_BYTES, length);
        length = TAIL_BYTES;
        cut = true;
      }
      buffer.set(chunk, length);
      length += chunk.length;
    },
    stop: () => clearInterval(timer),
  };
}

/** a move to the line's first column (CSI G: Node's readline.cursorTo, ora's spinners): a redraw, as a carriage return is */
const TO_FIRST_COLUMN = /\x1b\[[01]?G/g;

/**
 * The last `n` lines of `text` as a terminal would leave them: colour and other escape sequences
 * dropped, a line redrawn after a carriage return or a move to its first column (a progress bar)
 * in its last state, tabs as spaces, blank lines at the end left out. `partialFirst`: the first line is the end of a longer
 * one, left out — but for what follows its last carriage return, a whole redraw (a progress bar
 * past the kept bytes). Other control characters stay for the terminal to make visible. Pure.
 */
export function lastLines(text: string, n: number, partialFirst = false): string[] {
  const lines = text.replace(TO_FIRST_COLUMN, "\r").replace(ESCAPES, "").split("\n");
  if (partialFirst) {
    const first = lines[0]!.replace(/\r$/, "");
    const redraw = first.lastIndexOf("\r");
    if (redraw < 0) lines.shift();
    else lines[0] = first.slice(redraw + 1);
  }
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < n; i--) {
    const line = redrawn(lines[i]!).replace(/\t/g, "  ").trimEnd();
    if (line === "" && out.length === 0) continue;
    out.unshift(line);
  }
  return out;
}

/** A line's last state after carriage returns: CRLF is a plain end of line. */
function redrawn(line: string): string {
  const body = line.endsWith("\r") ? line.slice(0, -1) : line;
  const at = body.lastIndexOf("\r");
  return at < 0 ? body : body.slice(at + 1);
}

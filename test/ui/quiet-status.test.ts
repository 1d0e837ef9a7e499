// A sign of life once the answer's first words are shown (SPEC §17): a stream that goes quiet
// after text — a model that stalls mid-sentence, or streams a big tool call's arguments, which
// show nothing until the call is whole — brings a status back under the text, with the seconds
// since it went quiet; it is gone before the text goes on, which continues where it stopped.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { createTerminalOutput } from "../../src/ui/terminal.ts";
import { lineEnd } from "../../src/ui/quiet-status.ts";
import { TYPED_FRAME_MS } from "../../src/ui/frame-hold.ts";
import { terminalWidth } from "../../src/ui/term.ts";

/** The rows a terminal shows after `written` (cursor moves, line erases and styles as xterm takes them). */
function screenOf(written: string): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  const at = () => (rows[row] ??= []);
  for (let i = 0; i < written.length; i++) {
    const c = written[i]!;
    const csi = c === "\x1b" ? /^\x1b\[([0-9;?]*)([@-~])/.exec(written.slice(i)) : null;
    if (csi) {
      const n = Number(csi[1]) || 1;
      if (csi[2] === "A") row = Math.max(0, row - n);
      if (csi[2] === "G") col = n - 1;
      if (csi[2] === "K") at().length = Math.min(at().length, col);
      if (csi[2] === "C") col += n;
      if (csi[2] === "J") [rows.length, at().length] = [row + 1, Math.min(at().length, col)];
      i += csi[0].length - 1;
    } else if (c === "\r") col = 0;
    else if (c === "\n") [row, col] = [row + 1, 0];
    else {
      while (at().length < col) at().push(" ");
      at()[col++] = c;
    }
  }
  return rows.map((r) => (r ?? []).join("").trimEnd());
}

/** A terminal at 80 columns (the REPL: one stream), its quiet timer fired by hand. */
function terminal(o: { tty?: boolean; pipe?: boolean } = {}) {
  const written: string[] = [];
  let quiet: (() => void) | undefined;
  let due = 0; // when the timer set last is due
  let t = 0;
  const tty = o.tty ?? true;
  const info = { write: (s: string) => void written.push(s), color: false, tty, columns: () => 80 };
  const answer = o.pipe ? { ...info, tty: false, write: () => {} } : info;
  const out = createTerminalOutput(answer, info, {
    now: () => t,
    later: (ms, run) => {
      [quiet, due] = [run, t + ms];
      return () => (quiet = undefined);
    },
  });
  return {
    emit(...events: AgentEvent[]) {
      for (const e of events) out.emit(e);
    },
    /** the stream says nothing for `ms`: the quiet status's wait is over */
    quietFor(ms: number) {
      t += ms;
      const run = quiet;
      quiet = undefined;
      run?.();
    },
    /** `ms` pass: the timer runs if it is due by then */
    advance(ms: number) {
      t += ms;
      const run = quiet;
      if (run && due <= t) [quiet, due] = [undefined, 0];
      if (due === 0) run?.();
    },
    screen: () => screenOf(written.join("")),
    /** how often `text` was written */
    writes: (text: string) => written.join("").split(text).length - 1,
    waiting: () => quiet !== undefined,
    stop: () => out.stopSpinner(),
    typing: (rows: string[] | undefined) => out.typing(rows && ((cols: number) => rows.map((r) => r.slice(0, cols - 1)))),
  };
}

const start: AgentEvent = { type: "turn_start", turn: 1 };
const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 };
const done: AgentEvent = { type: "done", stop_reason: "end", turns: 1, usage };

test("a stream that stalls mid-sentence shows a status under the text; the text goes on where it stopped, the status gone", () => {
  const term = terminal();
  term.emit(start, { type: "text_delta", text: "I am starting to" });
  term.quietFor(3000);
  expect(term.screen()).toEqual(["I am starting", "⠋ waiting for the model… 3s"]); // a word is shown once it is whole
  term.emit({ type: "text_delta", text: " write it." });
  expect(term.screen().join("\n").trimEnd()).toBe("I am starting to write"); // the status row cleared; the text's next row when it wraps
  term.emit(done);
  expect(term.screen().join("\n").trimEnd()).toBe("I am starting to write it.");
});

test("text, then a big call's arguments streaming: the status shows while they come, and the call's line follows the text", () => {
  const term = terminal();
  term.emit(start, { type: "text_delta", text: "Calling now. " });
  term.quietFor(6000);
  expect(term.screen().at(-1)).toBe("⠋ waiting for the model… 6s");
  term.emit({ type: "tool_call", id: "c", name: "write_file", arguments: JSON.stringify({ path: "big.txt", content: "x\n".repeat(50) }) });
  const rows = term.screen();
  expect(rows[0]).toBe("Calling now.");
  expect(rows[1]).toStartWith("write big.txt");
  expect(rows.join("\n")).not.toContain("waiting for the model");
  term.stop();
});

test("after a line the text ended, the status takes the next row and the text starts there", () => {
  const term = terminal();
  term.emit(start, { type: "text_delta", text: "First line.\n" });
  term.quietFor(1000);
  expect(term.screen()).toEqual(["First line.", "⠋ waiting for the model… 1s"]);
  term.emit({ type: "text_delta", text: "Second line." }, done);
  expect(term.screen()).toEqual(["First line.", "Second line."]);
});

test("no quiet status where nobody watches, nor for an answer that goes to a pipe (the spinner says it is being written)", () => {
  for (const o of [{ tty: false }, { pipe: true }]) {
    const term = terminal(o);
    term.emit(start, { type: "text_delta", text: "I am starting to" });
    expect(term.waiting()).toBe(false);
    term.stop();
  }
});

/** where the way back from a status under `tail` takes the cursor: [rows up, column from 1] */
function wayBack(tail: string, drawnAt: number, now: number): [number, number] | undefined {
  const end = lineEnd(terminalWidth);
  end.wrote(tail);
  const under = end.status(drawnAt);
  if (!under) return undefined;
  const m = /^\x1b\[(\d+)A\x1b\[(\d+)G$/.exec(under.back(now));
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const STALLED = "First words of a stalled answer,"; // 32 columns

test.each([
  ["the width as drawn", STALLED, 80, 80, [1, 33]],
  ["narrowed: the line's last row as the terminal reflowed it", STALLED, 80, 20, [1, 13]],
  ["widened", STALLED, 40, 100, [1, 33]],
  ["narrowed so its last row is full: on its last cell (a line break follows)", STALLED, 80, 16, [1, 16]],
  ["a wide character that does not fit goes whole to the next row", "abcdefghi中文", 80, 10, [1, 5]],
] as const)("the way back after a resize, %s", (_what, tail, drawnAt, now, want) => {
  expect(wayBack(tail, drawnAt, now)).toEqual([...want]);
});

test("a line the terminal already wraps gets a status when its last row leaves room, and none when it is full", () => {
  expect(wayBack(STALLED, 20, 20)).toEqual([1, 13]);
  expect(wayBack(STALLED, 16, 16)).toBeUndefined();
});

test("what the user types during the turn shows under the status at once, under the streamed text too, and goes with the status before the text goes on", () => {
  const term = terminal();
  term.emit(start, { type: "text_delta", text: "I am starting to " });
  term.typing(["› run the linter"]);
  term.quietFor(0); // no quiet wait while the user types: the status and their line come back under the text at once
  expect(term.screen()).toEqual(["I am starting to", "⠋ working… 0s", "› run the linter"]);
  term.typing(["queued: run the linter"]);
  expect(term.screen()).toEqual(["I am starting to", "⠙ working… 0s", "queued: run the linter"]); // drawn again in place
  term.emit({ type: "text_delta", text: "write it.\n" });
  // within a frame of the rows being drawn the text waits for the frame's end, the rows as drawn; then it goes on where it
  // stopped, and the status and rows are drawn again under it in the same write
  expect(term.screen()).toEqual(["I am starting to", "⠙ working… 0s", "queued: run the linter"]);
  term.quietFor(TYPED_FRAME_MS);
  expect(term.screen()).toEqual(["I am starting to write it.", "⠋ working… 0s", "queued: run the linter"]);
  term.typing(undefined);
  expect(term.screen().at(-1)).toBe("⠙ working… 0s"); // the rows go when there is nothing left to show
  term.emit(done);
  expect(term.screen().join("\n")).not.toContain("queued");
});

test("a fast stream under what the user types draws it again once a frame, not after every piece; the text is never more than a frame late, nor the rows stale", () => {
  const term = terminal();
  term.emit(start, { type: "text_delta", text: "Go: " });
  term.typing(["› and lint"]);
  term.advance(0);
  const before = term.writes("› and lint");
  const words = Array.from({ length: 100 }, (_, i) => `w${i}${i % 10 === 9 ? "\n" : " "}`); // rows of 10 words: the screen here does not wrap
  const flat = (rows: string[]) => rows.join(" ").replace(/\s+/g, " ").trim();
  let shown = "Go:";
  let typed = "› and lint";
  for (const [i, word] of words.entries()) {
    term.emit({ type: "text_delta", text: word });
    term.advance(4); // 250 words a second
    const rows = term.screen();
    expect(rows.filter((r) => r.startsWith("› and lint"))).toEqual([typed]); // always there, once, as typed: an edit is drawn at once
    const text = flat(rows.slice(0, -2));
    expect(text.startsWith(shown)).toBe(true); // what was shown stays
    shown = text;
    expect(i + 1 - (text.split(" ").length - 1)).toBeLessThanOrEqual(TYPED_FRAME_MS / 4 + 1); // at most a frame (TYPED_FRAME_MS) of words waits
    if (i === 50 || i === 60) {
      typed = i === 50 ? "› and lint now" : "› and lint";
      term.typing([typed]);
      expect(term.screen().at(-1)).toBe(typed); // drawn at once, not at the frame's end
    }
  }
  // 400 ms of stream: a redraw a frame (and the two edits), where every word used to clear and draw them
  expect(term.writes("› and lint") - before).toBeLessThanOrEqual(Math.ceil(400 / TYPED_FRAME_MS) + 3);
  term.emit(done); // the words still held go out before the turn's end
  expect(flat(term.screen())).toBe(flat([`Go: ${words.join("")}`]));
});

test("what is typed during a running command shows under the spinner, its live lines above; each frame draws it once, and the result clears it", () => {
  const term = terminal();
  term.emit(start, { type: "tool_call", id: "c", name: "bash", arguments: '{"command":"make"}' });
  term.typing(["queued: fix it", "› and lint"]);
  term.emit({ type: "tool_output", id: "c", lines: ["cc -c a.c", "cc -c b.c"] });
  expect(term.screen().slice(-5)).toEqual(["    cc -c a.c", "    cc -c b.c", "⠹ running… 0s", "queued: fix it", "› and lint"]);
  term.emit({ type: "tool_output", id: "c", lines: ["ld a.o b.o"] });
  expect(term.screen().slice(-4)).toEqual(["    ld a.o b.o", "⠸ running… 0s", "queued: fix it", "› and lint"]);
  expect(term.screen().join("\n")).not.toContain("cc -c");
  term.emit({ type: "tool_result", id: "c", name: "bash", ok: true, output: "[exit code 0]" }, done);
  expect(term.screen().join("\n")).not.toMatch(/queued|and lint|ld a\.o/);
});

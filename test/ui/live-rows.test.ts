// A running command's live lines in a short window (x137 finding 2): no more of them than fit
// above the spinner's row, so every frame can clear what it drew; a row scrolled off the
// screen's top stays in the scrollback, a copy per frame.
import { expect, test } from "bun:test";
import { liveRowsFor } from "../../src/ui/live-rows.ts";
import { createTerminalOutput } from "../../src/ui/terminal.ts";

test.each([
  [5, 0, 5], // height unknown: all
  [5, 40, 5],
  [5, 6, 5],
  [5, 5, 4],
  [5, 4, 3],
  [9, 2, 1],
  [5, 1, 0], // the spinner's row alone
])("%i live lines in a window %i rows high: %i drawn", (lines, height, drawn) => {
  expect(liveRowsFor(lines, height)).toBe(drawn);
});

test("rows typed under the spinner during the turn take their room from the live lines, never the spinner's row", () => {
  expect(liveRowsFor(5, 6, 2)).toBe(3);
  expect(liveRowsFor(5, 3, 2)).toBe(0);
  expect(liveRowsFor(5, 0, 2)).toBe(5); // height unknown: all
});

function shortWindow(rows: { n: number }) {
  const err: string[] = [];
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 60, rows: () => rows.n };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => 0 });
  terminal.emit({ type: "turn_start", turn: 1 });
  terminal.emit({ type: "tool_call", id: "c", name: "bash", arguments: '{"command":"seq 300"}' });
  /** the rows the last frame drew above the spinner's */
  const shown = () => {
    const before = err
      .join("")
      .split(/\r\x1b\[K(?=[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏])/)
      .at(-2)!; // up to the spinner's last frame
    const block = before.split(/\x1b\[J|running… \d+s/).at(-1)!; // after the clear before it
    return block
      .replace(/^\r\x1b\[K/, "")
      .split("\n")
      .filter(Boolean);
  };
  /** the most rows any clear went up */
  const climbed = () => Math.max(0, ...[...err.join("").matchAll(/\x1b\[(\d+)A/g)].map((m) => Number(m[1])));
  return { terminal, err, shown, climbed };
}

test("in a window 4 rows high a command's 5 live lines are its last 3 over the spinner, and no redraw climbs past the screen's top", () => {
  const rows = { n: 4 };
  const { terminal, shown, climbed } = shortWindow(rows);
  for (let i = 1; i <= 20; i++) terminal.emit({ type: "tool_output", id: "c", lines: [1, 2, 3, 4, 5].map((k) => `out ${i * 5 + k}`) });
  expect(shown()).toEqual(["    out 103", "    out 104", "    out 105"]);
  expect(climbed()).toBeLessThanOrEqual(3);
  terminal.stopSpinner();
});

test("a window made taller shows more of the live lines at the next frame, one made shorter fewer; one row: the spinner alone", () => {
  const rows = { n: 4 };
  const { terminal, shown, err } = shortWindow(rows);
  terminal.emit({ type: "tool_output", id: "c", lines: ["a", "b", "c", "d", "e"] });
  expect(shown()).toEqual(["    c", "    d", "    e"]);
  rows.n = 30;
  terminal.emit({ type: "tool_output", id: "c", lines: ["a", "b", "c", "d", "e"] });
  expect(shown()).toEqual(["    a", "    b", "    c", "    d", "    e"]);
  rows.n = 1;
  err.length = 0;
  terminal.emit({ type: "tool_output", id: "c", lines: ["a", "b", "c", "d", "e"] });
  expect(err.join("")).not.toContain("    e");
  terminal.stopSpinner();
});

// The rows drawn under a turn's status while the user types ahead (ui/typed-ahead.ts aheadRows), and how they are written under
// the spinner's row (ui/live-rows.ts aheadBlock): what a user sees of their typed and queued lines, at a width.
import { expect, test } from "bun:test";
import { AHEAD_HINT, aheadRows, QUEUED_SHOWN, type AheadLook } from "../../src/ui/typed-ahead.ts";
import { aheadBlock } from "../../src/ui/live-rows.ts";
import { terminalWidth } from "../../src/ui/term.ts";

const look: AheadLook = { shown: (ch) => ch, width: terminalWidth, mark: (ch) => `[${ch}]` };

test("the line being typed shows with its cursor and the hint; queued lines above it", () => {
  expect(aheadRows([], "run the tests", 13, 80, look)).toEqual([`› run the tests[ ]  ${AHEAD_HINT}`]);
  expect(aheadRows(["fix it"], "run", 1, 80, look)).toEqual(["queued: fix it", `› r[u]n  ${AHEAD_HINT}`]);
  expect(aheadRows(["a\nb"], "", 0, 80, look)).toEqual(["queued: a↵b", "sent when the turn ends (Esc stops it and puts them back at the prompt)"]);
  expect(aheadRows([], "", 0, 80, look)).toEqual([]);
});

test("each row fits the width less one column, however long the line; the cursor stays in view; many queued lines are counted", () => {
  const long = "word ".repeat(40).trim();
  for (const cursor of [0, 50, long.length]) {
    const [row] = aheadRows([], long, cursor, 40, look);
    expect(terminalWidth(row!.replace(/[[\]]/g, ""))).toBeLessThanOrEqual(39);
    expect(row).toContain("[");
  }
  expect(aheadRows([], long, long.length, 40, look)[0]).toMatch(/^› …[^\n]*word\[ \]$/);
  const wide = aheadRows(["你好".repeat(30)], "", 0, 30, look)[0]!;
  expect(terminalWidth(wide)).toBeLessThanOrEqual(29);
  const many = aheadRows(["1", "2", "3", "4", "5"], "x", 1, 80, look);
  expect(many.slice(0, QUEUED_SHOWN + 1)).toEqual(["(2 more queued)", "queued: 3", "queued: 4", "queued: 5"]);
});

test("under the spinner: the rows below it cleared and written, the cursor back at the spinner's end; none drawn, nothing written", () => {
  expect(aheadBlock([], 12, false, false)).toEqual({ text: "", drawn: false });
  expect(aheadBlock([], 12, true, false)).toEqual({ text: "\x1b[J", drawn: false });
  expect(aheadBlock(["queued: a", "› b"], 12, false, false)).toEqual({ text: "\x1b[J\n\rqueued: a\n\r› b\x1b[2A\r\x1b[12C", drawn: true });
});

// /help's entries are one line each in HELP: the terminal's width wraps them (a hand-made break left
// "once" alone on a row of its own at 110 columns, under the wrap's own break).
import { expect, test } from "bun:test";
import { HELP } from "../../src/ui/help-text.ts";

test("every /help entry is one line: no row of the list is a hand-wrapped continuation", () => {
  const continued = HELP.split("\n").filter((line) => /^\s+\S/.test(line));
  expect(continued).toEqual([]);
});

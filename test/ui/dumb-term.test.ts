// Which terminals hey draws nothing fancy on (ui/term.ts isDumb): TERM=dumb, and TERM unset or
// empty, as git takes it — but on Windows, whose console sets no TERM and takes escape sequences.
import { expect, test } from "bun:test";
import { dumbTerminal, isDumb } from "../../src/ui/term.ts";

test("TERM=dumb, unset or empty is dumb on Linux and macOS; a terminal's own TERM is not", () => {
  for (const platform of ["linux", "darwin"]) {
    expect(isDumb({ TERM: "dumb" }, platform)).toBe(true);
    expect(isDumb({}, platform)).toBe(true);
    expect(isDumb({ TERM: "" }, platform)).toBe(true);
    expect(isDumb({ TERM: "xterm-256color" }, platform)).toBe(false);
  }
});

test("on Windows no TERM is the console as usual; TERM=dumb is still dumb", () => {
  expect(isDumb({}, "win32")).toBe(false);
  expect(isDumb({ TERM: "dumb" }, "win32")).toBe(true);
});

test("the REPL's refusal names what is wrong: TERM=dumb, or no TERM (set it)", () => {
  expect(dumbTerminal({ TERM: "dumb" })).toStartWith("this terminal (TERM=dumb) cannot show hey's prompt");
  expect(dumbTerminal({})).toStartWith("TERM is not set, so hey cannot tell whether this terminal can show its prompt");
});

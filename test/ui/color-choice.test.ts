// When hey's output has colours (ui/term.ts wantsColor): NO_COLOR turns them off and wins
// (no-color.org); FORCE_COLOR keeps them through a pipe (`hey -p … 2>&1 | less -R`), or turns them
// off on a terminal with 0 or false, as Node, chalk and other CLIs read it.
import { expect, test } from "bun:test";
import { wantsColor } from "../../src/ui/term.ts";

const TERM = "xterm-256color";

test.each([
  ["a terminal", true, { TERM }, true],
  ["a pipe", false, { TERM }, false],
  ["TERM=dumb", true, { TERM: "dumb" }, false],
  ["NO_COLOR on a terminal", true, { TERM, NO_COLOR: "1" }, false],
  ["an empty NO_COLOR", true, { TERM, NO_COLOR: "" }, true],
  ["FORCE_COLOR=1 into a pipe", false, { TERM, FORCE_COLOR: "1" }, true],
  ["FORCE_COLOR=3 into a pipe", false, { TERM, FORCE_COLOR: "3" }, true],
  ["FORCE_COLOR=true into a pipe", false, { TERM, FORCE_COLOR: "true" }, true],
  ["an empty FORCE_COLOR into a pipe", false, { TERM, FORCE_COLOR: "" }, true],
  ["FORCE_COLOR=1 with TERM=dumb", false, { TERM: "dumb", FORCE_COLOR: "1" }, true],
  ["FORCE_COLOR=0 on a terminal", true, { TERM, FORCE_COLOR: "0" }, false],
  ["FORCE_COLOR=false on a terminal", true, { TERM, FORCE_COLOR: "false" }, false],
  ["NO_COLOR over FORCE_COLOR", false, { TERM, NO_COLOR: "1", FORCE_COLOR: "1" }, false],
] as const)("%s", (_what, tty, env, want) => {
  expect(wantsColor(tty, env)).toBe(want);
});

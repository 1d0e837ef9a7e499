// An unknown `/word` names the command it probably meant (issue 28): within two edits, or the one
// command a cut-off word starts; nothing when no command is close.
import { expect, test } from "bun:test";
import { unknownCommand } from "../../src/ui/slash.ts";

test.each([
  ["/modle", "/model"],
  ["/hlep", "/help"],
  ["/qiut", "/quit"],
  ["/claer", "/clear"],
  ["/lsat", "/last"],
  ["/usgae", "/usage"],
  ["/res", "/resume"], // a cut-off word: the command it starts, not /new two edits away
  ["/Model", "/model"],
])("%s: did you mean %s?", (typed, meant) => {
  expect(unknownCommand(typed)).toBe(`unknown command ${typed}; did you mean ${meant}? (/help lists the commands)`);
});

test.each([["/frobnicate"], ["/xyzzy"], ["/re"]])("%s: no guess when nothing is close (or several commands start it)", (typed) => {
  expect(unknownCommand(typed)).toBe(`unknown command ${typed} (/help lists the commands)`);
});

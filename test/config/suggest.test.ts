// The "did you mean" of unknown names: a pure guess from edit distance (and a cut-off suffix).
import { describe, expect, test } from "bun:test";
import { closest, didYouMean } from "../../src/config/suggest.ts";
import { editDistance } from "../../src/kernel/spelling.ts";

describe("closest: the known name a typo probably meant", () => {
  test.each([
    ["max_turn", ["max_turns", "budget_tokens"], "max_turns"],
    ["Max_Turns", ["max_turns"], "max_turns"],
    ["enable", ["command", "enabled"], "enabled"],
    ["agnet", ["agent", "retry"], "agent"],
    ["mokc", ["mock", "openai"], "mock"],
    ["startup_wait", ["startup_wait_ms", "servers"], "startup_wait_ms"],
    ["bsae_url", ["base_url", "models"], "base_url"],
    // nothing close: no guess
    ["colour", ["shell", "rg"], undefined],
    ["ab", ["rg", "xy"], undefined],
    ["max_turns", ["max_turns"], undefined], // the name itself is no suggestion
  ] as [string, string[], string | undefined][])("%s → %p", (name, known, expected) => {
    expect(closest(name, known)).toBe(expected);
  });

  test("the nearest wins", () => {
    expect(closest("max_turnz", ["max_tokens", "max_turns"])).toBe("max_turns");
    expect(editDistance("kitten", "sitting")).toBe(3);
    // a swap of neighbours is two edits, or one when swaps count as one (a typed slip)
    expect(editDistance("upgrdae", "upgrade")).toBe(2);
    expect(editDistance("upgrdae", "upgrade", true)).toBe(1);
  });

  test("didYouMean is the phrase, or nothing", () => {
    expect(didYouMean("max_turn", ["max_turns"])).toBe("; did you mean max_turns?");
    expect(didYouMean("zzz", ["max_turns"])).toBe("");
  });
});

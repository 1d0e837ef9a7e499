// The context estimate learns tokens per character from the input counts the provider reports — but
// not from a count of part of the request: an endpoint that reports only the prompt tokens its cache
// lacked (Ollama's runner before ollama/ollama#16428) would talk the ratio down until the budget
// applied at several times the real size and compaction never started.
import { expect, test } from "bun:test";
import { correctEstimate, newCompactionState, type CompactionState } from "../../src/context/compaction.ts";
import type { ContextView } from "../../src/context/view.ts";

/** A state whose last request was `chars` characters, estimated at the state's ratio. */
function sent(state: CompactionState, chars: number): CompactionState {
  state.last = { estimate: Math.ceil(chars * state.tokensPerChar) } as ContextView;
  return state;
}

test("a full count corrects the ratio toward what the provider counted", () => {
  const state = sent(newCompactionState(), 40_000); // 10,000 tokens estimated at 0.25
  correctEstimate(state, 11_000);
  expect(state.tokensPerChar).toBeCloseTo(0.275, 5);
});

test.each([
  ["the newest part only (an uncached suffix)", 2_000],
  ["a little under a token per five characters", 7_900],
])("a count of part of the request teaches nothing: %s", (_, reported) => {
  const state = sent(newCompactionState(), 40_000);
  correctEstimate(state, reported);
  expect(state.tokensPerChar).toBe(0.25);
});

test("an endpoint counting only what is new since its last request leaves the estimate at its size, request after request", () => {
  const state = newCompactionState();
  let chars = 4_000;
  for (let request = 0; request < 30; request++) {
    sent(state, chars);
    const added = 9_000; // each turn adds a read of 9,000 characters, about 2,250 tokens
    correctEstimate(state, request === 0 ? chars / 4 : added / 4); // the first request whole, then the new part alone
    chars += added;
  }
  // ~270k characters sent at a token per four: the estimate's ratio is what the first, whole count taught
  expect(state.tokensPerChar).toBe(0.25);
});

test("a resumed session's saved ratio under a token per five characters starts at that floor", () => {
  expect(newCompactionState([], 0.1).tokensPerChar).toBe(0.2);
});

// Groq's per-request TPM limit counts the max_tokens a request sends into "Requested"
// (ai_automation_suggester#61: "Limit 6000, Requested 14810"; koassistant.koplugin#106): the prompt
// is what is left, hey keeps prompts under the limit less max_tokens, and a max_tokens that takes
// too much of it is named as what to lower. A learned limit is kept with the session by name.
import { describe, expect, test } from "bun:test";
import { answerOverLimit, answerShare, learnWindow, limitIn, taughtBy } from "../../src/context/window.ts";
import { contextOverflow } from "../../src/providers/context-length.ts";

const GROQ = (requested: number) =>
  `Request too large for model \`llama-3.1-8b-instant\` in organization \`org_x\` service tier \`on_demand\` on tokens per minute (TPM): Limit 6000, Requested ${requested}, please reduce your message size and try again.`;
const TPM = "tokens per minute (TPM)";

describe("answerShare: the max_tokens sent is split off what a per-request limit counted", () => {
  test("Requested 6523 with max_tokens 2048: a prompt of 4475, the answer's share 2048, prompts kept under 3952", () => {
    const o = contextOverflow(GROQ(6523));
    expect(o).toEqual({ window: 6000, prompt: 6523, ceiling: TPM });
    const share = answerShare(o, 2048);
    expect(share).toEqual({ window: 6000, prompt: 4475, completion: 2048, ceiling: TPM });
    expect(learnWindow(share!, 4481, undefined)).toBe(3952);
  });
  test("no max_tokens sent: the limit is the prompt's, as before", () => {
    const o = contextOverflow(GROQ(6294));
    expect(answerShare(o, undefined)).toBe(o);
    expect(learnWindow(answerShare(o, undefined)!, 6300, undefined)).toBe(6000);
  });
  test("a model's context window (no per-request limit) is left as the server stated it", () => {
    const o = { window: 8192, prompt: 1100, completion: 8000 };
    expect(answerShare(o, 2048)).toBe(o);
    expect(answerShare({ window: 8192 }, 2048)).toEqual({ window: 8192 });
  });
});

describe("answerOverLimit: a max_tokens that leaves too little of the limit is what to lower", () => {
  const share = (mt: number) => answerShare(contextOverflow(GROQ(4475 + mt)), mt)!;
  test("4096 of 6000: named, with the room it leaves and a value that fits", () => {
    expect(answerOverLimit(share(4096), 4096, 1500, "groq")).toBe(
      "the endpoint takes at most 6,000 tokens a request (its tokens per minute (TPM) limit) and counts max_tokens in it: max_tokens = 4,096 leaves ~1,904 tokens for the request (the system prompt and tools alone take ~1,500); lower max_tokens in [provider.groq] (to 3,000 or less), or use a higher tier",
    );
  });
  test("2048 of 6000 leaves room: the history is cut instead", () => {
    expect(answerOverLimit(share(2048), 2048, 1500, "groq")).toBeUndefined();
  });
  test("a max_tokens that leaves less than the system prompt and tools take", () => {
    expect(answerOverLimit(share(2048), 2048, 4000, "groq")).toContain(
      "max_tokens = 2,048 leaves ~3,952 tokens for the request (the system prompt and tools alone take ~4,000)",
    );
  });
  test("max_tokens past the limit itself", () => {
    expect(answerOverLimit(share(8192), 8192, 1500, "groq")).toContain("max_tokens = 8,192 leaves nothing for the request");
  });
  test("not for a model's context window", () => {
    expect(answerOverLimit({ window: 8192, prompt: 1100, completion: 8000 }, 8000, 1500, "vllm")).toBeUndefined();
  });
});

describe("where the window came from: the limit, less max_tokens, and its name back from it", () => {
  test("/usage says the limit and the max_tokens taken off it", () => {
    const from = taughtBy(answerShare(contextOverflow(GROQ(6523)), 2048));
    expect(from).toBe("the endpoint's limit on one request: its tokens per minute (TPM) limit of 6,000, less max_tokens 2,048");
    expect(limitIn(from)).toBe(TPM);
    expect(limitIn(taughtBy(contextOverflow(GROQ(6294))))).toBe(TPM);
  });
  test("a window no per-request limit taught has no limit's name", () => {
    expect(limitIn(taughtBy({ window: 16384 }))).toBeUndefined();
    expect(limitIn("the session it continues")).toBeUndefined();
    expect(limitIn(undefined)).toBeUndefined();
  });
});

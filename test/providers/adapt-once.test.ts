// A refused request is changed and sent again only while each change sends something new: an
// adapter whose change does not change the request (or undoes another) would send the refused
// request again and again, thousands of times a second (it did: Anthropic's output limit on
// claude-opus-4-1 with budget thinking, max_tokens lowered and raised again by the budget).
import { afterAll, expect, test } from "bun:test";
import { ProviderError, type StreamEvent } from "../../src/kernel/provider.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { adaptingStream } from "../../src/providers/adapting-stream.ts";
import { drain } from "../helpers/drain.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { startRefusingServer } from "../helpers/refusing-server.ts";

const refused = () => new ProviderError("bad_request", "request rejected (400): no");

/** An attempt that is always refused, counting how often it was made. */
function refusedAttempts(): { attempt: () => AsyncIterable<StreamEvent>; count: () => number } {
  let count = 0;
  return {
    attempt: async function* () {
      count++;
      yield* [];
      if (count > 50) throw new Error("the refused request was sent 50 times");
      throw refused();
    },
    count: () => count,
  };
}

/** [what adapt does, the adapter's state, adapt, how many requests go out] */
const ADAPTS: [string, Record<string, unknown>, (state: Record<string, unknown>) => boolean, number][] = [
  // the first change was new; making it again is not
  ["says it changed the request, and did not the second time", { limit: 0 }, (state) => (state.limit = 32000) > 0, 2],
  ["undoes its own change", { legacy: false }, (state) => ((state.legacy = !state.legacy), true), 2],
  ["always finds something new to change: given up after 12 changes", { n: 0 }, (state) => (state.n = (state.n as number) + 1) > 0, 13],
];

test.each(ADAPTS)("an adapt that %s: the refusal is thrown, each state sent once", async (_, state, adapt, requests) => {
  const { attempt, count } = refusedAttempts();
  const { error } = await drain(
    adaptingStream(
      attempt,
      () => adapt(state),
      () => state,
    ),
  );
  expect(error).toMatchObject({ kind: "bad_request" });
  expect(count()).toBe(requests);
});

// Anthropic's words for a max_tokens over the model's output limit, as the API answers them.
const tooMany = (sent: number) => ({
  status: 400,
  error: {
    type: "error",
    error: {
      type: "invalid_request_error",
      message: `max_tokens: ${sent} > 32000, which is the maximum allowed number of output tokens for claude-opus-4-1-20250805`,
    },
  },
});
const noAdaptive = {
  status: 400,
  error: { type: "error", error: { type: "invalid_request_error", message: "thinking.type: adaptive thinking is not supported on this model" } },
};
/** claude-opus-4-1 as the API judges it: no adaptive thinking, at most 32000 output tokens, budget_tokens below max_tokens and at least 1024. */
const server = startRefusingServer((body) => {
  if (server.bodies.length > 50) runaway.abort(); // the same refusal again and again: the test ends, failing on its count
  const thinking = body.thinking as { type: string; budget_tokens?: number } | undefined;
  if (thinking?.type === "adaptive") return noAdaptive;
  if ((body.max_tokens as number) > 32000) return tooMany(body.max_tokens as number);
  if (thinking?.type === "enabled" && !(thinking.budget_tokens! >= 1024 && thinking.budget_tokens! < (body.max_tokens as number)))
    return { status: 400, error: { type: "error", error: { type: "invalid_request_error", message: "bad budget_tokens" } } };
  return textReply("anthropic", "Hello");
});
afterAll(() => server.stop());
let runaway = new AbortController();

const hi = { system: "", messages: [{ id: "u1", role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }], tools: [] };

test.each([
  // a name hey does not know (a gateway's alias of claude-opus-4-1): learned from the refusals
  ["a gateway's name for it, with legacy_thinking", "house-opus", true, 2],
  ["a gateway's name for it, adaptive refused first", "house-opus", false, 3],
  // its own name: budget thinking under its documented 32000 from the first request (before: 3 requests every run)
  ["claude-opus-4-1 itself", "claude-opus-4-1-20250805", false, 1],
] as const)(
  "effort max on %s: thinks with the largest budget under the limit, in as few requests as the refusals need, and answers",
  async (_, model, legacyThinking, requests) => {
    runaway = new AbortController();
    const provider = await createAnthropicProvider({ model, baseUrl: server.url, apiKey: "k", effort: "max", legacyThinking });
    const before = server.bodies.length;
    const { events, error } = await drain(provider.stream(hi, runaway.signal));
    expect(error).toBeUndefined();
    expect(
      events
        .filter((e) => e.type === "text")
        .map((e) => (e as { delta: string }).delta)
        .join(""),
    ).toBe("Hello");
    expect(server.bodies.length - before).toBe(requests);
    expect(server.bodies.at(-1)).toMatchObject({ max_tokens: 32000, thinking: { type: "enabled", budget_tokens: 27904 } });
    expect(events.filter((e) => e.type === "notice")).toEqual(
      requests === 1
        ? []
        : [{ type: "notice", message: "this model takes at most 32000 output tokens: thinking gets a budget of 27904 tokens in place of 32000" }],
    );
    // and the next request goes as it should at once
    await drain(provider.stream(hi, new AbortController().signal));
    expect(server.bodies.length - before).toBe(requests + 1);
  },
);

// What a request is counted with when its provider did not report it all (context/request-cost.ts):
// the counts it sent before the break stand, the rest is hey's estimate; a failure before the answer
// began cost nothing and is thrown as it came.
import { expect, test } from "bun:test";
import { costedStream, estimatedUsage } from "../../src/context/request-cost.ts";
import { emptyUsage, unreportedUsage, type Usage } from "../../src/kernel/ir.ts";
import { ProviderError, type StreamEvent } from "../../src/kernel/provider.ts";

const ESTIMATE = { input: 1000, tokensPerChar: 0.25 };
const reported = (input: number, cacheRead = 0, cacheWrite = 0): Usage => ({ ...emptyUsage(), input, output: 1, cacheRead, cacheWrite });

test.each([
  ["nothing reported: the request's estimate and the answer's", undefined, { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 }],
  ["a report that is itself an estimate: the same", unreportedUsage(), { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 }],
  [
    "the input counts reported: they stand, the output is the answer's",
    reported(5000, 4000, 500),
    { input: 5000, output: 100, cacheRead: 4000, cacheWrite: 500 },
  ],
])("estimatedUsage, %s", (_, early, expected) => {
  expect(estimatedUsage(early, ESTIMATE, 400)).toEqual({ ...emptyUsage(), ...expected, estimated: true });
});

async function drained(events: StreamEvent[], error: unknown): Promise<unknown> {
  async function* source(): AsyncGenerator<StreamEvent> {
    yield* events;
    throw error;
  }
  try {
    for await (const _ of costedStream(source(), ESTIMATE));
  } catch (e) {
    return e;
  }
  throw new Error("no failure");
}

test("a failure after the provider's early counts carries them, even before any text", async () => {
  const thrown = await drained([{ type: "usage", usage: reported(5000, 4000) }], new ProviderError("overloaded", "overloaded mid-stream"));
  expect(thrown).toMatchObject({ kind: "overloaded", usage: { input: 5000, cacheRead: 4000, output: 1, estimated: true } });
});

test("an abort after part of the answer becomes a ProviderError carrying the estimate", async () => {
  const abort = new DOMException("The operation was aborted.", "AbortError");
  const thrown = await drained([{ type: "text", delta: "x".repeat(40) }], abort);
  expect(thrown).toBeInstanceOf(ProviderError);
  expect(thrown).toMatchObject({ usage: { input: 1000, output: 10, estimated: true } });
});

test("a failure before anything came is thrown as it came: nothing was billed", async () => {
  const refused = new ProviderError("bad_request", "no");
  expect(await drained([{ type: "notice", message: "effort lowered" }], refused)).toBe(refused);
  expect(refused.usage).toBeUndefined();
});

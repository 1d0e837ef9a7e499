// A Claude turn the server paused goes on in a continuation (anthropic-pause.ts); each response is
// billed, so the counts a continuation sends as it begins come with the earlier responses': a
// continuation that breaks is counted with all of them (context/request-cost.ts).
import { expect, test } from "bun:test";
import { emptyUsage, type Usage } from "../../src/kernel/ir.ts";
import { ProviderError, type StreamEvent } from "../../src/kernel/provider.ts";
import { continuingPaused, type Recorded } from "../../src/providers/anthropic-pause.ts";

const reported = (input: number): Usage => ({ ...emptyUsage(), input, output: 1 });

test("a paused Claude turn whose continuation breaks: its early counts come with the earlier responses', each billed", async () => {
  const first: StreamEvent[] = [
    { type: "usage", usage: reported(3000) },
    { type: "done", message: { id: "a", role: "assistant", content: [] }, usage: { ...reported(3000), output: 50 }, stop: "other" },
  ];
  const events: StreamEvent[] = [];
  const stream = continuingPaused(async function* (_paused, into: Recorded) {
    if (events.length === 0) {
      into.stop = "pause_turn";
      return yield* first;
    }
    yield { type: "usage", usage: reported(3200) };
    throw new ProviderError("network", "cut");
  });
  await expect(
    (async () => {
      for await (const e of stream) events.push(e);
    })(),
  ).rejects.toThrow("cut");
  expect(events.filter((e) => e.type === "usage").map((e) => (e.type === "usage" ? e.usage.input : 0))).toEqual([3000, 6200]);
});

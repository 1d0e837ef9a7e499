// Aborting and stalling a Messages stream: the SDK ends its loop silently when aborted mid-stream
// (sdk-facts §2.4), so the adapter must throw instead and never emit `done`; a stream that stalls
// after its headers fails as a retryable network error instead of hanging.
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { userMessage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { WIRE_DIR, fixture, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());

const request = { system: "", messages: [userMessage("hi")], tools: [] };
const provider = (idleTimeoutMs?: number) =>
  createAnthropicProvider({ model: "m", baseUrl: server.url, ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) });

/** The events of a recording, one string each, so they can be sent apart. */
const eventsOf = (name: string) => readFileSync(join(WIRE_DIR, `anthropic/${name}.sse`), "utf8").split(/(?<=\n\n)/);

test("aborting mid-stream ends the iteration by throwing, with no done", async () => {
  server.enqueue(fixture("anthropic/redacted-thinking", { delayMs: 20 }));
  const p = await provider();
  const controller = new AbortController();
  const { events, error: thrown } = await drain(p.stream(request, controller.signal), (events) => {
    if (events.length === 3) controller.abort();
  });
  expect(thrown).toBeInstanceOf(Error);
  expect((thrown as Error).name).toBe("AbortError");
  expect(events.map((e) => e.type)).toEqual(["text", "text", "text"]);
});

test("an abort reason given by the caller is what is thrown", async () => {
  server.enqueue(fixture("anthropic/thinking-signature", { delayMs: 20 }));
  const p = await provider();
  const controller = new AbortController();
  const reason = new Error("user pressed Ctrl-C");
  const run = async () => {
    for await (const e of p.stream(request, controller.signal)) if (e.type === "thinking") controller.abort(reason);
  };
  await expect(run()).rejects.toBe(reason);
});

test("an already-aborted signal throws before anything is sent", async () => {
  const p = await provider();
  const before = server.requests.length;
  const run = async () => {
    for await (const _ of p.stream(request, AbortSignal.abort()));
  };
  await expect(run()).rejects.toMatchObject({ name: "AbortError" });
  expect(server.requests.length).toBe(before);
});

test("a stream that stalls is aborted after idleTimeoutMs with a retryable network error", async () => {
  // message_start, the first text block and its delta arrive; then nothing, connection open.
  server.enqueue(sseReply(eventsOf("text").slice(0, 4), { hang: true }));
  const p = await provider(200);
  const events: StreamEvent[] = [];
  const started = performance.now();
  let thrown: unknown;
  try {
    for await (const e of p.stream(request, new AbortController().signal)) events.push(e);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(ProviderError);
  expect(thrown).toMatchObject({ kind: "network", message: "no data from the model for 0.2 s" });
  expect((thrown as ProviderError).retryable).toBe(true);
  expect(events).toEqual([{ type: "text", delta: "Hello" }]);
  expect(performance.now() - started).toBeLessThan(3000);
});

test("a slow stream whose events keep coming is not cut, however long it takes in total", async () => {
  server.enqueue(fixture("anthropic/thinking-signature", { delayMs: 40 }));
  const p = await provider(150);
  const events: StreamEvent[] = [];
  for await (const e of p.stream(request, new AbortController().signal)) events.push(e);
  expect(events.at(-1)).toMatchObject({ type: "done", stop: "stop" });
});

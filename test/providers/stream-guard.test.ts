// The "no data for N s" watchdog: a stream that stalls after its headers fails as a retryable
// network error instead of hanging; a slow but steady stream is left alone.
import { afterAll, describe, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { startIdleWatchdog } from "../../src/providers/stream-guard.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";

const server = startReplayServer();
afterAll(() => server.stop());

const request = { system: "", messages: [userMessage("hi")], tools: [] };

describe("chat-completions stream", () => {
  test("a stream that stalls is aborted after idleTimeoutMs with a network error", async () => {
    server.enqueue(sseReply(sseEvents([chatChunk({ content: "Hel" })], { done: false }), { hang: true }));
    const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1`, idleTimeoutMs: 200 });
    const events: StreamEvent[] = [];
    const started = performance.now();
    let thrown: unknown;
    try {
      for await (const e of provider.stream(request, new AbortController().signal)) events.push(e);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ProviderError);
    expect(thrown).toMatchObject({ kind: "network", message: "no data from the model for 0.2 s" });
    expect((thrown as ProviderError).retryable).toBe(true);
    expect(events).toEqual([{ type: "text", delta: "Hel" }]);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  test("a slow stream whose chunks keep coming is not cut, however long it takes in total", async () => {
    const chunks = [..."abcdef"].map((c) => chatChunk({ content: c }));
    server.enqueue(sseReply(sseEvents([...chunks, chatChunk({ finish: "stop" })]), { delayMs: 80 }));
    const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1`, idleTimeoutMs: 300 });
    const events: StreamEvent[] = [];
    for await (const e of provider.stream(request, new AbortController().signal)) events.push(e);
    expect(events.at(-1)).toMatchObject({ type: "done", stop: "stop", message: { content: [{ type: "text", text: "abcdef" }] } });
  });
});

describe("startIdleWatchdog", () => {
  async function* ticks(gapsMs: number[]) {
    for (const gap of gapsMs) {
      await Bun.sleep(gap);
      yield gap;
    }
  }

  test("fires when the source is silent for the idle time, and only then", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 80);
    const seen: number[] = [];
    for await (const gap of dog.watch(ticks([40, 40, 40]))) seen.push(gap);
    expect(seen).toEqual([40, 40, 40]);
    expect(dog.signal.aborted).toBe(false);
    await Bun.sleep(120);
    expect(dog.fired).toBe(true);
    expect(dog.signal.reason).toMatchObject({ kind: "network", message: "no data from the model for 0.08 s" });
    dog.dispose();
  });

  test("time the consumer holds an item does not count as silence", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 60);
    for await (const _ of dog.watch(ticks([10, 10]))) await Bun.sleep(120);
    expect(dog.fired).toBe(false);
    dog.dispose();
  });

  test("a caller abort passes through with its reason and is not a firing", () => {
    const parent = new AbortController();
    const dog = startIdleWatchdog(parent.signal, 10_000);
    parent.abort("bye");
    expect(dog.signal.aborted).toBe(true);
    expect(dog.signal.reason).toBe("bye");
    expect(dog.fired).toBe(false);
    dog.dispose();
  });

  test("dispose stops the timer", async () => {
    const dog = startIdleWatchdog(new AbortController().signal, 20);
    dog.dispose();
    await Bun.sleep(50);
    expect(dog.fired).toBe(false);
    expect(dog.signal.aborted).toBe(false);
  });
});

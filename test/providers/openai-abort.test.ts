// Aborting a chat-completions stream: the openai SDK ends its loop silently when aborted
// mid-stream (sdk-facts §1.5); the adapter must throw instead, and never emit `done`.
import { afterAll, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { fixture, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());

const request = { system: "", messages: [userMessage("hi")], tools: [] };

test("aborting mid-stream ends the iteration by throwing, with no done", async () => {
  server.enqueue(fixture("openai-chat/text-usage", { delayMs: 20 }));
  const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
  const controller = new AbortController();
  const { events, error: thrown } = await drain(provider.stream(request, controller.signal), (events) => {
    if (events.length === 3) controller.abort();
  });
  expect(thrown).toBeInstanceOf(Error);
  expect((thrown as Error).name).toBe("AbortError");
  expect(events.map((e) => e.type)).toEqual(["text", "text", "text"]);
  expect(events.some((e) => e.type === "done")).toBe(false);
});

test("an abort reason given by the caller is what is thrown", async () => {
  server.enqueue(fixture("openai-chat/text-usage", { delayMs: 20 }));
  const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
  const controller = new AbortController();
  const reason = new Error("user pressed Ctrl-C");
  const run = async () => {
    for await (const e of provider.stream(request, controller.signal)) if (e.type === "text") controller.abort(reason);
  };
  await expect(run()).rejects.toBe(reason);
});

test("an already-aborted signal throws before anything is yielded", async () => {
  const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
  const before = server.requests.length;
  const events: StreamEvent[] = [];
  const run = async () => {
    for await (const e of provider.stream(request, AbortSignal.abort())) events.push(e);
  };
  await expect(run()).rejects.toMatchObject({ name: "AbortError" });
  expect(events).toEqual([]);
  expect(server.requests.length).toBe(before);
});

// Aborting and stalling a Responses stream: the openai SDK ends its loop silently when aborted
// mid-stream (sdk-facts §1.5), so the adapter must throw the abort reason and never emit `done`;
// a stream that stalls after its headers fails as a retryable network error.
import { afterAll, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { StreamEvent } from "../../src/kernel/provider.ts";
import { createResponsesProvider } from "../../src/providers/responses.ts";
import { fixture, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());

const request = { system: "", messages: [userMessage("hi")], tools: [] };
const TEXT = "openai-responses/text-after-function-call"; // 14 text deltas
const provider = (idleTimeoutMs?: number) =>
  createResponsesProvider({ model: "m", baseUrl: `${server.url}/v1`, ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) });

const delta = (d: string, n: number) =>
  `event: response.output_text.delta\ndata: ${JSON.stringify({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: d, sequence_number: n })}\n\n`;
const COMPLETED =
  'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[],"usage":null},"sequence_number":99}\n\n';

test("aborting mid-stream ends the iteration by throwing, with no done", async () => {
  server.enqueue(fixture(TEXT, { delayMs: 20 }));
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
  server.enqueue(fixture(TEXT, { delayMs: 20 }));
  const p = await provider();
  const controller = new AbortController();
  const reason = new Error("user pressed Ctrl-C");
  const run = async () => {
    for await (const e of p.stream(request, controller.signal)) if (e.type === "text") controller.abort(reason);
  };
  await expect(run()).rejects.toBe(reason);
});

test("an already-aborted signal throws before anything is sent", async () => {
  const p = await provider();
  const before = server.requests.length;
  const events: StreamEvent[] = [];
  const run = async () => {
    for await (const e of p.stream(request, AbortSignal.abort())) events.push(e);
  };
  await expect(run()).rejects.toMatchObject({ name: "AbortError" });
  expect(events).toEqual([]);
  expect(server.requests.length).toBe(before);
});

test("a stream that stalls is aborted after idleTimeoutMs with a retryable network error", async () => {
  server.enqueue(sseReply([delta("Hel", 0)], { hang: true }));
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
  expect(events).toEqual([{ type: "text", delta: "Hel" }]);
  expect(performance.now() - started).toBeLessThan(3000);
});

test("a slow stream whose events keep coming is not cut, however long it takes in total", async () => {
  server.enqueue(sseReply([...[..."abcdef"].map(delta), COMPLETED], { delayMs: 80 }));
  const p = await provider(300);
  const events: StreamEvent[] = [];
  for await (const e of p.stream(request, new AbortController().signal)) events.push(e);
  expect(events.at(-1)).toMatchObject({ type: "done", stop: "stop", message: { content: [{ type: "text", text: "abcdef" }] } });
});

// What every adapter promises about ending a stream (SPEC §4, the Provider interface), checked the
// same way for the four factories through their real SDKs, which differ here: openai and
// anthropic end their loop silently when aborted mid-stream (sdk-facts §1.5, §2.4), genai throws
// AbortError. The caller's abort ends the stream by throwing (its own reason when it gave one),
// never with `done`, and sends nothing when the signal is aborted already; a stream that goes
// silent, after some events or right after its headers, fails as a retryable network error
// naming the idle time instead of hanging; a slow stream whose events keep coming is never cut,
// nor one kept alive by bytes the SDK parses away (SSE comments, Anthropic pings). Providers are
// made by createProvider, as hey makes them, so its fetch wrapper is part of what is checked.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { userMessage } from "../../src/kernel/ir.ts";
import type { Protocol } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { drain } from "../helpers/drain.ts";
import { WIRE_DIR, fixture, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";

/** A stalled stream the watchdog failed to end fails the test at this deadline; nothing is measured against a clock. */
const HANG = 10_000;

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const request = { system: "", messages: [userMessage("hi")], tools: [] };

/** Recordings are replayed one event this far apart, so that an abort lands mid-stream. */
const EVENT_GAP_MS = 20;
/** The idle timeout of the stall tests: 0.2 s in the message. */
const STALL_IDLE_MS = 200;
/**
 * The slow stream's events are this far apart: well inside SLOW_IDLE_MS, but all of them together
 * are not. The idle time less the gap is what a loaded machine may stall the test's event loop
 * without firing the watchdog: 180 ms (60 and 240) was too little, the keep-alive test below failed
 * once in 12 runs beside a busy test suite; 400 ms now.
 */
const SLOW_GAP_MS = 100;
const SLOW_IDLE_MS = 500;

interface Adapter {
  name: Protocol;
  /** A provider talking to the replay server at `url`. */
  create(url: string, idleTimeoutMs?: number): Promise<Provider>;
  /** A recording whose first three events are deltas of the kind `firstThree`. */
  recording: string;
  firstThree: "text" | "thinking";
  /** A recording the caller aborts with its own reason at the first delta. */
  reasonRecording: string;
  /** The start of a stream, up to a first text delta, after which the server goes silent. */
  stall: string[];
  stallDelta: string;
  /** A whole stream of the texts "a" … "f", as separate events, SLOW_GAP_MS apart. */
  slow: string[];
  /** What the slow stream's `done` must show. */
  slowDone: Record<string, unknown>;
  /** What a server sends to keep a silent stream open, which the SDK drops. */
  keepAlive: string;
  /** The events that start an answer before any of it, which a stuck upstream sends before its keep-alives. */
  opening: string[];
}

const idle = (ms: number | undefined) => (ms !== undefined ? { idleTimeoutMs: ms } : {});
/** OpenRouter's form of the SSE comment it sends while a model thinks. */
const SSE_COMMENT = ": OPENROUTER PROCESSING\n\n";
const ABCDEF = [..."abcdef"];
const FINISHED_ABCDEF = { stop: "stop", message: { content: [{ type: "text", text: "abcdef" }] } };

/** A recording's events, one string each, so that they can be sent apart. */
const eventsOf = (name: string) => readFileSync(join(WIRE_DIR, `${name}.sse`), "utf8").split(/(?<=\n\n)/);

const responsesDelta = (d: string, n: number) =>
  `event: response.output_text.delta\ndata: ${JSON.stringify({ type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: d, sequence_number: n })}\n\n`;
const responsesStart = (type: string, n: number) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, response: { id: "resp_1", object: "response", status: "in_progress", output: [], usage: null }, sequence_number: n })}\n\n`;
const RESPONSES_COMPLETED =
  'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[],"usage":null},"sequence_number":99}\n\n';

const geminiChunk = (text: string, finishReason?: string) =>
  `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text }], role: "model" }, ...(finishReason ? { finishReason } : {}) }] })}\r\n\r\n`;

const ADAPTERS: Adapter[] = [
  {
    name: "openai",
    create: (url, ms) => createProvider({ protocol: "openai", model: "m", baseUrl: `${url}/v1`, ...idle(ms) }),
    recording: "openai-chat/text-usage",
    firstThree: "text",
    reasonRecording: "openai-chat/text-usage",
    stall: sseEvents([chatChunk({ content: "Hel" })], { done: false }),
    stallDelta: "Hel",
    slow: sseEvents([...ABCDEF.map((c) => chatChunk({ content: c })), chatChunk({ finish: "stop" })]),
    slowDone: FINISHED_ABCDEF,
    keepAlive: SSE_COMMENT,
    opening: [],
  },
  {
    name: "responses",
    create: (url, ms) => createProvider({ protocol: "responses", model: "m", baseUrl: `${url}/v1`, ...idle(ms) }),
    recording: "openai-responses/text-after-function-call", // 14 text deltas
    firstThree: "text",
    reasonRecording: "openai-responses/text-after-function-call",
    stall: [responsesDelta("Hel", 0)],
    stallDelta: "Hel",
    slow: [...ABCDEF.map(responsesDelta), RESPONSES_COMPLETED],
    slowDone: FINISHED_ABCDEF,
    keepAlive: SSE_COMMENT,
    opening: ["response.created", "response.in_progress"].map(responsesStart),
  },
  {
    name: "anthropic",
    create: (url, ms) => createProvider({ protocol: "anthropic", model: "m", baseUrl: url, ...idle(ms) }),
    recording: "anthropic/redacted-thinking",
    firstThree: "text",
    reasonRecording: "anthropic/thinking-signature", // aborted at its first thinking delta
    // message_start, the first text block and its delta; then nothing, the connection open.
    stall: eventsOf("anthropic/text").slice(0, 4),
    stallDelta: "Hello",
    slow: eventsOf("anthropic/thinking-signature"),
    slowDone: { stop: "stop" },
    keepAlive: 'event: ping\ndata: {"type": "ping"}\n\n',
    opening: eventsOf("anthropic/text").slice(0, 1), // message_start
  },
  {
    name: "google",
    create: (url, ms) => createProvider({ protocol: "google", model: "gemini-test", baseUrl: `${url}/v1beta`, apiKey: "KEY", ...idle(ms) }),
    recording: "gemini/thoughts-then-text-signature", // genai throws AbortError even mid-stream
    firstThree: "thinking",
    reasonRecording: "gemini/thoughts-then-text-signature",
    stall: [geminiChunk("Hel")],
    stallDelta: "Hel",
    slow: [...ABCDEF.map((c) => geminiChunk(c)), geminiChunk("", "STOP")],
    slowDone: FINISHED_ABCDEF,
    keepAlive: ": keep-alive\r\n\r\n",
    opening: [],
  },
];

/** The events of the answer, without the counts some protocols send as it begins (Anthropic's message_start, Gemini's usageMetadata): provider tests check those. */
const answer = (events: StreamEvent[]) => events.filter((e) => e.type !== "usage");

describe.each(ADAPTERS)("$name", (adapter) => {
  test("aborting mid-stream ends the iteration by throwing AbortError, with no done", async () => {
    server.enqueue(fixture(adapter.recording, { delayMs: EVENT_GAP_MS }));
    const p = await adapter.create(server.url);
    const controller = new AbortController();
    const { events, error: thrown } = await drain(p.stream(request, controller.signal), (events) => {
      if (answer(events).length === 3) controller.abort();
    });
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe("AbortError");
    expect(thrown).not.toBeInstanceOf(ProviderError);
    expect(answer(events).map((e) => e.type)).toEqual([adapter.firstThree, adapter.firstThree, adapter.firstThree]);
    expect(events.some((e) => e.type === "done")).toBe(false);
  });

  test("an abort ends the stream at once, also when the events after it came in the same read", async () => {
    server.enqueue(fixture(adapter.recording)); // one write: the SDK holds the rest of the stream when the caller aborts
    const p = await adapter.create(server.url);
    const controller = new AbortController();
    const { events, error: thrown } = await drain(p.stream(request, controller.signal), (events) => {
      if (answer(events).length === 3) controller.abort();
    });
    expect((thrown as Error).name).toBe("AbortError");
    expect(answer(events).map((e) => e.type)).toEqual([adapter.firstThree, adapter.firstThree, adapter.firstThree]);
  });

  test("an abort reason given by the caller is what is thrown", async () => {
    server.enqueue(fixture(adapter.reasonRecording, { delayMs: EVENT_GAP_MS }));
    const p = await adapter.create(server.url);
    const controller = new AbortController();
    const reason = new Error("user pressed Ctrl-C");
    const run = async () => {
      for await (const e of p.stream(request, controller.signal)) if (e.type === "text" || e.type === "thinking") controller.abort(reason);
    };
    await expect(run()).rejects.toBe(reason);
  });

  test("an already-aborted signal throws before anything is sent or yielded", async () => {
    const p = await adapter.create(server.url);
    const before = server.requests.length;
    const events: StreamEvent[] = [];
    const run = async () => {
      for await (const e of p.stream(request, AbortSignal.abort())) events.push(e);
    };
    await expect(run()).rejects.toMatchObject({ name: "AbortError" });
    expect(events).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  test(
    "a stream that stalls is aborted after idleTimeoutMs with a retryable network error, after the partial text",
    async () => {
      server.enqueue(sseReply(adapter.stall, { hang: true }));
      const p = await adapter.create(server.url, STALL_IDLE_MS);
      const { events, error: thrown } = await drain(p.stream(request, new AbortController().signal)); // the server never ends it: only the watchdog does
      expect(thrown).toBeInstanceOf(ProviderError);
      expect(thrown).toMatchObject({ kind: "network", message: "no data from the model for 0.2 s" });
      expect((thrown as ProviderError).retryable).toBe(true);
      expect(answer(events)).toEqual([{ type: "text", delta: adapter.stallDelta }]);
    },
    HANG,
  );

  test(
    "a server that sends headers and then nothing trips the idle watchdog too",
    async () => {
      server.enqueue(sseReply([], { hang: true }));
      const p = await adapter.create(server.url, 150);
      const { events, error: thrown } = await drain(p.stream(request, new AbortController().signal)); // the server never ends it: only the watchdog does
      expect(thrown).toBeInstanceOf(ProviderError);
      expect(thrown).toMatchObject({ kind: "network", silent: true }); // not a byte of the body
      expect((thrown as ProviderError).message).toMatch(
        /^no answer from http:\/\/127\.0\.0\.1:\d+\S* in 0\.15 s, not a byte: a local server may still be loading the model/,
      );
      expect((thrown as ProviderError).retryable).toBe(true);
      expect(events).toEqual([]);
    },
    HANG,
  );

  test("a slow stream whose events keep coming is not cut, however long it takes in total", async () => {
    server.enqueue(sseReply(adapter.slow, { delayMs: SLOW_GAP_MS }));
    expect((adapter.slow.length - 1) * SLOW_GAP_MS).toBeGreaterThan(SLOW_IDLE_MS); // the premise: longer in total than the idle timeout
    const p = await adapter.create(server.url, SLOW_IDLE_MS);
    const { events, error } = await drain(p.stream(request, new AbortController().signal));
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "done", ...adapter.slowDone });
  });

  test(
    "keep-alives alone hold a try open KEEP_ALIVE_TIMEOUTS idle times at most: then a retryable stall naming the endpoint, before any event or after some",
    async () => {
      const keepAlives = Array.from({ length: 200 }, () => adapter.keepAlive); // longer than the test may run: only the bound ends them
      server.enqueue(
        sseReply(keepAlives, { delayMs: SLOW_GAP_MS, hang: true }),
        sseReply([...adapter.stall, ...keepAlives], { delayMs: SLOW_GAP_MS, hang: true }),
      );
      const p = await adapter.create(server.url, SLOW_IDLE_MS);
      for (const said of [[], [adapter.stallDelta]]) {
        const { events, error: thrown } = await drain(p.stream(request, new AbortController().signal));
        expect(thrown).toBeInstanceOf(ProviderError);
        // no event before the keep-alives: a try that counts toward SILENT_TRIES like a silent one
        expect(thrown).toMatchObject({ kind: "network", silent: false, answerless: said.length === 0 });
        expect((thrown as ProviderError).message).toMatch(
          said.length === 0
            ? /^http:\/\/127\.0\.0\.1:\d+\S* sent only keep-alives for 2\.5 s and no event of the answer \(keep-alives hold a try 5 × \[retry\] idle_timeout_ms at most\)$/
            : /^http:\/\/127\.0\.0\.1:\d+\S* sent only keep-alives for 2\.5 s after part of the answer, and no further event \(keep-alives hold a try 5 × \[retry\] idle_timeout_ms at most\)$/,
        );
        expect((thrown as ProviderError).retryable).toBe(true);
        expect(answer(events).map((e) => (e.type === "text" ? e.delta : e.type))).toEqual(said);
      }
    },
    HANG,
  );

  test(
    "the events that open an answer, then keep-alives alone: the same bound holds (no event of the answer came), and the try counts as answerless",
    async () => {
      const keepAlives = Array.from({ length: 200 }, () => adapter.keepAlive);
      server.enqueue(sseReply([...adapter.opening, ...keepAlives], { delayMs: SLOW_GAP_MS, hang: true }));
      const p = await adapter.create(server.url, SLOW_IDLE_MS);
      const { events, error: thrown } = await drain(p.stream(request, new AbortController().signal));
      expect(thrown).toMatchObject({ kind: "network", silent: false, answerless: true });
      expect((thrown as ProviderError).message).toContain("sent only keep-alives for 2.5 s and no event of the answer");
      expect(answer(events)).toEqual([]);
    },
    HANG,
  );

  test("keep-alives the SDK drops count as data: a model thinking in silence for longer than the idle time is not cut", async () => {
    const keepAlives = Array.from({ length: 8 }, () => adapter.keepAlive);
    server.enqueue(sseReply([...keepAlives, ...adapter.slow], { delayMs: SLOW_GAP_MS }));
    expect(keepAlives.length * SLOW_GAP_MS).toBeGreaterThan(SLOW_IDLE_MS); // the premise: the silence before the first event outlasts the idle time
    const p = await adapter.create(server.url, SLOW_IDLE_MS);
    const { events, error } = await drain(p.stream(request, new AbortController().signal));
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "done", ...adapter.slowDone });
  });
});

// What a stream's bytes show beside its events, with the real SDKs against a loopback replay server:
// a whole stream of another protocol's events fails at once as a protocol error naming both
// protocols and where to change the setting (each adapter's SDK would read it as a cut or an empty
// answer, retried five times); a body that closed cleanly in the middle of an event is a cut
// connection (retryable), not a server that does not speak the protocol.
import { afterAll, describe, expect, test } from "bun:test";
import { PROTOCOLS, userMessage, type Protocol } from "../../src/kernel/ir.ts";
import type { ProviderError } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { protocolOfEvent, StreamShape } from "../../src/providers/stream-shape.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { sseReply, startReplayServer, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());

async function run(protocol: Protocol, reply: Reply, extra: { protocolSetting?: string } = {}) {
  server.enqueue(reply);
  const provider = await createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url), idleTimeoutMs: 5_000, ...extra });
  const { events, error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  return { events, error: error as ProviderError | undefined, text: events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("") };
}

const pairs = PROTOCOLS.flatMap((configured) => PROTOCOLS.filter((sent) => sent !== configured).map((sent) => [configured, sent] as const));

describe("a stream of another protocol's events", () => {
  test.each(pairs)("protocol %s, events of %s: a protocol error naming both, not retried", async (configured, sent) => {
    const { error } = await run(configured, textReply(sent, "All done."));
    expect(error?.kind).toBe("protocol");
    expect(error?.retryable).toBe(false);
    expect(error?.message).toContain(`not the`);
    expect(error?.message).toContain(`of protocol "${configured}"`);
    expect(error?.message).toContain(`use --protocol ${sent} (HEY_PROTOCOL=${sent})`);
  });

  test("the fix names the table and file the protocol is set in", async () => {
    const { error } = await run("anthropic", textReply("openai", "All done."), { protocolSetting: "[provider.gw] in /home/u/.config/hey/config.toml" });
    expect(error?.message).toBe(
      `${baseUrlFor("anthropic", server.url)} answered with OpenAI chat-completions events, not the Anthropic Messages events of protocol "anthropic": set protocol = "openai" in [provider.gw] in /home/u/.config/hey/config.toml, or point base_url at the server's Anthropic Messages API`,
    );
  });

  test.each(PROTOCOLS)("protocol %s, its own events: the answer as usual", async (protocol) => {
    const { error, text } = await run(protocol, textReply(protocol, "All done."));
    expect(error).toBeUndefined();
    expect(text).toBe("All done.");
  });

  test("events' shapes: each protocol's, and none for errors and pings", () => {
    expect(protocolOfEvent({ object: "chat.completion.chunk", choices: [] })).toBe("openai");
    expect(protocolOfEvent({ type: "response.output_text.delta", delta: "x" })).toBe("responses");
    expect(protocolOfEvent({ type: "content_block_delta", index: 0, delta: {} })).toBe("anthropic");
    expect(protocolOfEvent({ candidates: [{ content: { parts: [] } }] })).toBe("google");
    expect(protocolOfEvent({ type: "ping" })).toBeUndefined();
    expect(protocolOfEvent({ type: "error", error: { message: "x" } })).toBeUndefined();
    expect(protocolOfEvent({ error: { message: "x" } })).toBeUndefined();
    expect(protocolOfEvent("[DONE]")).toBeUndefined();
  });
});

describe("a body that closed cleanly in the middle of an event", () => {
  const half = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel';

  test("before any text: a cut connection, retryable, not a server that does not speak the protocol", async () => {
    const { error, text } = await run("openai", sseReply(half));
    expect(text).toBe("");
    expect(error?.kind).toBe("network");
    expect(error?.retryable).toBe(true);
    expect(error?.message).toBe("the connection closed before the model finished its answer: the stream ended in the middle of an event");
  });

  test("after some text: the same cut, the text shown first", async () => {
    const { error, text } = await run("openai", sseReply(sse([chatChunk({ content: "Some words. " })], { done: false }) + half));
    expect(text).toBe("Some words. ");
    expect(error?.kind).toBe("network");
  });

  test("a whole event of no JSON (a blank line after it): still a server that does not speak the protocol, named", async () => {
    const { error } = await run("openai", sseReply("data: <html>oops</html>\n\n"));
    expect(error?.kind).toBe("protocol");
    expect(error?.message).toContain(`the server at ${baseUrlFor("openai", server.url)} does not speak this protocol as expected`);
  });

  test("Anthropic's events cut inside the last one: a cut connection too", async () => {
    const body =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":3,"output_tokens":0}}}\n\nevent: content_block_start\ndata: {"type":"content_block_st';
    const { error } = await run("anthropic", sseReply(body));
    expect(error?.kind).toBe("network");
    expect(error?.retryable).toBe(true);
  });
});

describe("StreamShape, chunk by chunk", () => {
  const shapeOf = (...chunks: string[]) => {
    const shape = new StreamShape();
    for (const c of chunks) shape.push(c);
    shape.end();
    return shape;
  };

  test("an event of JSON cut at the close, in whatever chunks it came: a cut", () => {
    expect(shapeOf('data: {"choices":[{"delta":{"content":"Hel').cutInEvent).toBe(true);
    expect(shapeOf("da", 'ta: {"choi', 'ces":[').cutInEvent).toBe(true);
    // the line came whole, the blank line that ends the event did not
    expect(shapeOf('data: {"choices":[{"delta":{"content":"Hel\n').cutInEvent).toBe(true);
  });

  test("ended events, [DONE] without its blank line, a reset (no end): no cut", () => {
    expect(shapeOf('data: {"choices":[]}\n\n').cutInEvent).toBe(false);
    expect(shapeOf('data: {"choices":[]}\r', "\n\r\n").cutInEvent).toBe(false);
    expect(shapeOf('data: {"choices":[]}\n\ndata: [DONE]').cutInEvent).toBe(false);
    expect(shapeOf("data: <html>").cutInEvent).toBe(false);
    const reset = new StreamShape();
    reset.push('data: {"choices":[{"delta":{"content":"Hel');
    expect(reset.cutInEvent).toBe(false);
  });

  test("the protocol of the events read, split anywhere; foreign only when none is the adapter's own", () => {
    const body = sse([chatChunk({ content: "hi" }), chatChunk({ finish: "stop" })]);
    const split = shapeOf(body.slice(0, 7), body.slice(7, 40), body.slice(40));
    expect([...split.protocols]).toEqual(["openai"]);
    expect(split.foreign("openai")).toBeUndefined();
    expect(split.foreign("anthropic")).toBe("openai");
    expect(shapeOf(": keep-alive\n\n", 'data: {"error":{"message":"x"}}\n\n').foreign("openai")).toBeUndefined();
  });
});

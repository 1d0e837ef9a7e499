// A finished answer of reasoning alone (thinking, no text, no call), on each of the four protocols
// (create.ts with empty-answers.ts): on chat completions the answer at once (a server's reasoning
// parser); elsewhere an empty answer to retry, said as such — after tool results once a run;
// Anthropic's end_turn after tool results still ends the task. An endpoint that answers so every
// time has its answers taken at once. Real SDKs against a loopback replay server.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Message, type Protocol } from "../../src/kernel/ir.ts";
import { ProviderError, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { REASONING_AFTER_TOOLS, REASONING_HABIT, reasoningAsAnswer, reasoningHabit } from "../../src/providers/empty-answers.ts";
import { baseUrlFor, textReply, thinkingReply, toolCallsReply } from "../helpers/protocol-streams.ts";
import { startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const RETRIED: Protocol[] = ["responses", "anthropic", "google"];
const asked = [userMessage("what is the answer?")];
const afterTools: Message[] = [
  userMessage("read a.txt"),
  { id: "a", role: "assistant", content: [], toolCalls: [{ id: "toolu_1", name: "read_file", arguments: '{"path":"a.txt"}' }] },
  { id: "r", role: "tool", toolCallId: "toolu_1", toolName: "read_file", content: [{ type: "text", text: "hello" }] },
];

const providerFor = (protocol: Protocol) => createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url) });
const ask = (provider: Provider, messages: readonly Message[] = asked) =>
  drain(provider.stream({ system: "", messages: [...messages], tools: [] }, new AbortController().signal));
const notices = (events: StreamEvent[]) => events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

test.each(RETRIED)(
  "%s: reasoning alone to the user's message is an empty answer of the endpoint, 'only reasoning', its thinking streamed first",
  async (protocol) => {
    server.enqueue(thinkingReply(protocol, "I think the answer is 42."));
    const { events, error } = await ask(await providerFor(protocol));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "empty_answer", message: `${baseUrlFor(protocol, server.url)} answered with only reasoning` });
    expect((error as ProviderError).usage).toMatchObject({ input: 90 }); // billed: the kernel counts it
    expect(
      events
        .filter((e) => e.type === "thinking")
        .map((e) => (e as { delta: string }).delta)
        .join(""),
    ).toBe("I think the answer is 42.");
    expect(notices(events)).toEqual([]);
  },
);

test.each([
  ["the user's message", asked],
  ["tool results", afterTools],
] as const)(
  "openai: reasoning alone in reply to %s (a reasoning parser's) is the answer at once, said once a run, the parser named only on this machine",
  async (_, messages) => {
    const provider = await providerFor("openai");
    server.enqueue(thinkingReply("openai", "It is 42."), thinkingReply("openai", "It is 43."));
    const first = await ask(provider, messages);
    expect(first.error).toBeUndefined();
    expect(notices(first.events)).toEqual([reasoningAsAnswer(true)]);
    expect(first.events.filter((e) => e.type === "text")).toEqual([{ type: "text", delta: "It is 42." }]);
    expect(first.events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "It is 42." }] } });
    const again = await ask(provider, messages);
    expect(again.error).toBeUndefined();
    expect(notices(again.events)).toEqual([]);
    expect(reasoningAsAnswer(false)).toBe("the model's answer came only as reasoning, its content empty: it is taken as the answer");
  },
);

test.each(["responses", "google"] as const)("%s: after tool results, retried once a run: then taken at once, said", async (protocol) => {
  const provider = await providerFor(protocol);
  server.enqueue(thinkingReply(protocol, "The file says hello."), thinkingReply(protocol, "The file says hello."));
  expect((await ask(provider, afterTools)).error).toMatchObject({ kind: "empty_answer" });
  const taken = await ask(provider, afterTools);
  expect(taken.error).toBeUndefined();
  expect(notices(taken.events)).toEqual([REASONING_AFTER_TOOLS]);
  expect(taken.events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "The file says hello." }] } });
  // a reply of tool calls in between does not start the count again
  server.enqueue(toolCallsReply(protocol, [{ id: "toolu_2", name: "read_file", args: { path: "b.txt" } }]), thinkingReply(protocol, "Done."));
  expect((await ask(provider, afterTools)).error).toBeUndefined();
  expect((await ask(provider, afterTools)).error).toBeUndefined();
});

test("anthropic: after tool results an end_turn of thinking alone ends the task as Claude ended it (documented), passed on", async () => {
  server.enqueue(thinkingReply("anthropic", "Done."));
  const { events, error } = await ask(await providerFor("anthropic"), afterTools);
  expect(error).toBeUndefined();
  expect(events.at(-1)).toMatchObject({ type: "done", stop: "stop", message: { content: [{ type: "thinking", text: "Done." }] } });
});

test.each(RETRIED)(
  "%s: an endpoint that answers with reasoning alone every time has its answers taken at once after REASONING_HABIT in a row, until it answers with text",
  async (protocol) => {
    const provider = await providerFor(protocol);
    for (let i = 0; i < REASONING_HABIT; i++) {
      server.enqueue(thinkingReply(protocol, "It is 42."));
      expect((await ask(provider)).error).toMatchObject({ kind: "empty_answer" });
    }
    server.enqueue(thinkingReply(protocol, "It is 42."), thinkingReply(protocol, "It is 43."));
    const taken = await ask(provider);
    expect(taken.error).toBeUndefined();
    expect(notices(taken.events)).toEqual([reasoningHabit(baseUrlFor(protocol, server.url))]);
    expect(taken.events.filter((e) => e.type === "text")).toEqual([{ type: "text", delta: "It is 42." }]);
    expect(taken.events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "It is 42." }] } });
    const again = await ask(provider);
    expect(notices(again.events)).toEqual([]); // said once
    expect(again.events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "It is 43." }] } });
    // a reply of tool calls does not end the row: the next reasoning alone is still taken at once
    server.enqueue(toolCallsReply(protocol, [{ id: "toolu_3", name: "read_file", args: { path: "c.txt" } }]), thinkingReply(protocol, "It is 44."));
    expect((await ask(provider)).error).toBeUndefined();
    expect((await ask(provider)).events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "It is 44." }] } });
    // an answer with text ends the row: the next reasoning alone is a flake again
    server.enqueue(textReply(protocol, "Hello."), thinkingReply(protocol, "Hmm."));
    expect((await ask(provider)).error).toBeUndefined();
    expect((await ask(provider)).error).toMatchObject({ kind: "empty_answer" });
  },
);

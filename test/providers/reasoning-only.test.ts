// A finished answer of reasoning alone (thinking, no text, no call), on each of the four protocols
// (create.ts with empty-answers.ts): an empty answer to retry, said as such, where an empty answer is
// a flake; Anthropic's end_turn after tool results still ends the task. An endpoint that answers so
// every time (a chat server's reasoning parser with a model that does not think) has its answers
// taken at once. Real SDKs against a loopback replay server.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Message, type Protocol } from "../../src/kernel/ir.ts";
import { ProviderError, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { createProvider } from "../../src/providers/create.ts";
import { REASONING_HABIT, REASONING_ONLY_HINT, reasoningHabit } from "../../src/providers/empty-answers.ts";
import { baseUrlFor, textReply, thinkingReply } from "../helpers/protocol-streams.ts";
import { startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

const PROTOCOLS: Protocol[] = ["openai", "responses", "anthropic", "google"];
const asked = [userMessage("what is the answer?")];
const afterTools: Message[] = [
  userMessage("read a.txt"),
  { id: "a", role: "assistant", content: [], toolCalls: [{ id: "toolu_1", name: "read_file", arguments: '{"path":"a.txt"}' }] },
  { id: "r", role: "tool", toolCallId: "toolu_1", toolName: "read_file", content: [{ type: "text", text: "hello" }] },
];

const providerFor = (protocol: Protocol) => createProvider({ protocol, model: "m", baseUrl: baseUrlFor(protocol, server.url) });
const ask = (provider: Provider, messages: Message[] = asked) => drain(provider.stream({ system: "", messages, tools: [] }, new AbortController().signal));
const notices = (events: StreamEvent[]) => events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

test.each(PROTOCOLS)(
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
    // where it comes from on chat completions is said once
    expect(notices(events)).toEqual(protocol === "openai" ? [REASONING_ONLY_HINT] : []);
  },
);

test.each(["openai", "responses", "google"] as const)("%s: after tool results too", async (protocol) => {
  server.enqueue(thinkingReply(protocol, "The file says hello."));
  expect((await ask(await providerFor(protocol), afterTools)).error).toMatchObject({ kind: "empty_answer" });
});

test("anthropic: after tool results an end_turn of thinking alone ends the task as Claude ended it (documented), passed on", async () => {
  server.enqueue(thinkingReply("anthropic", "Done."));
  const { events, error } = await ask(await providerFor("anthropic"), afterTools);
  expect(error).toBeUndefined();
  expect(events.at(-1)).toMatchObject({ type: "done", stop: "stop", message: { content: [{ type: "thinking", text: "Done." }] } });
});

test.each(PROTOCOLS)(
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
    // an answer with text ends the row: the next reasoning alone is a flake again
    server.enqueue(textReply(protocol, "Hello."), thinkingReply(protocol, "Hmm."));
    expect((await ask(provider)).error).toBeUndefined();
    expect((await ask(provider)).error).toMatchObject({ kind: "empty_answer" });
  },
);

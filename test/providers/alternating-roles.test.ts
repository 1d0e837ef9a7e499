// A chat-completions server whose chat template demands alternating roles (Gemma, Mistral-Instruct,
// Llama 2 on vLLM, TGI, llama-server --jinja) refuses a history with user messages in a row ("Conversation
// roles must alternate …", a 400): the request goes again with those messages joined, and so does
// every later one of the run; a server that takes them gets them as they are. Real SDK, loopback replay server.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { joinedUserTurns } from "../../src/providers/openai-adapt.ts";
import { drain } from "../helpers/drain.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { jsonReply, startReplayServer } from "../helpers/replay-server.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

// vLLM's body for the template's raise_exception (x7 #13)
const ALTERNATE = {
  object: "error",
  message: "Conversation roles must alternate user/assistant/user/assistant/...",
  type: "BadRequestError",
  param: null,
  code: 400,
};
const answered: Message = { id: "a", role: "assistant", content: [{ type: "text", text: "hello" }] };
// an older hey's session: a failed turn's question kept without an answer, then the next one
const history = [userMessage("hi"), answered, userMessage("first"), userMessage("second")];
const sent = (k: number) => (server.requests[k]!.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role !== "system");

test("refused for roles in a row: sent again with the user messages in a row joined, and so from then on", async () => {
  const before = server.requests.length;
  server.enqueue(jsonReply(400, ALTERNATE), textReply("openai", "answer"), textReply("openai", "again"));
  const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
  const ask = () => drain(provider.stream({ system: "sys", messages: history, tools: [] }, new AbortController().signal));
  const first = await ask();
  expect(first.error).toBeUndefined();
  expect(first.events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "answer" }] } });
  expect(server.requests.length - before).toBe(2);
  expect(sent(before).map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]); // as they are, until refused
  expect(sent(before + 1)).toEqual([
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
    { role: "user", content: "first\n\nsecond" },
  ]);
  expect((await ask()).error).toBeUndefined(); // the next request of the run: joined at once
  expect(server.requests.length - before).toBe(3);
  expect(sent(before + 2).map((m) => m.role)).toEqual(["user", "assistant", "user"]);
});

test("joinedUserTurns: texts a blank line apart, parts kept in order, other messages untouched", () => {
  const image = { type: "image_url", image_url: { url: "data:image/png;base64,AA" } };
  const tool = { role: "tool", content: "result" };
  const messages: { role: string; content: unknown }[] = [
    { role: "system", content: "s" },
    { role: "user", content: "a" },
    { role: "user", content: [image] },
    tool,
    { role: "user", content: "b" },
    { role: "user", content: "c" },
  ];
  expect(joinedUserTurns(messages)).toEqual([
    { role: "system", content: "s" },
    { role: "user", content: [{ type: "text", text: "a" }, image] },
    tool,
    { role: "user", content: "b\n\nc" },
  ]);
});

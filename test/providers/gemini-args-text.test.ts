// A Gemini `functionCall` whose `args` is not the object the API sends but the JSON as a string (a
// translating proxy's habit) or some other value: read as chat completions' arguments are
// (kernel/call-arguments.ts), never spread into one argument per character (`0="{" 1="\""…`, which
// the model was shown to correct). Through the real @google/genai SDK from a loopback server.
import { afterAll, afterEach, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import { readArguments } from "../../src/kernel/call-arguments.ts";
import { createGoogleProvider } from "../../src/providers/google.ts";
import { sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { drain } from "../helpers/drain.ts";

const server = startReplayServer();
afterAll(() => server.stop());
afterEach(() => expect(server.violations).toEqual([]));

/** The one call of a stream whose only part is a functionCall with these `args`, as hey runs it. */
async function callWith(args: unknown) {
  const provider = await createGoogleProvider({ model: "gemini-test", baseUrl: `${server.url}/v1beta`, apiKey: "KEY" });
  const part = { functionCall: { name: "read_file", args } };
  server.enqueue(sseReply(`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP" }] })}\r\n\r\n`));
  const { events, error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect(error).toBeUndefined();
  const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

test.each([
  ["JSON in a string", '{"path":"a.txt"}'],
  ["JSON encoded twice", JSON.stringify('{"path":"a.txt"}')],
  ["Python-style quotes in a string", "{'path': 'a.txt'}"],
])("args given as %s are the object they hold", async (_, args) => {
  const call = await callWith(args);
  expect(JSON.parse(call.arguments)).toEqual({ path: "a.txt" });
});

test.each([
  ["a string that holds no object", "a.txt", "a.txt"],
  ["an array", ["a.txt"], '["a.txt"]'],
])("args given as %s reach the tool pipeline as sent, so the model is told why they cannot be read", async (_, args, sent) => {
  const call = await callWith(args);
  expect(call.arguments).toBe(sent);
  expect(readArguments(call.arguments)).toHaveProperty("error");
  expect(call.arguments).not.toContain('"0"');
});

test("args as Gemini sends them (an object) are unchanged, and no args at all are {}", async () => {
  expect(JSON.parse((await callWith({ path: "a.txt", limit: 5 })).arguments)).toEqual({ path: "a.txt", limit: 5 });
  expect((await callWith(undefined)).arguments).toBe("{}");
});

// A reasoning model on Groq or Cerebras (gpt-oss): the server streams the reasoning as `reasoning`
// and refuses `reasoning_content` on assistant messages, in its own words. hey sends the reasoning
// back in the field it came in, and where the endpoint refuses that too, sends none from then on:
// the tool loop goes on. Before, hey sent `reasoning_content`, took the refusal for DeepSeek's demand
// for more of it, sent it again and exited 1 after the first tool call. dist/hey against a server
// that judges as each vendor does.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { runHey } from "../helpers/e2e.ts";
import { fileTempDir } from "../helpers/fixtures.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { startRefusingServer, type Verdict } from "../helpers/refusing-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const work = fileTempDir("hey-reasoning-field-");
writeFileSync(`${work.path}/a.txt`, "hello\n");

type Msg = { role: string; reasoning?: unknown; reasoning_content?: unknown };
const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
/** the reasoning in `delta.reasoning`, as Groq, OpenRouter and newer vLLM stream it, then a call of read_file */
const callWithReasoning = sseReply(
  sse([
    { ...chatChunk({}), choices: [{ index: 0, delta: { role: "assistant", reasoning: "I should read a.txt." }, finish_reason: null }] },
    chatChunk({ toolCall: { index: 0, id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' } }),
    chatChunk({ finish: "tool_calls" }),
    chatChunk({ usage }),
  ]),
);
const answer = sseReply(sse([chatChunk({ content: "It says hello." }), chatChunk({ finish: "stop" }), chatChunk({ usage })]));

/** A server that streams reasoning, then refuses an assistant message carrying any of `refused`, in `words(index, field)`. */
function vendor(refused: string[], words: (i: number, field: string) => unknown): { server: ReturnType<typeof startRefusingServer>; fields: () => string[][] } {
  const server = startRefusingServer((body): Verdict => {
    const messages = body.messages as Msg[];
    if (!messages.some((m) => m.role === "tool")) return callWithReasoning;
    const i = messages.findIndex((m) => m.role === "assistant");
    const field = refused.find((f) => f in messages[i]!);
    return field ? { status: 400, error: words(i, field) } : answer;
  });
  afterAll(() => server.stop());
  const fields = () =>
    server.bodies.map((b) =>
      (b.messages as Msg[]).filter((m) => m.role === "assistant").flatMap((m) => Object.keys(m).filter((k) => k.startsWith("reasoning"))),
    );
  return { server, fields };
}

// Groq's words (as its API answers a field it does not take on an assistant message)
const groq = (i: number, field: string) => ({
  error: {
    message: `'messages.${i}' : for 'role:assistant' the following must be satisfied[('messages.${i}' : property '${field}' is unsupported)]`,
    type: "invalid_request_error",
  },
});
// Cerebras' words
const cerebras = (i: number, field: string) => ({
  message: `property 'messages.${i}.assistant.${field}' is unsupported`,
  type: "invalid_request_error",
  param: "messages",
  code: "wrong_api_format",
});

const run = (server: { url: string }) =>
  runHey(["--base-url", `${server.url}/openai/v1`, "-m", "openai/gpt-oss-120b", "-p", "what does a.txt say"], { cwd: work.path });

test("a server that refuses reasoning_content only (as the Groq mock does): the reasoning goes back as `reasoning`, the loop answers in 2 requests", async () => {
  const { server, fields } = vendor(["reasoning_content"], groq);
  const result = await run(server);
  expect(result).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(fields()).toEqual([[], ["reasoning"]]);
});

test.each([
  ["Groq", groq],
  ["Cerebras", cerebras],
])("%s refusing every reasoning field: the request goes again without it, once, and the loop answers", async (_, words) => {
  const { server, fields } = vendor(["reasoning_content", "reasoning"], words);
  const result = await run(server);
  expect(result.stderr).not.toContain("error");
  expect(result).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(fields()).toEqual([[], ["reasoning"], []]);
});

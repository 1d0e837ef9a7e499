// Gemini 3 (and Claude with thinking) through OpenRouter: the stream carries `reasoning_details`
// (openrouter.ai/docs/use-cases/reasoning-tokens: typed blocks with id, format and index, the text
// and summaries streamed a piece at a time, Gemini's thought signature as `reasoning.encrypted`),
// and the next request of the tool loop must carry them back on the assistant message, unchanged
// and in order, or OpenRouter answers 400. Before, hey never read them and every tool loop failed
// after the first call. dist/hey against a server that streams and judges as OpenRouter does.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { runHey } from "../helpers/e2e.ts";
import { fileTempDir } from "../helpers/fixtures.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { startRefusingServer, type Verdict } from "../helpers/refusing-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const work = fileTempDir("hey-openrouter-");
writeFileSync(`${work.path}/a.txt`, "hello\n");

const FORMAT = "google-gemini-v1";
const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const delta = (d: Record<string, unknown>) => ({ ...chatChunk({}), choices: [{ index: 0, delta: d, finish_reason: null }] });
/** Gemini 3 through OpenRouter: its thoughts in two pieces of one reasoning.text block, then the call with its signature */
const call = sseReply(
  sse([
    delta({
      role: "assistant",
      content: "",
      reasoning: "I should ",
      reasoning_details: [{ type: "reasoning.text", text: "I should ", format: FORMAT, index: 0 }],
    }),
    delta({ reasoning: "read a.txt.", reasoning_details: [{ type: "reasoning.text", text: "read a.txt.", format: FORMAT, index: 0 }] }),
    delta({
      reasoning_details: [{ type: "reasoning.encrypted", data: "CiQBjz1rX2sig==", id: "tool_read_file_1", format: FORMAT, index: 1 }],
      tool_calls: [{ index: 0, id: "tool_read_file_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } }],
    }),
    chatChunk({ finish: "tool_calls" }),
    chatChunk({ usage }),
  ]),
);
const answer = sseReply(sse([chatChunk({ content: "It says hello." }), chatChunk({ finish: "stop" }), chatChunk({ usage })]));
/** what must come back, as one block per index */
const PRESERVED = [
  { type: "reasoning.text", text: "I should read a.txt.", format: FORMAT, index: 0 },
  { type: "reasoning.encrypted", data: "CiQBjz1rX2sig==", id: "tool_read_file_1", format: FORMAT, index: 1 },
];
// OpenRouter's words, as the explorer's server answered them
const refused = {
  status: 400,
  error: {
    error: {
      message:
        "Provider returned error (Google AI Studio: Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks.)",
      code: 400,
    },
  },
};

type Msg = { role: string; reasoning_details?: unknown };
const server = startRefusingServer((body): Verdict => {
  const messages = body.messages as Msg[];
  if (!messages.some((m) => m.role === "tool")) return call;
  const assistant = messages.find((m) => m.role === "assistant")!;
  return JSON.stringify(assistant.reasoning_details) === JSON.stringify(PRESERVED) ? answer : refused;
});
afterAll(() => server.stop());

test("Gemini 3 through OpenRouter: the reasoning details go back with the call, as streamed, and the tool loop answers", async () => {
  const run = await runHey(["--base-url", `${server.url}/api/v1`, "-m", "google/gemini-3-pro-preview", "-p", "what does a.txt say"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(server.bodies.length).toBe(2);
  expect((server.bodies[1]!.messages as Msg[]).find((m) => m.role === "assistant")!.reasoning_details).toEqual(PRESERVED);
});

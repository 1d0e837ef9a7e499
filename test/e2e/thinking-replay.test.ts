// Anthropic with thinking on wants the thinking block of the assistant message whose tool results
// it is sent, complete with its signature, even when a user message rides in the same turn after
// those results — or it answers 400 "a final `assistant` message must start with a thinking block
// (preceeding the lastmost set of `tool_use` and `tool_result` blocks)". dist/hey against the
// recorded streams (anthropic/thinking-then-tool-use.sse, text-after-tool-result.sse).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { fixture, WIRE_DIR } from "../helpers/replay-server.ts";

const server = fileReplayServer();
const work = fileTempDir();

/** The signature the recorded thinking block carries. */
const signature = /"signature_delta","signature":"([^"]+)"/.exec(readFileSync(join(WIRE_DIR, "anthropic", "thinking-then-tool-use.sse"), "utf8"))![1]!;

type Block = { type: string; signature?: string };
type Body = { thinking?: { type: string }; messages: { role: string; content: Block[] }[] };

test("the hand-off at --max-turns sends the tool-calling message back with its thinking block first", async () => {
  const start = server.requests.length;
  server.enqueue(fixture("anthropic/thinking-then-tool-use"), fixture("anthropic/text-after-tool-result"));
  const args = ["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "--api-key", "k-1"];
  const run = await runHey([...args, "-m", "claude-sonnet-4-6", "-t", "high", "--max-turns", "1", "-p", "which version is fixed?"], { cwd: work.path });
  expect(run.code).toBe(3); // stopped at the turn limit, the hand-off saved

  const handOff = server.requests.slice(start)[1]!.body as Body;
  expect(handOff.thinking?.type).toBe("adaptive");
  const [assistant, results] = handOff.messages.slice(-2);
  expect(results!.content.map((b) => b.type)).toEqual(["tool_result", "text"]); // the hand-off request rides after the results
  expect(assistant!.content.map((b) => b.type)).toEqual(["thinking", "tool_use"]);
  expect(assistant!.content[0]!.signature).toBe(signature);
});

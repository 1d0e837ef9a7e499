// A Responses reasoning model's items go back as they came, on every later prompt too (Codex sends
// every output item back): three prompts, `hey -p` then `hey -c -p` twice, through dist/hey against
// a loopback Responses server whose every answer starts with an encrypted reasoning item. Each
// request is the previous one plus its new tail, byte for byte — before, each new prompt left the
// earlier prompts' reasoning items and their calls' fc_ ids out, and the cached prefix ended at
// the first user message.
import { expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { sseReply, type Reply } from "../helpers/replay-server.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();
const home = fileTempDir("hey-reasoning-prompts-");

const event = (data: { type: string; [field: string]: unknown }) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/** An answer as a reasoning model streams it: reasoning item `rs_<n>` (summary and encrypted_content), then `then`. */
function reasoned(n: number, then: Record<string, unknown>): Reply {
  const reasoning = { id: `rs_${n}`, type: "reasoning", summary: [{ type: "summary_text", text: `thought ${n}` }], encrypted_content: `gAAAA-enc-${n}` };
  const response = (status: string, output: unknown[]) => ({ id: `resp_${n}`, status, output });
  const usage = {
    input_tokens: 900,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 10 },
    total_tokens: 920,
  };
  return sseReply(
    [
      event({ type: "response.created", response: response("in_progress", []) }),
      event({ type: "response.output_item.added", output_index: 0, item: { ...reasoning, summary: [] } }),
      event({ type: "response.reasoning_summary_text.delta", item_id: reasoning.id, output_index: 0, summary_index: 0, delta: `thought ${n}` }),
      event({ type: "response.output_item.done", output_index: 0, item: reasoning }),
      event({ type: "response.output_item.added", output_index: 1, item: then }),
      ...(then.type === "message" ? [event({ type: "response.output_text.delta", item_id: then.id, output_index: 1, content_index: 0, delta: "done" })] : []),
      event({ type: "response.output_item.done", output_index: 1, item: then }),
      event({ type: "response.completed", response: { ...response("completed", [reasoning, then]), usage } }),
    ].join(""),
  );
}
const call = (n: number, path: string) =>
  reasoned(n, { id: `fc_${n}`, type: "function_call", status: "completed", call_id: `call_${n}`, name: "read_file", arguments: JSON.stringify({ path }) });
const answer = (n: number) =>
  reasoned(n, { id: `msg_${n}`, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "done", annotations: [] }] });

type Item = { type?: string; role?: string; id?: string };
const inputOf = (i: number) => (server.requests[i]!.body as { input: Item[] }).input;

test("over three prompts (-p, then -c -p twice) each Responses request extends the one before, earlier prompts' reasoning items in their places", async () => {
  writeUserConfig(
    home.path,
    `[default]\nprovider = "gpt"\nmodel = "gpt-r"\n[provider.gpt]\nprotocol = "responses"\nbase_url = "${server.url}/v1"\napi_key = "k"\nmodels = ["gpt-r"]\n`,
  );
  const cwd = realpathSync(home.path);
  for (const name of ["a.txt", "b.txt"]) writeFileSync(join(cwd, name), `${name}: some words\n`);
  const hey = (args: string[]) => runHey(args, { cwd, env: { HOME: home.path } });

  server.enqueue(call(1, "a.txt"), answer(2));
  expect((await hey(["-p", "read a.txt"])).code).toBe(0);
  server.enqueue(call(3, "b.txt"), answer(4));
  expect((await hey(["-c", "-p", "now b.txt"])).code).toBe(0);
  server.enqueue(answer(5));
  expect((await hey(["-c", "-p", "thanks"])).code).toBe(0);

  expect(server.requests).toHaveLength(5);
  for (let i = 1; i < server.requests.length; i++) {
    const before = JSON.stringify(inputOf(i - 1)).slice(0, -1); // without the closing bracket
    expect(JSON.stringify(inputOf(i))).toStartWith(before);
  }
  const shape = inputOf(4).map((item) => item.id ?? item.type ?? item.role);
  expect(shape).toEqual([
    "user",
    "rs_1",
    "fc_1",
    "function_call_output",
    "rs_2",
    "message",
    "user",
    "rs_3",
    "fc_3",
    "function_call_output",
    "rs_4",
    "message",
    "user",
  ]);
  expect(JSON.stringify(inputOf(4)[1])).toContain('"encrypted_content":"gAAAA-enc-1"');
  expect(server.violations).toEqual([]);
});

// `hey -c /compact` is what hey tells a user whose context is full, which is just when the
// provider is likeliest to fail the summary. A failed summary request ends the one-shot run as a
// failed `-p` turn does: one line on stderr, as the interactive prompt says it (no "internal
// error", no stack), exit 1, and in JSON the provider error's own kind.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId, type Message } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { jsonReply, sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-compact-fail-");
const state = fileTempDir("hey-compact-state-");
const cfg = join(work.path, "hey.toml");
writeFileSync(cfg, `[agent]\nbudget_tokens = 3000\n\n[retry]\nmax_retries = 0\n`);

const hey = (args: string[]) =>
  runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", cfg, ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });

/** A session of this directory with older work to summarize: eight reads of big files. */
function session(): string {
  const dir = join(state.path, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  const id = newId();
  const lines = [toLine({ type: "header", id, cwd: work.path, created: new Date().toISOString(), version: "0.1.0" })];
  const add = (m: Omit<Message, "id">) => lines.push(toLine({ type: "message", message: { id: newId(), ...m } }));
  add({ role: "user", content: [{ type: "text", text: "refactor the parser" }] });
  for (let i = 0; i < 8; i++) {
    const call = { id: `old_${i}`, name: "read_file", arguments: JSON.stringify({ path: `src/f${i}.ts` }) };
    add({ role: "assistant", content: [{ type: "text", text: `reading f${i}` }], toolCalls: [call] });
    add({ role: "tool", toolCallId: call.id, toolName: "read_file", isError: false, content: [{ type: "text", text: `file ${i}: ${"x".repeat(3000)}` }] });
  }
  add({ role: "assistant", content: [{ type: "text", text: "done reading" }] });
  writeFileSync(join(dir, `${id}.jsonl`), lines.join(""));
  return id;
}

const refusedKey = () => jsonReply(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
const usage = chatChunk({ usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 } });
/** a "summary" that is only a tool call: no words to keep */
const onlyACall = () =>
  sseReply(sse([chatChunk({ toolCall: { index: 0, id: "c1", name: "read_file", arguments: '{"path":"a"}' } }), chatChunk({ finish: "tool_calls" }), usage]));

test("a summary request the provider refuses (401) is one line on stderr and exit 1, not an internal error with a stack", async () => {
  server.enqueue(refusedKey());
  const run = await hey(["--resume", session(), "-p", "/compact"]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("hey: authentication failed (401): Incorrect API key provided");
  expect(run.stderr).not.toContain("internal error");
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stdout).toBe("");
});

test.each([
  ["auth", refusedKey, 0],
  ["empty_answer", onlyACall, 21],
])("in JSON a failed /compact ends with an error of kind %s, and done counts what the request cost", async (kind, reply, spent) => {
  server.enqueue(reply());
  const run = await hey(["--resume", session(), "--output", "json", "/compact"]);
  expect(run.code).toBe(1);
  const events = jsonEvents(run.stdout);
  expect(events.find((e) => e.type === "command")).toMatchObject({ name: "/compact", ok: false });
  const error = events.find((e) => e.type === "error");
  expect(error).toMatchObject({ kind });
  expect(String(error?.message)).not.toContain("internal error");
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "error", usage: { input_tokens: spent } });
});

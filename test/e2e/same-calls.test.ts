// The same call 20 times in one reply, through dist/hey: `echo line >> log.txt` runs once (one
// line in the file, not 20), the terminal shows one line for it, every call id gets a result in
// the JSON events and in the next request, and the session resumes with all of them (Anthropic
// refuses a tool_use without its tool_result).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { eachTempDir, fileReplayServer } from "../helpers/fixtures.ts";
import { baseUrlFor, textReply, toolCallsReply } from "../helpers/protocol-streams.ts";

const server = fileReplayServer();
const work = eachTempDir("hey-same-calls-");
const twenty = (prefix: string) => Array.from({ length: 20 }, (_, i) => ({ id: `${prefix}${i}`, name: "bash", args: { command: "echo line >> log.txt" } }));
const COPY = "same call as the 1st in this reply: not run again; its result is above";

test("20 identical appending calls (chat completions, --output json): one line in the file; 20 tool_calls, 19 naming the first; 20 results", async () => {
  server.enqueue(toolCallsReply("openai", twenty("call_")), textReply("openai", "Appended."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "-p", "log a line"], { cwd: work.path });
  expect(run.code).toBe(0);
  expect(readFileSync(join(work.path, "log.txt"), "utf8")).toBe("line\n");
  const events = jsonEvents(run.stdout);
  const calls = events.filter((e) => e.type === "tool_call");
  expect(calls).toHaveLength(20);
  expect(calls.filter((e) => e.same_as === "call_0")).toHaveLength(19);
  const results = events.filter((e) => e.type === "tool_result");
  expect(results.map((e) => e.id)).toEqual(calls.map((e) => e.id));
  expect(results.slice(1).every((e) => e.output === COPY && e.ok === true)).toBe(true);
  const sent = server.requests.at(-1)!.body as { messages: { role: string; tool_call_id?: string; content?: string }[] };
  expect(sent.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(calls.map((e) => String(e.id)));
});

test("Anthropic, on the terminal: the command shows once with how often it was asked for; the session resumes with every result", async () => {
  const home = tempDir("hey-same-calls-home-");
  try {
    const base = ["--base-url", baseUrlFor("anthropic", server.url), "--protocol", "anthropic", "-m", "m"];
    server.enqueue(toolCallsReply("anthropic", twenty("toolu_")), textReply("anthropic", "Appended."));
    const run = await runHey([...base, "-p", "log a line"], { cwd: work.path, env: { HOME: home.path } });
    expect(run.code).toBe(0);
    expect(readFileSync(join(work.path, "log.txt"), "utf8")).toBe("line\n");
    expect(run.stderr.match(/echo line >> log\.txt/g)).toHaveLength(1);
    expect(run.stderr).toContain("(asked for 20 times in one reply; run once)");
    server.enqueue(textReply("anthropic", "Still one line."));
    const again = await runHey([...base, "-c", "-p", "how many lines?"], { cwd: work.path, env: { HOME: home.path } });
    expect(again.code).toBe(0);
    type Block = { type: string; id?: string; tool_use_id?: string; content?: unknown };
    const sent = server.requests.at(-1)!.body as { messages: { role: string; content: string | Block[] }[] };
    const blocks = sent.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
    const uses = blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
    expect(uses).toHaveLength(20);
    expect(blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id)).toEqual(uses);
    expect(JSON.stringify(blocks.filter((b) => b.type === "tool_result").at(-1))).toContain(COPY);
  } finally {
    home.remove();
  }
});

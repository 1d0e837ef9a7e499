// Calls as open-weight models send them, through dist/hey: arguments with a slip that has one
// meaning (a Python dict, a trailing comma) and another agent's tool names (Bash, shell). The call
// runs as hey's tool, the next request shows the model the call that ran under hey's name, and
// a deny rule on bash holds for `shell`.
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { eachTempDir, fileReplayServer, writeUserConfig } from "../helpers/fixtures.ts";
import { baseUrlFor, textReply, toolCallsReply } from "../helpers/protocol-streams.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = fileReplayServer();
const work = eachTempDir("hey-repair-");

/** One chat-completions turn that calls `name` with `args`, sent as the raw text given. */
const rawCall = (name: string, args: string) =>
  sseReply(sse([chatChunk({ toolCall: { index: 0, id: `call_${name}`, name, arguments: args } }), chatChunk({ finish: "tool_calls" })]));

test("a Python-dict read_file and a Bash call with a trailing comma run; the next request shows read_file and bash with JSON arguments", async () => {
  writeFileSync(join(work.path, "a.txt"), "alpha\n");
  server.enqueue(rawCall("read_file", "{'path': 'a.txt'}"), rawCall("Bash", '{"command": "echo beta",}'), textReply("openai", "alpha, beta"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "-p", "go"], { cwd: work.path });
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "tool_call").map((e) => e.name)).toEqual(["read_file", "bash"]);
  const results = events.filter((e) => e.type === "tool_result");
  expect(results.map((e) => e.ok)).toEqual([true, true]);
  expect(String(results[0]!.output)).toContain("alpha");
  expect(String(results[1]!.output)).toContain("beta");
  const sent = server.requests.at(-1)!.body as { messages: { tool_calls?: { function: { name: string; arguments: string } }[] }[] };
  const calls = sent.messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function);
  expect(calls).toEqual([
    { name: "read_file", arguments: '{"path":"a.txt"}' },
    { name: "bash", arguments: '{"command":"echo beta"}' },
  ]);
});

test('under deny "bash: rm *", a call named shell is refused as bash would be (Anthropic)', async () => {
  writeFileSync(join(work.path, "a.txt"), "keep me\n");
  const home = tempDir("hey-repair-home-");
  try {
    writeUserConfig(home.path, '[permission]\ndeny = ["bash: rm *"]\n');
    server.enqueue(toolCallsReply("anthropic", [{ id: "toolu_1", name: "shell", args: { command: "rm a.txt" } }]), textReply("anthropic", "Refused."));
    const run = await runHey(["--base-url", baseUrlFor("anthropic", server.url), "--protocol", "anthropic", "-m", "m", "--output", "json", "-p", "clean"], {
      cwd: work.path,
      env: { HOME: home.path },
    });
    expect(run.code).toBe(0);
    expect(existsSync(join(work.path, "a.txt"))).toBe(true);
    const result = jsonEvents(run.stdout).find((e) => e.type === "tool_result")!;
    expect(result).toMatchObject({ name: "bash", ok: false });
    expect(String(result.output)).toContain("deny entry `bash: rm *`");
  } finally {
    home.remove();
  }
});

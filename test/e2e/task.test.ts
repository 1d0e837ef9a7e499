// The agent doing real work through dist/hey against a scripted OpenAI-compatible mock (SPEC §6,
// §7, §9, §18), and Ctrl-C while a tool runs.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { sseReply, startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { FIXED, makeRepo } from "../helpers/task-repo.ts";
import { until } from "../helpers/wait.ts";

let server: ReplayServer;
let repo: ReturnType<typeof tempDir>;
beforeAll(() => {
  server = startReplayServer();
});
afterAll(() => server.stop());
beforeEach(() => {
  repo = tempDir("hey-e2e-task-");
  makeRepo(repo.path);
});
afterEach(() => repo.remove());

let callNo = 0;
/** One assistant turn that calls the given tools (ids call_1, call_2, …). */
function calls(...tools: [string, unknown][]) {
  const chunks = tools.flatMap(([name, args], index) => {
    const id = `call_${++callNo}`;
    const json = JSON.stringify(args);
    return [
      chatChunk({ toolCall: { index, id, name, arguments: "" } }),
      chatChunk({ toolCall: { index, arguments: json.slice(0, 7) } }),
      chatChunk({ toolCall: { index, arguments: json.slice(7) } }),
    ];
  });
  return sseReply(
    sse([...chunks, chatChunk({ finish: "tool_calls" }), chatChunk({ usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })]),
  );
}
const say = (text: string) => sseReply(sse([chatChunk({ content: text }), chatChunk({ finish: "stop" })]));
type ChatBody = { messages: { role: string; content: string | null; tool_call_id?: string }[] };
const toolMessages = (i: number) => (server.requests[i]!.body as ChatBody).messages.filter((m) => m.role === "tool");

test("a failing test is read, run, fixed and run again; checked through --output json", async () => {
  const start = server.requests.length;
  server.enqueue(
    calls(["read_file", { path: "math.test.mjs" }], ["read_file", { path: "math.mjs" }]),
    calls(["bash", { command: "node math.test.mjs" }]),
    calls(["edit", { path: "math.mjs", old_string: "return a - b;", new_string: "return a + b;" }]),
    calls(["bash", { command: "node math.test.mjs" }]),
    say("Fixed math.mjs:2; the test passes."),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "the test fails, fix it", "--output", "json"], { cwd: repo.path });
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  const summary = events
    .map((e) => (e.type === "tool_call" ? `call ${e.name}` : e.type === "tool_result" ? `result ${e.name} ${e.ok}` : e.type))
    .filter((t) => t !== "text_delta" && t !== "usage");
  expect(summary).toEqual([
    "session",
    "turn_start",
    "call read_file",
    "call read_file",
    "result read_file true",
    "result read_file true",
    "turn_start",
    "call bash",
    "result bash false", // the test fails (exit 1): a failed call
    "turn_start",
    "call edit",
    "result edit true",
    "turn_start",
    "call bash",
    "result bash true",
    "turn_start",
    "result",
    "done",
  ]);
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "end", turns: 5 });
  expect(readFileSync(join(repo.path, "math.mjs"), "utf8")).toBe(FIXED);
  // what the model was shown after each step
  expect(toolMessages(start + 2).at(-1)!.content).toContain("AssertionError");
  expect(toolMessages(start + 4).at(-1)!.content).toContain("1 passed");
  expect(server.violations).toEqual([]);
});

test("text output: the answer on stdout, one line per tool call and per result on stderr", async () => {
  server.enqueue(calls(["bash", { command: "echo hello" }]), say("Done."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "say hello"], { cwd: repo.path });
  expect(run).toMatchObject({ code: 0, stdout: "Done.\n" });
  expect(run.stderr).toBe("$ echo hello\n  ✓ 1 line of output\n    hello\n");
});

test("permission rules block a command and tell the model why", async () => {
  const start = server.requests.length;
  server.enqueue(calls(["bash", { command: "git status && rm -rf ." }]), say("I may not delete files."));
  // the config outside the repository: inside it, `rm -rf .` would be refused for deleting it, before the allow list is asked
  const place = tempDir("hey-e2e-perm-");
  const cfg = join(place.path, "perm.toml");
  await Bun.write(cfg, '[permission]\nallow = ["bash: git *", "bash: ls"]\n');
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "clean up", "--config", cfg, "--output", "json"], { cwd: repo.path });
  place.remove();
  expect(run.code).toBe(0);
  const result = jsonEvents(run.stdout).find((e) => e.type === "tool_result")!;
  expect(result.ok).toBe(false);
  expect(String(result.output)).toStartWith("blocked by permission rules:");
  expect(String(result.output)).toContain("rm -rf .");
  expect(toolMessages(start + 1)[0]!.content).toStartWith("blocked by permission rules:");
  expect(readFileSync(join(repo.path, "math.mjs"), "utf8")).toContain("a - b"); // nothing was deleted
  // at start-up, one line names the built-in tools the allow list leaves blocked
  expect(run.stderr).toBe(
    `hey: [permission] allow leaves read_file, write_file, edit, grep, compress blocked (compress: hey's tool that drops old tool output from the context; it reads and runs nothing); to let the agent use them, add their names: allow = ["bash: git *", "bash: ls", "read_file", "write_file", "edit", "grep", "compress"]\n`,
  );
});

test("an allow list that names every built-in tool draws no warning", async () => {
  server.enqueue(say("ok"));
  const cfg = join(repo.path, "all.toml");
  await Bun.write(cfg, '[permission]\nallow = ["bash: git *", "read_file", "write_file", "edit", "grep", "compress"]\n');
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi", "--config", cfg], { cwd: repo.path });
  expect(run).toMatchObject({ code: 0, stderr: "" });
});

test("Ctrl-C while a long bash tool runs: the tool's process group is gone, exit 130", async () => {
  const bin = await ensureBinary();
  const marker = 400 + Math.floor(Math.random() * 500); // a sleep duration no other process uses
  server.enqueue(calls(["bash", { command: `sleep ${marker} & sleep ${marker}; echo never` }]));
  const proc = Bun.spawn([bin, "--base-url", `${server.url}/v1`, "-m", "m", "-p", "wait", "--output", "json"], {
    cwd: repo.path,
    env: { PATH: process.env.PATH ?? "", HOME: repo.path, NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const sleepers = () =>
    Bun.spawnSync(["ps", "-eo", "stat=,args="])
      .stdout.toString()
      .split("\n")
      .filter((l) => new RegExp(`^[^Z]\\S*\\s+sleep ${marker}$`).test(l.trim()));
  try {
    await until(() => sleepers().length === 2, "both sleeps to run");
    proc.kill("SIGINT");
    const code = await proc.exited;
    expect(code).toBe(130);
    const events = jsonEvents(await proc.stdout.text());
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ name: "bash", ok: false });
    expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "interrupted" });
    await until(() => sleepers().length === 0, "the sleeps to be killed");
  } finally {
    proc.kill("SIGKILL");
  }
});

test("two tool calls with the same id in one turn (a replayed stream): both run, both results are sent", async () => {
  const start = server.requests.length;
  const dup = (index: number, path: string) => chatChunk({ toolCall: { index, id: "call_same", name: "read_file", arguments: JSON.stringify({ path }) } });
  server.enqueue(sseReply(sse([dup(0, "math.mjs"), dup(1, "math.test.mjs"), chatChunk({ finish: "tool_calls" })])), say("Read both."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "read both", "--output", "json"], { cwd: repo.path });
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "tool_result").map((e) => [e.id, e.ok])).toEqual([
    ["call_same", true],
    ["call_same_2", true],
  ]);
  const results = toolMessages(start + 1);
  expect(results.map((m) => m.tool_call_id)).toEqual(["call_same", "call_same_2"]);
  expect(results[0]!.content).toContain("export function add");
  expect(results[1]!.content).toContain("assert");
  expect(server.violations).toEqual([]);
});

// The `--output json` contract (issue 10 item 6, SPEC §18/§24): docs/json-events.md shows one
// example line per event type; these runs of the compiled binary emit every one of those types,
// and each emitted event must have its example's fields with values of the same JSON type.
// Also: a final `result`, `arguments` as an object, every run ending with `done` — failures
// before the start included — and no REPL even with a terminal on stdin.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId, type Message } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { jsonEvents, ROOT, runHey } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { jsonReply, sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { startTerm } from "../helpers/tmux.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";

type Event = Record<string, unknown>;

/** The example lines of the doc's first ```jsonl block, by type. */
function documented(): Map<string, Event> {
  const doc = readFileSync(join(ROOT, "docs", "json-events.md"), "utf8");
  const block = /```jsonl\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error("docs/json-events.md has no ```jsonl block");
  const out = new Map<string, Event>();
  for (const line of block[1]!.split("\n").filter((l) => l.trim() !== "")) {
    const e = JSON.parse(line) as Event;
    expect(out.has(String(e.type))).toBe(false); // one example per type
    out.set(String(e.type), e);
  }
  return out;
}

/** Fields the doc's table names as present only sometimes. */
const OPTIONAL: Record<string, string[]> = {
  compaction: ["from_id", "to_id", "summary", "error", "window"],
  tool_call: ["arguments_text", "server"],
  mcp: ["tools", "error"],
  command: ["sessions"],
  session: ["resumed"],
  tool_result: ["refused"],
  result: ["permission_denials"],
  done: ["permission_denials"],
};

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Problems of `event` against its example: missing or extra fields, or values of another JSON type. */
function mismatches(event: Event, example: Event | undefined): string[] {
  if (!example) return [`type ${String(event.type)} is not documented`];
  const optional = OPTIONAL[String(event.type)] ?? [];
  const problems: string[] = [];
  for (const key of Object.keys(example)) if (!(key in event) && !optional.includes(key)) problems.push(`${event.type}: no ${key}`);
  for (const [key, value] of Object.entries(event)) {
    if (!(key in example) && !optional.includes(key)) problems.push(`${event.type}: undocumented field ${key}`);
    else if (key in example && kind(value) !== kind(example[key])) problems.push(`${event.type}.${key}: ${kind(value)}, documented as ${kind(example[key])}`);
    else if (kind(value) === "object" && key === "usage")
      problems.push(...mismatches({ type: `${event.type}.usage`, ...(value as Event) }, { type: "", ...(example[key] as Event) }));
  }
  return problems;
}

const server = fileReplayServer();
const work = fileTempDir();
const state = fileTempDir();
const cfg = join(work.path, "hey.toml");
// a small budget so a resumed session is summarized; short retry waits
writeFileSync(cfg, `[agent]\nbudget_tokens = 3000\n\n[retry]\nbase_delay_ms = 10\nmax_delay_ms = 20\njitter = false\n`);

const usage = chatChunk({ usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 } });
const said = (text: string, thinking?: string) =>
  sseReply(sse([...(thinking ? [chatChunk({ reasoning: thinking })] : []), chatChunk({ content: text }), chatChunk({ finish: "stop" }), usage]));
const calls = (...list: [string, string, string][]) =>
  sseReply(
    sse([...list.map(([id, name, args], index) => chatChunk({ toolCall: { index, id, name, arguments: args } })), chatChunk({ finish: "tool_calls" }), usage]),
  );
const hey = (args: string[]) =>
  runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", cfg, "--output", "json", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });

/** A session of this directory, big enough that resuming it with budget_tokens 3000 summarizes its older half. */
function bigSession(): string {
  const dir = join(state.path, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  const id = newId();
  const lines: string[] = [toLine({ type: "header", id, cwd: work.path, created: new Date().toISOString(), version: "0.1.0" })];
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

test("every event hey emits has its documented example's fields, and every documented type is emitted", async () => {
  const examples = documented();
  const seen: Event[] = [];

  // a retried request, thinking, a tool call, an answer
  server.enqueue(
    jsonReply(429, { error: { message: "slow down", type: "requests", code: "rate_limit_exceeded" } }),
    calls(["call_1", "bash", '{"command":"echo hi"}']),
    said("It printed hi.", "checking"),
  );
  const run = await hey(["-p", "run echo hi"]);
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  expect(events.find((e) => e.type === "tool_call")).toEqual({ type: "tool_call", id: "call_1", name: "bash", arguments: { command: "echo hi" } });
  expect(events.slice(-2)).toEqual([
    { type: "result", text: "It printed hi.", stop_reason: "end", turns: 2, usage: expect.objectContaining({ input_tokens: 42, output_tokens: 8 }) },
    { type: "done", stop_reason: "end", turns: 2, usage: expect.objectContaining({ input_tokens: 42, output_tokens: 8 }) },
  ]);
  expect(events[0]).toMatchObject({ type: "session", schema: 1 });
  seen.push(...events);

  // a resumed session over budget: a summary request, then the answer
  const id = bigSession();
  server.enqueue(said("Summary: read f0 to f4."), said("Continuing."));
  const resumed = await hey(["--resume", id, "-p", "go on"]);
  expect(resumed.code).toBe(0);
  expect(jsonEvents(resumed.stdout)[0]).toMatchObject({ type: "session", id, resumed: true }); // a new session's has no `resumed`
  expect("resumed" in events[0]!).toBe(false);
  seen.push(...jsonEvents(resumed.stdout));

  // MCP servers: one that connects (the request waits for it, however loaded the machine), one whose command is not found
  const mcpConfig = join(work.path, "mcp.toml");
  writeFileSync(
    mcpConfig,
    `${readFileSync(cfg, "utf8")}\n[mcp]\nstartup_wait_ms = 20000\n\n[mcp.good]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", "good", "echo"])}\n\n[mcp.ghost]\ncommand = "no-such-mcp-server-x"\n`,
  );
  server.enqueue(said("ok"));
  const withMcp = jsonEvents(
    (
      await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", mcpConfig, "--output", "json", "-p", "hi"], {
        cwd: work.path,
        env: { XDG_STATE_HOME: state.path },
      })
    ).stdout,
  );
  expect(withMcp.filter((e) => e.type === "mcp").sort((a, b) => String(a.server).localeCompare(String(b.server)))).toEqual([
    { type: "mcp", server: "ghost", state: "failed", error: expect.stringContaining('command "no-such-mcp-server-x" not found') },
    { type: "mcp", server: "good", state: "connected", tools: 1 },
  ]);
  seen.push(...withMcp);

  // an answer cut off at the output token limit: its error event (kind length), then result and done; exit 1
  server.enqueue(sseReply(sse([chatChunk({ content: "The answer is" }), chatChunk({ finish: "length" }), usage])));
  const cut = await hey(["-p", "a long answer please"]);
  expect(cut.code).toBe(1);
  const cutEvents = jsonEvents(cut.stdout);
  expect(cutEvents.slice(-3).map((e) => [e.type, e.kind ?? e.stop_reason])).toEqual([
    ["error", "length"],
    ["result", "length"],
    ["done", "length"],
  ]);
  expect(cutEvents.at(-2)).toMatchObject({ text: "The answer is" });
  seen.push(...cutEvents);

  // a spent quota, not retried: the same request goes on with the fallback model, said as a fallback event
  server.enqueue(jsonReply(429, { error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" } }), said("ok"));
  const fellBack = await hey(["-p", "hi", "--fallback-model", "m2"]);
  expect(fellBack.code).toBe(0);
  expect(jsonEvents(fellBack.stdout).find((e) => e.type === "fallback")).toMatchObject({ from: "cli/m", to: "cli/m2", kind: "quota_exhausted" });
  seen.push(...jsonEvents(fellBack.stdout));

  // slash commands: a command event, /reload a reload event too; a failure before the start
  for (const args of [["/usage"], ["/reload"], ["-p", "@missing.txt", "read this"]]) seen.push(...jsonEvents((await hey(args)).stdout));

  expect(seen.flatMap((e) => mismatches(e, examples.get(String(e.type))))).toEqual([]);
  expect([...new Set(seen.map((e) => e.type))].sort()).toEqual([...examples.keys()].sort());
});

test("a call the permission rules refuse: its tool_result says so, result and done list it; the run goes on and exits 0", async () => {
  const listed = join(work.path, "listed.toml");
  writeFileSync(listed, `${readFileSync(cfg, "utf8")}\n[permission]\nallow = ["read_file", "bash: echo *"]\n`);
  server.enqueue(calls(["call_1", "bash", '{"command":"rm -rf build"}'], ["call_2", "bash", '{"command":"echo hi"}']), said("build could not be deleted."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", listed, "--output", "json", "-p", "clean up"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
  });
  expect(run.code).toBe(0); // the model may have worked around it: a script reads permission_denials
  const events = jsonEvents(run.stdout);
  expect(events.flatMap((e) => mismatches(e, documented().get(String(e.type))))).toEqual([]); // before toMatchObject, which leaves its matchers in the objects
  const results = events.filter((e) => e.type === "tool_result");
  expect(results[0]).toMatchObject({ id: "call_1", ok: false, refused: "permission", output: expect.stringMatching(/^blocked by permission rules:/) });
  expect(results[1]).toMatchObject({ id: "call_2", ok: true, output: expect.stringContaining("hi") });
  expect("refused" in results[1]!).toBe(false);
  const denials = [{ id: "call_1", name: "bash", input: "rm -rf build", reason: expect.stringContaining("rm -rf build") }];
  expect(events.slice(-2)).toEqual([
    expect.objectContaining({ type: "result", text: "build could not be deleted.", permission_denials: denials }),
    expect.objectContaining({ type: "done", stop_reason: "end", permission_denials: denials }),
  ]);
});

// `--version`, `--help` and `help` after a flag printed text (or sent "help" to the model as a
// prompt) where a script reads one JSON object per line ending with `done`
test("--output json with --version, --help or help: a command event with the text, then done; exit 0", async () => {
  for (const [args, name, start] of [
    [["--version"], "--version", /^hey \d+\.\d+\.\d+/],
    [["--help"], "--help", /^hey \S+ — a minimal terminal coding agent\n\nUsage: hey/],
    [["help"], "--help", /^hey \S+ — a minimal terminal coding agent/],
  ] as const) {
    const run = await hey([...args]);
    expect(run.code).toBe(0);
    const events = jsonEvents(run.stdout);
    expect(events).toEqual([
      { type: "command", name, ok: true, output: expect.stringMatching(start) },
      expect.objectContaining({ type: "done", stop_reason: "end", turns: 0 }),
    ]);
  }
});

test("a failure before the start is an error event, then done; exit 2", async () => {
  const cases: [string[], string, RegExp][] = [
    [["-p", "@missing.txt", "look"], "usage", /missing\.txt/],
    [["--resume", "nosuchsession", "-p", "hi"], "usage", /no session "nosuchsession"/],
    [["--frobnicate", "-p", "hi"], "usage", /unknown flag --frobnicate/],
    [["--protocol", "carrier-pigeon", "-p", "hi"], "usage", /--protocol must be one of/],
  ];
  for (const [args, errorKind, message] of cases) {
    const run = await hey(args);
    expect(run.code).toBe(2);
    expect(jsonEvents(run.stdout)).toEqual([
      { type: "error", kind: errorKind, message: expect.stringMatching(message) },
      {
        type: "done",
        stop_reason: "error",
        turns: 0,
        usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 },
      },
    ]);
    expect(run.stderr).toMatch(message);
  }
  const badConfig = join(work.path, "bad.toml");
  writeFileSync(badConfig, "[agent]\nmax_turns = \n");
  const run = await hey(["--config", badConfig, "-p", "hi"]);
  expect(run.code).toBe(2);
  expect(jsonEvents(run.stdout).map((e) => [e.type, e.kind ?? e.stop_reason])).toEqual([
    ["error", "config"],
    ["done", "error"],
  ]);
});

test("a tool call whose arguments are not a JSON object keeps the model's text beside an empty object", async () => {
  server.enqueue(calls(["call_x", "bash", "{not json"]), said("sorry"));
  const events = jsonEvents((await hey(["-p", "try"])).stdout);
  expect(events.find((e) => e.type === "tool_call")).toEqual({ type: "tool_call", id: "call_x", name: "bash", arguments: {}, arguments_text: "{not json" });
});

test("with a terminal on stdin, --output json runs one-shot: JSON lines, no prompt", async () => {
  server.enqueue(said("terminal answer"));
  const term = await startTerm({ args: ["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "hello"], cols: 300 });
  try {
    const screen = await term.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('"type":"result","text":"terminal answer"');
    expect(screen).toContain("[exit 0]");
    expect(screen).not.toContain("›");
  } finally {
    await term.close();
  }
});

test("one-shot /compact on a resumed session saves its summary and what it cost: the file gets both, done counts the request", async () => {
  const id = bigSession();
  const file = join(state.path, "hey", "sessions", `${id}.jsonl`);
  const before = readFileSync(file, "utf8");
  server.enqueue(said("Summary: read f0 to f7."));
  const run = await hey(["--resume", id, "/compact"]);
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  expect(events.find((e) => e.type === "command")).toMatchObject({ name: "/compact", ok: true });
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "end", usage: { input_tokens: 21, output_tokens: 4 } });
  const added = readFileSync(file, "utf8")
    .slice(before.length)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event);
  expect(added.map((e) => e.type)).toEqual(expect.arrayContaining(["compaction", "usage"]));
  expect(added.find((e) => e.type === "compaction")).toMatchObject({ summary: expect.stringContaining("Summary: read f0 to f7.") });
  expect(added.some((e) => e.type === "message")).toBe(false); // nothing else is written
});

test("--sessions in JSON carries the listing as data: id, short id, directory, time, size, first prompt", async () => {
  const id = bigSession();
  const events = jsonEvents((await hey(["--sessions"])).stdout);
  const listed = events[0]!.sessions as Event[];
  const mine = listed.find((s) => s.id === id)!;
  expect(mine).toEqual({
    id,
    short: expect.any(String),
    cwd: work.path,
    modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    size: expect.any(Number),
    first_prompt: "refactor the parser",
  });
  const short = String(mine.short);
  expect(id.startsWith(short) || id.endsWith(short)).toBe(true); // a unique start or end of the id
  expect(String(events[0]!.output)).toContain(short);
});

// The tool pipeline's concurrency bound (issue 13 row 8): many calls in one turn run at most
// MAX_CONCURRENT_CALLS at a time, start in call order, and their results keep call order.
import { expect, test } from "bun:test";
import { limitConcurrency, MAX_CONCURRENT_CALLS, runToolCalls } from "../../src/kernel/tool-calls.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { textOf } from "../../src/kernel/ir.ts";
import { gate, until } from "../helpers/wait.ts";
import { readsOnly } from "../../src/permission/read-only.ts";

test("limitConcurrency runs at most n at once, in the order given, and passes results and errors through", async () => {
  const gate = limitConcurrency(3);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  const tasks = Array.from({ length: 20 }, (_, i) =>
    gate(async () => {
      order.push(i);
      peak = Math.max(peak, ++running);
      await Bun.sleep(1 + ((i * 7) % 5));
      running--;
      if (i === 5) throw new Error("five");
      return i * 2;
    }),
  );
  const settled = await Promise.allSettled(tasks);
  expect(peak).toBe(3);
  expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  expect(settled[5]).toMatchObject({ status: "rejected" });
  expect(settled.filter((s) => s.status === "fulfilled").map((s) => (s as PromiseFulfilledResult<number>).value)).toEqual(
    Array.from({ length: 20 }, (_, i) => i * 2).filter((_, i) => i !== 5),
  );
});

test("1000 parallel calls: at most MAX_CONCURRENT_CALLS run at once; every result, in call order", async () => {
  let running = 0;
  let peak = 0;
  const tool: Tool = {
    name: "probe",
    description: "",
    parameters: { type: "object", properties: { n: { type: "integer" } } },
    run: async (args) => {
      peak = Math.max(peak, ++running);
      await Bun.sleep((Number(args.n) * 13) % 3);
      running--;
      return { output: `result ${args.n}` };
    },
  };
  const calls = Array.from({ length: 1000 }, (_, n) => ({ id: `c${n}`, name: "probe", arguments: JSON.stringify({ n }) }));
  const results = await runToolCalls(calls, {
    tools: [tool],
    output: { emit: () => {} },
    permission: () => undefined,
    signal: new AbortController().signal,
    cwd: "/",
    parallel: true,
  });
  expect(peak).toBe(MAX_CONCURRENT_CALLS);
  // in the order they finished (the session's); each with its own call's result
  expect(results.map((m) => m.toolCallId).sort()).toEqual(calls.map((c) => c.id).sort());
  expect(results.every((m) => textOf(m) === `result ${m.toolCallId!.slice(1)}`)).toBe(true);
});

test("tool_start comes when a call's tool begins to run, after the calls before it on the same path; never for a refused call", async () => {
  const seen: string[] = [];
  const tool: Tool = {
    name: "write",
    description: "",
    parameters: { type: "object", properties: { path: { type: "string" } } },
    run: async (args) => {
      seen.push(`run ${args.path}`);
      await Bun.sleep(5);
      seen.push(`end ${args.path}`);
      return { output: "ok" };
    },
  };
  const calls = [
    { id: "a1", name: "write", arguments: '{"path":"a"}' },
    { id: "no", name: "write", arguments: '{"path":"refused"}' },
    { id: "a2", name: "write", arguments: '{"path":"./a"}' },
  ];
  const output = {
    emit: (e: { type: string; id?: string }) => void (e.type === "tool_start" || e.type === "tool_call" ? seen.push(`${e.type} ${e.id}`) : undefined),
  };
  await runToolCalls(calls, {
    tools: [tool],
    output,
    permission: (_, args) => (args.path === "refused" ? "no" : undefined),
    signal: new AbortController().signal,
    cwd: "/",
    parallel: true,
  });
  expect(seen).toEqual(["tool_call a1", "tool_call no", "tool_call a2", "tool_start a1", "run a", "end a", "tool_start a2", "run ./a", "end ./a"]);
});

test("the tool_call event names the MCP server of a server's tool, and nothing for hey's own", async () => {
  const events: unknown[] = [];
  const tool = (name: string, server?: string): Tool => ({
    name,
    description: "",
    parameters: { type: "object" },
    run: async () => ({ output: "ok" }),
    ...(server ? { server } : {}),
  });
  const calls = [
    { id: "a", name: "read_file", arguments: "{}" },
    { id: "b", name: "bash", arguments: "{}" },
  ];
  await runToolCalls(calls, {
    tools: [tool("read_file", "fs"), tool("bash")],
    output: { emit: (e) => void events.push(e) },
    permission: () => undefined,
    signal: new AbortController().signal,
    cwd: "/",
    parallel: true,
  });
  expect(events.filter((e) => (e as { type: string }).type === "tool_call")).toEqual([
    { type: "tool_call", id: "a", name: "read_file", arguments: "{}", server: "fs" },
    { type: "tool_call", id: "b", name: "bash", arguments: "{}" },
  ]);
});

/**
 * hey's file tools and bash as stand-ins that record when each call starts and hold it until the
 * test opens its gate; `run` starts a turn of `[tool, args]` calls, each named by its `tag`.
 */
function heldTurn(calls: [string, Record<string, unknown>][], readOnly?: (command: string) => boolean) {
  const started: string[] = [];
  const gates = new Map(calls.map(([, a]) => [String(a.tag), gate()]));
  const tools: Tool[] = ["edit", "write_file", "read_file", "grep", "bash"].map((name) => ({
    name,
    description: "",
    parameters: { type: "object", properties: {} },
    ...(name === "bash" && readOnly ? { readOnly: (args: Record<string, unknown>) => readOnly(String(args.command)) } : {}),
    run: async (args) => {
      started.push(String(args.tag));
      await gates.get(String(args.tag))!.passed;
      return { output: "ok" };
    },
  }));
  const done = runToolCalls(
    calls.map(([name, args], i) => ({ id: `c${i}`, name, arguments: JSON.stringify(args) })),
    { tools, output: { emit: () => {} }, permission: () => undefined, signal: new AbortController().signal, cwd: "/p", parallel: true },
  );
  const open = (...tags: string[]) => {
    for (const t of tags) gates.get(t)!.open();
  };
  const startedAll = (...tags: string[]) => until(() => tags.every((t) => started.includes(t)), `${tags.join(", ")} to start`);
  return { started, open, startedAll, done };
}

test("a command after an edit runs once the edit is written (it tests or shows the edited file); commands still run side by side; a read after them waits for them", async () => {
  const turn = heldTurn([
    ["edit", { tag: "edit", path: "src/a.ts" }],
    ["bash", { tag: "test", command: "npm test" }],
    ["bash", { tag: "lint", command: "npm run lint" }],
    ["read_file", { tag: "read other", path: "src/b.ts" }],
  ]);
  await turn.startedAll("edit");
  expect(turn.started).toEqual(["edit"]);
  turn.open("edit");
  await turn.startedAll("test", "lint"); // both at once
  expect(turn.started).toEqual(["edit", "test", "lint"]);
  turn.open("test", "lint");
  await turn.startedAll("read other");
  turn.open("read other");
  expect(await turn.done).toHaveLength(4);
});

test("an edit after a command waits for it (it may rewrite the file), as do the file calls after it; reads of the file, and a search of its directory, wait for the edit", async () => {
  const turn = heldTurn([
    ["bash", { tag: "checkout", command: "git checkout src/a.ts" }],
    ["write_file", { tag: "write", path: "src/a.ts" }],
    ["grep", { tag: "grep src", path: "src" }],
    ["read_file", { tag: "read", path: "./src/a.ts" }],
    ["grep", { tag: "grep elsewhere", path: "docs" }],
  ]);
  await turn.startedAll("checkout");
  expect(turn.started).toEqual(["checkout"]);
  turn.open("checkout");
  await turn.startedAll("write", "grep elsewhere");
  expect(turn.started.toSorted()).toEqual(["checkout", "grep elsewhere", "write"]);
  turn.open("write");
  await turn.startedAll("grep src", "read");
  turn.open("grep src", "read", "grep elsewhere");
  expect(await turn.done).toHaveLength(5);
});

test("a read after a command sees what the command made (codegen, then the generated file); a command after a read runs once the read is done", async () => {
  const turn = heldTurn([
    ["bash", { tag: "codegen", command: "npm run codegen" }],
    ["read_file", { tag: "read gen", path: "src/gen.ts" }],
    ["read_file", { tag: "read old", path: "src/old.ts" }],
    ["bash", { tag: "rm old", command: "rm src/old.ts" }],
  ]);
  await turn.startedAll("codegen");
  expect(turn.started).toEqual(["codegen"]);
  turn.open("codegen");
  await turn.startedAll("read gen", "read old"); // file calls side by side
  expect(turn.started).toEqual(["codegen", "read gen", "read old"]);
  turn.open("read gen", "read old");
  await turn.startedAll("rm old");
  turn.open("rm old");
  expect(await turn.done).toHaveLength(4);
});

test("what a running tool says of its progress reaches the output as tool_progress, under its call's id", async () => {
  const events: unknown[] = [];
  const tool: Tool = {
    name: "index",
    description: "",
    parameters: { type: "object", properties: {} },
    run: async (_, ctx) => {
      ctx.progress?.("1/2");
      ctx.progress?.("2/2 writing");
      return { output: "indexed" };
    },
  };
  await runToolCalls([{ id: "c1", name: "index", arguments: "{}" }], {
    tools: [tool],
    output: { emit: (e) => void (e.type === "tool_progress" ? events.push(e) : undefined) },
    permission: () => undefined,
    signal: new AbortController().signal,
    cwd: "/",
    parallel: true,
  });
  expect(events).toEqual([
    { type: "tool_progress", id: "c1", note: "1/2" },
    { type: "tool_progress", id: "c1", note: "2/2 writing" },
  ]);
});

test("each result is emitted for the session as soon as its call finishes, while an earlier call still runs; returned in that order", async () => {
  const slow = gate();
  const tool: Tool = {
    name: "job",
    description: "",
    parameters: { type: "object", properties: { slow: { type: "boolean" } } },
    run: async (args) => {
      if (args.slow) await slow.passed;
      return { output: args.slow ? "slow done" : "quick done" };
    },
  };
  const recorded: string[] = [];
  const calls = [
    { id: "slow", name: "job", arguments: '{"slow":true}' },
    { id: "quick", name: "job", arguments: '{"slow":false}' },
  ];
  const done = runToolCalls(calls, {
    tools: [tool],
    output: { emit: (e) => void (e.type === "message" ? recorded.push(textOf(e.message)) : e.type === "tool_result" ? recorded.push(`shown ${e.id}`) : 0) },
    permission: () => undefined,
    signal: new AbortController().signal,
    cwd: "/",
    parallel: true,
  });
  // a kill -9 now leaves the quick call's result saved: the model is not told it never ran
  await until(() => recorded.includes("quick done"), "the quick call's result");
  expect(recorded).toEqual(["quick done"]);
  slow.open();
  const results = await done;
  // returned as they were saved, so the history and the session file agree (a summary's range ends where the file's does)
  expect(results.map((m) => textOf(m))).toEqual(["quick done", "slow done"]);
  expect(recorded).toEqual(["quick done", "shown slow", "shown quick", "slow done"]); // each result message once; the screen keeps call order
});

test("a file named by another agent's argument name (file_path) is ordered as by path: two edits of one file never run at once", async () => {
  let running = 0;
  let peak = 0;
  const edit: Tool = {
    name: "edit",
    description: "",
    parameters: { type: "object", properties: { path: { type: "string" }, n: { type: "number" } }, required: ["path"] },
    run: async () => {
      peak = Math.max(peak, ++running);
      await Bun.sleep(5);
      running--;
      return { output: "edited" };
    },
  };
  const calls = [
    { id: "a", name: "edit", arguments: '{"file_path":"src/a.ts","n":1}' },
    { id: "b", name: "edit", arguments: '{"filePath":"./src/a.ts","n":2}' },
    { id: "c", name: "edit", arguments: '{"path":"src/a.ts","n":3}' },
  ];
  const results = await runToolCalls(calls, {
    tools: [edit],
    output: { emit: () => {} },
    permission: () => undefined,
    signal: new AbortController().signal,
    cwd: "/p",
    parallel: true,
  });
  expect(results.map((m) => textOf(m))).toEqual(["edited", "edited", "edited"]);
  expect(peak).toBe(1);
});

test("commands that may change anything run one at a time in call order (git add, git add, git commit: git's index.lock); read-only ones side by side", async () => {
  const turn = heldTurn(
    [
      ["bash", { tag: "status", command: "git status" }],
      ["bash", { tag: "diff", command: "git diff --stat | tail -1" }],
      ["bash", { tag: "add 1", command: "git add g1 g2 g3" }],
      ["bash", { tag: "add 2", command: "git add g4 g5 g6" }],
      ["bash", { tag: "commit", command: "git commit -m 'add g files'" }],
      ["bash", { tag: "log", command: "git log --oneline -3" }],
      ["bash", { tag: "ls", command: "ls -la && cat README.md" }],
      ["read_file", { tag: "read", path: "README.md" }],
    ],
    (command) => readsOnly(command, "sh"),
  );
  await turn.startedAll("status", "diff"); // reads side by side
  expect(turn.started).toEqual(["status", "diff"]);
  turn.open("status", "diff");
  for (const [tag, next] of [
    ["add 1", "add 2"],
    ["add 2", "commit"],
  ]) {
    await turn.startedAll(tag!);
    expect(turn.started.at(-1)).toBe(tag!);
    turn.open(tag!);
    await turn.startedAll(next!);
  }
  expect(turn.started.slice(2)).toEqual(["add 1", "add 2", "commit"]);
  turn.open("commit");
  await turn.startedAll("log", "ls");
  expect(turn.started.slice(5)).toEqual(["log", "ls"]);
  turn.open("log", "ls");
  await turn.startedAll("read");
  turn.open("read");
  expect(await turn.done).toHaveLength(8);
});

test("Ctrl-C during a batch's first call: the calls after it say they never started, not that they were cut short", async () => {
  const abort = new AbortController();
  const ran: string[] = [];
  const tool: Tool = {
    name: "bash",
    description: "",
    parameters: { type: "object", properties: { command: { type: "string" } } },
    run: async (args, ctx) => {
      ran.push(String(args.command));
      const stopped = new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      abort.abort(); // the user's Ctrl-C, while the command runs
      await stopped;
      return { output: "touched\n[interrupted by user; the process group was killed]", isError: true };
    },
  };
  const calls = ["touch first_ran; sleep 31", "touch SHOULD_NOT_EXIST"].map((command, n) => ({
    id: `c${n}`,
    name: "bash",
    arguments: JSON.stringify({ command }),
  }));
  calls.push({ id: "w", name: "write_file", arguments: JSON.stringify({ path: "NOT_WRITTEN.txt", content: "x" }) });
  const started: string[] = [];
  const results = await runToolCalls(calls, {
    tools: [tool],
    output: { emit: (e) => void (e.type === "tool_start" && started.push(e.id)) },
    permission: () => undefined,
    signal: abort.signal,
    cwd: "/",
    parallel: false,
  });
  expect(ran).toEqual(["touch first_ran; sleep 31"]);
  expect(started).toEqual(["c0"]);
  expect(results.map((m) => [m.toolCallId, textOf(m)])).toEqual([
    ["c0", "touched\n[interrupted by user; the process group was killed]"],
    ["c1", "not run: interrupted by user before it started"],
    ["w", "not run: interrupted by user before it started"],
  ]);
});

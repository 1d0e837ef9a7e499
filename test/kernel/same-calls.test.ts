// The same call several times in one reply (weak models send 20 of one): the first runs once, each
// copy is answered with a result naming it, so `echo line >> log.txt` adds one line and `git
// commit` makes one commit — unless a call that may change something stands between them.
import { expect, test } from "bun:test";
import { runToolCalls } from "../../src/kernel/tool-calls.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { textOf, type ToolCall } from "../../src/kernel/ir.ts";
import { firstOfSame, sameCallResult } from "../../src/kernel/repeats.ts";

/** A bash stand-in that appends to a log and says what changes anything (`echo … >>`, `git commit`). */
function shell() {
  const ran: string[] = [];
  const tool: Tool = {
    name: "bash",
    description: "",
    parameters: { type: "object", properties: { command: { type: "string" } } },
    readOnly: (args) => !/>>|commit|sed -i/.test(String(args.command)),
    run: async (args) => {
      ran.push(String(args.command));
      return String(args.command).startsWith("false") ? { output: "exit 1", isError: true } : { output: `ran ${ran.length}` };
    },
  };
  return { ran, tool };
}

async function run(calls: ToolCall[], tool: Tool) {
  const events: AgentEvent[] = [];
  const messages = await runToolCalls(calls, {
    tools: [tool],
    output: { emit: (e) => events.push(e) },
    permission: () => undefined,
    signal: new AbortController().signal,
    cwd: "/",
    parallel: true,
  });
  return { events, messages };
}

const bash = (id: string, command: string): ToolCall => ({ id, name: "bash", arguments: JSON.stringify({ command }) });

test("20 identical appending calls in one reply run once; every id gets a result, the copies' naming the first (before: 20 lines)", async () => {
  const { ran, tool } = shell();
  const calls = Array.from({ length: 20 }, (_, i) => bash(`c${i}`, "echo line >> log.txt"));
  const { events, messages } = await run(calls, tool);
  expect(ran).toEqual(["echo line >> log.txt"]);
  expect(messages.map((m) => m.toolCallId).sort()).toEqual(calls.map((c) => c.id).sort());
  const byId = new Map(messages.map((m) => [m.toolCallId, textOf(m)]));
  expect(byId.get("c0")).toBe("ran 1");
  expect(byId.get("c19")).toBe("same call as the 1st in this reply: not run again; its result is above");
  // the events: every call announced, the copies naming the first; a result for each, in call order
  const announced = events.filter((e) => e.type === "tool_call");
  expect(announced).toHaveLength(20);
  expect(announced[0]).not.toHaveProperty("same_as");
  expect(announced.slice(1).every((e) => e.type === "tool_call" && e.same_as === "c0")).toBe(true);
  expect(events.filter((e) => e.type === "tool_result").map((e) => e.type === "tool_result" && e.id)).toEqual(calls.map((c) => c.id));
});

test("three identical commits make one; spacing in the JSON does not make another call; a copy of a failed call is not ok", async () => {
  const { ran, tool } = shell();
  const commit = 'git commit -m "Fix typo"';
  const calls = [
    bash("a", commit),
    { id: "b", name: "bash", arguments: `{ "command" : ${JSON.stringify(commit)} }` },
    bash("c", commit),
    bash("d", "false x"),
    bash("e", "false x"),
  ];
  const { events } = await run(calls, tool);
  expect(ran).toEqual([commit, "false x"]);
  const results = events.flatMap((e) => (e.type === "tool_result" ? [[e.id, e.ok]] : []));
  expect(results).toEqual([
    ["a", true],
    ["b", true],
    ["c", true],
    ["d", false],
    ["e", false],
  ]);
});

test("identical reads run once; a call that may change something between two identical calls makes the second run", async () => {
  const { ran, tool } = shell();
  const calls = [bash("t1", "npm test"), bash("t2", "npm test"), bash("fix", "sed -i s/a/b/ x.ts"), bash("t3", "npm test"), bash("t4", "npm test")];
  const { messages } = await run(calls, tool);
  expect(ran).toEqual(["npm test", "sed -i s/a/b/ x.ts", "npm test"]);
  const byId = new Map(messages.map((m) => [m.toolCallId, textOf(m)]));
  expect(byId.get("t2")).toBe(sameCallResult(0));
  expect(byId.get("t4")).toBe(sameCallResult(3));
});

test("firstOfSame: the index each copy repeats; other tools or arguments are other calls; ordinals read as words do", () => {
  const calls: ToolCall[] = [
    bash("1", "ls"),
    { id: "2", name: "read_file", arguments: '{"command":"ls"}' },
    bash("3", "ls -a"),
    { id: "4", name: "bash", arguments: '{"command": "ls"}' },
  ];
  expect(firstOfSame(calls, () => false)).toEqual([undefined, undefined, undefined, 0]);
  expect(firstOfSame(calls, (i) => i === 2)).toEqual([undefined, undefined, undefined, undefined]);
  expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 102, 111].map((n) => sameCallResult(n - 1).split(" ")[4])).toEqual([
    "1st",
    "2nd",
    "3rd",
    "4th",
    "11th",
    "12th",
    "13th",
    "21st",
    "22nd",
    "102nd",
    "111th",
  ]);
});

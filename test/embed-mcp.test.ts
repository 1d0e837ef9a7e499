// MCP servers in an embedded agent (src/lib.ts createMcp): what a program hears of its servers
// (the `mcp` events hey prints as `connected: fs (14 tools)`) and which of their tools it offers.
import { afterAll, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createMcp, createProvider, defaultTools, permissionCheck, type AgentEvent } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { BUN, FAKE_SERVER, FS_SERVER } from "./helpers/mcp.ts";
import { startModelServer } from "./helpers/model-server.ts";
import { until } from "./helpers/wait.ts";
import { alive } from "./helpers/processes.ts";

const dir = tempDir("hey-embed-mcp-");
afterAll(() => dir.remove());

test("each server's mcp events reach the program's output: connected with its tool counts, failed with why", async () => {
  const events: AgentEvent[] = [];
  const mcp = createMcp(
    [
      { name: "fake", command: BUN, args: [FAKE_SERVER, "ok", "fake", "echo,shout"] },
      { name: "gone", command: "no-such-command-for-hey-tests" },
    ],
    { cacheDir: join(dir.path, "cache"), output: { emit: (e) => void events.push(e) }, permission: permissionCheck({ deny: ["shout"] }) },
  );
  try {
    await until(() => events.length === 2, "both servers' events");
    expect(events).toContainEqual({ type: "mcp", server: "fake", state: "connected", tools: 2, offered: 1 });
    expect(events).toContainEqual(expect.objectContaining({ type: "mcp", server: "gone", state: "failed", error: expect.stringContaining("not found") }));
    const names = (await mcp.tools(defaultTools(), new AbortController().signal)).map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).not.toContain("shout");
  } finally {
    await mcp.close();
  }
});

test("servers createMcp cannot run are refused at once, each named, instead of failing later as 'Invalid URL' or never", () => {
  expect(() =>
    createMcp([
      { name: "fs", command: "true" },
      { name: "x" },
      { name: "y", command: "node", url: "http://127.0.0.1:9/mcp" },
      { name: "fs", url: "http://127.0.0.1:9/mcp" },
      { name: "", command: "true" },
    ]),
  ).toThrow(
    [
      "createMcp: servers[1] (x) needs command (a local server) or url (a remote one)",
      "createMcp: servers[2] (y) has both command and url; keep one",
      "createMcp: servers[3] (fs) is named like servers[0]; each server needs a name of its own",
      "createMcp: servers[4] has no name",
    ].join("\n"),
  );
});

test("a program that forgets mcp.close() exits once its calls are answered, the call it awaited not cut, and its server ends with it", async () => {
  const log = join(dir.path, "starts.log");
  const program = join(dir.path, "forgets-close.ts");
  // a program whose last act is a call that takes a while; it never closes its servers
  await Bun.write(
    program,
    `import { createMcp } from ${JSON.stringify(join(import.meta.dir, "../src/lib.ts"))};
const mcp = createMcp([{ name: "nap", command: ${JSON.stringify(BUN)}, args: [${JSON.stringify(FAKE_SERVER)}, "sleepy"], env: { FAKE_LOG: ${JSON.stringify(log)} } }], { cacheDir: ${JSON.stringify(join(dir.path, "cache-forgets"))} });
const nap = (await mcp.tools([], new AbortController().signal)).find((t) => t.name === "nap")!;
console.log(JSON.stringify(await nap.run({ ms: 1000 }, { signal: new AbortController().signal, cwd: process.cwd() })));
`,
  );
  const run = Bun.spawn([BUN, program], { stdout: "pipe", stderr: "pipe" });
  try {
    // before: the server's process and pipes kept the program running for ever (this await timed out)
    expect(await run.exited).toBe(0);
    expect(await new Response(run.stdout).text()).toBe('{"output":"rested"}\n'); // the call in flight held it open until answered
    const pid = Number(/^start sleepy (\d+)$/m.exec(await Bun.file(log).text())?.[1]);
    await until(() => !alive(pid), "the server to end with its stdin closed");
  } finally {
    run.kill("SIGKILL");
  }
});

test("given createMcp's servers, an agent's call to a tool whose server is still starting waits for it and runs, instead of 'unknown tool'", async () => {
  const mcp = createMcp([{ name: "slow", command: BUN, args: [FAKE_SERVER, "slow-start", "1500"] }], {
    cacheDir: join(dir.path, "cache-late"),
    startupWaitMs: 0,
  });
  // the model was told of `echo` (by the user, a skill, an earlier session) and calls it at once
  const model = startModelServer((req) => (req.messages.some((m) => m.role === "tool") ? { text: "done" } : { calls: [["echo", { text: "hi" }]] }));
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const results: string[] = [];
    const agent = createAgent({ provider, mcp, output: { emit: (e) => void (e.type === "tool_result" && results.push(e.output)) } });
    const result = await agent.send("echo hi", new AbortController().signal);
    expect(result.stop).toBe("end");
    expect(model.requests[0]!.tools!.map((t) => t.function.name)).not.toContain("echo"); // not offered yet: its server was starting
    expect(results).toEqual(["slow: hi"]); // before: unknown tool "echo"; available: bash, …
    expect(model.requests.at(-1)!.tools!.map((t) => t.function.name)).toContain("echo"); // offered once it came
  } finally {
    model.stop();
    await mcp.close();
  }
});

test("the filesystem server's read_file, offered as fs_read_file beside hey's own: `offered` counts what the requests carry, and the rename is said at connect", async () => {
  const model = startModelServer(() => ({ text: "ok" }));
  const run = async (permission?: ReturnType<typeof permissionCheck>) => {
    const events: AgentEvent[] = [];
    const warnings: string[] = [];
    const mcp = createMcp([{ name: "fs", command: "node", args: [FS_SERVER, dir.path] }], {
      cacheDir: join(dir.path, `cache-fs-${permission ? "allow" : "all"}`),
      output: { emit: (e) => void events.push(e) },
      warn: (m) => void warnings.push(m),
      ...(permission ? { permission } : {}),
    });
    try {
      await until(() => events.length === 1, "the server to connect");
      const said = [...warnings]; // before any request
      const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
      await createAgent({ provider, mcp, ...(permission ? { permission } : {}) }).send("hi", new AbortController().signal);
      const sent = model.requests.at(-1)!.tools!.map((t) => t.function.name);
      return { event: events[0], said, warnings, sent };
    } finally {
      await mcp.close();
    }
  };
  try {
    const allowed = await run(permissionCheck({ allow: ["read_file", "list_directory", "read_text_file"] }));
    // the requests carry hey's read_file and two of the server's tools (its read_file is fs_read_file, not allowed)
    expect(allowed.sent).toEqual(["read_file", "read_text_file", "list_directory"]);
    // before: "offered": 3, counting the server's read_file under its own name
    expect(allowed.event).toEqual({ type: "mcp", server: "fs", state: "connected", tools: 14, offered: 2 });

    const all = await run();
    expect(all.sent).toContain("fs_read_file");
    expect(all.event).toEqual({ type: "mcp", server: "fs", state: "connected", tools: 14 });
    const renamed = "MCP server fs's tool read_file is offered as fs_read_file: hey's own read_file keeps its name";
    expect(all.said).toContain(renamed); // before: said only with the first request
    expect(all.warnings.filter((w) => w === renamed)).toHaveLength(1);
  } finally {
    model.stop();
  }
});

test("createAgent's own permission list leaves the MCP tools it refuses out of the requests, as createMcp's does; a call to one reads the list's refusal", async () => {
  let turn = 0;
  const model = startModelServer(() => (turn++ === 0 ? { calls: [["fs_write_file", { path: join(dir.path, "x.txt"), content: "x" }]] } : { text: "ok" }));
  const mcp = createMcp([{ name: "fs", command: "node", args: [FS_SERVER, dir.path] }], { cacheDir: join(dir.path, "cache-agent-list") });
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const permission = permissionCheck({ deny: ["fs_write_file", "mcp__fs__move_file", "edit_file*"] });
    await createAgent({ provider, mcp, permission }).send("hi", new AbortController().signal);
    const sent = model.requests.at(-1)!.tools!.map((t) => t.function.name);
    expect(sent).toContain("read_text_file");
    const result = model.requests.at(-1)!.messages.at(-1) as { role: string; content: string };
    expect(result.role).toBe("tool");
    expect(result.content).toStartWith("blocked by permission rules:"); // not "unknown tool", and the file is not written
    expect(existsSync(join(dir.path, "x.txt"))).toBe(false);
    // before: the server's write_file, edit_file and move_file were sent, every call of them refused
    expect(sent).not.toContain("fs_write_file");
    expect(sent).not.toContain("move_file");
    expect(sent).not.toContain("edit_file");
    expect(sent).not.toContain("fs_edit_file");
    expect(sent).toContain("write_file"); // hey's own, which no entry names
  } finally {
    model.stop();
    await mcp.close();
  }
});

test("an embedded agent's call in Claude Code's spelling, mcp__fs__list_directory, runs the tool as offered; mcp__fs__write_file stays refused by the agent's list", async () => {
  let turn = 0;
  const model = startModelServer(() =>
    turn++ === 0
      ? {
          calls: [
            ["mcp__fs__list_directory", { path: dir.path }],
            ["mcp__fs__write_file", { path: join(dir.path, "y.txt"), content: "y" }],
          ],
        }
      : { text: "ok" },
  );
  const mcp = createMcp([{ name: "fs", command: "node", args: [FS_SERVER, dir.path] }], { cacheDir: join(dir.path, "cache-agent-spelling") });
  writeFileSync(join(dir.path, "listed.txt"), "");
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    await createAgent({ provider, mcp, permission: permissionCheck({ deny: ["fs_write_file"] }) }).send("hi", new AbortController().signal);
    const messages = model.requests.at(-1)!.messages as { role: string; content: string; tool_calls?: { function: { name: string } }[] }[];
    expect(messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name)).toEqual(["list_directory", "fs_write_file"]);
    const [listed, written] = messages.filter((m) => m.role === "tool");
    expect(listed!.content).toContain("[FILE] listed.txt");
    expect(written!.content).toStartWith("blocked by permission rules:");
    expect(existsSync(join(dir.path, "y.txt"))).toBe(false);
  } finally {
    model.stop();
    await mcp.close();
  }
});

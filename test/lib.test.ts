// Embedding hey's kernel without the CLI (src/lib.ts): a real adapter against a loopback model,
// a custom tool beside a built-in one, and a custom Output — nothing read from config or the
// environment.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createAgent,
  createMcp,
  createProvider,
  createReadFileTool,
  createSessionWriter,
  defaultAgentSettings,
  defaultTools,
  permissionCheck,
  runLoop,
  textOf,
  userMessage,
  type AgentEvent,
  type Message,
  type Output,
  type Tool,
} from "../src/lib.ts";
import { BUN, FAKE_SERVER } from "./helpers/mcp.ts";
import { tempDir } from "./helpers/e2e.ts";
import { sseReply, startReplayServer } from "./helpers/replay-server.ts";
import { chatChunk, sse } from "./helpers/sse.ts";

const server = startReplayServer();
const dir = tempDir("hey-lib-");
afterAll(() => {
  server.stop();
  dir.remove();
});

test("a program embeds the loop with its own tool and its own output", async () => {
  writeFileSync(join(dir.path, "city.txt"), "Lisbon\n");
  server.enqueue(
    sseReply(
      sse([
        chatChunk({ toolCall: { index: 0, id: "c1", name: "read_file", arguments: '{"path":"city.txt"}' } }),
        chatChunk({ toolCall: { index: 1, id: "c2", name: "weather", arguments: '{"city":"Lisbon"}' } }),
        chatChunk({ finish: "tool_calls" }),
      ]),
    ),
    sseReply(sse([chatChunk({ content: "Sunny in Lisbon, 21 °C." }), chatChunk({ finish: "stop", usage: { prompt_tokens: 50, completion_tokens: 7 } })])),
  );
  const asked: unknown[] = [];
  const weather: Tool = {
    name: "weather",
    description: "Current weather for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    run: async (args) => {
      asked.push(args);
      return { output: `${String(args.city)}: sunny, 21 °C` };
    },
  };
  const events: AgentEvent[] = [];
  const output: Output = { emit: (e) => void events.push(e) };
  const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
  const messages: Message[] = [userMessage("What is the weather in the city named in city.txt?")];

  const result = await runLoop(messages, {
    provider,
    output,
    context: async (history) => ({ system: "You are a weather bot.", messages: history, tools: [createReadFileTool(), weather] }),
    signal: new AbortController().signal,
    cwd: dir.path,
    limits: { maxTurns: 5, parallelTools: true },
    retry: { enabled: false, maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, jitter: false, respectRetryAfter: true },
    permission: () => undefined,
    effort: undefined,
    clock: { sleep: async () => {}, random: () => 0 },
  });

  expect(result).toMatchObject({ stop: "end", turns: 2, usage: { input: 50, output: 7 } });
  expect(asked).toEqual([{ city: "Lisbon" }]);
  expect(textOf(messages.at(-1)!)).toBe("Sunny in Lisbon, 21 °C.");
  expect(messages.filter((m) => m.role === "tool").map((m) => textOf(m))).toEqual(["1\tLisbon", "Lisbon: sunny, 21 °C"]);
  expect(events.filter((e) => e.type === "tool_result").map((e) => e.type === "tool_result" && e.ok)).toEqual([true, true]);
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "end", turns: 2 });
  // what the model was sent: the system prompt, both tool specs, and the results in call order
  const second = server.requests[1]!.body as { messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
  expect(second.messages[0]).toEqual({ role: "system", content: "You are a weather bot." });
  expect(second.tools.map((t) => t.function.name)).toEqual(["read_file", "weather"]);
  expect(second.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["1\tLisbon", "Lisbon: sunny, 21 °C"]);
  expect(server.violations).toEqual([]);
});

describe("createAgent: an agent with hey's defaults", () => {
  test("the built-in tools, hey's system prompt and the default limits; the session writer records the run", async () => {
    writeFileSync(join(dir.path, "notes.txt"), "alpha\n");
    server.enqueue(
      sseReply(
        sse([chatChunk({ toolCall: { index: 0, id: "r1", name: "read_file", arguments: '{"path":"notes.txt"}' } }), chatChunk({ finish: "tool_calls" })]),
      ),
      sseReply(sse([chatChunk({ content: "It says alpha." }), chatChunk({ finish: "stop" })])),
    );
    const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
    const sessions = join(dir.path, "sessions");
    const session = createSessionWriter({ dir: sessions, id: "s1", cwd: dir.path, version: "0.0.0", warn: () => {} });
    const agent = createAgent({ provider, cwd: dir.path, output: session });
    const result = await agent.send("What does notes.txt say?", new AbortController().signal);
    session.close();

    expect(result.stop).toBe("end");
    expect(textOf(agent.messages.at(-1)!)).toBe("It says alpha.");
    expect(agent.settings).toMatchObject({ limits: { maxTurns: 20 }, retry: { maxRetries: 5 }, context: { budgetTokens: 40_000, purgeErrorsAfter: 4 } });
    const first = server.requests.at(-2)!.body as { messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
    expect(first.tools.map((t) => t.function.name)).toEqual(["bash", "read_file", "write_file", "edit", "grep", "compress"]);
    expect(first.messages[0]!.content).toContain(`Working directory: ${dir.path}`);
    const saved = readFileSync(join(sessions, "s1.jsonl"), "utf8");
    expect(saved).toContain("It says alpha.");
  });

  test("two edits of one turn through a link and its target both land: calls on one file run in call order", async () => {
    mkdirSync(join(dir.path, "conf"));
    writeFileSync(join(dir.path, "conf", "a.ini"), "x=1\ny=1\n");
    symlinkSync(join("conf", "a.ini"), join(dir.path, "a.ini"));
    const call = (index: number, path: string, from: string, to: string) =>
      chatChunk({ toolCall: { index, id: `e${index}`, name: "edit", arguments: JSON.stringify({ path, old_string: from, new_string: to }) } });
    server.enqueue(
      sseReply(sse([call(0, "a.ini", "x=1", "x=2"), call(1, "conf/a.ini", "y=1", "y=2"), chatChunk({ finish: "tool_calls" })])),
      sseReply(sse([chatChunk({ content: "done" }), chatChunk({ finish: "stop" })])),
    );
    const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
    await createAgent({ provider, cwd: dir.path }).send("edit both", new AbortController().signal);
    expect(readFileSync(join(dir.path, "conf", "a.ini"), "utf8")).toBe("x=2\ny=2\n");
  });

  test("settings replace the defaults part by part", async () => {
    const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
    const agent = createAgent({ provider, settings: { limits: { maxTurns: 2, parallelTools: false } } });
    expect(agent.settings.limits).toEqual({ maxTurns: 2, parallelTools: false });
    expect(agent.settings.retry).toEqual(defaultAgentSettings(provider).retry);
  });

  test("a part of the settings given in part keeps hey's defaults for the rest of it", async () => {
    const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
    const defaults = defaultAgentSettings(provider);
    const agent = createAgent({ provider, settings: { limits: { maxTurns: 3 }, retry: { maxRetries: 0 }, context: { budgetTokens: 100_000 } } });
    expect(agent.settings.limits).toEqual({ ...defaults.limits, maxTurns: 3 });
    expect(agent.settings.retry).toEqual({ ...defaults.retry, maxRetries: 0 });
    expect(agent.settings.context).toEqual({ ...defaults.context, budgetTokens: 100_000 });
    expect(agent.settings.context.purgeErrorsAfter).toBe(4);
  });
});

test("permissionCheck: deny wins, an allow list admits only what matches, the refusal says so; a bad entry throws", () => {
  const check = permissionCheck({ allow: ["read_file", "bash: git *"], deny: ["bash: git push *"] });
  expect(check("read_file", { path: "a" })).toBeUndefined();
  expect(check("bash", { command: "git status" })).toBeUndefined();
  expect(check("bash", { command: "git push origin main" })).toStartWith("blocked by permission rules:");
  expect(check("bash", { command: "rm -rf /" })).toStartWith("blocked by permission rules:");
  expect(check("write_file", { path: "a", content: "" })).toStartWith("blocked by permission rules:");
  expect(() => permissionCheck({ allow: ["Bash(git:*)"] })).toThrow("another agent's syntax");
});

test("createMcp: a server's tools join the built-ins; close() stops it", async () => {
  const mcp = createMcp([{ name: "fake", command: BUN, args: [FAKE_SERVER, "ok", "fake", "echo"] }], { cacheDir: join(dir.path, "cache") });
  try {
    await mcp.settled("fake", new AbortController().signal);
    const tools = await mcp.tools(defaultTools(), new AbortController().signal);
    expect(tools.map((t) => t.name)).toContain("echo");
    expect(tools.map((t) => t.name)).toContain("read_file");
  } finally {
    await mcp.close();
  }
});

test("defaultTools: its write_file refuses a file changed since its read_file read it", async () => {
  const tools = defaultTools();
  const tool = (name: string) => tools.find((t) => t.name === name)!;
  const ctx = { cwd: dir.path, signal: new AbortController().signal };
  writeFileSync(join(dir.path, "shared.txt"), "mine\n");
  await tool("read_file").run({ path: "shared.txt" }, ctx);
  writeFileSync(join(dir.path, "shared.txt"), "mine\nthe user's\n");
  const result = await tool("write_file").run({ path: "shared.txt", content: "agent\n" }, ctx);
  expect(result.isError).toBe(true);
  expect(readFileSync(join(dir.path, "shared.txt"), "utf8")).toBe("mine\nthe user's\n");
});

test("createAgent refuses two tools of one name at once, naming both: every vendor would refuse every request that lists them", async () => {
  const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
  const lookup = (description: string): Tool => ({ name: "lookup", description, parameters: { type: "object" }, run: async () => ({ output: "" }) });
  expect(() => createAgent({ provider, tools: [...defaultTools(), lookup("mine"), lookup("a colleague's")] })).toThrow(
    "createAgent: tools[6] (lookup) is named like tools[5]; each tool needs a name of its own",
  );
});

test("createAgent refuses a tool named like hey's own compress tool while settings.context.compressTool offers it: both would go in every request", async () => {
  const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
  const compress: Tool = { name: "compress", description: "zips files", parameters: { type: "object" }, run: async () => ({ output: "" }) };
  expect(() => createAgent({ provider, tools: [...defaultTools(), compress] })).toThrow(
    "createAgent: tools[5] (compress) is named like hey's own compress tool, which settings.context.compressTool offers; name it otherwise, or set compressTool to false",
  );
  expect(() => createAgent({ provider, tools: [...defaultTools(), compress], settings: { context: { compressTool: false } } })).not.toThrow();
});

test("a program with a proxy set in its environment still reaches a model on this machine: loopback goes direct, as in the CLI", async () => {
  server.enqueue(sseReply(sse([chatChunk({ content: "direct" }), chatChunk({ finish: "stop" })])));
  const before = process.env.HTTP_PROXY;
  process.env.HTTP_PROXY = "http://127.0.0.1:9"; // nothing listens there
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
    const agent = createAgent({ provider, tools: [] });
    // before: Bun's own fetch sent the loopback request to the proxy, and the run failed (ECONNREFUSED)
    expect((await agent.send("hi", new AbortController().signal)).stop).toBe("end");
    expect(textOf(agent.messages.at(-1)!)).toBe("direct");
  } finally {
    if (before === undefined) delete process.env.HTTP_PROXY;
    else process.env.HTTP_PROXY = before;
  }
});

test("a proxy in the environment that hey cannot use fails createProvider, naming the variable, where the run retried it as a network error", async () => {
  const before = process.env.HTTPS_PROXY;
  process.env.HTTPS_PROXY = "not a url";
  try {
    await expect(createProvider({ protocol: "openai", baseUrl: "https://api.example.invalid/v1", model: "m", apiKey: "k" })).rejects.toThrow(
      'HTTPS_PROXY: invalid proxy URL "not a url"',
    );
    // a fetch of the program's own does its own routing; this machine is always direct
    await createProvider({ protocol: "openai", baseUrl: "https://api.example.invalid/v1", model: "m", apiKey: "k", fetch: (i, init) => fetch(i, init) });
    await createProvider({ protocol: "openai", baseUrl: `${server.url}/v1`, model: "m" });
  } finally {
    if (before === undefined) delete process.env.HTTPS_PROXY;
    else process.env.HTTPS_PROXY = before;
  }
});

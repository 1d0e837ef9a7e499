// What an embedder gets from createAgent (src/lib.ts) by default, checked on the requests a
// loopback model receives: the tools offered and what tool results look like to the model.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createProvider, defaultAgentSettings, defaultTools, permissionCheck, type Tool } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { startModelServer, textOf, type ChatRequest } from "./helpers/model-server.ts";

const dir = tempDir("hey-embed-defaults-");
afterAll(() => dir.remove());

/** A model that reads notes.txt once, then answers. */
const readsOnce = (req: ChatRequest) =>
  req.messages.some((m) => m.role === "tool") ? { text: "done" } : { calls: [["read_file", { path: "notes.txt" }]] as [string, unknown][] };
const offered = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);

test("tool results end with a [#handle] only while the model is offered the compress tool that reads them", async () => {
  writeFileSync(join(dir.path, "notes.txt"), "alpha\n");
  const model = startModelServer(readsOnce);
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    await createAgent({ provider, cwd: dir.path }).send("read notes.txt", new AbortController().signal);
    const withHandles = model.requests.at(-1)!;
    expect(textOf(withHandles.messages.at(-1))).toMatch(/alpha\n\[#[0-9a-z]{5}\]$/);
    expect(offered(withHandles)).toEqual(["bash", "read_file", "write_file", "edit", "grep", "compress"]);

    const context = { ...defaultAgentSettings(provider).context, compressTool: false };
    await createAgent({ provider, cwd: dir.path, settings: { context } }).send("read notes.txt", new AbortController().signal);
    const without = model.requests.at(-1)!;
    expect(textOf(without.messages.at(-1))).toEndWith("alpha");
    expect(offered(without)).toEqual(["bash", "read_file", "write_file", "edit", "grep"]);
  } finally {
    model.stop();
  }
});

test("an embedder's own tools are followed by compress too", async () => {
  const echo: Tool = { name: "echo", description: "Echoes.", parameters: { type: "object", properties: {} }, run: async () => ({ output: "echoed" }) };
  const model = startModelServer((req) => {
    const results = req.messages.filter((m) => m.role === "tool").length;
    if (results === 0) return { calls: [["echo", {}]] };
    return { text: "ok" };
  });
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    await createAgent({ provider, cwd: dir.path, tools: async () => [echo] }).send("echo", new AbortController().signal);
    expect(offered(model.requests[0]!)).toEqual(["echo", "compress"]);
  } finally {
    model.stop();
  }
});

test.each([
  [{ allow: ["read_file", "grep"] }, ["read_file", "grep"], false],
  [{ allow: ["read_file", "compress", "bash: ls *"] }, ["bash", "read_file", "compress"], true],
  [{ deny: ["bash", "write_file", "edit"] }, ["read_file", "grep", "echo", "compress"], true],
  [{ allow: ["echo", "read_file"] }, ["read_file", "echo"], false],
])("a permission list %j keeps the tools it refuses outright out of every request: %j offered (handles: %p)", async (lists, tools, handles) => {
  writeFileSync(join(dir.path, "notes.txt"), "alpha\n");
  const echo: Tool = { name: "echo", description: "Echoes.", parameters: { type: "object", properties: {} }, run: async () => ({ output: "echoed" }) };
  const model = startModelServer(readsOnce);
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const agent = createAgent({ provider, cwd: dir.path, tools: [...defaultTools(), echo], permission: permissionCheck(lists) });
    expect((await agent.send("read notes.txt", new AbortController().signal)).stop).toBe("end");
    for (const req of model.requests) expect(offered(req)).toEqual(tools);
    const result = textOf(model.requests.at(-1)!.messages.at(-1));
    expect(result).toStartWith("1\talpha");
    expect(/\[#[0-9a-z]{5}\]$/.test(result)).toBe(handles);
  } finally {
    model.stop();
  }
});

test("a run that fails says why in its result, with no output given: nothing listening, then an abort", async () => {
  const closed = startModelServer(() => ({ text: "never" }));
  closed.stop(); // its port now refuses connections
  const provider = await createProvider({ protocol: "openai", baseUrl: closed.baseUrl, model: "m" });
  const refused = await createAgent({ provider, cwd: dir.path, tools: [] }).send("hi", new AbortController().signal);
  expect(refused).toMatchObject({ stop: "error", error: { kind: "network", message: expect.stringContaining("connection refused") } });

  const aborted = new AbortController();
  aborted.abort("the bot is shutting down");
  const stopped = await createAgent({ provider, cwd: dir.path, tools: [] }).send("hi", aborted.signal);
  expect(stopped).toMatchObject({ stop: "interrupted", error: { kind: "interrupted", message: "the bot is shutting down" } });
});

test("two sends at once run one after the other: each message gets its own answer, no request holds a half-finished turn", async () => {
  writeFileSync(join(dir.path, "notes.txt"), "alpha\n");
  // the first message makes the model read a file (a turn of tools), the second is answered at once
  const model = startModelServer((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "user" && textOf(last).startsWith("read")) return { calls: [["read_file", { path: "notes.txt" }]] };
    return { text: `answer to ${textOf(req.messages.findLast((m) => m.role === "user"))}` };
  });
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const agent = createAgent({ provider, cwd: dir.path });
    const [first, second] = await Promise.all([
      agent.send("read notes.txt", new AbortController().signal),
      agent.send("and hello", new AbortController().signal),
    ]);
    expect([first.stop, second.stop]).toEqual(["end", "end"]);
    expect(agent.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant"]);
    expect(textOf(agent.messages.at(-1))).toBe("answer to and hello");
    expect(
      model.requests.map((r) =>
        r.messages
          .slice(1)
          .map((m) => m.role)
          .join(","),
      ),
    ).toEqual(["user", "user,assistant,tool", "user,assistant,tool,assistant,user"]);
  } finally {
    model.stop();
  }
});

test("a provider's errors name createProvider's options, not the CLI's config keys and flags", async () => {
  const refusing = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 }),
  });
  try {
    const baseUrl = `http://127.0.0.1:${refusing.port}/v1`;
    for (const [apiKey, advice] of [
      [undefined, "set one (createProvider's apiKey)"],
      ["sk-wrong-0123456789", "check createProvider's apiKey"],
    ] as const) {
      const provider = await createProvider({ protocol: "openai", baseUrl, model: "m", ...(apiKey ? { apiKey } : {}) });
      const result = await createAgent({ provider, cwd: dir.path, tools: [] }).send("hi", new AbortController().signal);
      expect(result.error?.message).toEndWith(advice);
    }
  } finally {
    refusing.stop(true);
  }
  // a host name that does not resolve (injected: no real DNS is asked)
  const unresolved = Object.assign(new TypeError("getaddrinfo ENOTFOUND api.opnai.invalid"), { code: "ENOTFOUND" });
  const fetchImpl = Object.assign(async () => Promise.reject(unresolved), { preconnect: () => {} }) as unknown as typeof fetch;
  const provider = await createProvider({ protocol: "openai", baseUrl: "https://api.opnai.invalid/v1", model: "m", fetch: fetchImpl });
  const result = await createAgent({ provider, cwd: dir.path, tools: [] }).send("hi", new AbortController().signal);
  expect(result.error?.message).toContain("createProvider's baseUrl");
  expect(result.error?.message).not.toContain("base_url");
});

test("a program's own fetch, a plain function, carries the provider's requests", async () => {
  const model = startModelServer(() => ({ text: "hi" }));
  try {
    const seen: string[] = [];
    const logged = async (input: string | URL | Request, init?: RequestInit) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m", fetch: logged });
    expect((await createAgent({ provider, cwd: dir.path, tools: [] }).send("hi", new AbortController().signal)).stop).toBe("end");
    expect(seen).toEqual([`${model.baseUrl}/chat/completions`]);
  } finally {
    model.stop();
  }
});

test("an output that throws (a closed socket) loses its events, not the run: the tool's result is kept and the model answers", async () => {
  writeFileSync(join(dir.path, "notes.txt"), "alpha\n");
  const model = startModelServer(readsOnce);
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const closed = {
      emit(e: { type: string }) {
        if (e.type === "tool_result") throw new Error("WebSocket is closed");
      },
    };
    const agent = createAgent({ provider, cwd: dir.path, output: closed });
    expect((await agent.send("read notes.txt", new AbortController().signal)).stop).toBe("end");
    expect(agent.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  } finally {
    model.stop();
  }
});

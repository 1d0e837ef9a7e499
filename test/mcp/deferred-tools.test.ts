// MCP tools deferred behind find_tools (mcp/deferred.ts, deferring.ts, tool-search.ts): which
// tools a request sends whole and in what order as tools load, what a query finds, what find_tools
// says and answers, and what a resumed session had loaded.
import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { DEFER_SHARE, FIND_TOOLS, loadedIn, planTools, type Deferral } from "../../src/mcp/deferred.ts";
import { createDeferring } from "../../src/mcp/deferring.ts";
import { heavyToolWarnings } from "../../src/mcp/heavy-tools.ts";
import type { ExposedTool } from "../../src/mcp/names.ts";
import { formatStatus } from "../../src/mcp/status.ts";
import { briefSchema, findToolsDescription, NAMES_LISTED_MAX, namedTools, searchTools } from "../../src/mcp/tool-search.ts";

const tool = (server: string, name: string, description = "", properties: Record<string, unknown> = {}, required: string[] = []): ExposedTool => ({
  server,
  name,
  tool: { name, description, inputSchema: { type: "object", properties, required } },
});
const everything = [
  tool("everything", "echo", "Echoes back the input string", { message: { type: "string", description: "Message to echo" } }, ["message"]),
  tool("everything", "get-sum", "Returns the sum of two numbers", { a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
  tool("everything", "get-env", "Returns all environment variables, helpful for debugging MCP server configuration"),
  tool("everything", "get-tiny-image", "Returns a tiny MCP logo image."),
];
const fs = [
  tool("fs", "read_text_file", "Read the complete contents of a file from the file system as text.", { path: { type: "string" } }, ["path"]),
  tool("fs", "list_directory", "Get a detailed listing of all files and directories in a specified path."),
  tool("fs", "search_files", "Recursively search for files and directories matching a pattern."),
];
const all = [...everything, ...fs];
const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);
const off: Deferral = { on: false, loaded: [] };

describe("searchTools: the words of a query against names and descriptions, best first", () => {
  test.each([
    ["echo back the input", ["echo"]],
    ["sum", ["get-sum"]],
    ["read a file", ["read_text_file"]], // words of its name: a description's mention scores less than half of that
    ["files", ["read_text_file", "search_files"]], // a plural finds the singular
    ["directories", ["list_directory", "search_files"]], // in their descriptions: ties in the offer's order
    ["environment variables", ["get-env"]],
    ["the of to", []], // nothing but common words
    ["weather", []],
  ])("%p → %p", (query, expected) => {
    expect(names(searchTools(all, query))).toEqual(expected);
  });

  test("at most the number asked for", () => {
    expect(searchTools(all, "returns", 2)).toHaveLength(2);
  });

  test("exact names by the name the model sees or the server's own", () => {
    const renamed = { ...tool("fs", "read_file"), name: "fs_read_file" };
    expect(names(namedTools([...all, renamed], ["get-sum", "read_file", "nope"]))).toEqual(["get-sum", "fs_read_file"]);
  });
});

describe("planTools: what a request sends whole, and in what order", () => {
  const opts = { mode: "auto" as const, budget: 1_000_000, keep: () => false };

  test("never, and auto under 10 % of the budget: every tool whole, in the offer's order, as before deferring existed", () => {
    expect(planTools(all, off, { ...opts, mode: "never" })).toMatchObject({ whole: all, loaded: [], deferred: [], state: { on: false } });
    expect(planTools(all, off, opts)).toMatchObject({ whole: all, deferred: [], state: { on: false } });
  });

  test("auto past DEFER_SHARE of the budget, and always: all deferred but a server kept whole (defer = false)", () => {
    const small = planTools(all, off, { ...opts, budget: 100 });
    expect(DEFER_SHARE).toBe(0.1);
    expect(small.state.on).toBe(true);
    expect(names(small.deferred)).toEqual(names(all));
    const kept = planTools(all, off, { ...opts, mode: "always", keep: (s) => s === "fs" });
    expect(names(kept.whole)).toEqual(names(fs));
    expect(names(kept.deferred)).toEqual(names(everything));
  });

  test("loaded tools follow in load order, not the offer's; one no server offers now is skipped but kept", () => {
    const state: Deferral = { on: true, loaded: ["search_files", "gone", "echo"] };
    const p = planTools(all, state, opts);
    expect(names(p.loaded)).toEqual(["search_files", "echo"]);
    expect(names(p.deferred)).toEqual(["get-sum", "get-env", "get-tiny-image", "read_text_file", "list_directory"]);
    expect(p.state.loaded).toEqual(["search_files", "gone", "echo"]);
  });

  test("once on it stays on: a late server joins the deferred list; of the tools sent whole before, those that ran stay offered, the rest are deferred", () => {
    const first = planTools(everything.slice(0, 2), off, { ...opts, budget: 1_000_000 });
    expect(first.state).toEqual({ on: false, loaded: [] }); // sent whole is not loaded: only a run loads (createDeferring)
    const late = planTools(all, { on: false, loaded: ["get-sum"] }, { ...opts, budget: 1_000 });
    expect(late.state.on).toBe(true);
    expect(names(late.loaded)).toEqual(["get-sum"]);
    expect(names(late.deferred)).toEqual(["echo", "get-env", "get-tiny-image", "read_text_file", "list_directory", "search_files"]);
    const after = planTools(all, late.state, { ...opts, budget: 1_000_000 }); // under the share again: still deferred
    expect(after.state.on).toBe(true);
  });

  test("deferring does not turn on when it would leave nothing to find_tools: every tool already ran", () => {
    const p = planTools(everything, { on: false, loaded: names(everything) }, { ...opts, mode: "always" });
    expect(p).toMatchObject({ whole: everything, loaded: [], deferred: [], state: { on: false } });
  });
});

describe("createDeferring: the tool list only grows, each load appended after the tools before", () => {
  const runnable = (e: ExposedTool): Tool => ({
    name: e.name,
    description: e.tool.description ?? "",
    parameters: e.tool.inputSchema,
    server: e.server,
    run: async (args) => (args.a === undefined && e.name === "get-sum" ? { output: "bad input", isError: true } : { output: `${e.name} ran` }),
  });
  const ctx = { signal: new AbortController().signal, cwd: "/" };
  const own: Tool = { name: "bash", description: "", parameters: { type: "object" }, run: async () => ({ output: "" }) };

  test("whole, then find_tools, then the loaded tools; a query loads, and the next request carries it at the end", async () => {
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: (s) => s === "fs" });
    const first = d.request(all, runnable);
    expect(names(first.tools)).toEqual([...names(fs), FIND_TOOLS]);
    expect(names(first.sent)).toEqual(names(fs));
    const find = first.tools.find((t) => t.name === FIND_TOOLS)!;
    expect(find.description).toContain("everything: echo, get-sum, get-env, get-tiny-image.");
    const found = await find.run({ query: "sum of numbers" }, ctx);
    expect(found.output).toStartWith("loaded: get-sum\n\nget-sum (MCP server everything): Returns the sum of two numbers\n  a: number\n  b: number");
    expect(names(d.request(all, runnable).tools)).toEqual([...names(fs), FIND_TOOLS, "get-sum"]);
    await d
      .request(all, runnable)
      .tools.find((t) => t.name === FIND_TOOLS)!
      .run({ names: ["echo", "get-sum"] }, ctx);
    const third = d.request(all, runnable);
    expect(names(third.tools)).toEqual([...names(fs), FIND_TOOLS, "get-sum", "echo"]);
    expect(third.tools.find((t) => t.name === FIND_TOOLS)!.description).toContain("everything: get-env, get-tiny-image.");
    expect([own, ...third.tools].map((t) => t.name)[0]).toBe("bash");
  });

  test("a query that matches nothing is an error saying where the names are, and loads nothing", async () => {
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: () => false });
    const find = d.request(all, runnable).tools[0]!;
    expect(await find.run({ query: "weather" }, ctx)).toEqual({
      output: `no MCP tool matches query "weather"; the tools to load are listed in find_tools' description`,
      isError: true,
    });
    expect((await find.run({}, ctx)).output).toBe("give query (words) or names (exact tool names); the tools to load are listed in find_tools' description");
    expect(names(d.request(all, runnable).tools)).toEqual([FIND_TOOLS]);
  });

  test("a call straight to a deferred tool runs, and loads it when it ran well; a failed call reads its schema; a loaded or unknown name is not the deferred tool's", async () => {
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: () => false });
    d.request(all, runnable);
    expect(d.tool("nope", all, runnable)).toBeUndefined();
    const wrong = await d.tool("get-sum", all, runnable)!.run({ first: 2 }, ctx);
    expect(wrong.isError).toBe(true);
    expect(wrong.output).toContain("Its input:\nget-sum (MCP server everything): Returns the sum of two numbers\n  a: number\n  b: number");
    // not loaded by a failed call: `hey -c` reads the loads back from the results that are no errors (loadedIn), and must offer the same list
    const failed: Message[] = [
      { id: "t1", role: "tool", toolCallId: "c1", toolName: "get-sum", content: [{ type: "text", text: wrong.output }], isError: true },
    ];
    expect(names(d.request(all, runnable).tools)).toEqual([FIND_TOOLS, ...loadedIn(failed, ["bash"])]);
    expect(await d.tool("get-sum", all, runnable)!.run({ a: 1, b: 2 }, ctx)).toEqual({ output: "get-sum ran" });
    expect(names(d.request(all, runnable).tools)).toEqual([FIND_TOOLS, "get-sum"]);
    expect(d.tool("get-sum", all, runnable)).toBeUndefined(); // loaded: offered, no longer deferred
    expect(await d.tool("echo", all, runnable)!.run({ message: "hi" }, ctx)).toEqual({ output: "echo ran" });
    d.resume(["echo"]); // a new session: what it had loaded, nothing else
    expect(names(d.request(all, runnable).tools)).toEqual([FIND_TOOLS, "echo"]);
  });

  test("names that load nothing are said, each with why: not found (and the nearest name), refused by the rules, sent whole already", async () => {
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: (s) => s === "fs" });
    const leftOut = [
      {
        server: "everything",
        name: "get-secret",
        why: "permission" as const,
        origin: { server: "everything", name: "get-secret", qualified: "everything_get-secret" },
      },
    ];
    const find = d.request(all, runnable, { leftOut }).tools.find((t) => t.name === FIND_TOOLS)!;
    const r = await find.run({ names: ["echo", "get_summ", "mcp__everything__get-secret", "list_directory", "nonexistent_tool"] }, ctx);
    expect(r.output).toStartWith(
      "loaded: echo\nnot found: get_summ (did you mean get-sum?)\nrefused by the permission rules: mcp__everything__get-secret (get-secret)\n" +
        "offered already, call it: list_directory\nnot found: nonexistent_tool\n\necho (MCP server everything)",
    );
    const none = await find.run({ names: ["get-secret", "weather"] }, ctx);
    expect(none).toEqual({
      output: "refused by the permission rules: get-secret\nnot found: weather\nthe tools to load are listed in find_tools' description",
      isError: true,
    });
    expect(names(d.request(all, runnable).tools)).toEqual([...names(fs), FIND_TOOLS, "echo"]);
  });

  test("hey's own tools asked of find_tools are offered already, to be called, not unknown", async () => {
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: () => false });
    const find = d.request(all, runnable, { own: ["bash", "read_file"] }).tools[0]!;
    expect(await find.run({ names: ["bash"] }, ctx)).toEqual({
      output: "offered already, call it: bash; the tools to load are listed in find_tools' description",
      isError: true,
    });
    expect((await find.run({ names: ["echo", "read_file"] }, ctx)).output).toStartWith("loaded: echo\noffered already, call it: read_file\n\necho");
  });

  test("each load is noticed once, naming what grew the tool list and how: a script reading --output json sees it", async () => {
    const said: string[] = [];
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: () => false, notice: (m) => said.push(m) });
    const find = d.request(all, runnable).tools[0]!;
    await find.run({ query: "weather" }, ctx); // loads nothing
    await find.run({ names: ["echo", "get-sum"] }, ctx);
    await find.run({ names: ["echo"] }, ctx); // loaded already: nothing grew
    await d.tool("get-env", all, runnable)!.run({}, ctx);
    expect(said).toEqual([
      "MCP tools loaded by find_tools, offered from the next request on: echo, get-sum",
      "MCP tools loaded by a call by its name, offered from the next request on: get-env",
    ]);
  });

  test("Claude Code's mcp__SERVER__TOOL and other spellings load the tool as offered", async () => {
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: () => false });
    const find = d.request(all, runnable).tools[0]!;
    const r = await find.run({ names: ["mcp__everything__get-sum", "get_env", "fs.list_directory", "mcp__fs__search_files"] }, ctx);
    expect(r.output.split("\n")[0]).toBe("loaded: get-sum, get-env, list_directory, search_files");
    expect(names(d.request(all, runnable).tools)).toEqual([FIND_TOOLS, "get-sum", "get-env", "list_directory", "search_files"]);
  });

  test("a call near a deferred tool's name is told it is not loaded and how to load it; nothing runs", async () => {
    const d = createDeferring({ mode: () => "always", budget: () => 40_000, keep: () => false });
    d.request(all, runnable);
    expect(await d.tool("get_summ", all, runnable)!.run({ a: 1, b: 2 }, ctx)).toEqual({
      output: 'unknown tool "get_summ": did you mean get-sum? It is not loaded: call find_tools with names ["get-sum"], or call it as get-sum',
      isError: true,
    });
    expect(names(d.request(all, runnable).tools)).toEqual([FIND_TOOLS]);
    expect(d.tool("weather", all, runnable)).toBeUndefined();
  });

  test("defer_tools turned on mid-session (/reload): the tools that ran stay, the ones never called wait behind find_tools; all ran: no find_tools", async () => {
    let mode: "never" | "always" = "never";
    const d = createDeferring({ mode: () => mode, budget: () => 1_000_000, keep: () => false });
    const first = d.request(everything, runnable);
    expect(names(first.tools)).toEqual(names(everything));
    await first.tools.find((t) => t.name === "echo")!.run({ message: "hi" }, ctx);
    await first.tools.find((t) => t.name === "get-sum")!.run({}, ctx); // failed: not loaded
    mode = "always";
    const next = d.request(everything, runnable);
    expect(names(next.tools)).toEqual([FIND_TOOLS, "echo"]); // before: all 4 schemas stayed, plus an empty find_tools
    expect(names(next.sent)).toEqual(["echo"]);
    expect(next.tools[0]!.description).toContain("everything: get-sum, get-env, get-tiny-image.");

    const used = createDeferring({ mode: () => mode, budget: () => 1_000_000, keep: () => false });
    mode = "never";
    const tools = used.request(everything.slice(0, 1), runnable).tools;
    await tools[0]!.run({ message: "hi" }, ctx);
    mode = "always";
    expect(names(used.request(everything.slice(0, 1), runnable).tools)).toEqual(["echo"]); // nothing to defer: no find_tools
  });

  test("never: the offer as it is, no find_tools", () => {
    const d = createDeferring({ mode: () => "never", budget: () => 10, keep: () => false });
    expect(names(d.request(all, runnable).tools)).toEqual(names(all));
  });
});

describe("what is said of deferred tools", () => {
  test("find_tools' description names each server's tools, or past NAMES_LISTED_MAX each server with a count", () => {
    expect(findToolsDescription(all)).toContain(
      "Not loaded: everything: echo, get-sum, get-env, get-tiny-image; fs: read_text_file, list_directory, search_files. Give query",
    );
    const many = Array.from({ length: NAMES_LISTED_MAX + 1 }, (_, i) => tool(i % 2 ? "gh" : "web", `t${i}`));
    expect(findToolsDescription(many)).toContain("Servers: web (101 tools); gh (100 tools). Give query");
    expect(findToolsDescription([])).toBe("Loads tools of MCP servers that are not offered yet: every one is loaded now.");
  });

  test("a schema in brief: one line per argument, optional ones marked", () => {
    const schema = {
      type: "object",
      properties: {
        path: { type: "string", description: "Where" },
        depth: { type: "number" },
        mode: { enum: ["a", "b"] },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["path"],
    };
    expect(briefSchema(schema)).toBe('  path: string — Where\n  depth?: number\n  mode?: "a" | "b"\n  tags?: string[]');
    expect(briefSchema({ type: "object" })).toBe("  (no arguments)");
  });

  test("the weight warnings and /mcp count only what requests carry", () => {
    const heavy = [tool("big", "wide", "x".repeat(290), Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: "string" }])))];
    expect(heavyToolWarnings({ tools: heavy }, 4_000)).toHaveLength(1);
    expect(heavyToolWarnings({ tools: heavy, deferred: ["wide"] }, 4_000)).toEqual([]);
    const status = formatStatus(
      [{ name: "everything", state: "connected", cached: false, tools: everything.map((e) => e.tool) }],
      { tools: everything, leftOut: [], warnings: [], renamed: [], deferred: ["get-env", "get-tiny-image"] },
      false,
    );
    expect(status).toMatch(
      /^everything: connected · 4 tools, ~\d+ tokens per request\n {2}echo ~\d+, get-sum ~\d+\n {2}2 tools deferred \(loaded on demand\): get-env, get-tiny-image\n/,
    );
    expect(status).toMatch(/\nMCP tools in every request: 2, ~\d+ tokens; 2 tools deferred \(loaded on demand\) through find_tools$/);
  });

  test("a resumed session's loaded tools: find_tools' loads and the MCP tools it ran, in order", () => {
    const msg = (toolName: string, text: string, isError = false): Message => ({
      id: text,
      role: "tool",
      toolName,
      content: [{ type: "text", text }],
      isError,
    });
    const history = [
      msg("read_file", "x"),
      msg("find_tools", "loaded: get-sum, echo\n\nget-sum …"),
      msg("find_tools", "no MCP tool matches", true),
      msg("search_files", "found"),
      msg("echo", "again"),
    ];
    expect(loadedIn(history, ["bash", "read_file"])).toEqual(["get-sum", "echo", "search_files"]);
  });
});

// A call to a tool whose MCP server is still starting (hey stopped waiting at startup_wait_ms):
// it waits for that server and runs, or tells the model the server's state in one line — with our
// fake slow server and with the real server-everything started late.
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { GUESS_WAIT_MS, lateTool, notListed, refusedTool, renamedTo, suppliers } from "../../src/mcp/late-tool.ts";
import type { ServerStatus } from "../../src/mcp/server.ts";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, EVERYTHING_SERVER, FAKE_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";

setDefaultTimeout(60_000);

const status = (name: string, state: ServerStatus["state"], more: Partial<ServerStatus> = {}): ServerStatus => ({
  name,
  state,
  tools: undefined,
  cached: false,
  ...more,
});
const tool = (name: string) => ({ name, inputSchema: {} });

describe("which server a call to a name no request offered is for", () => {
  test.each([
    ["a name offered since (its server connected after the request)", "echo", [status("a", "connected")], ["echo"], { wait: [] }],
    [
      "every server still starting, when nothing says which",
      "echo",
      [status("a", "connecting"), status("b", "connecting"), status("c", "connected")],
      [],
      { wait: ["a", "b"], guess: true },
    ],
    [
      "the starting server whose cached list has it",
      "echo",
      [status("a", "connecting"), status("b", "connecting", { tools: [tool("echo")] })],
      [],
      { wait: ["b"] },
    ],
    [
      "none, when every starting server's list is known (cached) and lacks it: a mistyped name (read_files) waits for no start",
      "read_files",
      [status("a", "connecting", { tools: [tool("echo")], cached: true }), status("b", "connected")],
      [],
      undefined,
    ],
    [
      "only the starting servers with no list yet, when the known lists lack it",
      "read_files",
      [status("a", "connecting", { tools: [tool("echo")], cached: true }), status("b", "connecting")],
      [],
      { wait: ["b"], guess: true },
    ],
    ["the starting server the name is prefixed with", "b_echo", [status("a", "connecting"), status("b", "connecting")], [], { wait: ["b"] }],
    ["the longest server name that prefixes it", "gh_x_echo", [status("gh", "connecting"), status("gh_x", "connecting")], [], { wait: ["gh_x"] }],
    [
      "none, but the name is prefixed with a server that stopped: said, as its next call starts it",
      "db_query",
      [status("db", "stopped", { error: "it exited with code 1" })],
      [],
      {
        said: 'unknown tool "db_query": MCP server db stopped (it exited with code 1), and has no tool db_query that hey knows of; a call to one of its tools starts it again',
      },
    ],
    [
      "none: no server is starting, and none failed but one whose list lacks the name",
      "echo",
      [status("a", "connected"), status("b", "failed", { error: "x", tools: [tool("other")] })],
      [],
      undefined,
    ],
    [
      // before: the kernel's `unknown tool "tool_1"; available: …` with no word of db, which exited at start-up
      "a server that failed before it listed a tool: the kernel's answer, and why it failed, with its stderr",
      "tool_1",
      [
        status("a", "connected"),
        status("db", "failed", { error: "it exited with code 3 before it was ready", stderr: "boom: cannot connect to database at localhost:5432\n" }),
      ],
      ["echo"],
      {
        said: 'unknown tool "tool_1"; available: echo. MCP server db failed: it exited with code 3 before it was ready (its stderr: boom: cannot connect to database at localhost:5432); its tools are left out until it is fixed and the user runs /reload',
      },
    ],
  ])("%s", (_, name, statuses, offered, expected) => {
    expect(suppliers(name, statuses, offered)).toEqual(expected as never);
  });

  test("a typo of an offered name (read_files for hey's read_file) is no stuck server's tool: the kernel's did-you-mean at once, not a wait", () => {
    const hang = status("hang", "connecting");
    expect(suppliers("read_files", [hang, status("a", "connected")], ["echo"], ["read_file", "bash", "echo"])).toBeUndefined();
    // …unless a starting server's cached list has that very name
    const listing = status("hang", "connecting", { tools: [tool("read_files")], cached: true });
    expect(suppliers("read_files", [listing], [], ["read_file"])).toEqual({ wait: ["hang"] });
    // a name like none offered may be the starting server's: waited for, on a guess
    expect(suppliers("deploy_preview", [hang], [], ["read_file"])).toEqual({ wait: ["hang"], guess: true });
  });

  test("a server whose last start failed (a recent run) is not waited for on a guess, as start-up does not", () => {
    const failed = status("hang", "connecting", { failedBefore: "it did not answer initialize in time" });
    // not waited for, but named: the model learns why the tool it means is missing (before: the kernel's answer alone)
    expect(suppliers("deploy_preview", [failed, status("a", "connected")], [], ["read_file"])).toEqual({
      said: 'unknown tool "deploy_preview"; available: read_file. MCP server hang failed to start in a recent run: it did not answer initialize in time; it is being tried again',
    });
  });

  test("a name prefixed with a server that failed is answered with why, without waiting", () => {
    const got = suppliers("db_query", [status("db", "failed", { error: "it exited (code 3) before it was ready" }), status("x", "connecting")], []);
    expect(got).toEqual({
      said: 'unknown tool "db_query": MCP server db failed: it exited (code 3) before it was ready; its tools are left out until it is fixed and the user runs /reload',
    });
  });
});

test("the line for servers that do not list the name: each one's state, with its closest names", () => {
  const line = notListed(
    "serach",
    [
      { status: status("web", "connected"), offered: ["fetch", "search", "search_news", "scrape"] },
      { status: status("slow", "connecting"), offered: [] },
      { status: status("gh", "auth_required", { error: "HTTP 401" }), offered: [] },
    ],
    12_400,
  );
  expect(line).toBe(
    'unknown tool "serach": MCP server web started but has no tool serach (closest: search, fetch, scrape); ' +
      "MCP server slow is still starting after 12 s; its tools join the list when it is ready: call it again then; " +
      "MCP server gh needs a sign-in (HTTP 401): the user signs in with /mcp login gh; do not run it (or hey mcp login) yourself: ask the user to, then call again",
  );
});

test('a tool the server has that its [mcp.NAME] tools leaves out is said so, with what the server has, not "it offers no tools"', () => {
  const ev = status("ev", "connected", { tools: [tool("echo"), tool("get-sum")] });
  const leftOut = [
    { server: "ev", name: "echo", why: "tools" as const },
    { server: "ev", name: "get-sum", why: "tools" as const },
  ];
  // before: MCP server ev started but has no tool echo (it offers no tools)
  expect(notListed("echo", [{ status: ev, offered: [] }], 0, leftOut)).toBe(
    'unknown tool "echo": MCP server ev started, but [mcp.ev] tools leaves out "echo" (the server has echo, get-sum); fix that table, then the user runs /reload',
  );
  expect(notListed("ping", [{ status: ev, offered: [] }], 0, leftOut)).toBe(
    'unknown tool "ping": MCP server ev started but has no tool ping, and [mcp.ev] tools leaves out all of its tools (the server has echo, get-sum)',
  );
  expect(notListed("ping", [{ status: status("ev", "connected", { tools: [] }), offered: [] }], 0)).toBe(
    'unknown tool "ping": MCP server ev started but has no tool ping (it offers no tools)',
  );
});

test("a [mcp.NAME] tools that names none of its server's tools: the model's next request is told, once, and a call to a left-out tool says why", async () => {
  const cache = tempDir("hey-late-select-");
  const m = testManager([serverSettings("ev", { command: BUN, args: [FAKE_SERVER, "ok", "ev", "echo,get_sum"], tools: ["eccho"] })], { cacheDir: cache.path });
  try {
    expect((await m.tools()).map((t) => t.name)).toEqual([]);
    const told =
      '[hey: the MCP configuration names tools its server does not offer:\n[mcp.ev] tools names "eccho", which the server does not offer to hey (it offers: echo, get_sum)\nfix the table, then ask the user to /reload]';
    expect(m.manager.note(0)).toBe(told); // before: the user's screen alone said it
    expect(m.manager.note(0)).toBe(told); // not answered yet: said again
    expect(m.manager.note(1)).toBeUndefined();
    // before: the kernel's `unknown tool "echo"; available: …`, no word of ev
    const stand = refusedTool("echo", m.manager)!;
    expect((await stand.run({}, { signal: new AbortController().signal, cwd: cache.path })).output).toBe(
      'unknown tool "echo": MCP server ev started, but [mcp.ev] tools leaves out "echo" (the server has echo, get_sum); fix that table, then the user runs /reload',
    );
    expect(refusedTool("ev_echo", m.manager)).toBeDefined(); // by its prefixed name too
    expect(refusedTool("weather", m.manager)).toBeUndefined();
  } finally {
    await m.manager.close();
    cache.remove();
  }
});

describe("through a manager whose first request did not wait for the server", () => {
  const cache = tempDir("hey-late-tool-");
  let m: TestManager | undefined;
  afterAll(() => cache.remove());
  afterEach(async () => {
    await m?.manager.close();
    m = undefined;
  });
  const open = (servers: Parameters<typeof testManager>[0], waitMs = 20_000) => {
    m = testManager(servers, { cacheDir: cache.path, startupWaitMs: 0 });
    const deps = {
      mcp: m.manager,
      tools: (signal: AbortSignal) => m!.manager.tools([], signal),
      settings: () => ({ servers, startupWaitMs: waitMs }),
      now: Date.now,
    };
    const ctx = (notes: string[] = []) => ({ signal: new AbortController().signal, cwd: cache.path, progress: (n: string) => void notes.push(n) });
    return { m, late: (name: string, requested?: string[]) => lateTool(name, deps, requested), ctx };
  };

  test("a call to the tool of a server still starting waits for it, then runs (before: unknown tool)", async () => {
    const { m, late, ctx } = open([serverSettings("slow", { command: BUN, args: [FAKE_SERVER, "slow-start", "1500"] })]);
    expect((await m.tools()).map((t) => t.name)).toEqual([]); // the request went without it
    const echo = late("echo");
    expect(echo?.server).toBe("slow");
    const notes: string[] = [];
    expect(await echo!.run({ text: "hi" }, ctx(notes))).toEqual({ output: "slow: hi" });
    expect(notes).toEqual(["waiting for MCP server slow to start"]);
  });

  test("a server that started without that tool: its closest names; a server that failed: why", async () => {
    const { late, ctx } = open([
      serverSettings("slow", { command: BUN, args: [FAKE_SERVER, "slow-start", "800"] }),
      serverSettings("broken", { command: BUN, args: [FAKE_SERVER, "exit-on-init"] }),
    ]);
    const got = await late("ecoh")!.run({}, ctx());
    expect(got.isError).toBe(true);
    expect(got.output).toStartWith('unknown tool "ecoh": MCP server slow started but has no tool ecoh (closest: echo); MCP server broken failed: ');
    // once no server is starting, a name none lists is the kernel's unknown tool
    expect(late("ecoh")).toBeUndefined();
  });

  test("a call on a guess (no list names it) waits no longer than GUESS_WAIT_MS (the start-up wait being shorter), not the server's timeout_ms", async () => {
    const { m, late, ctx } = open([serverSettings("hang", { command: BUN, args: [FAKE_SERVER, "silent"], timeoutMs: 30_000 })], 200);
    const got = await late("deploy_preview", ["read_file"])!.run({}, ctx());
    expect(got.output).toStartWith(`unknown tool "deploy_preview": MCP server hang is still starting after ${GUESS_WAIT_MS / 1000} s`);
    expect(m.manager.status()[0]!.state).toBe("connecting"); // it returned long before the server's 30 s start limit
    // a typo of an offered name does not wait at all: the kernel says "did you mean"
    expect(late("read_files", ["read_file", "bash"])).toBeUndefined();
  });

  test("arguments are checked against the server's schema once it lists the tool", async () => {
    const { late, ctx } = open([serverSettings("slow", { command: BUN, args: [FAKE_SERVER, "slow-start", "300"] })]);
    const got = await late("echo")!.run({ text: 5 }, ctx());
    expect(got).toEqual({ output: expect.stringContaining("text"), isError: true });
  });

  test("the real server-everything, started late: its echo is called once it is up", async () => {
    const { m, late, ctx } = open([serverSettings("everything", { command: "node", args: [EVERYTHING_SERVER] })]);
    expect((await m.tools()).map((t) => t.name)).not.toContain("echo");
    expect(await late("echo")!.run({ message: "late" }, ctx())).toEqual({ output: "Echo: late" });
  });
});

test("a call by a server's own name to a tool offered under its prefix (two servers offer it) names what to call", () => {
  const offered = [
    { server: "fs", tool: tool("search"), name: "fs_search" },
    { server: "web", tool: tool("search"), name: "web_search" },
    { server: "web", tool: tool("fetch.page"), name: "fetch_page" },
  ];
  expect(renamedTo("search", offered)).toBe(
    `unknown tool "search": it is offered as fs_search (MCP server fs's search), web_search (MCP server web's search); call one of those`,
  );
  expect(renamedTo("search", offered.slice(1))).toBe(`unknown tool "search": it is offered as web_search (MCP server web's search); call that`);
  expect(renamedTo("fetch_page", offered)).toBeUndefined(); // offered under that name: no late tool needed
  expect(renamedTo("serach", offered)).toBeUndefined(); // no server's tool of that name: the kernel's unknown tool, or a start to wait for
});

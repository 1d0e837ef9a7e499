// What the user reads about MCP servers: /mcp and the background lines.
import { expect, test } from "bun:test";
import { offerTools, type ServerTools } from "../../src/mcp/offer.ts";
import type { ServerStatus } from "../../src/mcp/server.ts";
import { eventLine, failedBeforeLine, formatStatus, uncountedLine, whichServer } from "../../src/mcp/status.ts";

const tools = (...names: string[]) => names.map((name) => ({ name, inputSchema: {} }));
/** the offer a manager makes of these servers (tools of failed and auth-required ones are not offered) */
const offer = (servers: ServerStatus[], selection: Record<string, ServerTools["selection"]> = {}, refused: (n: string) => boolean = () => false) =>
  offerTools(
    servers
      .filter((s) => s.tools && s.state !== "failed" && s.state !== "auth_required")
      .map((s) => ({ server: s.name, tools: s.tools!, selection: selection[s.name] ?? {} })),
    refused,
  );

test("background lines: connected with its count, failures, sign-ins and stops as warnings with why", () => {
  expect(eventLine({ type: "mcp", server: "fs", state: "connected", tools: 14 })).toBe("connected: fs (14 tools)");
  expect(eventLine({ type: "mcp", server: "one", state: "connected", tools: 1 })).toBe("connected: one (1 tool)");
  expect(eventLine({ type: "mcp", server: "db", state: "failed", error: "it exited with code 3 before it was ready\n  fatal: no db" })).toBe(
    "hey: MCP server db failed, its tools are left out: it exited with code 3 before it was ready\n  fatal: no db",
  );
  expect(eventLine({ type: "mcp", server: "db", state: "stopped", error: "exited with code 1" })).toBe("hey: MCP server db stopped: exited with code 1");
  expect(eventLine({ type: "mcp", server: "gh", state: "auth_required", error: "it answers HTTP 401 without one" })).toBe(
    "hey: MCP server gh needs a sign-in, its tools are left out (it answers HTTP 401 without one); sign in with hey mcp login gh (or /mcp login gh in hey)",
  );
});

test("/mcp: each server's state, why it failed, its tools as the model sees them with their tokens, and the total", () => {
  const servers: ServerStatus[] = [
    { name: "fs", state: "connected", tools: tools("read_text_file", "list_directory"), cached: false },
    { name: "gh", state: "connecting", tools: tools("search"), cached: true },
    { name: "web", state: "connecting", tools: tools("search"), cached: true },
    { name: "db", state: "failed", tools: undefined, cached: false, error: 'command "pg-mcp" not found on PATH' },
    { name: "slow", state: "connecting", tools: undefined, cached: false },
  ];
  // {"name":"read_text_file","description":"read_text_file (MCP server fs)","parameters":{}} is 88 characters: 22 tokens
  expect(formatStatus(servers, offer(servers), false, 1100)).toBe(
    [
      "fs: connected · 2 tools, ~44 tokens per request",
      "  read_text_file ~22, list_directory ~22",
      "gh: connecting · 1 tool (cached), ~19 tokens per request",
      "  gh_search ~19",
      "web: connecting · 1 tool (cached), ~20 tokens per request",
      "  web_search ~20",
      "db: failed",
      '  command "pg-mcp" not found on PATH',
      "slow: connecting",
      "MCP tools in every request: 4, ~83 tokens (hey's own tools: ~1,100)",
    ].join("\n"),
  );
});

test("/mcp: what the selection and the permission rules leave out, and why; prompts; a server that needs a sign-in", () => {
  const servers: ServerStatus[] = [
    {
      name: "everything",
      state: "connected",
      tools: tools("echo", "get-sum", "zip", "trigger-long"),
      cached: false,
      prompts: [
        {
          name: "args-prompt",
          arguments: [
            { name: "city", required: true },
            { name: "state", required: false },
          ],
        },
      ],
    },
    { name: "gh", state: "auth_required", tools: tools("search"), cached: true, error: "it answers HTTP 401 without one" },
  ];
  const text = formatStatus(
    servers,
    offer(servers, { everything: { excludeTools: ["zip"] } }, (n) => n === "trigger-long"),
    false,
  );
  expect(text).toBe(
    [
      "everything: connected · 2 of 4 tools offered, ~40 tokens per request",
      "  echo ~19, get-sum ~21",
      "  not offered: zip (exclude_tools); trigger-long (refused by [permission])",
      "  prompts: /mcp:everything:args-prompt city=… [state=…]",
      "gh: auth required · sign in with hey mcp login gh (or /mcp login gh in hey)",
      "  it answers HTTP 401 without one",
      "MCP tools in every request: 2, ~40 tokens",
    ].join("\n"),
  );
});

test("/mcp with none in use (a table hey has not approved yet is there, so not 'none configured'), and with --no-mcp", () => {
  const none = offerTools([], () => false);
  expect(formatStatus([], none, false, undefined, [], [], { oneShot: false, userFile: "~/.config/hey/config.toml" })).toBe(
    'no MCP servers in use; add an [mcp.NAME] table to ~/.config/hey/config.toml (README "MCP servers") and /reload: one hey has not approved yet starts once you say yes at the interactive prompt',
  );
  expect(formatStatus([], none, true)).toBe("MCP is off in this run (--no-mcp)");
});

// x147 finding 5: `hey mcp list` in a package with its own .mcp.json advised writing a table and /reload
test("/mcp with none in use and a server file hey never reads: that file is the reason said; /reload is advised in the REPL only", () => {
  const none = offerTools([], () => false);
  const unread = "not read: /r/app/.mcp.json: hey reads a project's skills, .hey/config.toml and .mcp.json at its root, /r; move them there";
  for (const oneShot of [true, false]) expect(formatStatus([], none, false, undefined, [], [], { oneShot, unread })).toBe(`no MCP servers in use; ${unread}`);
  expect(formatStatus([], none, false, undefined, [], [], { oneShot: true })).toBe(
    'no MCP servers in use; add an [mcp.NAME] table to the config (README "MCP servers"): one hey has not approved yet starts once you say yes at the interactive prompt',
  );
  // with servers in use: said last in the REPL (its start-up line may have scrolled away); `hey mcp` said it at start
  const servers: ServerStatus[] = [{ name: "fs", state: "connected", tools: tools("read"), cached: false }];
  expect(formatStatus(servers, offer(servers), false, undefined, [], [], { oneShot: false, unread }).split("\n").at(-1)).toBe(unread);
  expect(formatStatus(servers, offer(servers), false, undefined, [], [], { oneShot: true, unread })).not.toContain("not read");
});

test("/mcp names the tools left out once per reason: an allow list that refuses ten reads as one list, not ten '(refused by [permission])'", () => {
  const servers: ServerStatus[] = [{ name: "fs", state: "connected", tools: tools("read_text_file", "move_file", "edit_file", "get_env"), cached: false }];
  const text = formatStatus(
    servers,
    offer(servers, { fs: { excludeTools: ["get_env"] } }, (n) => n !== "read_text_file"),
    false,
  );
  expect(text.split("\n")[2]).toBe("  not offered: get_env (exclude_tools); move_file, edit_file (refused by [permission])");
});

test("a server still starting whose last start failed shows that failure and when, not 'connecting' alone", () => {
  const why = "it did not answer initialize in time (timeout_ms)";
  const at = Date.now() - 4 * 60_000;
  const servers: ServerStatus[] = [{ name: "hang", state: "connecting", tools: undefined, cached: false, failedBefore: why, failedAt: at }];
  expect(formatStatus(servers, offer(servers), false).split("\n").slice(0, 2)).toEqual([
    "hang: connecting",
    `  its last start failed 4 min ago: ${why}; tried again now (this run did not wait for it)`,
  ]);
  expect(failedBeforeLine("", at, at + 30_000)).toBe("its last start failed 30 s ago; tried again now (this run did not wait for it)");
  expect(failedBeforeLine("x", at, at + 3 * 3600_000)).toBe("its last start failed 3 h ago: x; tried again now (this run did not wait for it)");
});

test("/mcp login without a name asks which server: the remote ones, those that need a sign-in first", () => {
  const settings = [{ name: "fs" }, { name: "linear", url: "https://l/mcp" }, { name: "gh", url: "https://g/mcp" }];
  const states: ServerStatus[] = [
    { name: "linear", state: "connected", tools: [], cached: false },
    { name: "gh", state: "auth_required", tools: undefined, cached: false },
  ];
  expect(whichServer("/mcp login", settings, states)).toBe("which server? /mcp login NAME, one of: gh (needs a sign-in), linear");
  expect(whichServer("hey mcp logout", [{ name: "fs" }], [])).toBe(
    "hey mcp logout takes a server name, and no remote MCP server is configured: only an [mcp.NAME] table with a url signs in",
  );
});

test("/usage names the servers whose tools it cannot count: no list of them yet, neither cached nor listed", () => {
  const st = (name: string, state: ServerStatus["state"], listed?: string[]): ServerStatus => ({
    name,
    state,
    tools: listed && tools(...listed),
    cached: false,
  });
  expect(uncountedLine([st("fs", "connecting", ["read"]), st("up", "connected", ["a"]), st("down", "failed")])).toBeUndefined();
  expect(uncountedLine([st("fs", "connecting", ["read"]), st("gh", "connecting")])).toBe(
    "not counted: the tools of MCP server gh, not listed yet (no cached list: not connected with this configuration yet)",
  );
  expect(uncountedLine([st("gh", "connecting"), st("db", "connecting")])).toContain("the tools of MCP servers gh, db, not listed yet");
});

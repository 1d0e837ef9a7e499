// A [permission] entry names an MCP tool whichever name the model sees it under: a deny entry
// refuses every server's tool of that name (a project's .mcp.json adding a second filesystem server
// renames fs's move_file to fs_move_file, and `deny = ["move_file"]` kept matching nothing), an
// allow entry never lets a server added later run its tool of that name, and Claude Code's
// `mcp__SERVER` spelling names a whole server.
import { describe, expect, test } from "bun:test";
import type { ToolOrigin } from "../../src/kernel/tool-calls.ts";
import { refusedOutright } from "../../src/permission/refused.ts";
import { compileRules, decide, validateRules, type PermissionRules } from "../../src/permission/rules.ts";
import { unmatchedServers } from "../../src/permission/tool-match.ts";

const origin = (server: string, name: string): ToolOrigin => ({ server, name, qualified: `${server}_${name}` });
const allowed = (lists: PermissionRules, seen: string, from?: ToolOrigin) => decide(seen, {}, compileRules(lists).rules, from).allowed;

describe("deny", () => {
  const deny = { allow: [], deny: ["move_file"] };
  test("a deny entry of the plain name refuses every server's tool of that name, under whichever name it is offered", () => {
    expect(allowed(deny, "move_file", origin("fs", "move_file"))).toBe(false);
    expect(allowed(deny, "fs_move_file", origin("fs", "move_file"))).toBe(false);
    expect(allowed(deny, "files_move_file", origin("files", "move_file"))).toBe(false);
    expect(refusedOutright("files_move_file", compileRules(deny).rules, origin("files", "move_file"))).toBe(true);
    expect(allowed(deny, "fs_read_file", origin("fs", "read_file"))).toBe(true);
  });

  test("`bash: …` rules judge an MCP server's `bash` offered as SERVER_bash beside hey's own, as its `Bash` and `BASH`", () => {
    const rules = compileRules({ allow: [], deny: ["bash: rm *"] }).rules;
    const run = (seen: string, name: string, command: string) => decide(seen, { command }, rules, origin("d", name)).allowed;
    expect(run("d_bash", "bash", "rm -rf /tmp/x")).toBe(false);
    expect(run("Bash", "Bash", "rm -rf /tmp/x")).toBe(false);
    expect(run("d_bash", "bash", "ls")).toBe(true);
  });

  test("the refusal names the server's tool when the model calls it by its prefixed name", () => {
    const d = decide("fs_move_file", {}, compileRules(deny).rules, origin("fs", "move_file"));
    expect(d).toEqual({
      allowed: false,
      reason: "blocked by permission rules: tool `fs_move_file` (MCP server fs's move_file) matches deny entry `move_file`",
    });
  });

  test("a deny entry with a server's prefix refuses that server's tool only, offered plain or prefixed", () => {
    const one = { allow: [], deny: ["fs_move_file"] };
    expect(allowed(one, "move_file", origin("fs", "move_file"))).toBe(false);
    expect(allowed(one, "fs_move_file", origin("fs", "move_file"))).toBe(false);
    expect(allowed(one, "files_move_file", origin("files", "move_file"))).toBe(true);
  });

  test("a glob on a server's prefix refuses every tool of that server (`weird*`)", () => {
    const weird = { allow: [], deny: ["weird*"] };
    expect(allowed(weird, "slow_call", origin("weird", "slow_call"))).toBe(false);
    expect(allowed(weird, "slow_call", origin("slow", "slow_call"))).toBe(true);
  });
});

describe("allow", () => {
  const allow = { allow: ["move_file"], deny: [] };
  test("an allow entry of the plain name allows the tool the model sees by that name, not another server's tool offered under its prefix", () => {
    expect(allowed(allow, "move_file", origin("fs", "move_file"))).toBe(true);
    expect(allowed(allow, "files_move_file", origin("files", "move_file"))).toBe(false);
    expect(allowed(allow, "fs_move_file", origin("fs", "move_file"))).toBe(false);
  });

  test("an allow entry with the server's prefix allows that server's tool under either name, and no other's", () => {
    const fs = { allow: ["fs_move_file"], deny: [] };
    expect(allowed(fs, "move_file", origin("fs", "move_file"))).toBe(true);
    expect(allowed(fs, "fs_move_file", origin("fs", "move_file"))).toBe(true);
    expect(allowed(fs, "files_move_file", origin("files", "move_file"))).toBe(false);
  });
});

describe("Claude Code's mcp__SERVER spelling", () => {
  test("mcp__SERVER names every tool of the server, mcp__SERVER__TOOL one (a glob), hey's own tools none", () => {
    const lists = { allow: [], deny: ["mcp__fs"] };
    expect(allowed(lists, "move_file", origin("fs", "move_file"))).toBe(false);
    expect(allowed(lists, "fs_read_file", origin("fs", "read_file"))).toBe(false);
    expect(allowed(lists, "move_file", origin("files", "move_file"))).toBe(true);
    expect(allowed(lists, "read_file")).toBe(true);
    const one = { allow: ["mcp__fs__read_*", "read_file"], deny: [] };
    expect(allowed(one, "fs_read_file", origin("fs", "read_file"))).toBe(true);
    expect(allowed(one, "move_file", origin("fs", "move_file"))).toBe(false);
    expect(allowed(one, "read_file")).toBe(true);
    expect(allowed({ allow: [], deny: ["mcp__*"] }, "echo", origin("everything", "echo"))).toBe(false);
    expect(allowed({ allow: [], deny: ["mcp__my_server__tool"] }, "tool", origin("my.server", "tool"))).toBe(false);
  });

  test("an entry in Claude Code's spelling keeps its servers' and tools' case (mcp__c__getTinyImage, mcp__B): it matches whatever their case", () => {
    expect(validateRules({ allow: [], deny: ["mcp__c__getTinyImage", "mcp__B"] })).toEqual([]);
    const lists = { allow: [], deny: ["mcp__c__getTinyImage", "mcp__B"] };
    expect(allowed(lists, "getTinyImage", origin("c", "getTinyImage"))).toBe(false);
    expect(allowed(lists, "echo", origin("B", "echo"))).toBe(false);
    expect(allowed(lists, "echo", origin("c", "echo"))).toBe(true);
    expect(unmatchedServers(lists, [{ name: "c" }, { name: "B" }])).toEqual([]);
  });

  test("an mcp__ entry that names no server is a configuration error that gives the spelling", () => {
    expect(validateRules({ allow: ["mcp__"], deny: ["mcp__fs__"] })).toEqual([
      '[permission] allow: "mcp__" names no MCP server: write "mcp__SERVER" for every tool of a server, "mcp__SERVER__TOOL" for one (a glob: "mcp__SERVER__read_*")',
      '[permission] deny: "mcp__fs__" names no MCP server: write "mcp__SERVER" for every tool of a server, "mcp__SERVER__TOOL" for one (a glob: "mcp__SERVER__read_*")',
    ]);
  });
});

test("an mcp__SERVER entry that names no configured server is said to match nothing (a typo would be as silent as before)", () => {
  expect(unmatchedServers({ allow: ["mcp__fs__read_*"], deny: ["mcp__fss", "mcp__*", "move_file"] }, [{ name: "fs" }, { name: "my.files" }])).toEqual([
    '[permission] deny: "mcp__fss" names no MCP server of this configuration (its servers: fs, my.files), so it matches nothing',
  ]);
  expect(unmatchedServers({ allow: [], deny: ["mcp__my_files"] }, [{ name: "my.files" }])).toEqual([]);
  expect(unmatchedServers({ allow: ["mcp__fs"], deny: [] }, [])).toEqual([
    '[permission] allow: "mcp__fs" names no MCP server of this configuration (it has none), so it matches nothing',
  ]);
});

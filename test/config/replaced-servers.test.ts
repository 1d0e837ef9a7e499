// A project's `[mcp.fs]` replaces the user's whole (x96 finding 3): that was silent, and the user's
// table, never run, was asked about all the same. The replacement is said, naming both tables, and
// the replaced table is not weighed for approval.
import { expect, test } from "bun:test";
import { NOTHING_APPROVED } from "../../src/config/guard.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { Table } from "../../src/config/table.ts";

const FLAGS = { baseUrl: "http://127.0.0.1:9/v1", model: "m" };
const layer = (source: string, toml: string, extra: object = {}) => ({ source, data: Bun.TOML.parse(toml) as Table, text: toml, ...extra });
const EVERYTHING = '[mcp.fs]\ncommand = "node"\nargs = ["everything.js"]\n';
const FILESYSTEM = '# the project\'s\n[mcp.fs]\ncommand = "node"\nargs = ["filesystem.js", "/p"]\n';

test("a project's server table of the same name replaces the user's: said with both places; the user's, never run, is not asked about", () => {
  const user = layer("/h/.config/hey/config.toml", EVERYTHING, { guard: { approved: NOTHING_APPROVED, role: "base" as const } });
  const project = layer("/p/.hey/config.toml", FILESYSTEM, { project: true });
  const resolved = resolveConfig([user, project], {}, FLAGS);
  expect(resolved.settings.mcp.servers.map((s) => s.args)).toEqual([["filesystem.js", "/p"]]);
  expect(resolved.warnings).toContain(
    "MCP server fs of /h/.config/hey/config.toml:1 is not used: the one of the same name in /p/.hey/config.toml:2 replaces it whole; give one of them another name to have both",
  );
  expect(resolved.guards.find((g) => g.source === user.source)?.widenings).toEqual([]);
});

test("a later table that only adds keys (no command or url) replaces nothing and is not said", () => {
  const user = layer("/h/.config/hey/config.toml", EVERYTHING);
  const project = layer("/p/.hey/config.toml", "[mcp.fs]\nstartup_timeout_ms = 5000\n", { project: true });
  const resolved = resolveConfig([user, project], {}, FLAGS);
  expect(resolved.warnings.filter((w) => w.includes("is not used"))).toEqual([]);
  expect(resolved.settings.mcp.servers.map((s) => s.args)).toEqual([["everything.js"]]);
});

// Where a local MCP server runs (config/server-dir.ts): a project's server in the project root,
// wherever below it hey starts; the user's own where hey starts, or its cwd as written.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { fromMcpJson } from "../../src/config/mcp-formats.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigLayer } from "../../src/config/settings.ts";

const toml = (source: string, text: string, project = false): ConfigLayer => ({ source, text, data: TOML.parse(text), ...(project ? { project: true } : {}) });
const dirs = (layers: ConfigLayer[]) => Object.fromEntries(resolveConfig(layers, {}, {}).settings.mcp.servers.map((s) => [s.name, s.cwd]));

test("a server of the project's .hey/config.toml runs in the project root, or its relative cwd from there", () => {
  const project = toml(
    "/p/.hey/config.toml",
    '[mcp.fs]\ncommand = "mcp-server-filesystem"\nargs = ["."]\n[mcp.local]\ncommand = "./tools/srv.sh"\ncwd = "tools"\n[mcp.abs]\ncommand = "x"\ncwd = "/srv"',
    true,
  );
  expect(dirs([project])).toEqual({ fs: "/p", local: "/p/tools", abs: "/srv" });
});

test("a server of the project's .mcp.json runs in the directory holding it", () => {
  const json = fromMcpJson("/p/.mcp.json", '{"mcpServers": {"srv": {"command": "./bin/srv"}, "sub": {"command": "x", "cwd": "web"}}}');
  expect(dirs([{ source: "/p/.mcp.json", data: json.data, locate: json.locate, origins: json.origins, project: true }])).toEqual({ srv: "/p", sub: "/p/web" });
});

test("the user's own servers keep hey's directory, or their cwd as written; a project table that only adds args to one does not move it", () => {
  const user = toml("/h/.config/hey/config.toml", '[mcp.mine]\ncommand = "srv"\n[mcp.there]\ncommand = "srv"\ncwd = "rel"\n[mcp.shared]\ncommand = "srv"');
  const project = toml("/p/.hey/config.toml", '[mcp.shared]\nargs = ["--verbose"]', true);
  expect(dirs([user, project])).toEqual({ mine: undefined, there: "rel", shared: undefined });
});

test("a project table that redefines a server of the user's (its command) runs it in the project root", () => {
  const user = toml("/h/.config/hey/config.toml", '[mcp.fs]\ncommand = "srv"\ncwd = "/home/me"');
  const project = toml("/p/.hey/config.toml", '[mcp.fs]\ncommand = "./srv"', true);
  expect(dirs([user, project])).toEqual({ fs: "/p" });
});

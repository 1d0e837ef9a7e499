// A [permission] deny entry naming an MCP tool keeps refusing it when another server offers a tool
// of the same name and both are offered under their prefixes (x13: `deny = ["move_file"]`, then a
// project's .mcp.json adding a second filesystem server, and the model's fs_move_file moved the
// file). A project's files only narrow the user's lists. Through dist/hey, with the real
// filesystem server from npm and a scripted model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { FS_SERVER } from "../helpers/mcp.ts";
import { resultText, type ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-deny-");
const model = eachModelServers();
const toml = (s: string) => JSON.stringify(s);
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);

test("deny = [\"move_file\"] refuses fs's move_file after a project's .mcp.json adds a second filesystem server: not offered, not run", async () => {
  await ensureBinary();
  const project = join(home.path, "shop");
  mkdirSync(project);
  const root = realpathSync(project);
  writeFileSync(join(root, "a.txt"), "apples\n");
  Bun.spawnSync(["git", "init", "-q", root]);
  writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { files: { command: "node", args: [FS_SERVER, root] } } }));
  // the model calls the prefixed name it would see after the clash, whether or not it is offered
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `result: ${resultText(last)}` };
    return { calls: [["fs_move_file", { source: join(root, "a.txt"), destination: join(root, "b.txt") }]] };
  });
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n` +
      `[permission]\ndeny = ["move_file"]\n\n[mcp.fs]\ncommand = "node"\nargs = [${toml(FS_SERVER)}, ${toml(root)}]\n`,
  );
  const run = await runHey(["--approve", "-p", "tidy up"], { env: { HOME: home.path }, cwd: root, timeoutMs: 90_000 });
  // one line for the names both servers share, the refused move_file not among them
  expect(run.stderr).toMatch(
    /^hey: MCP servers fs and files offer tools of the same names \(read_text_file, [^)]*; 11 in all\): the model sees them as fs_… and files_…$/m,
  );
  expect(run.stderr).not.toMatch(/same names.*move_file/);
  expect(existsSync(join(root, "a.txt"))).toBe(true);
  expect(existsSync(join(root, "b.txt"))).toBe(false);
  const offered = toolNames(m.requests[0]!);
  expect(offered).toContain("fs_read_text_file"); // the servers' tools are there, under their prefixes
  expect(offered).toContain("files_read_text_file");
  expect(offered.filter((n) => n.endsWith("move_file"))).toEqual([]);
  // the call by the name it would have reads the rules' refusal, not "unknown tool"
  expect(run.stdout).toBe(
    "result: blocked by permission rules: tool `fs_move_file` (MCP server fs's move_file) matches deny entry `move_file` in ~/.config/hey/config.toml:10\n",
  );

  // /mcp shows both servers' move_file left out by the rules
  const status = await runHey(["--approve", "-p", "/mcp"], { env: { HOME: home.path }, cwd: root, timeoutMs: 90_000 });
  expect(status.stdout).toContain("fs_move_file (refused by [permission])");
  expect(status.stdout).toContain("files_move_file (refused by [permission])");
});

test("a [permission] entry naming a server in Claude Code's spelling that no table defines is said to match nothing", async () => {
  await ensureBinary();
  const m = model(() => ({ text: "hi" }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[permission]\ndeny = ["mcp__fss", "mcp__fs__move_file"]\n\n[mcp.fs]\ncommand = "node"\nargs = [${toml(FS_SERVER)}, ${toml(home.path)}]\n`,
  );
  const run = await runHey(["--no-mcp", "-p", "hi"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 60_000 });
  expect(run.stdout).toBe("hi\n");
  expect(run.stderr).toContain('hey: [permission] deny: "mcp__fss" names no MCP server of this configuration (its servers: fs), so it matches nothing\n');
  expect(run.stderr).not.toContain("mcp__fs__move_file");
});

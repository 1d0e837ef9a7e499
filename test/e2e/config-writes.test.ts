// The agent's writes to hey's own config files, through dist/hey (x96 finding 1): a model that wrote
// the same `[mcp.fs]` table twice into the user config left hey unable to start in any project,
// `hey -c -p "fix it"` included. A write or edit that would leave a config file unable to load is
// refused with the loader's error (file, line), and the file stays as it was.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer, type ModelServer, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let turns: Turn[] = [];
let userConfig = "";
let base = "";
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer(() => turns.shift() ?? { text: "done" });
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  mkdirSync(join(project.path, ".git"));
  userConfig = join(home.path, ".config", "hey", "config.toml");
  base = `[default]\nprovider = "gw"\nmodel = "m"\n[provider.gw]\nbase_url = "${model.baseUrl}"\napi_key = "k"\nmodels = ["m"]\n`;
  writeFileSync(userConfig, base);
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const hey = (args: string[]) => runHey(args, { cwd: project.path, env: { HOME: home.path } });
const results = () =>
  model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));
const TABLE = `[mcp.fs]\ncommand = "node"\nargs = ["server.js"]\n`;

test("a user config with a table written twice is refused with its line; the file is unchanged and hey starts again", async () => {
  turns = [
    { calls: [["read_file", { path: userConfig }]] },
    { calls: [["write_file", { path: "~/.config/hey/config.toml", content: `${base}${TABLE}\n${TABLE}` }]] },
  ];
  const run = await hey(["-p", "add an mcp server for files"]);
  expect(run.code).toBe(0);
  const said = results()[1];
  expect(said).toContain("not written");
  expect(said).toContain(`${userConfig}:12:`);
  expect(said).toContain("table [mcp.fs] is defined twice");
  expect(readFileSync(userConfig, "utf8")).toBe(base);
  turns = [{ text: "fine" }];
  const next = await hey(["-c", "-p", "hello"]);
  expect(next.stderr).not.toContain("defined twice");
  expect(next.code).toBe(0);
});

test("an edit that breaks the user config is refused; one that keeps it loadable is made", async () => {
  turns = [
    { calls: [["read_file", { path: userConfig }]] },
    { calls: [["edit", { path: userConfig, old_string: 'model = "m"\n[provider', new_string: "model = \n[provider" }]] },
    { calls: [["edit", { path: userConfig, old_string: 'api_key = "k"', new_string: "api_key = 3" }]] },
    { calls: [["edit", { path: userConfig, old_string: 'models = ["m"]', new_string: 'models = ["m", "n"]' }]] },
  ];
  const run = await hey(["-p", "change the config"]);
  expect(run.code).toBe(0);
  const [, syntax, schema, good] = results();
  expect(syntax).toContain(`not written: hey would not load ${userConfig}`);
  expect(syntax).toContain(`${userConfig}:3:`);
  expect(schema).toContain("not written");
  expect(schema).toContain(`${userConfig}:`);
  expect(good).toStartWith("edited");
  expect(readFileSync(userConfig, "utf8")).toBe(base.replace('models = ["m"]', 'models = ["m", "n"]'));
});

test("a project's .hey/config.toml that would not load is not created, in an untrusted project too", async () => {
  const file = join(project.path, ".hey", "config.toml");
  turns = [{ calls: [["write_file", { path: ".hey/config.toml", content: `[mcp.fs]\ncommand = 3\n` }]] }];
  const run = await hey(["-p", "add a server to this project"]);
  expect(run.code).toBe(0);
  const [said] = results();
  expect(said).toContain("not written");
  expect(said).toContain(`${file}:2`);
  expect(existsSync(file)).toBe(false);
});

test("a server the agent adds to the user config under a name the trusted project's config already uses is written, and the result says it is not used", async () => {
  mkdirSync(join(project.path, ".hey"));
  const projectConfig = join(project.path, ".hey", "config.toml");
  writeFileSync(projectConfig, `[mcp.fs]\ncommand = "node"\nargs = ["project-server.js"]\n`);
  turns = [{ calls: [["read_file", { path: userConfig }]] }, { calls: [["write_file", { path: userConfig, content: `${base}${TABLE}` }]] }];
  const run = await hey(["--approve", "--no-mcp", "-p", "add an mcp server for files"]);
  expect(run.code).toBe(0);
  const said = results()[1];
  expect(said).toStartWith("overwrote");
  expect(said).toContain(`MCP server fs of ${userConfig}:8 is not used: the one of the same name in ${projectConfig}:1 replaces it whole`);
  expect(readFileSync(userConfig, "utf8")).toBe(`${base}${TABLE}`);
});

// x136 finding 1: the agent's broken .mcp.json was written, and then every start in the project exited 2, --no-mcp and -c too
const broken = '{\n  "mcpServers": {\n    "ev3": { "command": "node", "args": ["x"] \n  }\n';
test("a .mcp.json that would not load is not written, as a TOML config is not", async () => {
  const file = join(project.path, ".mcp.json");
  turns = [
    { calls: [["write_file", { path: ".mcp.json", content: broken }]] },
    { calls: [["write_file", { path: ".mcp.json", content: '{"mcpServers": {"ev3": {"command": "node", "args": "notalist"}}}' }]] },
  ];
  const run = await hey(["--approve", "-p", "add a server"]);
  expect(run.code).toBe(0);
  const [syntax, type] = results();
  expect(syntax).toContain(`not written: hey would not load ${file}`);
  expect(syntax).toContain(`${file}:5:1: not valid JSON`);
  expect(syntax).toContain("(the file is unchanged)");
  expect(type).toContain(`${file}:1: [mcp.ev3] args must be an array of strings`);
  expect(existsSync(file)).toBe(false);
});

test("a .mcp.json broken by another tool (or a bash command) costs only its servers: every start goes on, --no-mcp does not read it", async () => {
  const file = join(project.path, ".mcp.json");
  writeFileSync(file, broken);
  const starts = [["--approve", "-p", "hello"], ["--approve", "-c", "-p", "hello"], ["--approve", "--no-mcp", "-p", "hello"], ["skills"]];
  const said: string[] = [];
  for (const args of starts) {
    turns = [{ text: "fine" }];
    const next = await hey(args);
    expect(next.code).toBe(0); // before: 2, with only the JSON error
    said.push(
      next.stderr
        .split("\n")
        .filter((l) => l.includes(".mcp.json"))
        .join("\n"),
    );
  }
  const warning = `hey: ${file}:5:1: not valid JSON (Expected '}') — its MCP servers are left out until it is fixed`;
  expect(said.slice(0, 2)).toEqual([warning, warning]);
  expect(said[2]).toBe(""); // --no-mcp: not read
});

// The skill guide says what the run lets the model do (x3 #2, #6): under an allow list without
// write_file and edit it suggests a skill to the user rather than writing one; under --no-mcp it
// says servers are off, and a /reload that finds a new server says why it is not started.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { reloadNoteOf, startModelServer, systemOf, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let dir: ReturnType<typeof tempDir>;
let model: ModelServer;
const terminals: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  dir = tempDir("hey-plain-");
  model = startModelServer(() => ({ text: "ok" }));
});
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
  model.stop();
  home.remove();
  dir.remove();
});

const configFile = () => join(home.path, ".config", "hey", "config.toml");
const config = (extra = "") => {
  mkdirSync(join(configFile(), ".."), { recursive: true });
  writeFileSync(configFile(), `[default]\nprovider = "local"\nmodel = "m1"\n[provider.local]\nbase_url = "${model.baseUrl}"\nmodels = ["m1"]\n${extra}`);
};
const run = (args: string[]) => runHey(args, { cwd: dir.path, env: { HOME: home.path } });

test("under an allow list without write_file and edit the guide suggests a skill to the user; with write_file allowed it says to keep one", async () => {
  config('[permission]\nallow = ["read_file", "grep", "bash: ls *"]\n');
  expect((await run(["-p", "hi"])).code).toBe(0);
  const guide = systemOf(model.requests.at(-1)!);
  expect(guide).toContain("no tool of yours writes files: suggest one to the user.");
  expect(guide).not.toContain("Keep a procedure as a skill");
  // a fresh home: there a change that allows more would wait for the user's yes
  home.remove();
  home = tempDir("hey-home-");
  config('[permission]\nallow = ["read_file", "write_file"]\n');
  expect((await run(["-p", "hi"])).code).toBe(0);
  expect(systemOf(model.requests.at(-1)!)).toContain("Keep a procedure as a skill: ~/.config/hey/skills/<name>/SKILL.md");
});

test("--no-mcp: the guide says servers are off; a /reload that finds a new server says it is not started and why, to the user and the model", async () => {
  config();
  expect((await run(["-p", "hi", "--no-mcp"])).code).toBe(0);
  expect(systemOf(model.requests.at(-1)!)).toContain(
    "MCP servers are off in this run (--no-mcp): a server added to the config starts only in a run without it.",
  );
  expect(systemOf(model.requests.at(-1)!)).not.toContain("add an MCP server");
  const term = await startTerm({ cwd: dir.path, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" }, args: ["--no-mcp"] });
  terminals.push(term);
  await term.waitFor(/^›/m);
  config('[mcp.tiny9]\ncommand = "sh"\n');
  const why = "MCP server tiny9 is not started: MCP servers are off in this run (--no-mcp); it starts in a run without --no-mcp";
  await say(term, "/reload", why);
  await say(term, "next", "ok");
  expect(reloadNoteOf(model.requests.at(-1)!)).toContain(why);
});

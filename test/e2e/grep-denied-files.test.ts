// Through dist/hey against a loopback model, under `deny = ["grep: **/.env"]` (what hey offers for
// Claude Code's `Read(.env)`): a grep of the project finds the line in the allowed file and leaves
// every .env out — at the root, deeper down — saying how many it left out; a grep naming the .env
// itself is refused as before.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

test("deny = [\"grep: **/.env\"]: grep KEY . returns the allowed file's line and not the .env's", async () => {
  const { home, project } = scripted;
  scripted.userConfig(`[permission]\ndeny = ["grep: **/.env"]\n`);
  mkdirSync(join(project.path, "api"), { recursive: true });
  writeFileSync(join(project.path, ".env"), "KEY=root-secret-value\n");
  writeFileSync(join(project.path, "api", ".env"), "KEY=api-secret-value\n");
  writeFileSync(join(project.path, "api", "config.ts"), "export const key = env.KEY;\n");
  scripted.calls = [
    ["grep", { pattern: "KEY", path: "." }],
    ["grep", { pattern: "KEY", path: "api/.env" }],
  ];
  const run = await runHey(["-p", "where is KEY read?"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const [search, named] = scripted.results();
  expect(search).toContain("api/config.ts:1: export const key = env.KEY;");
  expect(search).toContain("[2 files not searched: the permission rules keep them from grep]");
  expect(search).not.toContain("secret-value");
  expect(named).toBe("blocked by permission rules: grep of `api/.env` matches deny entry `grep: **/.env` in ~/.config/hey/config.toml:8");
  expect(run.stdout).not.toContain("secret-value");
});

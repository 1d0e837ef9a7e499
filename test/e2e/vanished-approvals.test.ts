// The lists the user approved hold when the files behind them vanish (README "The agent never widens
// its own rules"): a config file that is gone still has its approved lists applied, said in one
// line; an approvals record removed while hey's sessions remain is no first run, so a config the
// agent wrote meanwhile is not used. A true first run stays silent. One-shot runs of dist/hey.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const userConfig = () => join(scripted.home.path, ".config", "hey", "config.toml");
const record = () => join(scripted.home.path, ".local", "state", "hey", "approvals.json");
const sessions = () => join(scripted.home.path, ".local", "state", "hey", "sessions");
const victim = () => join(scripted.project.path, "victim.txt");
const hey = (args: string[], env: Record<string, string> = {}) => runHey(args, { cwd: scripted.project.path, env: { HOME: scripted.home.path, ...env } });
/** The provider from the environment, as a run without the user config reaches the model. */
const fromEnv = () => ({ HEY_BASE_URL: scripted.model.baseUrl });

test("a deleted user config's approved deny list still holds: rm is refused, and the run says why", async () => {
  scripted.userConfig('[permission]\nallow = ["read_file", "bash: ls *", "bash: rm *"]\ndeny = ["bash: rm *"]\n');
  expect((await hey(["-p", "hi"])).code).toBe(0); // the first run records the lists
  expect(readFileSync(record(), "utf8")).toContain('"deny":["bash: rm *"]');
  rmSync(join(scripted.home.path, ".config"), { recursive: true }); // as `git clean -fdx` in ~/.config does
  writeFileSync(victim(), "keep me\n");
  scripted.calls = [["bash", { command: "rm -v victim.txt" }]];
  const r = await hey(["-m", "m1", "-p", "tidy up"], fromEnv());
  expect(r.stderr).toContain(`${userConfig()} is gone; the lists you approved there still apply; run hey at a terminal to drop them`);
  expect(scripted.results()[0]).toStartWith("blocked by permission rules:");
  expect(existsSync(victim())).toBe(true);
});

test("a deleted project .hey/config.toml's deny list still holds, trusted or not: curl is refused, and the run says why", async () => {
  scripted.userConfig("");
  const projectFile = join(scripted.project.path, ".hey", "config.toml");
  mkdirSync(join(projectFile, ".."));
  writeFileSync(projectFile, '[permission]\ndeny = ["bash: curl *"]\n');
  expect((await hey(["-p", "hi"])).code).toBe(0); // untrusted: its deny entries apply, and are recorded
  rmSync(join(projectFile, ".."), { recursive: true }); // as `git clean -fdx` at the project's root does
  scripted.calls = [["bash", { command: `curl -s ${scripted.model.baseUrl}` }]];
  const r = await hey(["-p", "fetch it"]);
  expect(r.stderr).toContain(
    `${join(realpathSync(scripted.project.path), ".hey", "config.toml")} is gone; the project's deny entries recorded there still apply`,
  );
  expect(scripted.results()[0]).toStartWith("blocked by permission rules:");
});

test("a deleted approvals record, with sessions left, is no first run: a config the agent wrote meanwhile is not used", async () => {
  scripted.userConfig('[permission]\ndeny = ["bash: rm *"]\n');
  expect((await hey(["-p", "hi"])).code).toBe(0);
  expect(existsSync(sessions())).toBe(true);
  // the agent's config: every tool allowed, no deny list; the record that knew better is gone
  writeFileSync(userConfig(), '[permission]\nallow = ["bash", "read_file"]\n');
  rmSync(record());
  writeFileSync(victim(), "keep me\n");
  scripted.calls = [["bash", { command: "rm -v victim.txt" }]];
  const r = await hey(["-m", "m1", "-p", "tidy up"], fromEnv());
  expect(r.stderr).toContain(`${record()} is missing, though hey ran here before (${sessions()}): it was removed`);
  expect(r.stderr).toContain(`not used: + [permission] allow "bash", + [permission] allow "read_file" in ${userConfig()}`);
  expect(scripted.results()[0]).toStartWith("blocked by permission rules:");
  expect(existsSync(victim())).toBe(true);
});

test("a true first run (no hey state at all) takes the config as it is, without a word", async () => {
  scripted.userConfig('[permission]\nallow = ["bash: rm *"]\n');
  writeFileSync(victim(), "gone soon\n");
  mkdirSync(join(scripted.home.path, ".cache"), { recursive: true });
  scripted.calls = [["bash", { command: "rm -v victim.txt" }]];
  const r = await hey(["-p", "tidy up"]);
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain("missing");
  expect(r.stderr).not.toContain("not used");
  expect(existsSync(victim())).toBe(false);
  expect(existsSync(record())).toBe(true);
});

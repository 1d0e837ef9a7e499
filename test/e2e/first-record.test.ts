// Day one (README, "On hey's first run the file is taken as it is"): the approvals record is first
// written by a run whose model answered — not by one that failed before (nothing listening at the
// base_url) or ran only a slash command. So a first run that never reached the model does not use
// up "the first run": the config the user writes next is taken as it is. Once a record exists, a
// base_url it does not hold is refused, naming the key only when the provider has one.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const home = eachTempDir("hey-first-record-");
let model: ModelServer;
let dead: string;
beforeEach(() => {
  model = startModelServer(() => ({ text: "answered" }));
  const gone = startModelServer(() => ({ text: "never" }));
  dead = gone.baseUrl; // a loopback port nothing listens on any more
  gone.stop();
});
afterEach(() => model.stop());

const record = () => join(home.path, ".local", "state", "hey", "approvals.json");
const local = (url: string, key = "") => `[provider.local]\nbase_url = "${url}"\nmodels = ["qwen3:14b"]\n${key}`;
const hey = (args: string[], env: Record<string, string> = {}) => runHey(args, { cwd: home.path, env: { HOME: home.path, ...env } });

test("a first run that fails before the model answers records nothing; the config written next is taken as it is", async () => {
  writeUserConfig(home.path, local(dead));
  const failed = await hey(["-p", "hi"]);
  expect(failed.code).not.toBe(0);
  expect(existsSync(record())).toBe(false);

  writeUserConfig(home.path, local(model.baseUrl));
  const r = await hey(["-p", "x"]);
  expect(r.stderr).not.toContain("not approved");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("answered");
  expect(existsSync(record())).toBe(true); // the run the model answered wrote it
});

test("a run of a slash command alone, or hey trust, records nothing; the first one the model answers does, and guards from then on", async () => {
  writeUserConfig(home.path, local(dead));
  for (const command of ["/help", "/usage", "/sessions"]) expect((await hey(["-p", command])).code).toBe(0);
  expect((await hey(["trust", "--revoke", home.path])).code).toBe(0); // trust.json holds the answer; the first record takes it
  expect(existsSync(record())).toBe(false);

  writeUserConfig(home.path, local(model.baseUrl));
  expect((await hey(["-p", "x"])).code).toBe(0);
  // recorded now: a provider added since is refused, and one with no key is not said to send one
  const other = (key = "") =>
    `[default]\nprovider = "other"\nmodel = "m"\n[provider.other]\nbase_url = "${dead}"\nmodels = ["m"]\n${key}${local(model.baseUrl)}`;
  writeUserConfig(home.path, other());
  const moved = await hey(["-p", "x"]);
  expect(moved.code).toBe(2);
  expect(moved.stderr).toContain("is not approved yet, so hey sends nothing there (the agent can write that file)");
  writeUserConfig(home.path, other('api_key = "sk-other-0123456789"\n'));
  const keyed = await hey(["-p", "x"]);
  expect(keyed.code).toBe(2);
  expect(keyed.stderr).toContain("(its requests carry the provider's key; the agent can write that file)");
});

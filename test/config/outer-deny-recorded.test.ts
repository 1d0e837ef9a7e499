// The deny entries the approvals record holds of a `.hey/config.toml` above the launch directory
// apply whatever `.git` or project root lies between (fs/places.ts withRecordedAbove, trust/start.ts):
// the agent moves those bounds with `git init ..` or a skill written in a folder with no git (x152
// #1, #2). What is said of such a file names the true reason only its deny entries apply — it is
// above the project, trusted or not (#3) — and the files named are those whose deny entries the
// run applies, each once, those dropped but still recorded too (#4).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { outerConfigs, places, projectRoot, withRecordedAbove, type Places } from "../../src/fs/places.ts";
import { rootProbe } from "../../src/fs/root-probe.ts";
import { beginConfig } from "../../src/trust/start.ts";
import { decideWidenings } from "../../src/trust/approve.ts";
import { approvalQuestion } from "../../src/trust/policy.ts";
import { tempDir } from "../helpers/e2e.ts";

describe("withRecordedAbove: the configs above the launch directory the record holds, beside outerConfigs", () => {
  const config = (dir: string) => `${dir}/.hey/config.toml`;
  test.each([
    [
      "a git root between: the recorded one above it",
      "/w/repo/web/src",
      "/w/repo/web",
      [config("/w/repo/web/src")],
      [config("/w/repo")],
      [config("/w/repo/web/src"), config("/w/repo")],
    ],
    ["no git: the recorded one above the project", "/w/notes/a", "/w/notes/a", [], [config("/w/notes")], [config("/w/notes")]],
    ["the project's own, recorded, is left out", "/w/repo/web", "/w/repo/web", [], [config("/w/repo/web")], []],
    ["never home or above it", "/h/repo/web", "/h/repo/web", [], [config("/h"), config("/")], []],
    ["none recorded: outerConfigs as they are", "/w/repo/a", "/w/repo", [config("/w/repo/a")], [], [config("/w/repo/a")]],
    ["recorded below the launch directory, or beside it: not on the way up", "/w/repo", "/w/repo", [], [config("/w/repo/web"), config("/w/other")], []],
  ])("%s", (_name, cwd, root, outer, recorded, want) => {
    expect(withRecordedAbove(outer, cwd, root, "/h", (p) => recorded.includes(p))).toEqual(want);
  });
});

let tmp: ReturnType<typeof tempDir>;
let root: string;
let web: string;
let here: Places;
let env: Record<string, string | undefined>;
const rootConfig = () => join(root, ".hey", "config.toml");
const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const record = (configs: Record<string, unknown>) => writeFileSync(here.approvalsFile, JSON.stringify({ version: 1, configs, trusted: [] }));
const DENY = '[permission]\ndeny = ["bash: echo PUSHED*"]\n';

/** Places for a start in `cwd`, as here.ts computes them. */
function placesAt(cwd: string): Places {
  const home = here?.home ?? join(realpathSync(tmp.path), "home");
  const at = projectRoot(cwd, home, rootProbe);
  return places(env, home, cwd, "linux", at, outerConfigs(cwd, at, home, rootProbe));
}

beforeEach(() => {
  tmp = tempDir("hey-outer-recorded-");
  root = join(realpathSync(tmp.path), "repo");
  web = join(root, "web");
  mkdirSync(join(root, ".git"), { recursive: true });
  write(join(web, ".hey", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: x\n---\nx\n"); // web/ is its own project
  env = { HOME: join(realpathSync(tmp.path), "home") };
  here = placesAt(web);
  write(here.userConfig, '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n');
  mkdirSync(here.stateDir, { recursive: true });
  write(rootConfig(), DENY);
});
afterEach(() => tmp.remove());

/** A one-shot start (beginConfig, no question) with its widenings decided: what it applies and says. */
async function start(at: Places, opts: { approve?: boolean; configFile?: string } = {}) {
  const said: string[] = [];
  const warn = (m: string) => said.push(m);
  const begun = await beginConfig(at, env, {}, { approve: opts.approve ?? false, configFile: opts.configFile, warn });
  if (begun === "cancelled") throw new Error("cancelled");
  const config = await decideWidenings(begun.config, undefined, warn);
  return { begun, config, said: said.join("\n") };
}

test("after `git init` of web/, the root's recorded deny entries still apply there, and the file is named and guarded", async () => {
  mkdirSync(join(web, ".git")); // what `git init -q .` in web/ leaves
  const moved = placesAt(web);
  expect(moved.outerConfigs).toEqual([]); // the walk up ends at web/ now
  record({ [rootConfig()]: { mcp: {}, deny: ["bash: echo PUSHED*"] } });
  const { begun, config } = await start(moved);
  expect(config.settings.permission.deny).toEqual(["bash: echo PUSHED*"]);
  expect(config.outerDeny).toEqual([{ file: rootConfig(), deny: ["bash: echo PUSHED*"] }]);
  expect(begun.here.outerConfigs).toEqual([rootConfig()]); // a control file too (run.ts)
});

test("a config above whose record holds no deny entries is not read: a deny list added there since does not reach past the git root", async () => {
  mkdirSync(join(web, ".git"));
  record({ [rootConfig()]: { mcp: {}, allow: ["read_file"] } });
  const { config } = await start(placesAt(web));
  expect(config.settings.permission.deny).toEqual([]);
  expect(config.outerDeny).toBeUndefined();
});

test("a deny entry dropped from the file above a trusted project: said as the file above's, not as an untrusted project's", async () => {
  record({ [rootConfig()]: { mcp: {}, deny: ["bash: echo PUSHED*"] } });
  write(rootConfig(), "[permission]\ndeny = []\n");
  const { config, said } = await start(here, { approve: true }); // web/ trusted for the run
  expect(config.settings.permission.deny).toEqual(["bash: echo PUSHED*"]);
  expect(said).toContain(
    `"bash: echo PUSHED*" in ${rootConfig()}: it drops deny entries recorded of it, which still apply; nothing else in the file is used here (it is above this project: only its deny entries apply)`,
  );
  expect(said).not.toContain("the project is not trusted");
  // still recorded: named as the file above's whose entries apply (hey doctor, the start notice)
  expect(config.outerDeny).toEqual([{ file: rootConfig(), deny: ["bash: echo PUSHED*"] }]);
  const guard = config.guards.find((g) => g.source === rootConfig());
  expect(guard?.untrusted).toBeUndefined();
  expect(guard?.outer).toBe(true);
});

test("the REPL's question for a file above names it so; gone, its deny entries are not the project's", () => {
  const file = rootConfig();
  const lines = ['- [permission] deny "bash: echo PUSHED*"'];
  expect(approvalQuestion([{ file, lines, outer: true, gone: true }])).toContain(`${file} is gone: its deny entries recorded there would no longer apply:`);
  expect(approvalQuestion([{ file, lines, outer: true }])).toContain(`${file} no longer has deny entries recorded of it:`);
});

test("`--config ../.hey/config.toml` from web/: the file is named once, and read whole as the --config file it is", async () => {
  write(rootConfig(), '[permission]\ndeny = ["bash: echo PUSHED*"]\nallow = ["read_file"]\n');
  const { config } = await start(here, { configFile: "../.hey/config.toml" });
  expect(config.outerDeny).toEqual([{ file: rootConfig(), deny: ["bash: echo PUSHED*"] }]);
  const guards = config.guards.filter((g) => g.source === rootConfig());
  expect(guards.map((g) => g.outer ?? false)).toEqual([true, false]); // the deny-only layer, then the --config file
  expect(guards[1]?.used.allow).toEqual(["read_file"]);
  expect(config.settings.permission.allow).toEqual(["read_file"]);
});

test("a recorded config above that the user deleted: its deny entries still apply past the git root until a yes, said as the file above's", async () => {
  mkdirSync(join(web, ".git"));
  record({ [rootConfig()]: { mcp: {}, deny: ["bash: echo PUSHED*"] } });
  rmSync(join(root, ".hey"), { recursive: true });
  const { config, said } = await start(placesAt(web));
  expect(config.settings.permission.deny).toEqual(["bash: echo PUSHED*"]);
  expect(said).toContain(`${rootConfig()} is gone; its deny entries recorded (it is above this project) still apply; run hey at a terminal to drop them`);
  expect(config.outerDeny).toEqual([{ file: rootConfig(), deny: ["bash: echo PUSHED*"] }]);
});

// The deny entries of every `.hey/config.toml` from the launch directory up to the git root apply,
// whichever of them is the project's and trusted or not (fs/places.ts outerConfigs, config/load.ts):
// a skill the agent writes from web/ makes web/ the project at the next start (x136), and the
// root's deny list must not leave force with it. Only the deny entries: the rest of such a file is
// the other project's. The agent cannot write the files, and a deny entry dropped from one still
// applies until the user says yes, as for an untrusted project's file.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { loadConfig } from "../../src/config/load.ts";
import { outerDenyNotice } from "../../src/config/outer-deny.ts";
import { outerConfigs, places, projectRoot, type Places } from "../../src/fs/places.ts";
import { rootProbe } from "../../src/fs/root-probe.ts";
import { beginConfig } from "../../src/trust/start.ts";
import { decideWidenings, recordApprovals } from "../../src/trust/approve.ts";
import { tempDir } from "../helpers/e2e.ts";

describe("outerConfigs: the configs from the launch directory up to the git root, or the project root when higher, the project's own left out", () => {
  // dirs: directories; files: anything else that exists (.git, a .hey/'s config.toml)
  const probe = (dirs: string[], files: string[]) => ({ isDir: (p: string) => dirs.includes(p), exists: (p: string) => files.includes(p) || dirs.includes(p) });
  const hey = (dir: string) => [`${dir}/.hey`, `${dir}/.hey/skills`];
  const config = (dir: string) => `${dir}/.hey/config.toml`;
  test.each([
    ["the project moved to web/ by its skills: the root's file", "/w/repo/web", hey("/w/repo/web"), ["/w/repo/.git"], [config("/w/repo")]],
    ["started deeper: each directory up to the root", "/w/repo/web/src", hey("/w/repo/web"), ["/w/repo/.git"], [config("/w/repo/web/src"), config("/w/repo")]],
    [
      "a package's own project below the root: the root's and those between",
      "/w/m/pk/web",
      hey("/w/m/pk/web"),
      ["/w/m/.git"],
      [config("/w/m/pk"), config("/w/m")],
    ],
    [
      "the git root is the project: the directories below it (none holds a config: it would be the project)",
      "/w/repo/a",
      [],
      ["/w/repo/.git"],
      [config("/w/repo/a")],
    ],
    ["at the git root: none", "/w/repo", [], ["/w/repo/.git"], []],
    ["never above the git root", "/w/repo/web", hey("/w/repo/web"), ["/w/repo/.git", "/w/.git"], [config("/w/repo")]],
    ["no git: up to the project root", "/w/notes/a/b", ["/w/notes/.hey"], [], [config("/w/notes/a/b"), config("/w/notes/a")]],
    ["no git, no project: none", "/w/x/y", [], [], []],
    ["never home nor above it", "/h/proj/web", hey("/h/proj/web"), ["/h/.git"], []],
    ["launched at home: none", "/h", [], ["/h/.git"], []],
  ])("%s", (_name, cwd, dirs, files, want) => {
    const p = probe(dirs, files);
    expect(outerConfigs(cwd, projectRoot(cwd, "/h", p), "/h", p)).toEqual(want);
  });
});

test("outerDenyNotice names each file from where hey started, nearest first, and is kept as the project root names them", () => {
  expect(outerDenyNotice([], { root: "/r/web", cwd: "/r/web" })).toBeUndefined();
  const fromWeb = "deny entries of ../.hey/config.toml apply too: it is above this project (/r/web)";
  expect(outerDenyNotice([{ file: "/r/.hey/config.toml" }], { root: "/r/web", cwd: "/r/web" })).toEqual({ line: fromWeb, kept: fromWeb });
  // from web/src, `../.hey/config.toml` would be web/'s own file; said once for the project all the same
  expect(outerDenyNotice([{ file: "/r/.hey/config.toml" }], { root: "/r/web", cwd: "/r/web/src" })).toEqual({
    line: "deny entries of ../../.hey/config.toml apply too: it is above this project (/r/web)",
    kept: fromWeb,
  });
  expect(outerDenyNotice([{ file: "/r/a/.hey/config.toml" }, { file: "/r/.hey/config.toml" }], { root: "/r/a/web", cwd: "/r/a/web" })?.line).toBe(
    "deny entries of ../.hey/config.toml and ../../.hey/config.toml apply too: they are above this project (/r/a/web)",
  );
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
beforeEach(() => {
  tmp = tempDir("hey-outer-deny-");
  const real = realpathSync(tmp.path);
  root = join(real, "repo");
  web = join(root, "web");
  mkdirSync(join(root, ".git"), { recursive: true });
  write(join(web, ".hey", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: x\n---\nx\n"); // the agent's skill: web/ is the project
  const home = join(real, "home");
  env = { HOME: home };
  const at = projectRoot(web, home, rootProbe);
  here = places(env, home, web, "linux", at, outerConfigs(web, at, home, rootProbe));
  write(here.userConfig, '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n\n[permission]\ndeny = ["bash: sudo *"]\n');
  mkdirSync(here.stateDir, { recursive: true });
});
afterEach(() => tmp.remove());

const load = (trustProject: boolean) => loadConfig({ env, here, trustProject, flags: {}, approvals: undefined });

test("the root's deny entries apply from web/, trusted or not; its allow list, providers and the rest do not", () => {
  expect(here.root).toBe(web);
  write(
    rootConfig(),
    '[permission]\ndeny = ["bash: echo PUSHED*", "read_file: secrets/**"]\nallow = ["bash"]\n\n[agent]\nmax_turns = 1\n\n[provider.evil]\nbase_url = "http://127.0.0.1:9/v1"\n',
  );
  for (const trusted of [false, true]) {
    const config = load(trusted);
    // a path entry names the root's files, as it does when the root is the project
    expect(config.settings.permission.deny).toEqual(["bash: sudo *", "bash: echo PUSHED*", `read_file: ${root}/secrets/**`]);
    expect(config.settings.permission.narrow).toEqual([]);
    expect(config.settings.agent.maxTurns).not.toBe(1);
    expect(config.settings.providers.map((p) => p.name)).not.toContain("evil");
    expect(config.outerDeny).toEqual([{ file: rootConfig(), deny: ["bash: echo PUSHED*", `read_file: ${root}/secrets/**`] }]);
  }
});

test("the project's own deny entries and those above it both apply; a broken file above, or one without deny entries, stops nothing", () => {
  write(rootConfig(), '[permission]\ndeny = ["bash: echo PUSHED*"]\n');
  write(here.projectConfig, '[permission]\ndeny = ["bash: git push *"]\n');
  expect(load(true).settings.permission.deny).toEqual(["bash: sudo *", "bash: echo PUSHED*", "bash: git push *"]);
  expect(load(false).settings.permission.deny).toEqual(["bash: sudo *", "bash: echo PUSHED*", "bash: git push *"]);
  write(rootConfig(), "[permission\ndeny = [");
  expect(load(true).settings.permission.deny).toEqual(["bash: sudo *", "bash: git push *"]);
  write(rootConfig(), '[permission]\nallow = ["bash"]\n');
  const config = load(false);
  expect(config.settings.permission.deny).toEqual(["bash: sudo *", "bash: git push *"]);
  expect(config.outerDeny).toBeUndefined();
});

test("the files above the project are control files the agent may not write; none below the project root is", () => {
  const below = places(env, here.home, join(root, "a"), "linux", root, [join(root, "a", ".hey", "config.toml")]);
  expect(controlFiles(here, undefined)).toContain(rootConfig());
  expect(controlFiles(below, undefined)).not.toContain(join(root, "a", ".hey", "config.toml"));
});

/** A one-shot run's start in web/ (beginConfig, no question), its widenings decided and recorded. */
async function start() {
  const said: string[] = [];
  const warn = (m: string) => said.push(m);
  const begun = await beginConfig(here, env, {}, { approve: false, configFile: undefined, warn });
  if (begun === "cancelled") throw new Error("cancelled");
  const config = await decideWidenings(begun.config, undefined, warn);
  await recordApprovals(config, begun.approvals, here.trustFile, warn, false);
  return { deny: config.settings.permission.deny, said };
}

test("a deny entry dropped from the root's file still applies from web/ until the user says yes; the rest of its record is kept", async () => {
  write(rootConfig(), '[permission]\ndeny = ["bash: echo PUSHED*"]\n');
  writeFileSync(here.approvalsFile, JSON.stringify({ version: 1, configs: {}, trusted: [] }));
  expect((await start()).deny).toContain("bash: echo PUSHED*");
  const recorded = JSON.parse(readFileSync(here.approvalsFile, "utf8")).configs[rootConfig()];
  expect(recorded.deny).toEqual(["bash: echo PUSHED*"]);
  // what the user approved of the file while the root was the project stays recorded
  const kept = { ...recorded, allow: ["read_file"] };
  writeFileSync(here.approvalsFile, JSON.stringify({ version: 1, configs: { [rootConfig()]: kept }, trusted: [] }));
  write(rootConfig(), "[permission]\ndeny = []\n");
  const run = await start();
  expect(run.deny).toContain("bash: echo PUSHED*");
  expect(run.said.join("\n")).toContain(`"bash: echo PUSHED*" in ${rootConfig()}: it drops deny entries recorded of it, which still apply`);
  expect(JSON.parse(readFileSync(here.approvalsFile, "utf8")).configs[rootConfig()]).toEqual(kept);
});

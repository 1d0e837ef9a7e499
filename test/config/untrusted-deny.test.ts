// An untrusted project's `.hey/config.toml` is not loaded, but its `[permission] deny` entries
// apply all the same (README "Trust"): they only narrow what runs, and in CI no one is there to
// trust the project. Nothing else of the file counts, and a broken file never stops hey.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { places, type Places } from "../../src/fs/places.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
let files: Places;
beforeEach(() => {
  tmp = tempDir("hey-untrusted-");
  const project = join(tmp.path, "project");
  mkdirSync(join(project, ".hey"), { recursive: true });
  files = places({}, join(tmp.path, "home"), project, "linux");
  mkdirSync(join(files.userConfig, ".."), { recursive: true });
  writeFileSync(files.userConfig, '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n\n[permission]\ndeny = ["bash: sudo *"]\n');
});
afterEach(() => tmp.remove());

const load = (trustProject: boolean) => loadConfig({ env: { HOME: files.home }, here: files, trustProject, flags: {}, approvals: undefined });

test("only the deny entries that are rules apply; allow, providers and the rest of the file do not", () => {
  writeFileSync(
    files.projectConfig,
    '[permission]\ndeny = ["bash: git push *", "rm"]\nallow = ["bash"]\n\n[agent]\nmax_turns = 1\n\n[provider.evil]\nbase_url = "http://127.0.0.1:9/v1"\n',
  );
  const config = load(false);
  expect(config.settings.permission.deny).toEqual(["bash: sudo *", "bash: git push *"]);
  expect(config.settings.permission.narrow).toEqual([]);
  expect(config.settings.agent.maxTurns).not.toBe(1);
  expect(Object.keys(config.settings.providers)).not.toContain("evil");
  expect(config.projectDeny).toEqual(["bash: git push *"]);
});

test("a file that does not parse, or has no deny entries, changes nothing and stops nothing", () => {
  writeFileSync(files.projectConfig, "[permission\ndeny = [");
  expect(load(false).settings.permission.deny).toEqual(["bash: sudo *"]);
  writeFileSync(files.projectConfig, '[permission]\nallow = ["bash"]\n');
  const config = load(false);
  expect(config.settings.permission).toMatchObject({ allow: [], deny: ["bash: sudo *"], narrow: [] });
  expect(config.projectDeny).toBeUndefined();
});

// x168 #5: a git that does not answer in time, or cannot start, is not taken for "no commit yet": the
// staged-config check says it could not tell, and a hung git is waited for once, not once per question.
import { afterAll, expect } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stagedOnly } from "../../src/fs/git-staged.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const tmp = tempDir("hey-control-staged-x168-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const project = join(root, "shop");
const config = join(project, ".hey", "config.toml");
const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: join(root, "gitconfig"), GIT_CEILING_DIRECTORIES: root };
const git = (...args: string[]) => {
  const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: project, env, stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
};

/** A repository with one commit and `.hey/config.toml` staged, not committed. */
function stagedConfig() {
  writeFileSync(join(root, "gitconfig"), "");
  mkdirSync(join(project, ".hey"), { recursive: true });
  writeFileSync(join(project, "a.ts"), "export const a = 1;\n");
  git("init", "-q", "-b", "main");
  git("add", "a.ts");
  git("commit", "-qm", "first");
  writeFileSync(config, '[permission]\ndeny = ["bash: curl *"]\n');
  git("add", ".hey/config.toml");
}

testNeeding(["bash", "git", "sleep"])("a git that never answers: the check says it could not tell in time, and asks git once", () => {
  stagedConfig();
  expect(stagedOnly(config, env)).toBe(true); // the real git: staged and in no commit
  // a git that writes down what it was asked, then hangs past the deadline
  const bin = join(root, "hung-bin");
  mkdirSync(bin, { recursive: true });
  const asked = join(root, "asked");
  writeFileSync(asked, "");
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> '${asked}'\nexec sleep 30\n`);
  chmodSync(join(bin, "git"), 0o755);
  const said = stagedOnly(config, { ...env, PATH: `${bin}:${process.env.PATH}` });
  expect(said).toEqual({ unknown: expect.stringContaining("no answer in time") });
  expect(readFileSync(asked, "utf8").trim().split("\n")).toHaveLength(1);
});

testNeeding(["git"])("a git that cannot start: the check says so, not that the config is in no commit", () => {
  stagedConfig();
  const said = stagedOnly(config, { ...env, PATH: join(root, "no-such-dir") });
  expect(said).toEqual({ unknown: expect.stringContaining("git could not start") });
});

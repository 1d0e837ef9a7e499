// r1's git findings against the real programs: each command the checker now refuses under README's
// allow entries without a deny entry does, run by sh with the real git in a fresh repository of the
// fixture, what the refusal is about: git runs a program the list does not allow (a hook from a
// directory the agent wrote, a config file's fsmonitor, an upload-pack command, a git directory's
// config the agent filled), or appends to hey's config. So the refusals are not of harmless spellings.
import { afterAll, expect } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, snapshot } from "./control-corpus.ts";

const tmp = tempDir("hey-git-r1-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const PWNED = join(root, "pwned");
const blobs = Array.from({ length: 120 }, (_, i) => `blob\nmark :${i + 1}\ndata ${String(i).length}\n${i}\n`).join("");

/** The command checked, what runs after it unchecked (the agent's later steps), and what shows it happened. */
const CASES: [command: string, then: string, happened: (home: string, before: string) => boolean][] = [
  // #2, #3: a hook in a project folder (written below as the agent would with `git checkout-index`)
  ["cd src/hk && git --config-env=core.hooksPath=PWD commit -q --allow-empty -m x", "", () => existsSync(PWNED)],
  ["git -c core.hooksPath=src/hk commit -q --allow-empty -m x", "", () => existsSync(PWNED)],
  ["export HK=src/hk; git --config-env=core.hooksPath=HK commit -q --allow-empty -m x", "", () => existsSync(PWNED)],
  // #3: a config file the agent wrote
  [`git -c include.path=${root}/f/project/src/cfg.inc status --short`, "", () => existsSync(PWNED)],
  // #4: the repository src/w/.git points to, whose config the agent then writes
  [
    "git init -q --separate-git-dir=src/ev src/w",
    `printf '[remote "o"]\\n\\turl = ..\\n\\tuploadpack = touch ${PWNED}; git-upload-pack\\n' >> src/ev/config && git -C src/w ls-remote o`,
    () => existsSync(PWNED),
  ],
  // #9, #10
  [`git ls-remote --exec='touch ${PWNED}; git-upload-pack' .`, "", () => existsSync(PWNED)],
  [`git clone -qc core.fsmonitor='touch ${PWNED}; false' . ../cl`, "git -C ../cl status --short", () => existsSync(PWNED)],
  // #14: git appends `PACK: …` lines to the file once it writes a pack (100 objects or more)
  [
    `git fast-import --quiet <<'EOF'\noption git export-pack-edges=../home/.config/hey/config.toml\n${blobs}commit refs/heads/y\ncommitter a <a@b> 0 +0000\ndata 2\nm\nM 100644 :1 f\nEOF`,
    "",
    (home, before) => readFileSync(join(home, ".config", "hey", "config.toml"), "utf8") !== before,
  ],
];

const ENV = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  // as hey runs git (git-env.ts): a bare repository git finds by itself is not used, so #4 is not that
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "safe.bareRepository",
  GIT_CONFIG_VALUE_0: "explicit",
});

testNeeding(["git", "sh"])("each git command of r1 the checker now refuses does what the refusal is about when sh runs it", () => {
  const dead: string[] = [];
  for (const [command, then, happened] of CASES) {
    const f = join(root, "f");
    rmSync(f, { recursive: true, force: true });
    rmSync(PWNED, { force: true });
    const { home, project, controls } = controlFixture(f);
    const env = ENV(home);
    mkdirSync(join(project, "src", "hk"), { recursive: true });
    writeFileSync(join(project, "src", "hk", "pre-commit"), `#!/bin/sh\ntouch ${PWNED}\n`);
    chmodSync(join(project, "src", "hk", "pre-commit"), 0o755);
    writeFileSync(join(project, "src", "cfg.inc"), `[core]\n\tfsmonitor = touch ${PWNED}; false\n`);
    writeFileSync(join(project, "src", "a.txt"), "a\n");
    for (const args of [
      ["init", "-q"],
      ["add", "src/a.txt"],
      ["commit", "-qm", "one"],
    ])
      expect(Bun.spawnSync(["git", ...args], { cwd: project, env, stdout: "ignore", stderr: "ignore" }).exitCode).toBe(0);
    const check = permissionCheck({ allow: ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"], deny: [], narrow: [] }, "bash", {
      cwd: project,
      home,
      controls,
    });
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, expect.stringMatching(/^blocked by permission rules/)]);
    const before = readFileSync(join(home, ".config", "hey", "config.toml"), "utf8");
    const kept = JSON.stringify(snapshot(controls));
    Bun.spawnSync(["sh", "-c", then ? `${command}\n${then}` : command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });
    if (!happened(home, before)) dead.push(command);
    if (!command.includes("home/") && JSON.stringify(snapshot(controls)) !== kept) dead.push(`${command}: changed a control file unexpectedly`);
  }
  expect(dead).toEqual([]);
});

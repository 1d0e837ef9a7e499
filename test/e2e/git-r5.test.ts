// r5 #7 and #8 through dist/hey and the real git: under README's allow entries without a deny
// entry, `touch` is refused and so is the `touch` a submodule's `update = !CMD` would run, from
// git's command line or from the repository's config, and nothing is touched; under README's
// whole list (`deny = ["bash: git push *"]`) `git submodule foreach git status` runs, while
// `foreach 'git push'` is refused.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;
const ALLOW = 'allow = ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"]';
const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };

/** A project whose submodule vendor/lib is checked out one commit behind the recorded one. */
function submoduleProject() {
  const env = { ...process.env, ...GIT_ENV, HOME: home.path, GIT_CONFIG_NOSYSTEM: "1" };
  const git = (cwd: string, ...args: string[]) =>
    expect(Bun.spawnSync(["git", "-c", "protocol.file.allow=always", ...args], { cwd, env, stdout: "ignore", stderr: "ignore" }).exitCode).toBe(0);
  const lib = join(home.path, "lib");
  git(home.path, "init", "-q", lib);
  git(lib, "commit", "-q", "--allow-empty", "-m", "one");
  git(lib, "commit", "-q", "--allow-empty", "-m", "two");
  git(project.path, "init", "-q");
  git(project.path, "submodule", "add", "-q", lib, "vendor/lib");
  git(project.path, "commit", "-qm", "sub");
  git(join(project.path, "vendor", "lib"), "checkout", "-q", "HEAD~1");
  return git;
}

test("under an allow list without a deny entry, a submodule's `update = !touch …` is refused as touch is, and nothing is touched", async () => {
  const git = submoduleProject();
  const pwned = join(home.path, "pwned");
  git(project.path, "config", "submodule.other.update", `!touch ${pwned}`);
  scripted.userConfig(`[permission]\n${ALLOW}\n`);
  scripted.calls = [
    ["bash", { command: `touch ${pwned}` }],
    ["bash", { command: `git -c protocol.file.allow=always -c 'submodule.vendor/lib.update=!touch ${pwned}' submodule update` }],
    ["bash", { command: "git -c protocol.file.allow=always submodule update" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: project.path, env: { HOME: home.path, ...GIT_ENV } });
  expect(run.code).toBe(0);
  const results = scripted.results();
  expect(results[0]).toContain(`\`touch ${pwned}\` matches no allow entry`);
  expect(results[1]).toContain(`sets git's submodule.vendor/lib.update, which git runs with the shell: \`touch ${pwned}\` matches no allow entry`);
  expect(results[2]).toContain(`runs submodule.other.update from git's config with the shell: \`touch ${pwned}\` matches no allow entry`);
  expect(existsSync(pwned)).toBe(false);
});

test("under README's list, `git submodule foreach git status` runs and `foreach 'git push'` is refused by `bash: git push *`", async () => {
  submoduleProject();
  scripted.userConfig(`[permission]\n${ALLOW}\ndeny = ["bash: git push *"]\n`);
  scripted.calls = [
    ["bash", { command: "git submodule foreach git status --short" }],
    ["bash", { command: "git submodule foreach 'git push'" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: project.path, env: { HOME: home.path, ...GIT_ENV } });
  expect(run.code).toBe(0);
  const results = scripted.results();
  expect(results[0]).toContain("Entering 'vendor/lib'");
  expect(results[0]).toContain("[exit code 0]");
  expect(results[1]).toContain("gives git submodule a command it runs with the shell: `git push` matches deny entry `bash: git push *`");
});

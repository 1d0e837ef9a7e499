// x111 findings 1 to 3, through dist/hey against a loopback model, under allow lists with
// write_file and `bash: git *` or `bash: cp *`: the agent built a git directory `scratch` (its
// config first, HEAD last, so no write landed in a repository), then `git --git-dir=scratch status`
// ran the config's fsmonitor; and `cp evil/.gitconfig.local ~/` put in place a config the user's
// ~/.gitconfig includes, which the next `git status` ran. Now both commands are refused and nothing
// runs; and in a worktree inside a bare clone the agent's writes land again.
import { expect, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const gitEnv = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };
const git = (cwd: string, home: string, ...args: string[]) => {
  const run = Bun.spawnSync(["git", ...args], { cwd, env: { ...gitEnv, HOME: home, PATH: process.env.PATH }, stdout: "ignore", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
};
const fsmonitor = (pwned: string) => `[core]\n\tfsmonitor = "touch ${pwned}; false"\n`;

testNeeding(["git"])("a directory the agent filled, HEAD last, may not be named with `git --git-dir`: its fsmonitor never runs", async () => {
  const project = realpathSync(scripted.project.path);
  const home = scripted.home.path;
  const pwned = join(project, "PWNED");
  git(project, home, "init", "-q");
  scripted.userConfig('[agent]\nparallel_tools = false\n[permission]\nallow = ["write_file", "read_file", "bash: git *"]\n');
  scripted.calls = [
    ["write_file", { path: "scratch/config", content: fsmonitor(pwned) }],
    ["write_file", { path: "scratch/objects/info/keep", content: "" }],
    ["write_file", { path: "scratch/refs/heads/keep", content: "" }],
    ["write_file", { path: "scratch/HEAD", content: "ref: refs/heads/main\n" }],
    ["bash", { command: "git --git-dir=scratch --work-tree=. status --short" }],
    ["bash", { command: "git status --short" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: project, env: { HOME: home, ...gitEnv } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got[4]).toContain("matches no allow entry");
  expect(got[5]).toContain("?? scratch/"); // git here uses the project's own repository
  expect(existsSync(pwned)).toBe(false); // before: the --git-dir status ran scratch/config's fsmonitor
});

testNeeding(["git"])("a copy into ~ of a file named as the config ~/.gitconfig includes is refused: git status runs nothing", async () => {
  const project = realpathSync(scripted.project.path);
  const home = scripted.home.path;
  const pwned = join(project, "PWNED");
  git(project, home, "init", "-q");
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Ana\n[include]\n\tpath = ~/.gitconfig.local\n");
  scripted.userConfig('[agent]\nparallel_tools = false\n[permission]\nallow = ["write_file", "read_file", "bash: cp *", "bash: git status *"]\n');
  scripted.calls = [
    ["write_file", { path: "evil/.gitconfig.local", content: fsmonitor(pwned) }],
    ["bash", { command: "cp evil/.gitconfig.local ~/" }],
    ["bash", { command: "git status --short" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: project, env: { HOME: home, ...gitEnv } });
  expect(run.code).toBe(0);
  expect(scripted.results()[1]).toContain("names git's own files");
  expect(existsSync(join(home, ".gitconfig.local"))).toBe(false);
  expect(existsSync(pwned)).toBe(false); // before: the copy landed and git status ran its fsmonitor
});

testNeeding(["git"])("in a worktree inside a bare clone, under a deny-only list, write_file, edit and a redirection land", async () => {
  const project = realpathSync(scripted.project.path);
  const home = scripted.home.path;
  git(project, home, "init", "-q", "src");
  writeFileSync(join(project, "src", "a.txt"), "hi\n");
  git(join(project, "src"), home, "add", "a.txt");
  git(join(project, "src"), home, "commit", "-qm", "init");
  git(project, home, "clone", "-q", "--bare", "src", "repo");
  const repo = join(project, "repo");
  git(repo, home, "worktree", "add", "-q", "main");
  const main = join(repo, "main");
  scripted.userConfig('[agent]\nparallel_tools = false\n[permission]\ndeny = ["bash: rm -rf /*"]\n');
  scripted.calls = [
    ["write_file", { path: "notes.md", content: "notes\n" }],
    ["edit", { path: "a.txt", old_string: "hi", new_string: "hello" }],
    ["bash", { command: "echo ok > out.txt" }],
    ["write_file", { path: "../config", content: "[core]\n" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: main, env: { HOME: home, ...gitEnv } });
  expect(run.code).toBe(0);
  expect(readFileSync(join(main, "notes.md"), "utf8")).toBe("notes\n");
  expect(readFileSync(join(main, "a.txt"), "utf8")).toBe("hello\n");
  expect(readFileSync(join(main, "out.txt"), "utf8")).toBe("ok\n");
  expect(scripted.results()[3]).toContain(`in ${repo}, a git directory`); // the bare clone's own config stays refused
});

// x105 findings 1 and 2, through dist/hey against a loopback model: in the "bare repository +
// worktrees" layout (`.bare` the git directory, `.git` holding `gitdir: ./.bare`, hey in the worktree
// `main`), under a list allowing only `git status`, `find *` and write_file, the agent wrote a
// `core.fsmonitor` into `../.bare/config` (by `find -fprintf` or write_file) and into the
// `~/.gitconfig.local` the user's `~/.gitconfig` includes, and the next `git status` ran it. Now each
// write is refused, the files stay as they were, and `git status` runs nothing the agent wrote.
import { expect, setDefaultTimeout } from "bun:test";
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const FSMONITOR = "[core]\\n\\tbare = true\\n\\tfsmonitor = touch PWNED; false\\n";

testNeeding(["git"])("a bare repository's config and a file ~/.gitconfig includes are refused while a list is set; git status runs nothing", async () => {
  const project = realpathSync(scripted.project.path);
  const home = scripted.home.path;
  const env = { HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };
  const git = (cwd: string, ...args: string[]) => {
    const run = Bun.spawnSync(["git", ...args], { cwd, env: { ...env, PATH: process.env.PATH }, stdout: "ignore", stderr: "pipe" });
    if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  };
  git(project, "init", "-q", "src");
  writeFileSync(join(project, "src", "a.txt"), "hi\n");
  git(join(project, "src"), "add", "a.txt");
  git(join(project, "src"), "commit", "-qm", "init");
  git(project, "clone", "-q", "--bare", "src", ".bare");
  writeFileSync(join(project, ".git"), "gitdir: ./.bare\n");
  git(project, "worktree", "add", "-q", "main");
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Ana\n[include]\n\tpath = ~/.gitconfig.local\n");
  const bareConfig = readFileSync(join(project, ".bare", "config"), "utf8");
  scripted.userConfig('[permission]\nallow = ["bash: git status *", "bash: find *", "write_file", "read_file"]\n');
  scripted.calls = [
    ["bash", { command: `find . -maxdepth 0 -fprintf ../.bare/config '${FSMONITOR}'` }],
    ["write_file", { path: "../.bare/config", content: FSMONITOR.replaceAll("\\n", "\n").replaceAll("\\t", "\t") }],
    ["bash", { command: "find . -maxdepth 0 -fprintf ~/.gitconfig.local '[core]\\n\\tfsmonitor = touch PWNED; false\\n'" }],
    ["bash", { command: "git status --short" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: join(project, "main"), env: { HOME: home, GIT_CONFIG_NOSYSTEM: "1" } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  const bare = join(project, ".bare");
  expect(got.slice(0, 3)).toEqual([
    `blocked by permission rules: \`../.bare/config\` names git's own files (git runs the commands its config and hooks name) (in ${bare}, a git directory), which the agent may not change`,
    `blocked by permission rules: ../.bare/config is git's own: in ${bare}, a git directory (git runs the commands its config and hooks name); while a permission list is set the agent may not write it`,
    `blocked by permission rules: \`~/.gitconfig.local\` names git's own files (git runs the commands its config and hooks name) (a config file git reads, included by ${join(home, ".gitconfig")}), which the agent may not change`,
  ]);
  expect(got[3]).not.toContain("PWNED");
  expect(readFileSync(join(bare, "config"), "utf8")).toBe(bareConfig);
  expect(existsSync(join(home, ".gitconfig.local"))).toBe(false);
  expect(readdirSync(join(project, "main")).filter((f) => f.includes("PWNED"))).toEqual([]);
});

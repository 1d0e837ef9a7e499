// r5 #1 and #6 through dist/hey against a loopback model, under a deny list: `ln -s ~/.config cl &&
// git clone -q . cl/git` laid a clone holding the agent's `config` on git's global config folder, and
// `ln -s PROJECT ~/.config/git` made the project's `config` git's global one; the next `git status`
// ran its fsmonitor. The link made earlier on the same line is followed now and a link at the
// guarded folder is refused: nothing lands in ~/.config/git, and git status runs nothing.
import { expect, setDefaultTimeout } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
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

testNeeding(["git", "ln"])("a clone through a link made earlier on the same line is refused: git's global config stays, its fsmonitor never runs", async () => {
  const project = realpathSync(scripted.project.path);
  const home = realpathSync(scripted.home.path);
  const pwned = join(project, "PWNED");
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "config"), `[core]\n\tfsmonitor = "touch ${pwned}; false"\n`);
  git(project, home, "init", "-q");
  git(project, home, "add", "config");
  git(project, home, "commit", "-qm", "cfg");
  scripted.userConfig('[agent]\nparallel_tools = false\n[permission]\ndeny = ["bash: curl *"]\n');
  scripted.calls = [
    ["bash", { command: "ln -s ~/.config cl && git clone -q . cl/git" }],
    ["bash", { command: "ln -s ~/.config c2 && mkdir -p c2/git && cp config c2/git/config" }],
    // r5 #6: a link at git's global config folder to the project, whose `config` git would read as its global one
    ["bash", { command: `ln -s ${project} ~/.config/git` }],
    ["bash", { command: "ln -sfn ../shared/config.js src/config.js && git status --short" }],
  ];
  const run = await runHey(["-p", "go"], { cwd: project, env: { HOME: home, ...gitEnv } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got[0]).toContain(
    "blocked by permission rules: `git clone -q . cl/git` copies files into `~/.config/git`, where they may write `~/.config/git/config`, a place hey guards (git's global config, whose settings run commands)",
  );
  expect(got[1]).toContain("blocked by permission rules: `c2/git/config` names git's own files");
  expect(got[2]).toBe(
    `blocked by permission rules: \`ln -s ${project} ~/.config/git\` makes a link at \`~/.config/git\`, which would replace \`~/.config/git/config\`, a place hey guards (git's global config, whose settings run commands) with what it points to, which the agent may not change`,
  );
  // an everyday link in the project runs, and git status after it runs no fsmonitor
  expect(got[3]).toContain("?? src/");
  expect(existsSync(join(home, ".config", "git"))).toBe(false);
  expect(existsSync(pwned)).toBe(false);
});

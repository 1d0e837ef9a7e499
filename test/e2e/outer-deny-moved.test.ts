// Through dist/hey, a sequence of runs in which the agent moves what bounds the search for configs
// above the project (x152 #1, #2): a `git init` of a package, or, with no git, a skill written from a
// subdirectory. The deny entries the approvals record holds of a config above the start directory
// keep refusing at the next start, whatever `.git` or project root now lies between.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

const DENY = '[permission]\ndeny = ["bash: echo PUSHED*"]\n';
const SKILL = "---\nname: x\ndescription: Says x. Use it for x.\n---\nSay x.\n";
const REFUSED = "blocked by permission rules: `echo PUSHED1` matches deny entry `bash: echo PUSHED*`";

testNeeding(["git"])("a `git init` of the package hey runs in leaves the root's deny entries in force at the next start", async () => {
  const root = realpathSync(scripted.project.path);
  mkdirSync(join(root, ".git"));
  write(join(root, ".hey", "config.toml"), DENY);
  write(join(root, "web", ".hey", "skills", "x", "SKILL.md"), SKILL); // web/ is its own project
  const src = join(root, "web", "src");
  mkdirSync(src);
  scripted.userConfig("");
  const hey = (args: string[]) => runHey(args, { cwd: src, env: { HOME: scripted.home.path } });

  scripted.calls = [
    ["bash", { command: "git init -q .. && echo made" }],
    ["bash", { command: "echo PUSHED0" }],
  ];
  const first = await hey(["-p", "make web a repository"]);
  expect(first.code).toBe(0);
  expect(scripted.results()[0]).toContain("made");
  expect(scripted.results()[1]).toContain("matches deny entry `bash: echo PUSHED*`");
  expect(existsSync(join(root, "web", ".git"))).toBe(true);
  // named from where the user stands (web/src), not from the project (web/): `../.hey/config.toml` would read as web's own
  expect(first.stderr).toContain(`hey: deny entries of ../../.hey/config.toml apply too: it is above this project (${join(root, "web")})`);

  // web/ is a git root now, below which the walk up ended: the record still holds the root's entries
  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  const second = await hey(["-p", "push it"]);
  expect(second.code).toBe(0);
  expect(scripted.results()).toEqual([REFUSED]);

  // said once per project, from whichever of its directories hey starts
  const fromWeb = await runHey(["-p", "push it"], { cwd: join(root, "web"), env: { HOME: scripted.home.path } });
  expect(scripted.results()).toEqual([REFUSED]);
  expect(fromWeb.stderr).not.toContain("apply too");
});

test("with no git, a skill written from a subdirectory leaves the parent's deny entries in force at the next start", async () => {
  const notes = realpathSync(scripted.project.path);
  write(join(notes, ".hey", "config.toml"), DENY);
  const a = join(notes, "a");
  mkdirSync(a);
  scripted.userConfig("");
  const hey = (args: string[]) => runHey(args, { cwd: a, env: { HOME: scripted.home.path } });

  scripted.calls = [
    ["write_file", { path: ".hey/skills/x/SKILL.md", content: SKILL }],
    ["bash", { command: "echo PUSHED0" }],
  ];
  const first = await hey(["-p", "add a skill"]);
  expect(first.code).toBe(0);
  expect(scripted.results()[0]).toStartWith("created .hey/skills/x/SKILL.md");
  expect(scripted.results()[1]).toContain("matches deny entry `bash: echo PUSHED*`");

  // a/ is the project now, and nothing bounded the walk above it but the project root
  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  const second = await hey(["-p", "push it"]);
  expect(second.code).toBe(0);
  expect(scripted.results()).toEqual([REFUSED]);
  expect(second.stderr).toContain(`deny entries of ../.hey/config.toml apply too: it is above this project (${a})`);
});

// Through dist/hey, a sequence of runs in which the agent moves what bounds the search for configs
// above the project (x152 #1, #2): a `git init` of a package, or, with no git, a skill written from a
// subdirectory. The deny entries the approvals record holds of a config above the start directory
// keep refusing at the next start, whatever `.git` or project root now lies between — also when the
// `.hey/` above is a link, and after the approvals record was removed (x156 #1, #2).
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
/** The refusal by an entry no file of this run names any more (recorded of the file above): no place to name */
const UNPLACED = "blocked by permission rules: `echo PUSHED1` matches deny entry `bash: echo PUSHED*`";
/** The refusal of `echo PUSHED1` by the root's deny entry, named with the file it is written in. */
const REFUSED = () =>
  `blocked by permission rules: \`echo PUSHED1\` matches deny entry \`bash: echo PUSHED*\` in ${realpathSync(scripted.project.path)}/.hey/config.toml`;

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
  expect(scripted.results()).toEqual([REFUSED()]);

  // said once per project, from whichever of its directories hey starts
  const fromWeb = await runHey(["-p", "push it"], { cwd: join(root, "web"), env: { HOME: scripted.home.path } });
  expect(scripted.results()).toEqual([REFUSED()]);
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
  expect(scripted.results()).toEqual([REFUSED()]);
  expect(second.stderr).toContain(`deny entries of ../.hey/config.toml apply too: it is above this project (${a})`);
});

testNeeding(["git"])("a `.hey/` that is a link (one shared by checkouts): its deny entries still apply after `git init` of the package", async () => {
  const root = realpathSync(scripted.project.path);
  mkdirSync(join(root, ".git"));
  write(join(root, "dotfiles-hey", "config.toml"), DENY);
  symlinkSync(join(root, "dotfiles-hey"), join(root, ".hey"));
  write(join(root, "web", ".hey", "skills", "x", "SKILL.md"), SKILL);
  const src = join(root, "web", "src");
  mkdirSync(src);
  scripted.userConfig("");
  const hey = (args: string[]) => runHey(args, { cwd: src, env: { HOME: scripted.home.path } });

  scripted.calls = [
    ["bash", { command: "git init -q .. && echo made" }],
    ["bash", { command: "echo PUSHED0" }],
  ];
  expect((await hey(["-p", "make web a repository"])).code).toBe(0);
  expect(scripted.results()[1]).toContain("matches deny entry `bash: echo PUSHED*`");

  // the record keys the file by its real path (dotfiles-hey/), never by the .hey/ link's
  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  const second = await hey(["-p", "push it"]);
  expect(second.code).toBe(0);
  expect(scripted.results()).toEqual([REFUSED()]);

  // the link removed (as `rm ../../.hey` would): found gone by the path it had, and its entries still apply
  rmSync(join(root, ".hey"));
  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  const unlinked = await hey(["-p", "push it"]);
  expect(scripted.results()).toEqual([UNPLACED]);
  expect(unlinked.stderr).toContain(`${join(root, ".hey", "config.toml")} is gone; its deny entries recorded (it is above this project) still apply`);
});

testNeeding(["git"])("after a removed approvals record, the deny entries above a moved git root still apply, and the rewritten record keeps them", async () => {
  const root = realpathSync(scripted.project.path);
  mkdirSync(join(root, ".git"));
  write(join(root, ".hey", "config.toml"), DENY);
  write(join(root, "web", ".hey", "skills", "x", "SKILL.md"), SKILL);
  const src = join(root, "web", "src");
  mkdirSync(src);
  scripted.userConfig("");
  const record = join(scripted.home.path, ".local", "state", "hey", "approvals.json");
  // the provider from the environment: after a removed record the user config's base_url waits for a yes
  const hey = (args: string[]) => runHey(["-m", "m1", ...args], { cwd: src, env: { HOME: scripted.home.path, HEY_BASE_URL: scripted.model.baseUrl } });

  scripted.calls = [
    ["bash", { command: "git init -q .. && echo made" }],
    ["bash", { command: "echo PUSHED0" }],
  ];
  expect((await hey(["-p", "make web a repository"])).code).toBe(0);
  rmSync(record); // the sessions are kept: hey ran here before

  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  const lost = await hey(["-p", "push it"]);
  expect(lost.stderr).toContain("approvals.json is missing");
  expect(scripted.results()).toEqual([REFUSED()]);
  expect(Object.keys(JSON.parse(readFileSync(record, "utf8")).configs)).toContain(join(root, ".hey", "config.toml"));

  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  expect((await hey(["-p", "push it"])).code).toBe(0);
  expect(scripted.results()).toEqual([REFUSED()]);
});

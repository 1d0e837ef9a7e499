// Through dist/hey started in a repository's web/ folder: a skill the agent writes relative to web/
// (`.hey/skills/x/SKILL.md`) makes web/ the project at the next start from there (x136), but the
// root's `.hey/config.toml` deny list stays in force — said once at start, named by `hey doctor`,
// and out of the agent's reach as a control file.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

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

test("a skill written from web/ moves the project to web/; the root's deny entries still refuse `echo PUSHED1` there", async () => {
  const root = realpathSync(scripted.project.path);
  mkdirSync(join(root, ".git"));
  write(join(root, ".hey", "config.toml"), DENY);
  mkdirSync(join(root, "web"));
  const web = join(root, "web");
  scripted.userConfig("");
  const hey = (args: string[]) => runHey(args, { cwd: web, env: { HOME: scripted.home.path } });

  scripted.calls = [
    ["write_file", { path: ".hey/skills/x/SKILL.md", content: SKILL }],
    ["bash", { command: "echo PUSHED0" }],
  ];
  const first = await hey(["-p", "add a skill"]);
  expect(first.code).toBe(0);
  expect(scripted.results()[0]).toStartWith("created .hey/skills/x/SKILL.md");
  expect(scripted.results()[1]).toContain("matches deny entry `bash: echo PUSHED*`");
  expect(existsSync(join(web, ".hey", "skills", "x", "SKILL.md"))).toBe(true);
  expect(first.stderr).not.toContain("apply too"); // the root is still the project: its own file

  // web/ is the project now: the root's file is above it, and its deny entries apply all the same
  write(join(web, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  scripted.calls = [
    ["bash", { command: "echo PUSHED1" }],
    ["write_file", { path: "../.hey/config.toml", content: "" }],
  ];
  const second = await hey(["-p", "push it"]);
  expect(second.code).toBe(0);
  const [pushed, emptied] = scripted.results();
  expect(pushed).toBe(REFUSED());
  expect(emptied).toStartWith("blocked by permission rules: ../.hey/config.toml is one of hey's control files"); // nor can the agent take the list away
  expect(readFileSync(join(root, ".hey", "config.toml"), "utf8")).toBe(DENY);
  const notice = `hey: deny entries of ../.hey/config.toml apply too: it is above this project (${web})`;
  expect(second.stderr).toContain(notice);
  // they are no list of the user's: Claude Code's rules, which hey does not apply, are still said
  expect(second.stderr).toContain(".claude/settings.json has Claude Code permission rules (1 deny)");

  // trusted for the run (--approve): still in force; the notice was said once for this project
  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  const third = await hey(["--approve", "-p", "push it"]);
  expect(third.code).toBe(0);
  expect(scripted.results()).toEqual([REFUSED()]);
  expect(third.stderr).not.toContain("apply too");

  // hey doctor names the file every time, beside the deny list
  const doctor = await hey(["doctor", "--base-url", "http://127.0.0.1:1/v1", "-m", "m1"]); // nothing listens there
  expect(doctor.stdout).toContain("permission: deny bash: echo PUSHED*\n");
  expect(doctor.stdout).toContain(`permission: deny entries of ../.hey/config.toml apply too: it is above this project (${web})`);
});

test("a deny entry the user drops from the root's file still refuses from web/: said as the file above's, and hey doctor names it", async () => {
  const root = realpathSync(scripted.project.path);
  mkdirSync(join(root, ".git"));
  write(join(root, ".hey", "config.toml"), DENY);
  const web = join(root, "web");
  write(join(web, ".hey", "skills", "x", "SKILL.md"), SKILL);
  scripted.userConfig("");
  const hey = (args: string[]) => runHey(args, { cwd: web, env: { HOME: scripted.home.path } });
  scripted.calls = [["bash", { command: "echo PUSHED0" }]];
  expect((await hey(["-p", "push it"])).code).toBe(0); // the root's entry recorded

  write(join(root, ".hey", "config.toml"), "[permission]\ndeny = []\n");
  scripted.calls = [["bash", { command: "echo PUSHED1" }]];
  const trusted = await hey(["--approve", "-p", "push it"]); // web/ trusted for the run
  expect(scripted.results()).toEqual([UNPLACED]);
  expect(trusted.stderr).toContain("which still apply; nothing else in the file is used here (it is above this project: only its deny entries apply)");
  expect(trusted.stderr).not.toContain("the project is not trusted");

  const doctor = await hey(["doctor", "--base-url", "http://127.0.0.1:1/v1", "-m", "m1"]); // nothing listens there
  expect(doctor.stdout).toContain("permission: deny bash: echo PUSHED*\n");
  expect(doctor.stdout).toContain(`permission: deny entries of ../.hey/config.toml apply too: it is above this project (${web})`);

  // the same file named by --config is one file, named once
  write(join(root, ".hey", "config.toml"), DENY);
  const named = await hey(["doctor", "--config", "../.hey/config.toml", "--base-url", "http://127.0.0.1:1/v1", "-m", "m1"]);
  expect(named.stdout).toContain(`permission: deny entries of ../.hey/config.toml apply too: it is above this project (${web})`);
});

// A user coming from Claude Code, Codex or opencode (README "Coming from another agent"): hey never
// applies another agent's permission rules, but says once what is there and the [permission]
// entries to write (and in `hey doctor` every time); reads the user's own ~/.claude skills and
// CLAUDE.md, a trusted project's .claude/skills; names what it leaves out; and takes other
// agents' commands and flags as what hey has instead, never sending `/cost` or `/review x` to the model.
// The user's folders of Claude Code and Codex are where CLAUDE_CONFIG_DIR and CODEX_HOME put them.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer, systemOf, textOf, type ModelServer } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  mkdirSync(join(project.path, ".git"));
  model = startModelServer(() => ({ text: "ok" }));
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const hey = (args: string[], env: Record<string, string> = {}) =>
  runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: project.path, env: { HOME: home.path, ...env } });
/** Writes `text` to `dir`/`path`, making its folders. */
function lay(dir: ReturnType<typeof tempDir>, path: string, text: string): void {
  mkdirSync(dirname(join(dir.path, path)), { recursive: true });
  writeFileSync(join(dir.path, path), text);
}
const CLAUDE_RULES = JSON.stringify({ permissions: { deny: ["Bash(rm:*)", "Read(./.env)", "Bash(curl:*)"], allow: ["Bash(git:*)"] } });

test("Claude Code's deny rules: the first run says they are not applied and the entries to write; the next one does not", async () => {
  lay(project, ".claude/settings.json", CLAUDE_RULES);
  // a hey the agent runs says them too, and leaves the user's first run its notice
  const agents = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "hi"], { cwd: project.path, env: { HOME: home.path, HEY_AGENT_SESSION: "x" } });
  // a project's file rule is anchored at the project, and Read refuses every tool that reads files
  const env = `${realpathSync(project.path)}/.env`;
  const deny = `deny = ["bash: rm *", "read_file: ${env}", "grep: ${env}", "edit: ${env}", "bash: curl *"]`;
  expect(agents.stderr).toContain(deny);
  const first = await hey(["-p", "hi"]);
  expect(first.code).toBe(0);
  expect(first.stderr).toContain(
    "hey: warning: .claude/settings.json has Claude Code permission rules (3 deny, 1 allow) that hey does not apply: with no [permission] list of its own hey runs every tool call without asking.",
  );
  expect(first.stderr).toContain(`  [permission]\n  ${deny}\n`); // a file rule is a path entry of hey's
  expect(first.stderr).not.toContain("No hey entry for");
  const second = await hey(["-p", "hi"]);
  expect(second.stderr).not.toContain("settings.json");
  // a rule added: said again
  lay(project, ".claude/settings.json", JSON.stringify({ permissions: { deny: ["Bash(rm:*)", "Bash(sudo:*)"] } }));
  expect((await hey(["-p", "hi"])).stderr).toContain('deny = ["bash: rm *", "bash: sudo *"]');
});

test("with a [permission] list of hey's own nothing is said at start; hey doctor says it every time", async () => {
  lay(home, ".claude/settings.json", CLAUDE_RULES);
  lay(home, ".config/hey/config.toml", '[permission]\ndeny = ["bash: rm *"]\n');
  const run = await hey(["-p", "hi"]);
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain("settings.json");
  for (let i = 0; i < 2; i++) {
    const doctor = await runHey(["doctor", "--base-url", model.baseUrl, "-m", "m"], { cwd: project.path, env: { HOME: home.path } });
    expect(doctor.stdout).toContain("! warning: ~/.claude/settings.json has Claude Code permission rules (3 deny, 1 allow) that hey does not apply");
    expect(doctor.stdout).toContain("and refuse the same, write in ~/.config/hey/config.toml:");
    // below the user's own list, never that hey has none
    expect(doctor.stdout).toContain("that hey does not apply: hey applies its own [permission] list alone (the one shown), not these.");
    expect(doctor.stdout).not.toContain("with no [permission] list of its own");
  }
});

test("other agents' slash commands name hey's and send nothing; a path still goes to the model", async () => {
  lay(home, ".claude/skills/review/SKILL.md", "---\nname: review\ndescription: Review code.\n---\nReview carefully.\n");
  lay(project, ".claude/commands/review-pr.md", "Review PR $ARGUMENTS\n");
  const cases: [string, string][] = [
    ["/cost", "hey: hey has no /cost; /usage shows the tokens and context of the session"],
    ["/init", "hey: hey has no /init; ask the agent to write AGENTS.md"],
    ["/status", "hey: hey has no /status; /usage shows"],
    ["/review src/main.ts", "hey: /review is no command; the skill review is /skill:review src/main.ts"],
    ["/skill review", "hey: a skill is /skill:NAME (no space): /skill:review"],
    ["/review-pr 12", "hey: /review-pr is Claude Code's command in .claude/commands/review-pr.md, which hey does not run"],
  ];
  for (const [line, said] of cases) {
    const run = await hey(["-p", line]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(said);
  }
  expect(model.requests).toHaveLength(0);
  const path = await hey(["-p", "/etc/hosts is broken"]);
  expect(path.code).toBe(0);
  expect(textOf(model.requests[0]!.messages.at(-1))).toBe("/etc/hosts is broken");
});

test("another agent's command that takes no arguments is prose with words after it; one that takes them is answered with hey's", async () => {
  const prose = ["/status endpoint returns 500", "/login page is blank", "/memory leak in the worker", "/cost calculation in billing.py is off"];
  for (const line of prose) {
    const run = await hey(["-p", line]);
    expect(run.code).toBe(0);
    expect(textOf(model.requests.at(-1)!.messages.at(-1))).toBe(line);
  }
  const sent = model.requests.length;
  for (const [line, said] of [
    ["/add-dir ../x", "hey: hey has no /add-dir; its tools reach any path"],
    ["/bug it crashes", "hey: hey has no /bug;"],
    ["/upgrade", "hey: hey has no /upgrade; run hey upgrade in a shell"],
  ]) {
    const run = await hey(["-p", line!]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(said!);
  }
  expect(model.requests).toHaveLength(sent);
});

test("another agent's flag names hey's; PROVIDER:MODEL is taken as PROVIDER/MODEL", async () => {
  const exec = await runHey(["exec", "fix the tests"], { cwd: project.path, env: { HOME: home.path } });
  expect(exec.code).toBe(2);
  expect(exec.stderr).toContain('hey has no exec command (Codex\'s); a one-shot run is hey -p "fix the tests"');
  expect(model.requests).toHaveLength(0);
  const flag = await hey(["--output-format", "json", "-p", "hi"]);
  expect(flag).toMatchObject({ code: 2 });
  expect(flag.stderr).toContain("unknown flag --output-format; hey's is --output json (or --output text)");
  lay(home, ".config/hey/config.toml", `[provider.local]\nbase_url = "${model.baseUrl}"\nmodels = ["small"]\n`);
  const run = await runHey(["-m", "local:big", "-p", "hi"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("-m local:big: hey writes PROVIDER/MODEL; using local/big");
  expect(model.requests[0]!.model).toBe("big");
});

test("the user's ~/.claude skills and CLAUDE.md are read; a trusted project's .claude/skills loads, an untrusted one's is pointed at", async () => {
  lay(home, ".claude/CLAUDE.md", "Always answer in French.\n");
  lay(home, ".claude/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy the app.\n---\nRun make deploy.\n");
  lay(project, ".claude/skills/lint/SKILL.md", "---\nname: lint\ndescription: Lint the code.\n---\nRun make lint.\n");
  const run = await hey(["-p", "/skill:deploy now"]);
  expect(run.code).toBe(0);
  const system = systemOf(model.requests[0]!);
  expect(system).toContain("Always answer in French.");
  expect(system).toContain("- deploy: Deploy the app.");
  expect(textOf(model.requests[0]!.messages.at(-1))).toContain("Run make deploy.");
  expect(run.stderr).toContain("not loaded: .claude/skills/ (this project is not trusted");
  const untrusted = await hey(["-p", "/lint src"]);
  expect(untrusted.code).toBe(2);
  expect(untrusted.stderr).toContain(
    "hey: /lint is no command; /skill:lint would run .claude/skills/lint/SKILL.md, but this project's .claude/skills/ is not loaded",
  );
  const trusted = await hey(["--approve", "-p", "/skill:lint src"]);
  expect(trusted.code).toBe(0);
  expect(textOf(model.requests.at(-1)!.messages.at(-1))).toContain("Run make lint.");
});

test("instruction files hey does not read are named once, with why", async () => {
  lay(home, ".config/hey/AGENTS.md", "mine\n");
  lay(home, ".codex/AGENTS.md", "codex rules\n");
  lay(project, "CLAUDE.local.md", "local rules\n");
  const first = await hey(["-p", "hi"]);
  expect(first.stderr).toContain("hey: not read: ~/.codex/AGENTS.md (another agent's; hey reads one file of your rules, ~/.config/hey/AGENTS.md)");
  expect(first.stderr).toContain("hey: not read: CLAUDE.local.md (Claude Code's personal file; hey reads AGENTS.md, else CLAUDE.md)");
  expect(systemOf(model.requests[0]!)).not.toContain("codex rules");
  expect((await hey(["-p", "hi"])).stderr).not.toContain("not read");
});

test("with Codex's and Claude's rules and none of hey's, the one not read points to hey's own file, not the other agent's", async () => {
  lay(home, ".codex/AGENTS.md", "codex rules\n");
  lay(home, ".claude/CLAUDE.md", "claude rules\n");
  const run = await hey(["-p", "hi"]);
  expect(run.stderr).toContain(
    "hey: not read: ~/.claude/CLAUDE.md (another agent's; hey reads one file of your rules, ~/.codex/AGENTS.md): copy what hey should follow of both into ~/.config/hey/AGENTS.md, which hey then reads instead",
  );
});

test("outside git, a CLAUDE.md above where hey starts is named with where to start instead", async () => {
  rmSync(join(project.path, ".git"), { recursive: true });
  lay(project, "CLAUDE.md", "root rules\n");
  lay(project, "sub/notes.txt", "x\n");
  const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "hi"], { cwd: join(project.path, "sub"), env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    `hey: not read: ${join(project.path, "CLAUDE.md")} (above where hey runs, and there is no git repository: hey reads instructions from the git root down to here): start hey in ${project.path}, or git init there`,
  );
  expect(systemOf(model.requests[0]!)).not.toContain("root rules");
});

test("a project's lines that are no fault of the run — a recorded no, imports left out, a skill replaced — are said once until they change; hey doctor still shows them", async () => {
  lay(project, ".claude/skills/lint/SKILL.md", "---\nname: lint\ndescription: Lint the code.\n---\nRun make lint.\n");
  lay(project, "CLAUDE.md", "Rules.\nSee @docs/missing.md and @docs/gone.md.\n");
  lay(home, ".claude/skills/review/SKILL.md", "---\nname: review\ndescription: Review code.\n---\nReview.\n");
  lay(home, ".config/hey/skills/review/SKILL.md", "---\nname: review\ndescription: Review code, mine.\n---\nReview mine.\n");
  const revoke = await runHey(["trust", "--revoke"], { cwd: project.path, env: { HOME: home.path } });
  expect(revoke.code).toBe(0);
  const said = [
    "not loaded: .claude/skills/ (you said no in",
    "CLAUDE.md:2: @docs/missing.md: no such file",
    "CLAUDE.md:2: @docs/gone.md: no such file",
    'skill "review" replaces the one in',
  ];
  const first = await hey(["-p", "hi"]);
  expect(first.code).toBe(0);
  for (const line of said) expect(first.stderr).toContain(line);
  const second = await hey(["-p", "hi"]);
  expect(second.code).toBe(0);
  for (const line of said) expect(second.stderr).not.toContain(line);
  // an import changed: that one is said again, the others not
  lay(project, "CLAUDE.md", "Rules.\nSee @docs/missing.md and @docs/other.md.\n");
  const third = await hey(["-p", "hi"]);
  expect(third.stderr).toContain("CLAUDE.md:2: @docs/other.md: no such file");
  expect(third.stderr).not.toContain("@docs/missing.md");
  expect(third.stderr).not.toContain("you said no");
  const doctor = await runHey(["doctor", "--base-url", model.baseUrl, "-m", "m"], { cwd: project.path, env: { HOME: home.path } });
  expect(doctor.stdout).toContain("CLAUDE.md:2: @docs/missing.md: no such file");
  expect(doctor.stdout).toContain('skill "review" replaces the one in');
  expect(doctor.stdout).toContain("not trusted: .claude/skills/ left out");
});

test("the project's settings.json and settings.local.json give one [permission] table to paste, not two", async () => {
  lay(project, ".claude/settings.json", JSON.stringify({ permissions: { deny: ["Bash(rm:*)", "Edit"] } }));
  lay(project, ".claude/settings.local.json", JSON.stringify({ permissions: { ask: ["Bash(git push:*)", "Bash(rm:*)"] } }));
  const run = await hey(["-p", "hi"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    "hey: warning: .claude/settings.json and .claude/settings.local.json have Claude Code permission rules (2 deny, 2 ask) that hey does not apply",
  );
  expect(run.stderr.split("  [permission]\n")).toHaveLength(2); // one table
  expect(run.stderr).toContain('  deny = ["bash: rm *", "edit", "write_file", "bash: git push *"]\n');
});

test("Claude Code's allow list alone (it asks about the rest) is said with hey's allow list; pasted, `rm -rf build` is refused instead of run", async () => {
  lay(home, ".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(git status)", "Bash(npm test:*)", "Read", "Edit"] } }));
  lay(project, "build/out.js", "x\n");
  model.stop();
  model = startModelServer((req) => (req.messages.at(-1)?.role === "tool" ? { text: "done" } : { calls: [["bash", { command: "rm -rf build" }]] }));
  const first = await hey(["-p", "clean"]);
  expect(first.stderr).toContain(
    "hey: warning: ~/.claude/settings.json has Claude Code permission rules (4 allow) that hey does not apply: with no [permission] list of its own hey runs every tool call without asking.",
  );
  const allow = 'allow = ["bash: git status $", "bash: npm test *", "read_file", "grep", "edit", "write_file", "compress"]';
  expect(first.stderr).toContain(
    `  To run only what they allow (hey cannot ask: what the list leaves out is refused), write in ~/.config/hey/config.toml:\n  [permission]\n  ${allow}\n`,
  );
  expect((await hey(["-p", "hi"])).stderr).not.toContain("settings.json"); // once
  lay(project, "build/out.js", "x\n");
  lay(home, ".config/hey/config.toml", `[permission]\n${allow}\n`);
  const pasted = await hey(["-p", "clean"]);
  expect(pasted.code).toBe(0);
  expect(pasted.stderr).not.toContain("blocked;"); // the list leaves none of hey's tools out by surprise
  expect(resultText(model.requests.at(-1)!.messages.at(-1))).toContain("blocked by permission rules");
  expect(existsSync(join(project.path, "build/out.js"))).toBe(true);
});

test('Codex\'s approval_policy = "untrusted" is said once with the closest [permission] list: hey asks about nothing', async () => {
  lay(home, ".codex/config.toml", 'model = "o3"\napproval_policy = "untrusted"\n');
  const first = await hey(["-p", "hi"]);
  expect(first.code).toBe(0);
  expect(first.stderr).toContain(
    'hey: warning: ~/.codex/config.toml has Codex\'s approval_policy = "untrusted", which hey does not apply: hey never asks, and with no [permission] list of its own it runs every tool call.\n  Closest, reading only, in ~/.config/hey/config.toml:\n  [permission]\n  allow = ["read_file", "grep", "compress", "bash: ls", "bash: cat", "bash: head", "bash: tail", "bash: wc", "bash: git status", "bash: git diff", "bash: git log", "bash: git show", "find_tools"]\n',
  );
  expect((await hey(["-p", "hi"])).stderr).not.toContain("codex");
  const doctor = await runHey(["doctor", "--base-url", model.baseUrl, "-m", "m"], { cwd: project.path, env: { HOME: home.path } });
  expect(doctor.stdout).toContain("! warning: ~/.codex/config.toml has Codex's approval_policy");
});

test("CODEX_HOME and CLAUDE_CONFIG_DIR move the user's Codex and Claude Code folders: hey reads them there and names the files where they are", async () => {
  const dots = tempDir("hey-dots-"); // a dotfiles folder outside the home directory
  try {
    const moved = { CODEX_HOME: join(home.path, ".config", "codex"), CLAUDE_CONFIG_DIR: join(dots.path, "claude") };
    lay(home, ".config/codex/AGENTS.md", "Codex rules from CODEX_HOME.\n");
    lay(dots, "claude/CLAUDE.md", "Claude rules from CLAUDE_CONFIG_DIR.\n");
    lay(dots, "claude/skills/x/SKILL.md", "---\nname: x\ndescription: The moved skill.\n---\nDo x.\n");
    lay(dots, "claude/settings.json", JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
    lay(dots, "claude/commands/review-pr.md", "Review PR $ARGUMENTS\n");
    lay(home, ".config/codex/config.toml", 'approval_policy = "untrusted"\n');
    // what the folders held before they moved: not the user's setup any more
    lay(home, ".codex/AGENTS.md", "stale codex rules\n");
    lay(home, ".claude/skills/stale/SKILL.md", "---\nname: stale\ndescription: Left behind.\n---\nOld.\n");
    const run = await hey(["-p", "/skill:x now"], moved);
    expect(run.code).toBe(0);
    const system = systemOf(model.requests[0]!);
    expect(system).toContain("Codex rules from CODEX_HOME.");
    expect(system).toContain("- x: The moved skill.");
    expect(system).not.toContain("stale");
    expect(textOf(model.requests[0]!.messages.at(-1))).toContain("Do x.");
    const claude = join(dots.path, "claude");
    const said = [
      `not read: ${claude}/CLAUDE.md (another agent's; hey reads one file of your rules, ~/.config/codex/AGENTS.md)`,
      `warning: ${claude}/settings.json has Claude Code permission rules (1 deny) that hey does not apply`,
      'warning: ~/.config/codex/config.toml has Codex\'s approval_policy = "untrusted"',
      `not used: Claude Code's commands in ${claude}/commands/ (review-pr)`,
    ];
    for (const line of said) expect(run.stderr).toContain(`hey: ${line}`);
    const command = await hey(["-p", "/review-pr 12"], moved);
    expect(command.stderr).toContain(`hey: /review-pr is Claude Code's command in ${claude}/commands/review-pr.md, which hey does not run`);
    const doctor = await runHey(["doctor", "--base-url", model.baseUrl, "-m", "m"], { cwd: project.path, env: { HOME: home.path, ...moved } });
    for (const line of said.slice(1)) expect(doctor.stdout).toContain(line);
    // a relative value names no folder (it would be another one in every directory): the home folders, as before
    const relative = await hey(["-p", "hi"], { CODEX_HOME: "codex", CLAUDE_CONFIG_DIR: "~/.config/claude" });
    expect(relative.code).toBe(0);
    expect(systemOf(model.requests.at(-1)!)).toContain("stale codex rules");
    expect(relative.stderr).toContain(
      "hey: CODEX_HOME=codex is not a full path (relative, it names another folder in each directory): hey reads your Codex files in ~/.codex/ instead; set CODEX_HOME to one",
    );
    expect(relative.stderr).toContain(
      "hey: CLAUDE_CONFIG_DIR=~/.config/claude is not a full path (a shell expands ~ only when it is not quoted): hey reads your Claude Code files in ~/.claude/ instead",
    );
    const again = await runHey(["doctor", "--base-url", model.baseUrl, "-m", "m"], { cwd: project.path, env: { HOME: home.path, CODEX_HOME: "codex" } });
    expect(again.stdout).toContain("CODEX_HOME=codex is not a full path");
  } finally {
    dots.remove();
  }
});

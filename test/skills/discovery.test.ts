// Finding skills on disk (SPEC §12, §24): the six folders (Claude Code's too) and their precedence, project folders
// only when trusted, folder skills and root .md files, what is not a skill, problems collected.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  byPrecedence,
  fillSkillVariables,
  findSkill,
  offeredSkillNames,
  parseSkillCommand,
  skillChanges,
  skillCutNote,
  skillMessage,
  typedSkillLine,
  unknownSkill,
} from "../../src/skills/catalog.ts";
import type { Skill } from "../../src/skills/frontmatter.ts";
import { loadSkills, skillFolders } from "../../src/skills/load.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
let home: string;
let cwd: string;
beforeEach(() => {
  tmp = tempDir("hey-skills-");
  home = join(tmp.path, "home");
  cwd = join(tmp.path, "project");
  mkdirSync(cwd, { recursive: true });
});
afterEach(() => tmp.remove());

const configDir = () => join(home, ".config", "hey");
const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`;
function put(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}
const folders = (project: boolean, claudeDir = join(home, ".claude")) => skillFolders({ home, claudeDir, configDir: configDir(), root: cwd, project });
const dirs = (project: boolean) => folders(project).map((f) => f.dir);

describe("the six folders", () => {
  test("in precedence order, the project's three only when trusted", () => {
    expect(dirs(true)).toEqual([
      join(home, ".claude", "skills"),
      join(home, ".agents", "skills"),
      join(configDir(), "skills"),
      join(cwd, ".claude", "skills"),
      join(cwd, ".agents", "skills"),
      join(cwd, ".hey", "skills"),
    ]);
    expect(folders(false)).toEqual(folders(true).slice(0, 3));
    // a project's skills must really be in the project; the user's own may be links anywhere
    const within = realpathSync(cwd);
    expect(folders(true).map((f) => f.within)).toEqual([undefined, undefined, undefined, within, within, within]);
  });

  test("Claude Code's folder moved (CLAUDE_CONFIG_DIR): the user's skills come from there, the project's .claude/skills stays in the project", () => {
    const moved = join(home, ".config", "claude");
    put(join(moved, "skills", "deploy", "SKILL.md"), skill("deploy", "from the moved folder"));
    put(join(home, ".claude", "skills", "stale", "SKILL.md"), skill("stale", "left behind"));
    put(join(cwd, ".claude", "skills", "lint", "SKILL.md"), skill("lint", "the project's"));
    expect(folders(true, moved).map((f) => f.dir)).toEqual([join(moved, "skills"), ...dirs(true).slice(1)]);
    expect(loadSkills(folders(true, moved)).skills.map((s) => [s.name, s.description])).toEqual([
      ["deploy", "from the moved folder"],
      ["lint", "the project's"],
    ]);
  });

  test("a later folder wins a name, with a warning naming both files; other skills from every folder stay", () => {
    const [, agentsUser, heyUser, , agentsProject, heyProject] = dirs(true);
    put(join(agentsUser!, "tidy", "SKILL.md"), skill("tidy", "from ~/.agents"));
    put(join(heyUser!, "tidy", "SKILL.md"), skill("tidy", "from ~/.config/hey"));
    put(join(agentsProject!, "tidy", "SKILL.md"), skill("tidy", "from .agents"));
    put(join(heyProject!, "tidy", "SKILL.md"), skill("tidy", "from .hey"));
    put(join(agentsUser!, "only-user", "SKILL.md"), skill("only-user", "u"));
    put(join(agentsProject!, "only-project", "SKILL.md"), skill("only-project", "p"));
    const got = loadSkills(folders(true));
    expect(got.skills.map((s) => [s.name, s.description])).toEqual([
      ["only-project", "p"],
      ["only-user", "u"],
      ["tidy", "from .hey"],
    ]);
    const file = (dir: string) => join(dir, "tidy", "SKILL.md");
    expect(got.problems).toEqual([
      { level: "note", message: `${file(heyUser!)}: skill "tidy" replaces the one in ${file(agentsUser!)}`, replaced: file(agentsUser!) },
      { level: "note", message: `${file(agentsProject!)}: skill "tidy" replaces the one in ${file(heyUser!)}`, replaced: file(heyUser!) },
      { level: "note", message: `${file(heyProject!)}: skill "tidy" replaces the one in ${file(agentsProject!)}`, replaced: file(agentsProject!) },
    ]);
    // untrusted: the user's own win, the project's are not even read
    expect(loadSkills(folders(false)).skills.map((s) => [s.name, s.description])).toEqual([
      ["only-user", "u"],
      ["tidy", "from ~/.config/hey"],
    ]);
  });
});

describe("what a skills folder holds", () => {
  test("folder skills, root .md files with frontmatter, linked folders; not READMEs, dotfiles or folders without SKILL.md", () => {
    const dir = join(cwd, ".hey", "skills");
    put(join(dir, "a-folder", "SKILL.md"), skill("a-folder", "folder"));
    put(join(dir, "loose.md"), skill("loose", "root file"));
    put(join(dir, "README.md"), "# My skills\n\nNotes about them.\n");
    put(join(dir, ".hidden", "SKILL.md"), skill("hidden", "no"));
    put(join(dir, "no-skill", "notes.txt"), "nothing here");
    put(join(tmp.path, "elsewhere", "linked", "SKILL.md"), skill("linked", "through a link"));
    symlinkSync(join(tmp.path, "elsewhere", "linked"), join(dir, "linked"));
    const got = loadSkills([dir]);
    expect(got.skills.map((s) => [s.name, s.description, s.path])).toEqual([
      ["a-folder", "folder", join(dir, "a-folder", "SKILL.md")],
      ["linked", "through a link", join(dir, "linked", "SKILL.md")],
      ["loose", "root file", join(dir, "loose.md")],
    ]);
    expect(got.problems).toEqual([]);
  });

  test("in a project, a skill that is a link to a file outside it is left out with a warning; a link inside it is fine", () => {
    const dir = join(cwd, ".hey", "skills");
    put(join(tmp.path, "secrets", "credentials.md"), "---\nname: credentials\ndescription: AKIA… the keys\n---\n");
    put(join(tmp.path, "elsewhere", "linked", "SKILL.md"), skill("linked", "through a link"));
    put(join(cwd, ".claude", "skills", "shared", "SKILL.md"), skill("shared", "kept for two agents"));
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(tmp.path, "secrets", "credentials.md"), join(dir, "credentials.md"));
    symlinkSync(join(tmp.path, "elsewhere", "linked"), join(dir, "linked"));
    symlinkSync(join(cwd, ".claude", "skills", "shared"), join(dir, "shared"));
    const got = loadSkills(folders(true));
    expect(got.skills.map((s) => s.name)).toEqual(["shared"]);
    const real = (p: string) => realpathSync(join(tmp.path, p));
    expect(got.problems).toEqual([
      {
        level: "warning",
        message: `${join(dir, "credentials.md")} is a link to ${real("secrets/credentials.md")}, outside the project; left out`,
        userOnly: true,
      },
      {
        level: "warning",
        message: `${join(dir, "linked", "SKILL.md")} is a link to ${real("elsewhere/linked/SKILL.md")}, outside the project; left out`,
        userOnly: true,
      },
    ]);
  });

  test("a root .md file without frontmatter is no skill, and a warning says so (SPEC §12); a README is left alone", () => {
    const dir = join(cwd, ".hey", "skills");
    put(join(dir, "deploy.md"), "# Deploy\n\nRun make deploy.\n");
    put(join(dir, "Readme.md"), "# notes\n");
    const got = loadSkills([dir]);
    expect(got.skills).toEqual([]);
    expect(got.problems).toEqual([
      { level: "warning", message: `${join(dir, "deploy.md")}: no frontmatter (--- name and description ---), so it is not a skill; left out` },
    ]);
  });

  test("missing folders are fine; broken skills are errors, odd ones warnings, and the rest still load", () => {
    const dir = join(configDir(), "skills");
    put(join(dir, "ok", "SKILL.md"), skill("ok", "fine"));
    put(join(dir, "broken", "SKILL.md"), "---\nname: broken\ndescription: a: b\n---\n");
    put(join(dir, "odd", "SKILL.md"), skill("Odd", "upper case"));
    mkdirSync(join(dir, "unreadable", "SKILL.md"), { recursive: true }); // a directory named SKILL.md is not a file: ignored
    const got = loadSkills([join(tmp.path, "missing"), dir]);
    expect(got.skills.map((s) => s.name)).toEqual(["odd", "ok"]); // a title-like name runs by its folder (x45 finding 4)
    expect(got.problems.map((p) => [p.level, p.message])).toEqual([
      [
        "error",
        `${join(dir, "broken", "SKILL.md")}:3: broken YAML frontmatter: Unexpected token; the value of description holds ": ", so quote it: description: "a: b"; left out`,
      ],
    ]);
  });
});

describe("catalog", () => {
  const s = (name: string, description = "d", path = `/s/${name}.md`): Skill => ({ name, description, path });

  test("byPrecedence sorts by name", () => {
    expect(byPrecedence([s("b"), s("a"), s("c")]).skills.map((x) => x.name)).toEqual(["a", "b", "c"]);
  });

  test("skillChanges: added, changed (description or file), removed", () => {
    expect(skillChanges([s("a"), s("b"), s("c")], [s("a"), s("b", "new"), s("c", "d", "/t/c.md"), s("d")])).toEqual(["~ skill b", "~ skill c", "+ skill d"]);
    expect(skillChanges([s("a")], [])).toEqual(["- skill a"]);
  });

  test.each([
    ["/skill:deploy", { name: "deploy", args: "" }],
    ["/skill:deploy  to staging\nnow", { name: "deploy", args: "to staging\nnow" }],
    ["  /skill:x y", { name: "x", args: "y" }],
    ["/skill:", { name: "", args: "" }],
    ["/skills", undefined],
    ["deploy /skill:x", undefined],
  ])("parseSkillCommand(%p)", (line, want) => {
    expect(parseSkillCommand(line)).toEqual(want);
  });

  test("unknownSkill names the known ones", () => {
    expect(unknownSkill("x", [s("a"), s("b")])).toBe('no skill named "x"; skills: a, b');
    expect(unknownSkill("x", [])).toBe('no skill named "x"; none are loaded');
    expect(unknownSkill("", [s("a")])).toBe("/skill:NAME needs a skill name (a)");
    // x45 finding 4: a title typed whole said `no skill named "Generating"` and listed the title, which could not be typed either
    const helper: Skill = { ...s("commit-helper"), title: "Generating Commit Messages" };
    expect(unknownSkill("Generating", [s("a"), helper])).toBe(
      'no skill named "Generating"; the skill titled "Generating Commit Messages" is /skill:commit-helper',
    );
  });

  test("skillMessage: the file with its path, CRLF cleaned, a cut noted, closed by </skill>", () => {
    expect(skillMessage(s("a", "d", "/s/a/SKILL.md"), "\uFEFFline 1\r\nline 2\r\n", false)).toBe(
      'Use the skill "a" (/s/a/SKILL.md):\n\n<skill>\nline 1\nline 2\n</skill>',
    );
    expect(skillMessage(s("a", "d", "/s/a/SKILL.md"), "part", skillCutNote("/s/a/SKILL.md", "part\n", 2048))).toBe(
      'Use the skill "a" (/s/a/SKILL.md):\n\n<skill>\npart\n[cut here: the first 1 KB of 2 KB were sent; read_file /s/a/SKILL.md with offset 2 for the rest]\n</skill>',
    );
  });

  // x45 finding 5: Claude Code's variables were sent as written: `gh issue view $ARGUMENTS` ran with no number, `${CLAUDE_SKILL_DIR}/x.sh` as `/x.sh`
  test("skillMessage fills in $ARGUMENTS, $ARGUMENTS[N] and ${CLAUDE_SKILL_DIR} from the args and the skill's folder", () => {
    const body =
      "Fix issue $ARGUMENTS.\n`gh issue view $ARGUMENTS[0]` then $ARGUMENTS[1], $ARGUMENTS[5].\nRun ${CLAUDE_SKILL_DIR}/scripts/check.sh or $CLAUDE_SKILL_DIR/x";
    expect(skillMessage(s("fix-issue", "d", "/h/.claude/skills/fix-issue/SKILL.md"), body, false, '4711 "high priority"')).toBe(
      'Use the skill "fix-issue" (/h/.claude/skills/fix-issue/SKILL.md):\n\n<skill>\n' +
        'Fix issue 4711 "high priority".\n`gh issue view 4711` then high priority, .\n' +
        "Run /h/.claude/skills/fix-issue/scripts/check.sh or /h/.claude/skills/fix-issue/x\n</skill>",
    );
  });

  test("fillSkillVariables: no args make $ARGUMENTS empty; $0, $1, $ARGUMENTSX and $CLAUDE_SKILL_DIRS are left alone; a $ in the args stays as typed", () => {
    expect(fillSkillVariables("[$ARGUMENTS] awk '{print $1}' $0 $ARGUMENTSX $CLAUDE_SKILL_DIRS", "", "/s/a/SKILL.md")).toBe(
      "[] awk '{print $1}' $0 $ARGUMENTSX $CLAUDE_SKILL_DIRS",
    );
    expect(fillSkillVariables("echo $ARGUMENTS", "$& $1 $$", "/s/a.md")).toBe("echo $& $1 $$");
    expect(fillSkillVariables("${CLAUDE_SKILL_DIR}/x", "", "/s/notes.md")).toBe("/s/x"); // a root .md file: the folder it is in
  });

  // x45 finding 4: `/skill:commit-helper` said no skill named "commit-helper" for `name: Generating Commit Messages` in commit-helper/
  test("findSkill: by name, then by its other names (folder, title's slug), then in any letter case", () => {
    const helper: Skill = {
      name: "commit-helper",
      title: "Generating Commit Messages",
      aliases: ["generating-commit-messages"],
      description: "d",
      path: "/s/commit-helper/SKILL.md",
    };
    const ship: Skill = { name: "ship", aliases: ["deploy"], description: "d", path: "/s/deploy/SKILL.md" };
    const deploy = s("deploy");
    const all = [helper, ship, deploy];
    expect(findSkill("commit-helper", all)).toBe(helper);
    expect(findSkill("generating-commit-messages", all)).toBe(helper);
    expect(findSkill("Commit-Helper", all)).toBe(helper);
    expect(findSkill("deploy", all)).toBe(deploy); // a skill's own name before another's second name
    expect(findSkill("deploy", [helper, ship])).toBe(ship);
    expect(findSkill("Generating", all)).toBeUndefined();
  });

  test("offeredSkillNames: what Tab completes after /skill:, Claude Code's user-invocable: false left off", () => {
    expect(offeredSkillNames([s("a"), { ...s("b"), userInvocable: false }, s("c")])).toEqual(["a", "c"]);
  });

  const sent = (body: string, args = "") => skillMessage(s("pirate", "d", "/s/pirate/SKILL.md"), body, false) + (args ? `\n\n${args}` : "");
  test.each([
    ["the skill and its args", sent("---\nname: pirate\n---\n\nTalk like a pirate.", "greet the crew"), "/skill:pirate greet the crew"],
    ["no args", sent("Talk like a pirate."), "/skill:pirate"],
    ["args of several lines", sent("body", "first line\n\nsecond"), "/skill:pirate first line\n\nsecond"],
    ["a skill that shows a </skill> line itself", sent("Write\n</skill>\nat the end.", "go"), "/skill:pirate go"],
    ["sent by a hey that did not close the skill's text", 'Use the skill "pirate" (/s/pirate/SKILL.md):\n\nTalk like a pirate.\n\ngo', "/skill:pirate"],
    ["cut short before its args", sent("Talk like a pirate.", "go").slice(0, 60), "/skill:pirate"],
    ["a prompt", "Use the skill of patience", undefined],
    ["a prompt that quotes a skill line", 'I typed: Use the skill "pirate" (x):\n\n<skill>', undefined],
  ])("typedSkillLine: %s", (_, text, want) => {
    expect(typedSkillLine(text)).toBe(want);
  });
});

// `/skill:NAME` reads a skill's file again (skills/load.ts readSkillText): a project's skill is
// checked as loading checked it, since its file may have become a link out of the project after
// start-up (a `git checkout` of a branch that planted one); the user's own folders may link anywhere.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skillStartNote } from "../../src/prompt/start-note.ts";
import { loadSkills, readSkillText, SkillLinkOut, skillFolders } from "../../src/skills/load.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
let home: string;
let root: string;
let secret: string;
beforeEach(() => {
  tmp = tempDir("hey-skill-read-");
  home = join(tmp.path, "home");
  root = join(tmp.path, "project");
  secret = join(home, ".aws", "credentials");
  put(secret, "---\nname: review\ndescription: keys\n---\naws_secret_access_key = AKIAFAKE\n");
});
afterEach(() => tmp.remove());

function put(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}
const skill = (name: string) => `---\nname: ${name}\ndescription: Review the change.\n---\nRead the diff.\n`;
const load = () => loadSkills(skillFolders({ home, claudeDir: join(home, ".claude"), configDir: join(home, ".config", "hey"), root, project: true }));

test("a project's SKILL.md that became a link out of the project since loading is refused, naming the link for the user; its target is not read", () => {
  const file = join(root, ".hey", "skills", "review", "SKILL.md");
  put(file, skill("review"));
  const [loaded] = load().skills;
  expect(readSkillText(loaded!, 100_000).text).toContain("Read the diff.");
  rmSync(file);
  symlinkSync(secret, file);
  expect(() => readSkillText(loaded!, 100_000)).toThrow(new SkillLinkOut(`${file} is a link to ${realpathSync(secret)}, outside the project; not sent`));
});

test("so is a skill folder replaced by a link to a folder outside; a link to another file of the project still reads", () => {
  const dir = join(root, ".claude", "skills", "review");
  put(join(dir, "SKILL.md"), skill("review"));
  put(join(root, "docs", "review.md"), skill("review") + "From docs.\n");
  const [loaded] = load().skills;
  rmSync(dir, { recursive: true });
  symlinkSync(join(home, ".aws"), dir); // …/review/SKILL.md now reaches ~/.aws/SKILL.md
  put(join(home, ".aws", "SKILL.md"), "aws_secret_access_key = AKIAFAKE\n");
  expect(() => readSkillText(loaded!, 100_000)).toThrow(SkillLinkOut);
  rmSync(dir);
  mkdirSync(dir);
  symlinkSync(join(root, "docs", "review.md"), join(dir, "SKILL.md"));
  expect(readSkillText(loaded!, 100_000).text).toContain("From docs.");
});

test("the user's own skill may be a link anywhere (a skills folder kept with the dotfiles)", () => {
  put(join(tmp.path, "dotfiles", "review.md"), skill("review") + "Mine.\n");
  mkdirSync(join(home, ".agents", "skills", "review"), { recursive: true });
  symlinkSync(join(tmp.path, "dotfiles", "review.md"), join(home, ".agents", "skills", "review", "SKILL.md"));
  const [loaded] = load().skills;
  expect(readSkillText(loaded!, 100_000).text).toContain("Mine.");
});

test("a link out of the project found at start-up is the user's to read: the model's note neither asks it to fix it nor names the target", () => {
  const dir = join(root, ".hey", "skills");
  mkdirSync(join(dir, "review"), { recursive: true });
  symlinkSync(secret, join(dir, "review", "SKILL.md"));
  put(join(dir, "notes.md"), "# Notes\n"); // a mistake of the agent's own, beside it: still its to fix
  const { problems } = load();
  expect(problems.map((p) => p.message)).toContain(`${join(dir, "review", "SKILL.md")} is a link to ${realpathSync(secret)}, outside the project; left out`);
  const note = skillStartNote(problems, [dir], [join(dir, "notes.md"), join(dir, "review", "SKILL.md")])!;
  expect(note).toContain(`${join(dir, "notes.md")}: no frontmatter`);
  expect(note).not.toContain(".aws");
  expect(note).not.toContain("review");
  problems.splice(
    problems.findIndex((p) => p.message.includes("notes.md")),
    1,
  );
  expect(skillStartNote(problems, [dir], [join(dir, "notes.md"), join(dir, "review", "SKILL.md")])).toBeUndefined();
});

// The skills list keeps to its cap whatever the number of skills (x107 finding 4: 1,000 skills put
// 91 KB into every request): each folder is named once, the skills past the descriptions by name,
// and past the names counted with the folder to list; and the note a skills-only /reload leaves
// in the conversation instead of a new list (x106 finding 2).
import { expect, test } from "bun:test";
import {
  listSkills,
  SKILLS_CURRENT_NOTE,
  SKILLS_LIST_MAX_BYTES,
  skillsChangedNote,
  skillsListCut,
  withSkillsNote,
  type ListedSkill,
} from "../../src/prompt/skill-listing.ts";
import { userMessage } from "../../src/kernel/ir.ts";

const skill = (folder: string, name: string, description = `What ${name} does, and when to use it.`): ListedSkill => ({
  name,
  description,
  path: `${folder}/${name}/SKILL.md`,
});
const bytes = (text: string) => new TextEncoder().encode(text).length;

test("3,000 skills of long names: the list stays within its cap, and the rest are counted with the folder to list, for each folder", () => {
  const skills = [
    ...Array.from({ length: 1500 }, (_, i) => skill("~/.config/hey/skills", `user-procedure-number-${String(i).padStart(4, "0")}`)),
    ...Array.from({ length: 1500 }, (_, i) => skill(".hey/skills", `project-procedure-number-${String(i).padStart(4, "0")}`)),
  ].sort((a, b) => (a.name < b.name ? -1 : 1));
  const l = listSkills(skills);
  expect(bytes(l.text)).toBeLessThanOrEqual(SKILLS_LIST_MAX_BYTES);
  expect(l.described).toEqual([]);
  expect(l.named.length + l.left.length).toBe(3000);
  expect(l.named.length).toBeGreaterThan(300);
  expect(l.text).toContain("\n.hey/skills/:\n- by name only (read the file for what it does): project-procedure-number-0000, ");
  expect(l.text).toMatch(/\n- and \d+ more not listed here: list ~\/\.config\/hey\/skills\/ to find them$/);
  expect(skillsListCut(skills)).toMatch(
    /^3000 skills would put \d+ KB into each request; the list is held to 16 KB \(16 KB sent\): 0 with descriptions, \d+ by name only, \d+ not listed \(the model is told which folders to list\); /,
  );
});

test("within the cap every skill is described, no path but its folder's, and nothing is said", () => {
  const skills = [skill(".claude/skills", "deploy"), { name: "notes", description: "Notes.", path: "~/.agents/skills/notes.md" }, skill("/opt/skills", "x")];
  const l = listSkills(skills);
  expect(l.text.split("\n").slice(1)).toEqual([
    ".claude/skills/:",
    "- deploy: What deploy does, and when to use it.",
    "~/.agents/skills/:",
    "- notes (notes.md): Notes.",
    "/opt/skills/:",
    "- x: What x does, and when to use it.",
  ]);
  expect(skillsListCut(skills)).toBeUndefined();
});

test("the note of a skills-only /reload: added and changed skills with what they do and their file; one gone, or now only the user's, must not be used", () => {
  const before = [skill(".hey/skills", "deploy"), skill(".hey/skills", "lint"), skill(".hey/skills", "tidy")];
  const after = [
    { ...skill(".hey/skills", "deploy"), disableModelInvocation: true },
    skill(".hey/skills", "lint", "Lint, then fix."),
    skill(".hey/skills", "shout"),
  ];
  expect(skillsChangedNote(before, after)).toBe(
    "[hey: the user's /reload changed the skills; as of this message these lines update the skills list in the system prompt:\n" +
      "~ skill lint: Lint, then fix. (.hey/skills/lint/SKILL.md)\n" +
      "+ skill shout: What shout does, and when to use it. (.hey/skills/shout/SKILL.md)\n" +
      "- skill deploy: removed; do not use it\n" +
      "- skill tidy: removed; do not use it]",
  );
  // a skill only the user runs, added: the model is told nothing
  expect(skillsChangedNote(before, [...before, { ...skill(".hey/skills", "release"), disableModelInvocation: true }])).toBeUndefined();
});

// x114 finding 4: `hey -c` and `/resume` rebuild the list from disk, and a note kept in the history
// still said "these lines override it … do not use it" of a skill that was back
test("the next message says the list is up to date when the conversation holds skills notes older than it, once; an unsent one is dropped", () => {
  const old =
    "[hey: the skills changed at the user's /reload; the skills list in the system prompt stays as it was, these lines override it:\n- skill release: removed; do not use it]";
  const later = skillsChangedNote([skill(".hey/skills", "lint")], [])!;
  const history = [
    userMessage([
      { type: "text", text: old },
      { type: "text", text: "hi" },
    ]),
  ];
  expect(withSkillsNote(history, ["[hey: a job stopped]"], [])).toEqual([SKILLS_CURRENT_NOTE, "[hey: a job stopped]"]);
  expect(withSkillsNote([...history, userMessage([{ type: "text", text: SKILLS_CURRENT_NOTE }])], [], [])).toEqual([]); // said already
  expect(withSkillsNote([], [later], [later])).toEqual([later]); // against the list in the prompt now: kept
  expect(withSkillsNote([], [later], [])).toEqual([]); // the list was rebuilt before it was sent
  expect(withSkillsNote([userMessage([{ type: "text", text: later }])], [], [later])).toEqual([]);
});

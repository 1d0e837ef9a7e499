// The note start-up's skill problems give the model (prompt/start-note.ts): only the files of the
// folders the agent writes its skills to, each with its place; cut to the note's limit.
import { expect, test } from "bun:test";
import { win32 } from "node:path";
import { RELOAD_NOTE_MAX_CHARS } from "../../src/config/reload.ts";
import { skillStartNote } from "../../src/prompt/start-note.ts";

test("names the problems of the agent's own skill folders, not the others'; none: no note", () => {
  const own = ["/h/.config/hey/skills", "/p/.hey/skills"];
  const problems = [
    "/h/.config/hey/skills/notes/SKILL.md:3: broken YAML frontmatter: Unexpected token; left out",
    "/h/.agents/skills/x/SKILL.md:2: no description",
    "/h/.config/hey/skills: cannot list the skills folder (EACCES)", // the folder itself: not a file it can fix
    "/p/.hey/skills-old/a.md: no frontmatter",
    "/p/.hey/skills/b.md: no frontmatter (--- name and description ---), so it is not a skill; left out",
  ];
  expect(skillStartNote(problems, own, "/")).toBe(
    "[hey: these skill files in hey's skills folders could not be loaded as written (the user was told too); fix them — a fix loads at /reload or in the next run:" +
      `\nwarning: ${problems[0]}\nwarning: ${problems[4]}]`,
  );
  expect(skillStartNote(problems.slice(1, 4), own, "/")).toBeUndefined();
  expect(skillStartNote(["C:\\u\\.config\\hey\\skills\\n\\SKILL.md:3: bad"], ["C:\\u\\.config\\hey\\skills"], win32.sep)).toContain("SKILL.md:3: bad");
});

test("a flood of problems is cut to the note's limit", () => {
  const many = Array.from({ length: 200 }, (_, i) => `/s/skill${i}.md: no frontmatter (--- name and description ---), so it is not a skill; left out`);
  const note = skillStartNote(many, ["/s"], "/")!;
  expect(note.length).toBe(RELOAD_NOTE_MAX_CHARS);
  expect(note.endsWith("…]")).toBe(true);
});

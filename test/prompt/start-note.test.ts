// The note start-up's skill problems give the model (prompt/start-note.ts): only the files of the
// folders the agent writes its skills to that the session's write_file or edit calls wrote, each
// with its place; a file the user wrote by hand is never handed to the model; a name won on purpose
// is no problem to fix; cut to the note's limit.
import { expect, test } from "bun:test";
import { win32 } from "node:path";
import { RELOAD_NOTE_MAX_CHARS } from "../../src/config/reload.ts";
import { skillStartNote } from "../../src/prompt/start-note.ts";
import { byPrecedence } from "../../src/skills/catalog.ts";
import type { SkillProblem } from "../../src/skills/frontmatter.ts";

const warnings = (messages: string[]): SkillProblem[] => messages.map((message) => ({ level: "warning", message }));

test("names the problems of the agent's own skill folders, not the others'; none: no note", () => {
  const own = ["/h/.config/hey/skills", "/p/.hey/skills"];
  const problems = [
    "/h/.config/hey/skills/notes/SKILL.md:3: broken YAML frontmatter: Unexpected token; left out",
    "/h/.agents/skills/x/SKILL.md:2: no description",
    "/h/.config/hey/skills: cannot list the skills folder (EACCES)", // the folder itself: not a file it can fix
    "/p/.hey/skills-old/a.md: no frontmatter",
    "/p/.hey/skills/b.md: no frontmatter (--- name and description ---), so it is not a skill; left out",
  ];
  const written = ["/h/.config/hey/skills/notes/SKILL.md", "/p/.hey/skills/b.md", "/h/.agents/skills/x/SKILL.md"];
  expect(skillStartNote(warnings(problems), own, written, "/")).toBe(
    "[hey: these skill files in hey's skills folders could not be loaded as written (the user was told too); fix them — a fix loads at /reload or in the next run:" +
      `\nwarning: ${problems[0]}\nwarning: ${problems[4]}]`,
  );
  expect(skillStartNote(warnings(problems.slice(1, 4)), own, written, "/")).toBeUndefined();
  const windows = "C:\\u\\.config\\hey\\skills\\n\\SKILL.md";
  expect(skillStartNote(warnings([`${windows}:3: bad`]), ["C:\\u\\.config\\hey\\skills"], [windows], win32.sep)).toContain("SKILL.md:3: bad");
});

test("a flood of problems is cut to the note's limit", () => {
  const many = Array.from({ length: 200 }, (_, i) => `/s/skill${i}.md: no frontmatter (--- name and description ---), so it is not a skill; left out`);
  const note = skillStartNote(
    warnings(many),
    ["/s"],
    many.map((m) => m.slice(0, m.indexOf(":"))),
    "/",
  )!;
  expect(note.length).toBe(RELOAD_NOTE_MAX_CHARS);
  expect(note.endsWith("…]")).toBe(true);
});

test("a skill of the user's own folder that wins a name over ~/.agents/skills on purpose is not handed to the model as something to fix", () => {
  const own = ["/h/.config/hey/skills"];
  const replaced = byPrecedence([
    { name: "fmt", description: "Format.", path: "/h/.agents/skills/fmt/SKILL.md" },
    { name: "fmt", description: "Format my way.", path: "/h/.config/hey/skills/fmt/SKILL.md" },
  ]).problems;
  expect(replaced.map((p) => p.message)).toEqual(['/h/.config/hey/skills/fmt/SKILL.md: skill "fmt" replaces the one in /h/.agents/skills/fmt/SKILL.md']);
  expect(skillStartNote(replaced, own, ["/h/.config/hey/skills/fmt/SKILL.md"], "/")).toBeUndefined();
  // a real problem beside it is still named, alone
  const broken = { level: "error" as const, message: "/h/.config/hey/skills/notes/SKILL.md:3: broken YAML frontmatter; left out" };
  expect(skillStartNote([...replaced, broken], own, ["/h/.config/hey/skills/notes/SKILL.md"], "/")).toEndWith(`:\nwarning: ${broken.message}]`);
});

test("a broken skill file the user wrote by hand (no write_file or edit of the session's named it) is the user's to fix: no note, every run", () => {
  const own = ["/h/.config/hey/skills"];
  const hand = warnings(['/h/.config/hey/skills/notes.md:3: broken YAML frontmatter: Unexpected token; quote it: description: "Use when: notes"; left out']);
  expect(skillStartNote(hand, own, [], "/")).toBeUndefined();
  expect(skillStartNote(hand, own, ["/h/.config/hey/skills/notes.md.bak", "/h/.config/hey/skills/other.md"], "/")).toBeUndefined();
  expect(skillStartNote(hand, own, ["/h/.config/hey/skills/notes.md"], "/")).toContain("notes.md:3: broken YAML");
});

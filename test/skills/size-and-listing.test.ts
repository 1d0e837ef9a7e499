// A big skill's share of the context and what `/skills` shows (x45 findings 6 and 7): the cap
// follows the budget, the cut falls at a line end, a folder one level too deep and a file that is
// not UTF-8 are said, and the listing names each skill's folder and why one is not seen.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skillMaxBytes } from "../../src/skills/catalog.ts";
import type { Skill } from "../../src/skills/frontmatter.ts";
import { loadSkills, readSkillText } from "../../src/skills/load.ts";
import { listSkills } from "../../src/prompt/skill-listing.ts";
import { formatSkills, type SkillsListing } from "../../src/ui/skills-list.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir("hey-skill-size-");
});
afterEach(() => tmp.remove());

const write = (path: string, text: string | Uint8Array) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

test("a skill's cap is 40% of the context budget, and never more than [input] max_bytes", () => {
  expect(skillMaxBytes(40_000, 256 * 1024)).toBe(64_000);
  expect(skillMaxBytes(200_000, 256 * 1024)).toBe(256 * 1024);
  expect(skillMaxBytes(8_000, 256 * 1024)).toBe(12_800);
});

test("readSkillText cuts at a line end and says how much of how much", () => {
  const path = join(tmp.path, "big", "SKILL.md");
  const text = Array.from({ length: 3000 }, (_, i) => `line ${i + 1} of a long skill`).join("\n") + "\n";
  write(path, text);
  const read = readSkillText({ name: "big", description: "d", path }, 10_000);
  expect(read.text.endsWith("of a long skill\n")).toBe(true);
  expect(text.startsWith(read.text)).toBe(true);
  expect(read.cut).toEqual({ shown: Buffer.byteLength(read.text), of: Buffer.byteLength(text) });
  expect(read.cut!.shown).toBeLessThanOrEqual(10_000);
  expect(readSkillText({ name: "big", description: "d", path }, 1_000_000).cut).toBeUndefined();
});

test("a folder whose subfolders hold the skills, and a Latin-1 file, are said; the Latin-1 text is read as its characters", () => {
  const folder = join(tmp.path, "skills");
  write(join(folder, "collection", "one", "SKILL.md"), "---\nname: one\ndescription: d\n---\n");
  write(join(folder, "collection", "two", "SKILL.md"), "---\nname: two\ndescription: d\n---\n");
  write(join(folder, "empty-dir", "notes.txt"), "not a skill");
  write(join(folder, "latin", "SKILL.md"), Buffer.from("---\nname: latin\ndescription: caf\xe9\n---\n", "latin1"));
  const loaded = loadSkills([folder]);
  expect(loaded.skills.map((s) => [s.name, s.description])).toEqual([["latin", "café"]]);
  expect(loaded.problems.map((p) => p.message)).toEqual([
    `${join(folder, "collection")}: no SKILL.md, but 2 skill folders below it (one, two), one level deeper than hey looks; left out: move or link them into ${folder}`,
    `${join(folder, "latin", "SKILL.md")}: not UTF-8 (1 byte), read as Windows-1252 (Latin-1); save it as UTF-8`,
  ]);
});

const sk = (name: string, path: string, description = `${name} does things.`): Skill => ({ name, description, path });

test("formatSkills: the folder and whose it is, the description's start, and why the model does not see one", () => {
  const listing: SkillsListing = {
    folders: [
      { dir: "/h/.claude/skills", whose: "yours, Claude Code's" },
      { dir: "/h/.config/hey/skills", whose: "yours" },
      { dir: "/p/.hey/skills", whose: "project" },
    ],
    found: [
      sk("alpha", "/h/.claude/skills/alpha/SKILL.md"),
      sk("beta", "/h/.config/hey/skills/beta.md", "x".repeat(200)),
      sk("new", "/h/.config/hey/skills/new/SKILL.md"),
    ],
    untrusted: [sk("gamma", "/p/.hey/skills/gamma/SKILL.md")],
    problems: [
      { level: "error", message: "/h/.claude/skills/bad/SKILL.md:2: broken YAML frontmatter; left out" },
      { level: "note", message: '/h/.config/hey/skills/beta.md: skill "beta" replaces the one in /h/.claude/skills/beta/SKILL.md' },
    ],
    loaded: [
      sk("alpha", "/h/.claude/skills/alpha/SKILL.md"),
      sk("beta", "/h/.config/hey/skills/beta.md", "x".repeat(200)),
      sk("old", "/h/.claude/skills/old/SKILL.md"),
    ],
    nameOnly: new Set(["beta"]),
    leftOut: "this project's .hey/skills/ is not loaded: it is not trusted (/trust, then /reload, loads them)",
    shown: (p) => p.replace(/^\/h\//, "~/").replace(/^\/p\//, ""),
    columns: 0,
  };
  expect(formatSkills(listing)).toBe(
    [
      "5 skills (the model sees each one's name and description in every request; /skill:NAME sends one whole):",
      "  alpha  ~/.claude/skills (yours, Claude Code's)  alpha does things.",
      `  beta   ~/.config/hey/skills (yours)             ${"x".repeat(79)}… [listed by name only: the list is over its cap]`,
      "  gamma  .hey/skills (project)                    gamma does things. [not loaded: the project is not trusted (below)]",
      "  new    ~/.config/hey/skills (yours)             new does things. [not loaded yet: /reload loads it]",
      "  old    ~/.claude/skills (yours, Claude Code's)  old does things. [gone from its folder: /reload drops it]",
      "Left out or with problems:",
      "  this project's .hey/skills/ is not loaded: it is not trusted (/trust, then /reload, loads them)",
      "  /h/.claude/skills/bad/SKILL.md:2: broken YAML frontmatter; left out",
      "Replaced (a later folder's skill of the same name wins):",
      '  /h/.config/hey/skills/beta.md: skill "beta" replaces the one in /h/.claude/skills/beta/SKILL.md',
      "Folders, later winning a name: ~/.claude/skills, ~/.config/hey/skills, .hey/skills",
    ].join("\n"),
  );
  // a terminal's width cuts the description, not the state, which goes below it when they do not fit side by side
  const wide = formatSkills({ ...listing, columns: 140 }).split("\n");
  expect(wide[2]).toBe(`  beta   ~/.config/hey/skills (yours)             ${"x".repeat(41)}… [listed by name only: the list is over its cap]`);
  const narrow = formatSkills({ ...listing, columns: 80 }).split("\n");
  expect(narrow.slice(2, 4)).toEqual([
    `  beta   ~/.config/hey/skills (yours)             ${"x".repeat(29)}…`,
    `${" ".repeat(4)}[listed by name only: the list is over its cap]`,
  ]);
  for (const row of narrow.slice(1, 6)) expect(row.length).toBeLessThanOrEqual(80);
});

// After merging Claude Code's disable-model-invocation: the model's list leaves such a skill out,
// and /skills read the list by place, so every skill after it was said to be "listed by name only".
test("/skills: a skill kept from the model says so, and the skills after it are not taken for names only", () => {
  const deploy: Skill = { ...sk("deploy", "/h/.config/hey/skills/deploy/SKILL.md", "Deploys"), disableModelInvocation: true };
  const review = sk("review", "/h/.config/hey/skills/review/SKILL.md", "Reviews the diff");
  const named = sk("zeta", "/h/.config/hey/skills/zeta/SKILL.md", "Long");
  const cut = listSkills([deploy, review, { ...named, description: "Long ".repeat(40) }], 300); // room for one description
  const nameOnly = new Set(cut.named);
  expect([...nameOnly]).toEqual(["zeta"]);
  const text = formatSkills({
    folders: [{ dir: "/h/.config/hey/skills", whose: "yours" }],
    found: [deploy, review, named],
    untrusted: [],
    problems: [],
    loaded: [deploy, review, named],
    nameOnly,
    shown: (p) => p.replace(/^\/h\//, "~/"),
    columns: 0,
  });
  expect(text).toContain("deploy  ~/.config/hey/skills (yours)  Deploys [not in the model's list (disable-model-invocation): /skill:NAME runs it]");
  expect(text).toContain("review  ~/.config/hey/skills (yours)  Reviews the diff\n");
  expect(text).toContain("zeta    ~/.config/hey/skills (yours)  Long [listed by name only: the list is over its cap]");
});

// x107 finding 4: past the names too, the list counts the rest; /skills says which those are
test("/skills: a skill past the list's cap altogether says the model is told which folder to list", () => {
  const long = (n: string) => `${n}-a-procedure-with-a-long-name-of-sixty-characters-or-so`;
  const skills = ["alpha", "beta", "gamma"].map((n) => sk(long(n), `/h/.config/hey/skills/${long(n)}/SKILL.md`, `${n} does things.`));
  const cut = listSkills(skills, 370); // the heading, the folder, one name and the count
  expect(cut).toMatchObject({ described: [], named: [long("alpha")], left: [long("beta"), long("gamma")] });
  const text = formatSkills({
    folders: [{ dir: "/h/.config/hey/skills", whose: "yours" }],
    found: skills,
    untrusted: [],
    problems: [],
    loaded: skills,
    nameOnly: new Set(cut.named),
    unlisted: new Set(cut.left),
    shown: (p) => p.replace(/^\/h\//, "~/"),
    columns: 0,
  });
  expect(text).toContain(
    `${long("gamma")}  ~/.config/hey/skills (yours)  gamma does things. [not in the model's list, past its cap: the model is told which folder to list]`,
  );
});

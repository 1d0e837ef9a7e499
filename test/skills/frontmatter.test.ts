// One skill file (SPEC §12, §24; Agent Skills): frontmatter parsing and every validation problem.
import { describe, expect, test } from "bun:test";
import { parseSkill, quoteHint, splitFrontmatter, yamlErrorLine, type SkillPlace } from "../../src/skills/frontmatter.ts";

const yaml = (text: string) => Bun.YAML.parse(text);
const P = "/s/deploy/SKILL.md";
const at: SkillPlace = { path: P, folder: "deploy", stem: "SKILL" };
const parse = (text: string, place = at) => parseSkill(text, place, yaml);
const GOOD = "---\nname: deploy\ndescription: Ship the app. Use when asked to deploy.\n---\n\n# Deploy\n\nRun make ship.\n";

describe("a valid skill", () => {
  test("name, description and path; no problems", () => {
    expect(parse(GOOD)).toEqual({ skill: { name: "deploy", description: "Ship the app. Use when asked to deploy.", path: P }, problems: [] });
  });

  test("CRLF line ends and a byte-order mark are accepted", () => {
    expect(parse("\uFEFF" + GOOD.replace(/\n/g, "\r\n"))).toEqual(parse(GOOD));
  });

  test("license, compatibility, metadata and allowed-tools are kept", () => {
    const text =
      "---\nname: deploy\ndescription: d\nlicense: MIT\ncompatibility: needs docker\nmetadata:\n  author: ana\nallowed-tools: Bash(git:*) Read\n---\n";
    expect(parse(text).skill).toEqual({
      name: "deploy",
      description: "d",
      path: P,
      license: "MIT",
      compatibility: "needs docker",
      metadata: { author: "ana" },
      allowedTools: "Bash(git:*) Read",
    });
  });

  test("a multi-line (block) description", () => {
    expect(parse("---\nname: deploy\ndescription: |\n  Ship it.\n  Use when asked.\n---\n").skill?.description).toBe("Ship it.\nUse when asked.");
  });
});

describe("every problem", () => {
  test.each([
    ["missing name: the folder's name is used", "---\ndescription: d\n---\n", "deploy", [`warning ${P}: no name in the frontmatter; using "deploy"`]],
    ["empty name", '---\nname: ""\ndescription: d\n---\n', "deploy", [`warning ${P}: no name in the frontmatter; using "deploy"`]],
    [
      "upper case",
      "---\nname: Deploy\ndescription: d\n---\n",
      "Deploy",
      [`warning ${P}: name "Deploy" is not 1–64 lowercase letters, digits and single hyphens`, `warning ${P}: name "Deploy" differs from its folder "deploy"`],
    ],
    [
      "a double hyphen",
      "---\nname: de--ploy\ndescription: d\n---\n",
      "de--ploy",
      [
        `warning ${P}: name "de--ploy" is not 1–64 lowercase letters, digits and single hyphens`,
        `warning ${P}: name "de--ploy" differs from its folder "deploy"`,
      ],
    ],
    [
      "a leading hyphen",
      "---\nname: -deploy\ndescription: d\n---\n",
      "-deploy",
      [
        `warning ${P}: name "-deploy" is not 1–64 lowercase letters, digits and single hyphens`,
        `warning ${P}: name "-deploy" differs from its folder "deploy"`,
      ],
    ],
    [
      "a name of 65 characters",
      `---\nname: ${"a".repeat(65)}\ndescription: d\n---\n`,
      "a".repeat(65),
      [
        `warning ${P}: name "${"a".repeat(65)}" is not 1–64 lowercase letters, digits and single hyphens`,
        `warning ${P}: name "${"a".repeat(65)}" differs from its folder "deploy"`,
      ],
    ],
    ["a name different from its folder", "---\nname: ship\ndescription: d\n---\n", "ship", [`warning ${P}: name "ship" differs from its folder "deploy"`]],
  ])("name: %s", (_, text, name, problems) => {
    const got = parse(text);
    expect(got.skill?.name).toBe(name);
    expect(got.problems.map((p) => `${p.level} ${p.message}`)).toEqual(problems);
  });

  test("a name of exactly 64 characters in a folder of that name is fine", () => {
    const name = "a".repeat(64);
    expect(parse(`---\nname: ${name}\ndescription: d\n---\n`, { path: P, folder: name, stem: "SKILL" }).problems).toEqual([]);
  });

  test("missing description: the first paragraph of the body stands in", () => {
    const got = parse("---\nname: deploy\n---\n\n# Deploy\n\nShip the app\nwith make.\n\nMore.\n");
    expect(got.skill?.description).toBe("Ship the app with make.");
    expect(got.problems).toEqual([{ level: "warning", message: `${P}: no description in the frontmatter; using the first paragraph` }]);
  });

  test("an empty description and no text: left out", () => {
    expect(parse('---\nname: deploy\ndescription: "  "\n---\n# Only a heading\n')).toEqual({
      problems: [{ level: "warning", message: `${P}: no description in the frontmatter and no text to take one from; left out` }],
    });
  });

  test("a description over 1,024 characters is a warning; the skill is kept whole", () => {
    const got = parse(`---\nname: deploy\ndescription: ${"d".repeat(1025)}\n---\n`);
    expect(got.skill?.description.length).toBe(1025);
    expect(got.problems).toEqual([{ level: "warning", message: `${P}: description is 1,025 characters, over 1,024; the list shows the first 1,024` }]);
  });

  test.each([
    [
      "a colon in a plain value, line 3: says to quote it",
      "---\nname: deploy\ndescription: Use when: the user says deploy: now\n---\n",
      3,
      'Unexpected token; the value of description holds ": ", so quote it: description: "Use when: the user says deploy: now"',
    ],
    ["an unclosed flow list, line 2", "---\nname: [deploy\ndescription: d\n---\n", 2, "Unexpected token"],
    ["an unterminated quote, line 4 (after CRLF and BOM)", "\uFEFF---\r\nname: deploy\r\ndescription: d\r\nlicense: 'MIT\r\n---\r\n", 4, "Unexpected EOF"],
    ["a tab indent, line 2", "---\n\tname: deploy\n---\n", 2, "Tab characters cannot be used as indentation"],
  ])("broken YAML is an error naming the file's line: %s", (_, text, line, reason) => {
    expect(parse(text)).toEqual({ problems: [{ level: "error", message: `${P}:${line}: broken YAML frontmatter: ${reason}; left out` }] });
  });

  test.each([
    ["a plain value with ': '", "description: Use when: deploy", '; the value of description holds ": ", so quote it: description: "Use when: deploy"'],
    ["a value ending in ':'", "when: deploy now:", '; the value of when holds ": ", so quote it: when: "deploy now:"'],
    ['a value with " in it', 'description: say "hi": then go', '; the value of description holds ": ", so quote it: description: "say \\"hi\\": then go"'],
    ["a long value, cut", `description: a: ${"b".repeat(80)}`, `; the value of description holds ": ", so quote it: description: "a: ${"b".repeat(56)}…"`],
  ])("quoteHint: %s", (_, line, hint) => {
    expect(quoteHint(line)).toBe(hint);
  });

  test("quoteHint says nothing of a quoted value, a flow list, a URL, no value or a tab indent", () => {
    const lines = ['description: "a: b', "tags: [a: b]", "homepage: https://example.com", "metadata:", "\tname: deploy"];
    expect(lines.map(quoteHint)).toEqual(["", "", "", "", ""]);
  });

  test("a frontmatter that is never closed is an error", () => {
    expect(parse("---\nname: deploy\ndescription: d\n").problems).toEqual([
      { level: "error", message: `${P}:1: the frontmatter opened on line 1 is never closed with a \`---\` line; left out` },
    ]);
  });

  test("a frontmatter that is not key: value lines is an error", () => {
    expect(parse("---\n- a\n- b\n---\n").problems).toEqual([{ level: "error", message: `${P}:2: the frontmatter must be \`key: value\` lines; left out` }]);
  });

  test("no frontmatter at all: folder name, first paragraph, two warnings", () => {
    const got = parse("Deploy with make ship.\n");
    expect(got.skill).toEqual({ name: "deploy", description: "Deploy with make ship.", path: P });
    expect(got.problems.map((p) => p.message)).toEqual([
      `${P}: no frontmatter (a \`---\` line first, then name: and description:)`,
      `${P}: no name in the frontmatter; using "deploy"`,
      `${P}: no description in the frontmatter; using the first paragraph`,
    ]);
  });

  test("a root .md file falls back to its file name and is not compared with a folder", () => {
    const got = parse("---\ndescription: d\n---\n", { path: "/s/notes.md", stem: "notes" });
    expect(got.skill?.name).toBe("notes");
    expect(parse("---\nname: other\ndescription: d\n---\n", { path: "/s/notes.md", stem: "notes" }).problems).toEqual([]);
  });
});

describe("helpers", () => {
  test.each([
    ["no frontmatter", "# Title\n", undefined],
    ["closed", "---\na: 1\n---\nbody", { yaml: "a: 1", body: "body", closed: true }],
    ["closed with ...", "---\na: 1\n...\nbody", { yaml: "a: 1", body: "body", closed: true }],
    ["trailing spaces on the fences", "---  \na: 1\n---  \n", { yaml: "a: 1", body: "", closed: true }],
    ["unclosed", "---\na: 1\n", { yaml: "a: 1\n", body: "", closed: false }],
  ])("splitFrontmatter: %s", (_, text, want) => {
    expect(splitFrontmatter(text)).toEqual(want);
  });

  test.each([
    ["a: 1\nb: c: d\ne: 2", 2],
    ["a: 'x\nb: 1", 1],
    ["a: 'multi\n  line'\nb: [1\nc: 2", 3],
    ["bad: : :", 1],
  ])("yamlErrorLine(%p) = %p", (text, line) => {
    expect(yamlErrorLine(text, yaml)).toBe(line);
  });
});

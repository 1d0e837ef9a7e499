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

  // x45 finding 3: a "manual only" skill (a deploy) was offered to the model like any other
  test("Claude Code's disable-model-invocation and user-invocable are read; its other keys are no problem", () => {
    const text =
      "---\nname: deploy\ndescription: d\ndisable-model-invocation: true\nuser-invocable: false\nargument-hint: [branch]\nmodel: sonnet\ncontext: fork\n---\n";
    expect(parse(text)).toEqual({ skill: { name: "deploy", description: "d", path: P, disableModelInvocation: true, userInvocable: false }, problems: [] });
    expect(parse("---\nname: deploy\ndescription: d\ndisable-model-invocation: false\nuser-invocable: true\n---\n").skill).toEqual({
      name: "deploy",
      description: "d",
      path: P,
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
    ["a name different from its folder: both run it, nothing to warn of", "---\nname: ship\ndescription: d\n---\n", "ship", []],
  ])("name: %s", (_, text, name, problems) => {
    const got = parse(text);
    expect(got.skill?.name).toBe(name);
    expect(got.problems.map((p) => `${p.level} ${p.message}`)).toEqual(problems);
  });

  // x45 finding 4: such a name was kept as the command's name, which no `/skill:` line could type, with two warnings on every run
  test.each([
    ["upper case", "Deploy", { name: "deploy", title: "Deploy" }],
    ["a double hyphen", "de--ploy", { name: "deploy", title: "de--ploy", aliases: ["de-ploy"] }],
    ["a leading hyphen", "-deploy", { name: "deploy", title: "-deploy" }],
    ["a name of 65 characters", "a".repeat(65), { name: "deploy", title: "a".repeat(65), aliases: ["a".repeat(64)] }],
    [
      "Anthropic's early example",
      "Generating Commit Messages",
      { name: "deploy", title: "Generating Commit Messages", aliases: ["generating-commit-messages"] },
    ],
  ])("name: %s is a title: the folder's name runs it, its slug too, and nothing is warned", (_, given, want) => {
    const got = parse(`---\nname: ${given}\ndescription: d\n---\n`);
    expect(got.skill).toEqual({ ...want, description: "d", path: P });
    expect(got.problems).toEqual([]);
  });

  test("a title in a root .md file whose stem is no name: the slug is the name", () => {
    const got = parse("---\nname: Café Notes\ndescription: d\n---\n", { path: "/s/My Notes.md", stem: "My Notes" });
    expect(got.skill?.name).toBe("cafe-notes");
    expect(got.skill?.title).toBe("Café Notes");
    expect(got.problems).toEqual([]);
  });

  test("a name nothing can be made of: the file's own name, with a warning", () => {
    const got = parse("---\nname: ★★\ndescription: d\n---\n", { path: "/s/My Notes.md", stem: "My Notes" });
    expect(got.skill?.name).toBe("My Notes");
    expect(got.problems.map((p) => p.message)).toEqual([
      '/s/My Notes.md: name "★★" is not 1–64 lowercase letters, digits and single hyphens, nor is its folder\'s',
    ]);
  });

  test("a valid name in another folder: the folder's name runs it too", () => {
    expect(parse("---\nname: ship\ndescription: d\n---\n").skill?.aliases).toEqual(["deploy"]);
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

// What a user sees of the skills (x45 findings 6 and 7): `hey skills` (a one-shot `/skills`) lists
// each skill with its folder and whether the model sees it, and those left out and why; a skill
// too big for its share of the context is cut at a line end, said to the user and to the model.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, textOf, type ModelServer } from "../helpers/model-server.ts";
import { skillModel } from "../helpers/skill-model.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer(skillModel);
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: project.path, env: { HOME: home.path } });
/** `hey skills FLAGS`: the command goes first */
const skills = (flags: string[] = []) => runHey(["skills", "--base-url", model.baseUrl, "-m", "m", ...flags], { cwd: project.path, env: { HOME: home.path } });
const write = (path: string, text: string | Uint8Array) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`;

test("hey skills lists each skill with its folder, and the ones left out with why: too deep, broken, not UTF-8, a name taken, an untrusted project", async () => {
  write(join(home.path, ".claude", "skills", "pdf", "SKILL.md"), skill("pdf", "Claude's PDF skill."));
  write(join(home.path, ".config", "hey", "skills", "pdf", "SKILL.md"), skill("pdf", "hey's own PDF skill."));
  write(join(home.path, ".agents", "skills", "deploy", "SKILL.md"), skill("deploy", "Deploy the app to staging."));
  write(join(home.path, ".agents", "skills", "collection", "inner", "SKILL.md"), skill("inner", "Nested one level too deep."));
  write(join(home.path, ".agents", "skills", "broken", "SKILL.md"), "---\nname: broken\ndescription: Use when: always\n---\n");
  write(join(home.path, ".agents", "skills", "latin", "SKILL.md"), Buffer.from("---\nname: latin\ndescription: caf\xe9 na\xefve\n---\n", "latin1"));
  write(join(project.path, ".hey", "skills", "local", "SKILL.md"), skill("local", "The project's own skill."));

  const run = await skills();
  expect(run.code).toBe(0);
  const out = run.stdout;
  expect(out).toMatch(/^ {2}deploy +~\/\.agents\/skills \(yours\) +Deploy the app to staging\.$/m);
  expect(out).toMatch(/^ {2}latin +~\/\.agents\/skills \(yours\) +café naïve$/m);
  expect(out).toMatch(/^ {2}pdf +~\/\.config\/hey\/skills \(yours\) +hey's own PDF skill\.$/m);
  expect(out).toMatch(/^ {2}local +\.hey\/skills \(project\) +The project's own skill\. \[not loaded: the project is not trusted \(below\)\]$/m);
  expect(out).toContain(
    `${join(home.path, ".agents", "skills", "collection")}: no SKILL.md, but 1 skill folder below it (inner), one level deeper than hey looks`,
  );
  expect(out).toContain(`${join(home.path, ".agents", "skills", "broken", "SKILL.md")}:3: broken YAML frontmatter`);
  expect(out).toContain(`${join(home.path, ".agents", "skills", "latin", "SKILL.md")}: not UTF-8 (2 bytes), read as Windows-1252 (Latin-1)`);
  expect(out).toContain(`skill "pdf" replaces the one in ${join(home.path, ".claude", "skills", "pdf", "SKILL.md")}`);
  expect(out).toContain("it is not trusted (hey trust trusts it, --approve for one run)");
  expect(model.requests).toHaveLength(0); // a listing asks the model nothing

  // trusted for the run: the project's skill is loaded, and nothing waits on trust
  const approved = await skills(["--approve"]);
  expect(approved.stdout).toMatch(/^ {2}local +\.hey\/skills \(project\) +The project's own skill\.$/m);
  expect(approved.stdout).not.toContain("not trusted");

  const off = await hey(["--no-skills", "-p", "/skills"]);
  expect(off.stdout).toBe("skills are off in this run (--no-skills)\n");
});

test("/skill:NAME of a 480 KB skill sends its share of the budget, cut at a line end, and says so to the user and to the model", async () => {
  const lines = Array.from({ length: 7200 }, (_, i) => `Line ${i + 1} of the huge skill, padded to be long enough for the test.`);
  const file = join(home.path, ".agents", "skills", "huge", "SKILL.md");
  write(file, `---\nname: huge\ndescription: A huge skill.\n---\n${lines.join("\n")}\n`);
  const run = await hey(["-p", "/skill:huge", "go"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(
    /hey: \/skill:huge: only the first 6\d KB of 47\d KB went into the prompt \(a skill takes at most 40% of the 40,000-token context budget/,
  );
  const sent = textOf(model.requests[0]!.messages.at(-1));
  expect(sent.length).toBeLessThan(70_000); // 40% of 40,000 tokens at 4 characters a token, not the 102 KB it was
  const cut =
    /\n(Line (\d+) of the huge skill[^\n]*)\n\[cut here: the first 6\d KB of 47\d KB were sent; read_file (\S+) with offset (\d+) for the rest\]\n<\/skill>\n\ngo$/.exec(
      sent,
    );
  expect(cut).not.toBeNull();
  expect(cut![1]).toBe(lines[Number(cut![2]) - 1]!); // a whole line last
  expect(cut![3]).toBe(file);
  expect(Number(cut![4])).toBe(Number(cut![2]) + 4 + 1); // the file's next line: after the 4 lines of frontmatter
});

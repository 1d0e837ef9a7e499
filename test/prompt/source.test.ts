// /reload's word on skills (issue 26): a problem is said once, as at start-up — and again after its
// file was edited, so an edit that did not fix a broken skill never reads as "nothing changed"; a
// project's skill that became a link out of the project is the user's to read, not the model's; a
// /reload that only changes skills leaves the system prompt byte for byte as it was (the model
// keeps a note of the change instead), and an AGENTS.md change, which rewrites it, brings the list up to date.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatReload, reloadAll, reloadNote } from "../../src/config/reload.ts";
import { createPromptSource, type PromptSourceOptions } from "../../src/prompt/source.ts";
import { notedSkills } from "../../src/prompt/skill-listing.ts";
import { trustNote } from "../../src/prompt/trust-note.ts";
import { userMessage } from "../../src/kernel/ir.ts";
import { tempDir } from "../helpers/e2e.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-source-");
});
afterEach(() => dir.remove());

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

const options = (configDir: string, warned: string[]): PromptSourceOptions => ({
  core: "core",
  cwd: dir.path,
  root: dir.path,
  home: dir.path,
  claudeDir: join(dir.path, ".claude"),
  codexDir: join(dir.path, ".codex"),
  configDir,
  os: "linux",
  shell: () => "bash",
  skills: { trusted: () => true },
  importsOutside: () => undefined,
  redact: (text) => text,
  writable: () => true,
  warn: (m) => void warned.push(m),
});

test("a skill still broken after an edit is reported at the next /reload; unedited problems are said once", async () => {
  const configDir = join(dir.path, "config");
  const broken = join(configDir, "skills", "bad", "SKILL.md");
  const misnamed = join(configDir, "skills", "odd", "SKILL.md");
  write(broken, "---\nname: bad\ndescription: [unclosed\n---\nBody.\n");
  write(misnamed, "---\nname: other\ndescription: Named unlike its folder.\n---\nBody.\n");
  const warned: string[] = [];
  const source = createPromptSource(options(configDir, warned));
  const badLine = `${broken}:3: broken YAML frontmatter: Unexpected token; left out`;
  expect(warned).toContain(badLine);
  const reload = async () => {
    const staged = await source.reloadables[0]!.check({} as never);
    staged.apply();
    return staged.warnings;
  };
  write(broken, "---\nname: bad\ndescription: [unclosed\n---\nBody, fixed?\n"); // the agent's edit missed the fault
  expect(await reload()).toEqual([badLine]); // before: [] — "reloaded: nothing changed"
  expect(await reload()).toEqual([]); // not edited since: said already
  write(broken, "---\nname: bad\ndescription: Fixed.\n---\nBody.\n");
  expect(await reload()).toEqual([]);
  expect(source.skills().map((s) => s.name)).toEqual(["bad", "other"]);
});

test("a project's skill that became a link out of the project: /reload tells the user where it leads, the model's note says nothing of it", async () => {
  const outside = tempDir("hey-outside-");
  try {
    const secret = join(outside.path, ".aws", "credentials");
    write(secret, "---\nname: review\ndescription: keys\n---\naws_secret_access_key = AKIAFAKE\n");
    const file = join(dir.path, ".hey", "skills", "review", "SKILL.md");
    write(file, "---\nname: review\ndescription: Review the change.\n---\nRead the diff.\n");
    const warned: string[] = [];
    const source = createPromptSource(options(join(dir.path, "config"), warned));
    expect(source.startNote).toBeUndefined();
    rmSync(file);
    symlinkSync(secret, file);
    const config = async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never });
    const report = await reloadAll(config, source.reloadables);
    const link = `${file} is a link to ${realpathSync(secret)}, outside the project; left out`;
    expect(formatReload(report)).toBe(`hey: ${link}\nreloaded:\n  - skill review`);
    expect(report.note).toBe(
      "[hey: the user's /reload changed the skills; as of this message these lines update the skills list in the system prompt:\n- skill review: removed; do not use it]",
    );
    expect(reloadNote(report, [], [])).toBeUndefined(); // the kept note says it: not twice
    expect(source.unloadedSkill("review")).toBe(link); // \`/skill:review\` says why, on the user's screen
  } finally {
    outside.remove();
  }
});

// x106 finding 2: a /reload that added a skill rewrote the system prompt, so the whole conversation was billed uncached
test("a /reload that adds, changes and removes skills keeps the system prompt byte-identical; the note tells the model, and an AGENTS.md change or a summary brings the list up to date", async () => {
  const skill = (name: string, description: string) =>
    write(join(dir.path, ".hey", "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`);
  skill("lint", "Lint the code.");
  skill("old", "An old habit.");
  const source = createPromptSource(options(join(dir.path, "config"), []));
  const before = source.system();
  skill("shout", "Shout the answer.");
  skill("lint", "Lint the code, then fix what it finds.");
  rmSync(join(dir.path, ".hey", "skills", "old"), { recursive: true });
  const config = async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never });
  const report = await reloadAll(config, source.reloadables);
  expect(report.changes).toEqual(["~ skill lint", "+ skill shout", "- skill old"]);
  expect(source.system()).toBe(before);
  expect(report.note).toBe(
    "[hey: the user's /reload changed the skills; as of this message these lines update the skills list in the system prompt:\n" +
      "~ skill lint: Lint the code, then fix what it finds. (.hey/skills/lint/SKILL.md)\n" +
      "+ skill shout: Shout the answer. (.hey/skills/shout/SKILL.md)\n" +
      "- skill old: removed; do not use it]",
  );
  expect(source.skills().map((s) => s.name)).toEqual(["lint", "shout"]); // /skill:old is refused: it is gone
  write(join(dir.path, "AGENTS.md"), "Use tabs.\n");
  await reloadAll(config, source.reloadables);
  const after = source.system();
  expect(after).toContain("- shout: Shout the answer.");
  expect(after).not.toContain("- old:");
  // a request that no longer carries the note an earlier one did (a summary or trim left it out): it catches up too
  skill("tidy", "Tidy the imports.");
  const tidied = await reloadAll(config, source.reloadables);
  const carrying = [
    userMessage([
      { type: "text", text: tidied.note ?? "" },
      { type: "text", text: "go on" },
    ]),
  ];
  expect(source.system([userMessage("before the note is sent")])).toBe(after); // not sent yet: nothing was lost
  expect(source.system(carrying)).toBe(after);
  expect(source.system([...carrying, userMessage("more")])).toBe(after);
  expect(source.shown().notes).toEqual([tidied.note ?? ""]);
  expect(source.system([userMessage("[summary of earlier work]"), userMessage("more")])).toContain("- tidy: Tidy the imports.");
  expect(source.shown().notes).toEqual([]); // the list holds it now
});

test("so is a project's AGENTS.md that became a link out of the project, or a CLAUDE.md import through such a link", async () => {
  const outside = tempDir("hey-outside-");
  try {
    const secret = join(outside.path, ".aws", "credentials");
    write(secret, "aws_secret_access_key = AKIAFAKE\n");
    const agents = join(dir.path, "AGENTS.md");
    write(agents, "Run the tests.\n");
    const source = createPromptSource({ ...options(join(dir.path, "config"), []), importsOutside: () => ({ home: outside.path, trusted: true }) });
    rmSync(agents);
    symlinkSync(secret, agents);
    const config = async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never });
    const target = realpathSync(secret);
    const first = await reloadAll(config, source.reloadables);
    expect(formatReload(first)).toStartWith(`hey: ${agents} is a link to ${target}, outside the project; left out of the prompt\n`);
    expect(reloadNote(first, [], [])).not.toContain(outside.path);

    rmSync(agents);
    write(join(dir.path, "CLAUDE.md"), "See @docs/notes.txt\n");
    mkdirSync(join(dir.path, "docs"));
    write(join(outside.path, "diary.txt"), "private\n"); // not a secret by its name: refused for leading out
    symlinkSync(join(outside.path, "diary.txt"), join(dir.path, "docs", "notes.txt"));
    const second = await reloadAll(config, source.reloadables);
    const diary = realpathSync(join(outside.path, "diary.txt"));
    expect(formatReload(second)).toContain(`@docs/notes.txt is a link out of the project and no markdown file (${diary}): never imported`);
    expect(reloadNote(second, [], [])).toContain("+ AGENTS.md");
    expect(reloadNote(second, [], [])).not.toContain(outside.path);
  } finally {
    outside.remove();
  }
});

test("started in the home directory, which is no project: the guide names the user's folders, trusted or not, and asks for no /trust", () => {
  const configDir = join(dir.path, ".config", "hey");
  for (const trusted of [true, false]) {
    const at = (root: string) => createPromptSource({ ...options(configDir, []), cwd: root, root, skills: { trusted: () => trusted } });
    const home = at(dir.path);
    expect(home.system()).toContain("Keep a procedure as a skill: ~/.config/hey/skills/<name>/SKILL.md");
    expect(home.system()).toContain("add an MCP server, `[mcp.NAME]` with `command`, `args`, `env` or `url`, `headers`, to ~/.config/hey/config.toml.");
    expect(home.system()).not.toContain(".hey/");
    expect(home.system()).not.toContain("/trust");
    expect(home.shown().trust?.said).toBeUndefined(); // the guide said nothing of a project
    // a project below home is one: trusted, its own folders; untrusted with files left out, how to trust it
    const project = join(dir.path, "work");
    write(join(project, ".hey", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: X.\n---\n");
    const there = at(project).system();
    expect(there).toContain(trusted ? "Keep a procedure as a skill: .hey/skills/<name>/SKILL.md" : "ask the user to /trust it");
    rmSync(project, { recursive: true });
  }
});

// x154 finding 1: an interactive run trusts a project with nothing to guard for its session, a -p run
// does not; the same session moved between them got two system prompts, the conversation billed again
test("a project with nothing to guard: the same system prompt trusted for the session or not, naming the user's folders; /trust and /reload leave it", async () => {
  const [configDir, project] = [join(dir.path, "config"), join(dir.path, "work")];
  mkdirSync(project);
  const at = { ...options(configDir, []), cwd: project, root: project };
  const oneShot = createPromptSource({ ...at, skills: { trusted: () => false } });
  const repl = createPromptSource({ ...at, skills: { trusted: () => true, everyRun: false } }); // trusted for its session alone
  expect(oneShot.system()).toBe(repl.system());
  expect(oneShot.system()).toContain("Keep a procedure as a skill: ~/config/skills/<name>/SKILL.md"); // home is dir.path here
  expect(oneShot.system()).not.toContain("trust");
  expect(oneShot.shown().trust?.said).toBeUndefined(); // the user's folders load in any run: nothing to tell
  const before = repl.system();
  const staged = await repl.reloadables[0]!.check({} as never);
  staged.apply();
  expect(repl.system()).toBe(before);
});

// x160 finding 1: started in sub/ of an untrusted project, then /trust and /reload: the note sent the model to
// sub/.hey/skills, which is never read and would make sub/ a project of its own at the next start
test("from a subdirectory, the trusted note names the project root's .hey/, as the guide would", async () => {
  const [configDir, project] = [join(dir.path, "config"), join(dir.path, "work")];
  write(join(project, ".hey", "skills", "demo", "SKILL.md"), "---\nname: demo\ndescription: Demo.\n---\n");
  mkdirSync(join(project, "sub"));
  let trusted = false;
  const source = createPromptSource({ ...options(configDir, []), cwd: join(project, "sub"), root: project, skills: { trusted: () => trusted } });
  expect(source.system()).toContain("ask the user to /trust it");
  trusted = true;
  (await source.reloadables[0]!.check({} as never)).apply();
  const note = trustNote(source.shown().trust, []);
  expect(note).toContain("new skills go in ~/work/.hey/skills/, MCP servers in ~/work/.hey/config.toml]"); // home is dir.path here
  expect(note).not.toContain(" .hey/skills/");
});

// x160 finding 3: trusted in the REPL (the note said so), then `hey trust --revoke` and the skill removed; `hey -c -p`
// sends a guide that says nothing of the project, and the model's last word was still that the project's .hey/ loads
test("a trusted note in the history is corrected when the project no longer loads, though the guide says nothing of it", () => {
  const [configDir, project] = [join(dir.path, "config"), join(dir.path, "work")];
  mkdirSync(project);
  const source = createPromptSource({ ...options(configDir, []), cwd: project, root: project, skills: { trusted: () => false } });
  expect(source.system()).not.toContain("trust"); // nothing left out: the user's folders, nothing of the project
  const history = [
    userMessage([{ type: "text", text: "[hey: this project is trusted now: its .hey/ loads (skills in .hey/skills/, MCP servers in .hey/config.toml)]" }]),
  ];
  expect(trustNote(source.shown().trust, history)).toStartWith("[hey: this project is not trusted now:");
  expect(trustNote(source.shown().trust, [])).toBeUndefined();
});

test("a trusted project's /untrust, then /reload: the system prompt stays, and what loads is the note's", async () => {
  const [configDir, project] = [join(dir.path, "config"), join(dir.path, "work")];
  mkdirSync(project);
  let trusted = true;
  const source = createPromptSource({ ...options(configDir, []), cwd: project, root: project, skills: { trusted: () => trusted } });
  const before = source.system();
  expect(before).toContain("Keep a procedure as a skill: .hey/skills/<name>/SKILL.md");
  expect(source.shown().trust).toMatchObject({ said: true, loads: true });
  trusted = false;
  const staged = await source.reloadables[0]!.check({} as never);
  staged.apply();
  expect(source.system()).toBe(before); // before: the guide switched to the user's folders, a new system prompt
  expect(source.shown().trust).toMatchObject({ said: true, loads: false });
});

// x114 finding 1: the note had no cap; 300 skills copied in made a 222 KB note in every later request
test("a /reload that adds a collection of skills rebuilds the list (held to its cap) instead of keeping a note over 4 KB; a few skills still get a note", async () => {
  const skill = (name: string, description: string) =>
    write(join(dir.path, ".hey", "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`);
  skill("lint", "Lint the code.");
  const source = createPromptSource(options(join(dir.path, "config"), []));
  const before = source.system();
  const config = async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never });
  skill("shout", "Shout the answer.");
  const few = await reloadAll(config, source.reloadables);
  expect(few.note).toContain("+ skill shout: Shout the answer.");
  expect(source.system()).toBe(before);
  for (let i = 0; i < 300; i++) skill(`collected-${String(i).padStart(3, "0")}`, `Procedure ${i} ${"does this and that when asked to. ".repeat(22)}`);
  const many = await reloadAll(config, source.reloadables);
  expect(many.note).toBeUndefined(); // before: 222 KB, kept in the conversation
  const after = source.system();
  expect(after).toContain("- collected-000: Procedure 0 does");
  expect(new TextEncoder().encode(after).length - new TextEncoder().encode(before).length).toBeLessThan(17 * 1024);
  expect(source.shown().notes).toEqual([]); // the list holds shout too: its note no longer applies
  expect(reloadNote(many, [], [])).toContain("+ skill collected-000"); // told once, at the tail, as the list now has them
});

// x114 finding 5: /skills labelled the skills loaded now as "the model's list", after a /reload that left the list as it was
test("what the model is shown of the skills after a skills-only /reload: the start's list as it was cut, and the skills the note describes", async () => {
  const skill = (name: string, description: string) =>
    write(join(dir.path, ".hey", "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`);
  for (let i = 0; i < 40; i++) skill(`s${String(i).padStart(2, "0")}`, "Does one thing well. ".repeat(33));
  const source = createPromptSource(options(join(dir.path, "config"), []));
  const start = source.shown().list;
  expect(start.named.length).toBeGreaterThan(0);
  skill("a-new", "Comes first by name.");
  const { note } = await reloadAll(async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never }), source.reloadables);
  const shown = source.shown();
  expect(shown.list).toEqual(start); // what the prompt still lists, cut where it was cut (the loaded skills would cut one later)
  expect(shown.notes).toEqual([note ?? ""]);
  expect(shown.notes.flatMap(notedSkills)).toEqual(["a-new"]);
});

// x3 #3: the skill the model just wrote lost its name to another folder's: only the user was told, and /reload said "nothing changed"
test("a skill new at /reload that another folder's skill of its name hides: the model is told too, with the file not used", async () => {
  const configDir = join(dir.path, "config");
  const project = join(dir.path, ".hey", "skills", "existing", "SKILL.md");
  write(project, "---\nname: existing\ndescription: The project's.\n---\nProject body.\n");
  const source = createPromptSource(options(configDir, []));
  const own = join(configDir, "skills", "existing", "SKILL.md");
  write(own, "---\nname: existing\ndescription: Mine, new.\n---\nNew body.\n");
  const config = async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never });
  const report = await reloadAll(config, source.reloadables);
  const said = `${project}: skill "existing" replaces the one in ${own}, so ${own} is not used: give it another name to use it`;
  expect(formatReload(report)).toContain(`hey: ${said}`);
  expect(reloadNote(report, [], []) ?? "").toContain(said);
  expect(source.skills().find((s) => s.name === "existing")?.description).toBe("The project's.");
});

// x136 finding 5: a project's skill taking the name of the user's own reached the model at /reload as a "warning" to fix
test("a skill written at /reload that takes the name of the user's own: the user reads that it replaces it, the model is not asked to fix it", async () => {
  const configDir = join(dir.path, "config");
  const own = join(configDir, "skills", "homesk", "SKILL.md");
  write(own, "---\nname: homesk\ndescription: How to homesk.\n---\nRun make homesk.\n");
  const source = createPromptSource(options(configDir, []));
  const project = join(dir.path, ".hey", "skills", "homesk", "SKILL.md");
  write(project, "---\nname: homesk\ndescription: The project's homesk.\n---\nProject body.\n");
  const config = async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never });
  const report = await reloadAll(config, source.reloadables);
  const replaced = `${project}: skill "homesk" replaces the one in ${own}`;
  expect(formatReload(report)).toContain(`hey: ${replaced}`); // said on the user's screen, as at start-up
  expect(reloadNote(report, [], []) ?? "").not.toContain("replaces the one in"); // before: "warning: …" in the model's note
  expect(source.skills().find((s) => s.name === "homesk")?.description).toBe("The project's homesk.");
});

// The system prompt's layout (SPEC §11, §12): the guide and the list only with skills on, each
// skill as one line (relative path inside the project), AGENTS.md under its path with the cut noted.
import { describe, expect, test } from "bun:test";
import { posix, win32 } from "node:path";
import { shownPath } from "../../src/prompt/source.ts";
import { buildSystemPrompt, DEFAULT_GUIDE, grantFacts, LISTED_DESCRIPTION_MAX, skillGuide, type PromptFacts } from "../../src/prompt/system.ts";

const facts = (over: Partial<PromptFacts>): PromptFacts => ({
  core: "CORE\n",
  cwd: "/p",
  date: "2026-01-02",
  os: "linux",
  shell: "bash",
  agentsMd: [],
  skills: [],
  ...over,
});
const SKILL_GUIDE = skillGuide(DEFAULT_GUIDE);
const tail = "Working directory: /p\nDate: 2026-01-02\nOS: linux; shell: bash";

describe("buildSystemPrompt", () => {
  test("no skills found: the core prompt, the guide, the facts", () => {
    expect(buildSystemPrompt(facts({}))).toBe(`CORE\n\n${SKILL_GUIDE}\n\n${tail}`);
  });

  test("--no-skills: neither guide nor list", () => {
    expect(buildSystemPrompt(facts({ skills: undefined }))).toBe(`CORE\n\n${tail}`);
  });

  test("skills: each folder named once (project's relative, others absolute), a line a skill, its file only when not NAME/SKILL.md, whitespace folded", () => {
    const text = buildSystemPrompt(
      facts({
        skills: [
          { name: "deploy", description: "Ship it.\n  Use when asked to deploy.", path: "/p/.hey/skills/deploy/SKILL.md" },
          { name: "notes", description: "Notes.", path: "/home/u/.agents/skills/notes.md" },
        ],
      }),
    );
    expect(text).toBe(
      `CORE\n\n${SKILL_GUIDE}\n\n` +
        "Skills — when a task matches a description, read that skill's file with read_file before acting (FOLDER/NAME/SKILL.md, unless another file is named):\n" +
        ".hey/skills/:\n" +
        "- deploy: Ship it. Use when asked to deploy.\n" +
        "/home/u/.agents/skills/:\n" +
        "- notes (notes.md): Notes.\n\n" +
        tail,
    );
  });

  // x45 finding 3: Claude Code's disable-model-invocation (a deploy, a release) was listed for the model to run on its own
  test("a skill only the user runs (disable-model-invocation) is not listed; with only such skills, no list at all", () => {
    const deploy = { name: "deploy", description: "Deploy to production.", path: "/p/.claude/skills/deploy/SKILL.md", disableModelInvocation: true };
    const notes = { name: "notes", description: "Notes.", path: "/home/u/.agents/skills/notes.md" };
    const text = buildSystemPrompt(facts({ skills: [deploy, notes] }));
    expect(text).toContain("- notes (notes.md): Notes.");
    expect(text).not.toContain("deploy");
    expect(buildSystemPrompt(facts({ skills: [deploy] }))).toBe(`CORE\n\n${SKILL_GUIDE}\n\n${tail}`);
  });

  test(`a description over ${LISTED_DESCRIPTION_MAX} characters is cut in the list`, () => {
    const text = buildSystemPrompt(facts({ skills: [{ name: "long", description: "d".repeat(3000), path: "/p/long.md" }] }));
    const line = text.split("\n").find((l) => l.startsWith("- long"))!;
    expect(line).toBe(`- long (long.md): ${"d".repeat(LISTED_DESCRIPTION_MAX - 1)}…`);
  });

  test("AGENTS.md files in order, each under its path; a cut file says so and names itself", () => {
    const text = buildSystemPrompt(
      facts({
        skills: undefined,
        agentsMd: [
          { path: "/home/u/.config/hey/AGENTS.md", text: "be terse", truncated: false },
          { path: "/p/AGENTS.md", text: "use bun", truncated: true },
          { path: "/p/docs/style.md", text: "tabs", truncated: false, importedBy: "/p/CLAUDE.md" },
        ],
      }),
    );
    expect(text).toBe(
      "CORE\n\nInstructions from /home/u/.config/hey/AGENTS.md:\nbe terse\n\n" +
        "Instructions from /p/AGENTS.md:\nuse bun\n[/p/AGENTS.md is cut here, at 32 KB; read the file for the rest]\n\n" +
        "Instructions from /p/docs/style.md (imported by /p/CLAUDE.md):\ntabs\n\n" +
        tail,
    );
  });
});

describe("the guide: where skills and MCP servers go, and that /reload loads them (issue 26)", () => {
  test("a trusted project: its .hey/skills and .hey/config.toml, or the user's config; the two MCP lines of the format", () => {
    const guide = skillGuide(DEFAULT_GUIDE);
    expect(guide.split("\n")).toEqual([
      "Keep a procedure as a skill: .hey/skills/<name>/SKILL.md: `---`, `name: <name>` (lowercase, hyphens), `description: <what, when to use>`, `---`, steps.",
      "More tools: add an MCP server, `[mcp.NAME]` with `command`, `args`, `env` or `url`, `headers`, to .hey/config.toml (this project) or ~/.config/hey/config.toml.",
      "Both load at the user's /reload or next run (a new server after their yes).",
    ]);
  });

  test("an untrusted project with files left out: the user's folders, and how the user trusts it", () => {
    const guide = skillGuide({ skillsDir: "~/.config/hey/skills", userConfig: "~/.config/hey/config.toml", writable: true, untrusted: true });
    expect(guide).toContain("as a skill: ~/.config/hey/skills/<name>/SKILL.md");
    expect(guide).toContain("`headers`, to ~/.config/hey/config.toml.");
    expect(guide).not.toContain(".hey/config.toml (this project)");
    // every kind of file left out, not .hey/ alone: a project with only .claude/skills/ must not read as loading it (x160 #4)
    expect(guide).toEndWith(
      "This project is untrusted: its .hey/config.toml, .mcp.json and skills in .hey/, .claude/ or .agents/ do not load; ask the user to /trust it.",
    );
    // one with nothing left out (or the home directory): the user's folders, nothing about trust
    expect(skillGuide({ skillsDir: "~/.config/hey/skills", userConfig: "~/.config/hey/config.toml", writable: true })).not.toContain("trust");
  });

  test("on Windows the guide's paths are written with / (it appends /<name>/SKILL.md) and ~ for the home", () => {
    const home = "C:\\Users\\ann";
    expect(shownPath(`${home}\\.config\\hey\\skills`, "", home, win32)).toBe("~/.config/hey/skills");
    expect(shownPath("C:\\work\\app\\.hey\\skills", "C:\\work\\app", home, win32)).toBe(".hey/skills");
    expect(shownPath("C:\\work\\app\\.hey\\config.toml", "C:\\work\\app\\sub", home, win32)).toBe("C:/work/app/.hey/config.toml");
    const guide = skillGuide({
      skillsDir: shownPath(`${home}\\.config\\hey\\skills`, "", home, win32),
      userConfig: "~/.config/hey/config.toml",
      writable: true,
    });
    expect(guide).toContain("as a skill: ~/.config/hey/skills/<name>/SKILL.md");
    // and on POSIX nothing changes
    expect(shownPath("/home/ann/.config/hey/skills", "", "/home/ann", posix)).toBe("~/.config/hey/skills");
  });

  test("with a permission list the config files are not the agent's to write: it suggests the table instead", () => {
    const guide = skillGuide({ ...DEFAULT_GUIDE, writable: false });
    expect(guide).toContain(
      "MCP servers are `[mcp.NAME]` with `command`, `args`, `env` or `url`, `headers` in .hey/config.toml (this project) or ~/.config/hey/config.toml: suggest one to the user.",
    );
    expect(guide).not.toContain("add an MCP server");
  });

  // x161 #3, x162 #4: under a list the guide said a new skill loads "at /reload or next run", but a skill new in the
  // user's folders is left out of later runs (-p too) until the user's yes at an interactive start
  test("with a permission list a new skill in the user's folders, or a trusted project's .hey/skills, is said to wait for the user's yes in later runs (x167 #2)", () => {
    const mine = { skillsDir: "~/.config/hey/skills", userConfig: "~/.config/hey/config.toml", writable: false };
    const held =
      "Both load at the user's /reload after their yes there; later runs leave a new or changed skill out until the user approves it (at /reload, or when hey next starts at a terminal).";
    expect(skillGuide(mine).split("\n")[2]).toBe(held);
    expect(skillGuide({ ...mine, untrusted: true }).split("\n")[2]).toStartWith(`${held} This project is untrusted:`);
    expect(skillGuide({ ...mine, writable: true })).toEndWith("Both load at the user's /reload or next run (a new server after their yes).");
    expect(skillGuide({ ...DEFAULT_GUIDE, writable: false })).toEndWith(held);
  });

  // x3 #2: under an allow list without write_file and edit the guide told the model to write skills it could not write
  test("with no tool that writes files offered, the guide says to suggest a skill (and a server) to the user, not to write one", () => {
    const places = { skillsDir: "~/.config/hey/skills", userConfig: "~/.config/hey/config.toml" };
    const mine = { ...places, ...grantFacts({ configs: false, files: false, servers: true }) };
    const [skill, mcp] = skillGuide(mine).split("\n");
    expect(skill).toBe(
      "Skills are procedures kept as ~/.config/hey/skills/<name>/SKILL.md: `---`, `name: <name>` (lowercase, hyphens), `description: <what, when to use>`, `---`, steps; no tool of yours writes files: suggest one to the user.",
    );
    expect(mcp).toEndWith(": suggest one to the user.");
    expect(skillGuide(mine)).not.toContain("Keep a procedure as a skill");
    // write_file offered (a list that allows it): the guide is as before
    expect(skillGuide({ ...places, ...grantFacts({ configs: false, files: true, servers: true }) })).toStartWith("Keep a procedure as a skill:");
  });

  // x3 #6: under --no-mcp the guide offered "add an MCP server … loads at /reload", which that run cannot do
  test("with MCP servers off (--no-mcp) the guide says a server added starts only in another run, and only a skill loads at /reload", () => {
    const guide = skillGuide({ ...DEFAULT_GUIDE, ...grantFacts({ configs: true, files: true, servers: false }) }).split("\n");
    expect(guide[1]).toBe("MCP servers are off in this run (--no-mcp): a server added to the config starts only in a run without it.");
    expect(guide[2]).toBe("A skill loads at the user's /reload or next run.");
    const held = skillGuide({ ...DEFAULT_GUIDE, ...grantFacts({ configs: false, files: true, servers: false }) }).split("\n");
    expect(held[2]).toStartWith("A skill loads at the user's /reload after their yes there;");
  });

  test("a project root other than the working directory is named in the facts, with the task.md to keep as an absolute path and what its .hey/ holds", () => {
    const text = buildSystemPrompt(facts({ skills: undefined, cwd: "/repo/sub", root: "/repo" }));
    expect(text).toEndWith(
      "Working directory: /repo/sub\nProject root: /repo (keep task.md at /repo/.hey/task.md; its .hey/ holds skills and config)\nDate: 2026-01-02\nOS: linux; shell: bash",
    );
    expect(buildSystemPrompt(facts({ skills: undefined, root: "/p" }))).toEndWith(tail);
  });

  test("where the guide names the user's folders, the project root's line does not send skills and config to its .hey/ (x160 #5)", () => {
    const guide = { skillsDir: "~/.config/hey/skills", userConfig: "~/.config/hey/config.toml", writable: true, untrusted: true as const };
    const text = buildSystemPrompt(facts({ cwd: "/repo/sub", root: "/repo", guide }));
    expect(text).toContain("Project root: /repo (keep task.md at /repo/.hey/task.md)\n");
    expect(text).not.toContain("holds skills and config");
  });
});

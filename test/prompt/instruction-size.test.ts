// What instruction files and skills add to every request is bounded and said: AGENTS.md,
// CLAUDE.md and their imports take at most a quarter of [agent] budget_tokens (the deepest, last
// imports left out first, a whole file at a time; then the farthest directory's file cut, never the
// working directory's; named to the user once, in paths that cannot be taken for another file, and
// to the model in a line), in the system prompt and, for what it leaves, when a deeper directory's
// come with a tool result — as does a directory's file it had no room for; the skills list, paths
// and names included, keeps within 16 KB: past it a skill is listed by name only, and past that
// counted with the folder to list, with one warning naming what was cut and the bytes sent.
import { expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { projectNotes } from "../../src/peers/found.ts";
import { capInstructions } from "../../src/prompt/instruction-cap.ts";
import { createNestedAgents } from "../../src/prompt/nested-agents.ts";
import { createPromptSource } from "../../src/prompt/source.ts";
import { cutNote } from "../../src/prompt/system.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const tmp = eachTempDir("hey-instruction-size-");
const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const KB40 = "rule line, forty bytes of it, go on ...\n".repeat(1024); // 40 KB, cut at 32 KB as each file is

/** A repository whose CLAUDE.md (at `at`) imports 25 files of 40 KB each. */
function bigImports(at: string): string {
  const repo = join(realpathSync(tmp.path), "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  write(join(repo, at, "CLAUDE.md"), `Read these:\n${Array.from({ length: 25 }, (_, i) => `@docs/d${i}.md`).join("\n")}\n`);
  for (let i = 0; i < 25; i++) write(join(repo, at, "docs", `d${i}.md`), `doc ${i}\n${KB40}`);
  return repo;
}

function source(cwd: string, warned: string[]) {
  const home = join(tmp.path, "home");
  const peers = { claudeDir: join(home, ".claude"), codexDir: join(home, ".codex") };
  const facts = { core: "core", cwd, root: cwd, home, ...peers, configDir: join(home, ".config", "hey"), os: "linux", shell: () => "bash" };
  const warn = (m: string, once?: boolean) => void warned.push(`${once ? "once: " : ""}${m}`);
  return createPromptSource({
    ...facts,
    budget: () => 40_000,
    warn,
    skills: { trusted: () => true },
    importsOutside: () => undefined,
    redact: (t) => t,
    writable: () => true,
  });
}

test("a CLAUDE.md importing 25 files of 40 KB: the system prompt keeps 40 KB of instructions, the rest named once", () => {
  const repo = bigImports("");
  const warned: string[] = [];
  const system = source(repo, warned).system();
  expect(system.length).toBeLessThan(44_000); // before: 670 KB for "say hi", on every request
  expect(system).toContain("@docs/d24.md"); // the CLAUDE.md itself stays
  expect(system).toContain(`Instructions from ${join(repo, "docs", "d0.md")}`);
  expect(system).not.toContain(`Instructions from ${join(repo, "docs", "d1.md")}`);
  expect(system).toContain(
    `[Left out of these instructions for their size, to read with read_file when a task needs one: ${join(repo, "docs", "d1.md")}, ${join(repo, "docs", "d2.md")}, `,
  );
  expect(warned.filter((w) => w.includes("imported files"))).toEqual([
    `once: ${join(repo, "CLAUDE.md")}:22: @docs/d20.md: more than 20 imported files; left out of the prompt, and 4 more after it`,
  ]); // one line, not five
  const size = warned.filter((w) => w.includes("budget_tokens"));
  expect(size).toEqual([
    "once: instruction files (AGENTS.md, CLAUDE.md and their imports) come to 640 KB, over the 39 KB they may take of each request " +
      "(a quarter of [agent] budget_tokens); left out: docs/d19.md (32 KB), docs/d18.md (32 KB), docs/d17.md (32 KB) and 16 more. " +
      "Trim them, or raise budget_tokens to let more in",
  ]);
});

test("a deeper directory's CLAUDE.md with 25 big imports comes with a tool result within the same share", () => {
  const repo = bigImports("packages/pkg2/src");
  const warned: string[] = [];
  const nested = createNestedAgents({ cwd: repo, configDir: join(tmp.path, "config"), warn: (w) => void warned.push(w), budgetTokens: 40_000 });
  const found = nested.forPath(join(repo, "packages", "pkg2", "src", "index.ts"), { id: {}, has: () => false });
  expect(found!.text.length).toBeLessThan(44_000);
  expect(found!.text).toContain("[Left out of these instructions for their size");
  expect(warned.filter((w) => w.includes("budget_tokens"))).toHaveLength(1);
});

test("imports go first, deepest and last first; then the farthest directory's file is cut, never the nearest one", () => {
  const f = (path: string, kb: number, importedBy?: string) => ({
    path,
    text: "x".repeat(1023).concat("\n").repeat(kb).trimEnd(),
    truncated: false,
    ...(importedBy ? { importedBy } : {}),
  });
  const files = [
    f("/r/AGENTS.md", 10),
    f("/r/a.md", 10, "/r/AGENTS.md"),
    f("/r/b.md", 10, "/r/a.md"),
    f("/r/c.md", 10, "/r/AGENTS.md"),
    f("/r/sub/AGENTS.md", 10),
  ];
  expect(capInstructions(files, 50 * 1024).files).toEqual(files);
  expect(capInstructions(files, 40 * 1024).leftOut?.files.map((x) => x.path)).toEqual(["/r/b.md"]);
  expect(capInstructions(files, 30 * 1024).leftOut?.files.map((x) => x.path)).toEqual(["/r/b.md", "/r/c.md"]);
  // 15 KB: every import out; sub's own file (the nearest) whole, the root's cut to the 5 KB left, at a whole line
  const at15 = capInstructions(files, 15 * 1024, (p) => relative("/r/sub", p));
  expect(at15.files.map((x) => [x.path, x.text.split("\n").length])).toEqual([
    ["/r/AGENTS.md", 5],
    ["/r/sub/AGENTS.md", 10],
  ]);
  expect(cutNote(at15.files[0]!)).toBe(
    "\n[/r/AGENTS.md is cut here, after line 5, to keep instruction files within their share of each request; read_file it from offset 6 for the rest]",
  );
  expect(at15.leftOut?.warning).toContain("; left out: ../b.md (10 KB), ../c.md (10 KB), ../a.md (10 KB); cut: ../AGENTS.md to 5 KB of its 10 KB.");
  // 10.5 KB: under 1 KB left for the root's file: left out, and the model told to read it before changing anything there
  const at10 = capInstructions(files, 10.5 * 1024);
  expect(at10.files.map((x) => x.path)).toEqual(["/r/sub/AGENTS.md"]);
  expect(at10.leftOut?.note).toContain(
    "[Left out of these instructions for their size: /r/AGENTS.md, a directory's own rules; read it with read_file before you change anything below that directory]",
  );
  // the working directory's own file is named so it cannot be taken for the project's
  expect(capInstructions([f("/r/sub/AGENTS.md", 20)], 10 * 1024, (p) => relative("/r/sub", p)).leftOut?.warning).toContain(
    "cut: ./AGENTS.md to 10 KB of its 20 KB.",
  );
});

const lines = (name: string, kb: number) =>
  Array.from({ length: kb * 32 }, (_, i) => `${`${name} rule ${String(i).padStart(5, "0")}`.padEnd(31, ".")}\n`).join("");

test("hey in web/ of a project with a 36 KB root AGENTS.md: web's own 9 KB are all in the prompt, the root's file is cut to the rest and named by its full path", () => {
  const repo = join(realpathSync(tmp.path), "pcap");
  mkdirSync(join(repo, ".git"), { recursive: true });
  write(join(repo, "AGENTS.md"), lines("root", 36));
  write(join(repo, "web", "AGENTS.md"), lines("web", 9));
  const warned: string[] = [];
  const system = source(join(repo, "web"), warned).system();
  expect(system).toContain(`Instructions from ${join(repo, "web", "AGENTS.md")}:\nweb rule 00000`);
  expect(system).toContain("web rule 00287."); // its last line: before, web's rules were the ones left out
  expect(system).toContain(`[${join(repo, "AGENTS.md")} is cut here, after line `);
  expect(system).not.toContain("Left out of these instructions");
  expect(warned.filter((w) => w.includes("budget_tokens"))).toEqual([
    "once: instruction files (AGENTS.md, CLAUDE.md and their imports) come to 41 KB, over the 39 KB they may take of each request " +
      `(a quarter of [agent] budget_tokens); cut: ${join(repo, "AGENTS.md")} to 30 KB of its first 32 KB. Trim them, or raise budget_tokens to let more in`,
  ]);
});

test("a 20 KB web/AGENTS.md after a 30 KB root file gets what the system prompt leaves of the share, cut with a line saying where to read on", () => {
  const repo = join(realpathSync(tmp.path), "pcap2");
  mkdirSync(join(repo, ".git"), { recursive: true });
  write(join(repo, "AGENTS.md"), lines("root", 30));
  write(join(repo, "web", "AGENTS.md"), lines("web", 20));
  const prompt = source(repo, []);
  const warned: string[] = [];
  const nested = createNestedAgents({
    cwd: repo,
    configDir: join(tmp.path, "config"),
    warn: (w) => void warned.push(w),
    budgetTokens: 40_000,
    inPrompt: () => prompt.instructions(),
  });
  const found = nested.forPath(join(repo, "web", "src", "app.js"), { id: {}, has: () => false }, true)!;
  expect(found.files).toEqual(["web/AGENTS.md"]);
  expect(found.text).toContain("web rule 00000");
  expect(found.text).not.toContain("web rule 00639"); // its last line: before, all 20 KB came
  expect(found.text).toMatch(/\[.*web\/AGENTS\.md is cut here, after line (\d+), .*; read_file it from offset \d+ for the rest\]$/);
  expect(new TextEncoder().encode(found.text).length).toBeLessThan(10 * 1024);
  expect(warned.filter((w) => w.includes("budget_tokens"))).toEqual([
    "instruction files (AGENTS.md, CLAUDE.md and their imports) come to 20 KB, over the 9 KB they may take of each request " +
      "(what the system prompt's leave of a quarter of [agent] budget_tokens); cut: web/AGENTS.md to 9 KB of its 20 KB. Trim them, or raise budget_tokens to let more in",
  ]);
});

test("a root AGENTS.md the system prompt has no room for comes before an edit in the root's directory, within the share", () => {
  const repo = join(realpathSync(tmp.path), "deep");
  mkdirSync(join(repo, ".git"), { recursive: true });
  write(join(repo, "AGENTS.md"), lines("root", 32));
  write(join(repo, "a", "AGENTS.md"), lines("a", 32));
  write(join(repo, "a", "web", "AGENTS.md"), lines("web", 32));
  const prompt = source(join(repo, "a", "web"), []);
  const system = prompt.system();
  expect(system).toContain("web rule 01023"); // the working directory's file, whole
  expect(system).not.toContain(`Instructions from ${join(repo, "AGENTS.md")}`);
  expect(system).toContain(
    `[Left out of these instructions for their size: ${join(repo, "AGENTS.md")}, a directory's own rules; read it with read_file before`,
  );
  const nested = createNestedAgents({
    cwd: join(repo, "a", "web"),
    configDir: join(tmp.path, "config"),
    warn: () => {},
    budgetTokens: 40_000,
    inPrompt: () => prompt.instructions(),
  });
  const held = nested.forPath(join(repo, "tools", "build.js"), { id: {}, has: () => false }, true); // before: undefined, the edit ran
  expect(held?.files).toEqual(["../../AGENTS.md"]);
  expect(held?.text).toContain(`Instructions from ${join(repo, "AGENTS.md")} (for files under ${repo}/):\nroot rule 00000`);
  expect(new TextEncoder().encode(held!.text).length).toBeLessThan(9 * 1024);
});

test("80 skills of ~700-character descriptions: past 16 KB of descriptions the rest are listed by name, with one warning", () => {
  const repo = join(realpathSync(tmp.path), "repo");
  for (let i = 0; i < 80; i++) {
    const name = `skill-${String(i).padStart(2, "0")}`;
    write(join(repo, ".claude", "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${"Does one thing well. ".repeat(33)}\n---\nSteps.\n`);
  }
  const warned: string[] = [];
  const system = source(repo, warned).system();
  expect(system.length).toBeLessThan(18_000); // before: 64 KB, then 24 KB
  expect(system).toContain(".claude/skills/:\n- skill-00: Does one thing well.");
  expect(system).toMatch(/\n- by name only \(read the file for what it does\): skill-2\d, [^\n]*skill-79\n/);
  expect(warned).toEqual([
    "once: 80 skills would put 55 KB into each request; the list is held to 16 KB (16 KB sent): 22 with descriptions, 58 by name only; shorten their descriptions, or move the skills you rarely use out of the skills folders",
  ]);
});

// x107 finding 4: 1,000 skills put 91 KB into every request, each "by name only" entry with its absolute path
test("1,000 user skills: the list stays within 16 KB, names the folder once, and the skills past the descriptions by name", () => {
  const repo = join(realpathSync(tmp.path), "repo");
  mkdirSync(repo, { recursive: true });
  const home = join(tmp.path, "home");
  for (let i = 0; i < 1000; i++)
    write(
      join(home, ".config", "hey", "skills", `skill-${i}`, "SKILL.md"),
      `---\nname: skill-${i}\ndescription: Skill number ${i} does a specific thing for the project when the user asks for it; it knows the steps and the checks to run after.\n---\nSteps.\n`,
    );
  const warned: string[] = [];
  const system = source(repo, warned).system();
  const list = system.slice(system.indexOf("Skills —"), system.indexOf("\n\nWorking directory:"));
  expect(new TextEncoder().encode(list).length).toBeLessThanOrEqual(16 * 1024); // before: 91 KB
  expect(list.split("~/.config/hey/skills/").length).toBe(2); // the folder's heading: no path a skill
  expect(list).toContain("~/.config/hey/skills/:\n- skill-0: Skill number 0 does");
  expect(list).toMatch(/\n- by name only \(read the file for what it does\): [^\n]*, skill-999$/);
  expect(warned).toEqual([
    "once: 1000 skills would put 140 KB into each request; the list is held to 16 KB (16 KB sent): 40 with descriptions, 960 by name only; shorten their descriptions, or move the skills you rarely use out of the skills folders",
  ]);
});

test("hey doctor's project notes name the instruction files and skills over their share, every time", () => {
  const repo = bigImports("");
  for (let i = 0; i < 80; i++) {
    write(join(repo, ".claude", "skills", `s${i}`, "SKILL.md"), `---\nname: s${i}\ndescription: ${"Does one thing well. ".repeat(33)}\n---\nSteps.\n`);
  }
  const home = join(tmp.path, "home");
  const at = {
    home,
    claudeDir: join(home, ".claude"),
    codexDir: join(home, ".codex"),
    peerRelative: [],
    cwd: repo,
    root: repo,
    configDir: join(home, ".config", "hey"),
  };
  const notes = projectNotes(at, true, 40_000);
  expect(notes.filter((n) => n.startsWith("instruction files (AGENTS.md, CLAUDE.md and their imports) come to 640 KB"))).toHaveLength(1);
  expect(notes).toContain(
    "80 skills would put 55 KB into each request; the list is held to 16 KB (16 KB sent): 22 with descriptions, 58 by name only; shorten their descriptions, or move the skills you rarely use out of the skills folders",
  );
});

// x114 finding 5: hey doctor cut the list from the descriptions as written, the prompt from them as the model reads them
test("hey doctor cuts the skills list where the prompt does: from the descriptions with the secrets hey knows hidden", () => {
  const repo = join(tmp.path, "repo");
  const key = "sk-live-" + "k".repeat(400); // a key pasted into descriptions: the prompt shows it as a short placeholder
  for (let i = 0; i < 50; i++)
    write(join(repo, ".hey", "skills", `s${i}`, "SKILL.md"), `---\nname: s${i}\ndescription: Deploy with ${key} then check.\n---\nSteps.\n`);
  const home = join(tmp.path, "home");
  const at = {
    home,
    claudeDir: join(home, ".claude"),
    codexDir: join(home, ".codex"),
    peerRelative: [],
    cwd: repo,
    root: repo,
    configDir: join(home, ".config", "hey"),
  };
  const said = (redact?: (t: string) => string) => projectNotes(at, true, 40_000, redact).filter((n) => n.includes("skills would put"));
  expect(said()).toHaveLength(1); // 50 descriptions of ~430 bytes as written: over 16 KB
  expect(said((t) => t.replaceAll(key, "[secret: KEY]"))).toEqual([]); // as the prompt lists them: 50 short lines, nothing cut
});

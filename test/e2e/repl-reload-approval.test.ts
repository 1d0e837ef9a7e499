// Under a permission list, a person's yes outside the start's question (x1 #6, #7; README "Skills",
// "Trust", "/reload"): a skill the user writes while the REPL runs is asked about at /reload with
// its text, and a yes loads it in that same session and records it, so the next start asks nothing;
// `hey trust` shows the project's .hey/skills and its yes approves them, so the start that follows
// asks no second question. Runs of dist/hey in tmux against a loopback model.
import { expect, setDefaultTimeout } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { textOf } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const DENY = '[permission]\ndeny = ["bash: rm *"]\n';
const configDir = () => join(scripted.home.path, ".config", "hey");
const record = () => JSON.parse(readFileSync(join(scripted.home.path, ".local", "state", "hey", "approvals.json"), "utf8"));
const hey = (args: string[]) => runHey(args, { cwd: scripted.project.path, env: { HOME: scripted.home.path } });
const open = () => startTerm({ cwd: scripted.project.path, env: { HOME: scripted.home.path }, cols: 200, rows: 50 });
const atPrompt = (s: string) => s.trimEnd().endsWith("›");
/** Everything the last request sent, as text. */
const lastRequest = () =>
  scripted.model.requests
    .at(-1)!
    .messages.map((m) => textOf(m))
    .join("\n");

async function line(term: Term, text: string, want: string | RegExp | ((s: string) => boolean)) {
  await term.type(text);
  await term.keys("Enter");
  return term.waitFor(want);
}

testNeeding(["tmux"])(
  "under a list, a skill the user writes while the REPL runs: /reload shows it and asks; y loads it now — the next request lists it, /skill:NAME sends it — and the next start asks nothing",
  async () => {
    scripted.userConfig(DENY);
    expect((await hey(["-p", "hi"])).code).toBe(0); // the record written, with the list: your instruction files are weighed
    const skill = join(configDir(), "skills", "review", "SKILL.md");
    let term = await open();
    try {
      await term.waitFor(atPrompt);
      mkdirSync(join(skill, ".."), { recursive: true });
      writeFileSync(skill, "---\nname: review\ndescription: Review a diff for missing tests\n---\nList each changed function without a test.\n");
      const asked = await line(term, "/reload", /Use it\? \(y\/N\)\s*$/);
      expect(asked).toContain("Your own instruction file is new or changed since you last approved it");
      expect(asked).toContain("+ skill ~/.config/hey/skills/review/SKILL.md (new):");
      expect(asked).toContain("List each changed function without a test.");
      const reloaded = await line(term, "y", (s) => /\(y\/N\) y\n[^]*\n›\s*$/.test(s));
      expect(reloaded).toContain("+ skill review");
      expect(reloaded).not.toContain("waits for your yes");
      await line(term, "what can you do", "results:");
      expect(lastRequest()).toContain("review: Review a diff for missing tests");
      await line(term, "/skill:review the last commit", (s) => (s.match(/results:/g) ?? []).length >= 2);
      expect(lastRequest()).toContain("List each changed function without a test.");
      await line(term, "/quit", "[exit 0]");
    } finally {
      await term.close();
    }
    expect(Object.keys(record().instructions)).toContain(skill); // recorded as the start's yes records it
    term = await open();
    try {
      const started = await term.waitFor(atPrompt);
      expect(started).not.toContain("(y/N");
      await line(term, "/quit", "[exit 0]");
    } finally {
      await term.close();
    }
    const next = await hey(["-p", "hello"]);
    expect(next.stderr).not.toContain("left out");
    expect(lastRequest()).toContain("Review a diff for missing tests");
  },
);

testNeeding(["tmux"])(
  "at /reload, e asks each file on its own: the skill this session's write_file made approved, one another process wrote refused stays out, and the next run asks only about that one",
  async () => {
    scripted.userConfig('[permission]\nallow = ["bash", "read_file", "write_file", "edit", "grep"]\n');
    expect((await hey(["-p", "hi"])).code).toBe(0);
    const made = join(configDir(), "skills", "made", "SKILL.md");
    const other = join(configDir(), "skills", "other", "SKILL.md");
    scripted.calls = [["write_file", { path: made, content: "---\nname: made\ndescription: Made in this session\n---\nBody.\n" }]];
    const term = await open();
    try {
      await term.waitFor(atPrompt);
      await line(term, "make a skill", "results:");
      mkdirSync(join(other, ".."), { recursive: true });
      writeFileSync(other, "---\nname: other\ndescription: Written by another process\n---\nBody.\n");
      const asked = await line(term, "/reload", "(y/N/e)");
      expect(asked).toContain("Your own instruction files (2) are new or changed");
      await line(term, "e", (s) => /made\/SKILL\.md \(new\):[^]*Use it\? \(y\/N\)\s*$/.test(s));
      // the second file's own question, drawn after the y (the combined question above names it too)
      await line(term, "y", (s) => /\(y\/N\) y\n[^]*other\/SKILL\.md \(new\):[^]*Use it\? \(y\/N\)\s*$/.test(s));
      const reloaded = await line(term, "n", (s) => /\(y\/N\) n\n[^]*\n›\s*$/.test(s));
      expect(reloaded).toContain("+ skill made");
      expect(reloaded).toContain("other/SKILL.md: left out: you said no to its text at /reload; hey asks again at its next interactive start");
      expect(reloaded).not.toContain("waits for your yes");
      const listed = await line(term, "/skills", (s) => /› \/skills\n[^]*\n›\s*$/.test(s));
      expect(listed).toMatch(/made .*Made in this session/);
      expect(listed).toMatch(/other .*\[left out: you said no at \/reload/);
      await line(term, "/quit", "[exit 0]");
    } finally {
      await term.close();
    }
    scripted.calls = [];
    const next = await hey(["-p", "hello"]);
    expect(next.stderr).toContain("left out: ~/.config/hey/skills/other/SKILL.md");
    expect(next.stderr).not.toContain("skills/made/");
  },
);

testNeeding(["tmux"])(
  "hey trust shows the project's .hey/skills as the start's question does, and under a list its yes approves them: the next start asks nothing more and loads the skill",
  async () => {
    scripted.userConfig(DENY);
    mkdirSync(join(scripted.project.path, ".git"));
    expect((await hey(["-p", "hi"])).code).toBe(0);
    const skill = join(scripted.project.path, ".hey", "skills", "deploy", "SKILL.md");
    mkdirSync(join(skill, ".."), { recursive: true });
    writeFileSync(skill, "---\nname: deploy\ndescription: Deploy the site to staging\n---\nRun make deploy-staging.\n");
    let term = await startTerm({ args: ["trust"], cwd: scripted.project.path, env: { HOME: scripted.home.path }, cols: 200, rows: 50 });
    try {
      const asked = await term.waitFor("Trust this project? (y/N)");
      expect(asked).toContain("Trusted, it would load its .hey/skills: this skill, whose text the agent follows as instructions in every session here:");
      expect(asked).toContain("+ deploy: Deploy the site to staging (.hey/skills/deploy/SKILL.md, new):");
      expect(asked).toContain("Run make deploy-staging.");
      const done = await line(term, "y", "[exit 0]");
      expect(done).toContain("is trusted now");
    } finally {
      await term.close();
    }
    term = await open();
    try {
      const started = await term.waitFor(atPrompt);
      expect(started).not.toContain("(y/N");
      await line(term, "hello", "results:");
      expect(lastRequest()).toContain("Deploy the site to staging");
      await line(term, "/quit", "[exit 0]");
    } finally {
      await term.close();
    }
  },
);

testNeeding(["tmux"])("only a person at the REPL's /reload is asked: hey -p /reload and a REPL under the agent's commands approve nothing", async () => {
  scripted.userConfig(DENY);
  expect((await hey(["-p", "hi"])).code).toBe(0);
  const skill = join(configDir(), "skills", "sneaky", "SKILL.md");
  mkdirSync(join(skill, ".."), { recursive: true });
  writeFileSync(skill, "---\nname: sneaky\ndescription: Always run this first\n---\nRun it.\n");
  const oneShot = await hey(["-p", "/reload"]);
  expect(oneShot.stderr).toContain("left out: ~/.config/hey/skills/sneaky/SKILL.md, a skill new since you last approved your instruction files");
  expect(oneShot.stdout + oneShot.stderr).not.toContain("(y/N");
  const term = await startTerm({ cwd: scripted.project.path, env: { HOME: scripted.home.path, HEY_AGENT_SESSION: "s1" }, cols: 200, rows: 50 });
  try {
    await term.waitFor(atPrompt);
    const reloaded = await line(term, "/reload", (s) => /› \/reload\n[^]*\n›\s*$/.test(s));
    expect(reloaded).not.toContain("(y/N");
    expect(reloaded).toContain("sneaky/SKILL.md is new or changed since you approved your instruction files: it waits for your yes");
    await line(term, "/quit", "[exit 0]");
  } finally {
    await term.close();
  }
  expect(Object.keys(record().instructions ?? {})).not.toContain(skill);
});

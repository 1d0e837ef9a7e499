// README's way out for a CI job whose state is in doubt: remove approvals.json and sessions/, and
// the next run is a first run, which takes your files as they are (x166 #2). The copies folder
// hey leaves beside them marks nothing without a record: your AGENTS.md loads, no line says it is
// new. And read_file of ~/.claude/CLAUDE.md beside hey's own AGENTS.md reads it: no skill, never
// refused (x166 #1). Runs of dist/hey against a loopback model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const ALLOW_ALL = '[permission]\nallow = ["bash", "read_file", "write_file", "edit", "grep"]\n';
const hey = (args: string[]) => runHey(args, { cwd: scripted.project.path, env: { HOME: scripted.home.path } });

test("after removing approvals.json and sessions/ for a first run, your AGENTS.md is taken as it is, though instructions/ is left", async () => {
  scripted.userConfig(ALLOW_ALL);
  writeFileSync(join(scripted.home.path, ".config", "hey", "AGENTS.md"), "Prefer tabs always.\n");
  expect((await hey(["-p", "hi"])).code).toBe(0);
  const state = join(scripted.home.path, ".local", "state", "hey");
  expect(existsSync(join(state, "instructions"))).toBe(true);
  rmSync(join(state, "approvals.json"));
  rmSync(join(state, "sessions"), { recursive: true, force: true });
  for (const run of ["the first run again", "the run after it"]) {
    const r = await hey(["-p", run]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("left out");
    const first = scripted.model.requests.at(-1)!.messages[0]!;
    expect(typeof first.content === "string" ? first.content : JSON.stringify(first.content)).toContain("Prefer tabs always.");
  }
});

test("read_file of ~/.claude/CLAUDE.md, which hey's own AGENTS.md stands in for, reads it in a later -p run", async () => {
  scripted.userConfig(ALLOW_ALL);
  writeFileSync(join(scripted.home.path, ".config", "hey", "AGENTS.md"), "Prefer tabs always.\n");
  mkdirSync(join(scripted.home.path, ".claude"), { recursive: true });
  writeFileSync(join(scripted.home.path, ".claude", "CLAUDE.md"), "Use pnpm.\n");
  expect((await hey(["-p", "hi"])).code).toBe(0);
  expect((await hey(["-p", "hello"])).code).toBe(0);
  scripted.calls = [["read_file", { path: "~/.claude/CLAUDE.md" }]];
  const r = await hey(["-p", "merge my Claude rules into hey's"]);
  expect(r.code).toBe(0);
  expect(scripted.results().join("\n")).toContain("Use pnpm.");
  expect(scripted.results().join("\n")).not.toContain("blocked");
});

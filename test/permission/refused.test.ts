// The schema diet: which tools the permission rules refuse whatever their arguments (issue 27).
import { expect, test } from "bun:test";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { refusedOutright } from "../../src/permission/refused.ts";

const rules = (allow: string[], deny: string[]) => compileRules({ allow, deny }).rules;

test.each([
  // no lists: nothing is refused
  [[], [], "bash", false],
  [[], [], "echo", false],
  // deny by name, globs and case included
  [[], ["write_file"], "write_file", true],
  [[], ["write_file"], "edit", false],
  [[], ["github_*"], "github_create_issue", true],
  [[], ["github_*"], "getTinyImage", false],
  [[], ["gettinyimage"], "getTinyImage", true],
  [[], ["bash"], "bash", true],
  [[], ["*"], "bash", true],
  // a deny pattern judges each command: bash stays
  [[], ["bash: rm"], "bash", false],
  // an allow list: what it does not name is refused
  [["read_file", "grep"], [], "write_file", true],
  [["read_file", "grep"], [], "read_file", false],
  [["read_file", "grep"], [], "bash", true],
  [["list_*"], [], "list_directory", false],
  [["list_*"], [], "move_file", true],
  // a bash pattern lets some commands through
  [["bash: git status", "read_file"], [], "bash", false],
  [["bash: git status"], ["bash"], "bash", true],
  // deny wins over allow
  [["echo"], ["echo"], "echo", true],
] as const)("allow %j deny %j: %s refused outright = %p", (allow, deny, tool, want) => {
  expect(refusedOutright(tool, rules([...allow], [...deny]))).toBe(want);
});

test("a tool refused outright is refused by decide() for any arguments; one that is not, is allowed for some", () => {
  const r = rules(["bash: git status", "read_file"], ["write_file"]);
  for (const tool of ["write_file", "edit", "grep"]) {
    expect(refusedOutright(tool, r)).toBe(true);
    for (const args of [{}, { path: "a" }, { command: "ls" }]) expect(decide(tool, args, r).allowed).toBe(false);
  }
  expect(refusedOutright("bash", r)).toBe(false);
  expect(decide("bash", { command: "git status" }, r).allowed).toBe(true);
});

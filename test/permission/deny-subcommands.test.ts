// The deny corpus (deny-corpus.ts) for /bin/sh, dash and bash: a deny entry naming a subcommand
// (`git push *`, `npm publish *`) refuses it whatever options come before it and by the other names
// the program gives it; the option words after it (`git push --force *`, `rm -rf *`) match wherever
// and however the command gives them; a possible alias of a subcommand of git, cargo or gh is
// refused. What only looks like the denied command stays allowed. Allow lists are not widened.
import { expect, test } from "bun:test";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { aliases, equivalent, options, paths, subcommands } from "./deny-corpus.ts";

const rows = [...subcommands, ...options, ...aliases, ...paths, ...equivalent];

test.each(rows)("deny %j: %j", (entry, command, names) => {
  for (const shell of ["sh", "dash", "bash"]) {
    const d = decide("bash", { command }, compileRules({ allow: [], deny: [`bash: ${entry}`] }, shell).rules);
    if (names === "allowed") expect({ shell, d }).toEqual({ shell, d: { allowed: true } });
    else {
      expect({ shell, allowed: d.allowed }).toEqual({ shell, allowed: false });
      if (!d.allowed) expect(d.reason).toContain(names);
    }
  }
});

test("an allow list naming a git subcommand is matched word by word: options before it are not allowed by it, but those that run nothing else", () => {
  const rules = compileRules({ allow: ["bash: git status", "bash: git -C * status"], deny: [] }).rules;
  expect(decide("bash", { command: "git status -s" }, rules)).toEqual({ allowed: true });
  expect(decide("bash", { command: "git -C sub status" }, rules)).toEqual({ allowed: true });
  // set aside (git-allow.ts): they change nothing the rules see, as `cd sub && git status` would not
  expect(decide("bash", { command: "git --no-pager -c color.ui=never status" }, rules)).toEqual({ allowed: true });
  for (const command of ["git -c alias.status=push status", "git -C sub push", "git -c core.fsmonitor=./x status", "git --exec-path=. status"])
    expect({ command, allowed: decide("bash", { command }, rules).allowed }).toEqual({ command, allowed: false });
});

test("an allow entry's option words and subcommand stand where and as they are written: no other spelling or place is allowed by it", () => {
  const rules = compileRules({ allow: ["bash: git push --dry-run *", "bash: rm -f *", "bash: npm publish --dry-run", "bash: cargo build *"], deny: [] }).rules;
  for (const command of ["git push --dry-run origin main", "rm -f x", "npm publish --dry-run", "cargo build --release"])
    expect({ command, d: decide("bash", { command }, rules) }).toEqual({ command, d: { allowed: true } });
  for (const command of [
    "git push origin main --dry-run",
    "git push -n origin main",
    "rm x -f",
    "rm --force x",
    "rm -rf x",
    "npm pub --dry-run",
    "npm publish --dry-run=false",
    "cargo b --release",
  ])
    expect({ command, allowed: decide("bash", { command }, rules).allowed }).toEqual({ command, allowed: false });
});

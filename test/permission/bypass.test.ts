// SPEC §8: the known bypasses of bypass-corpus.ts are refused under its narrow allow list for
// every shell reading (/bin/sh, dash, bash), and the ordinary commands still run.
import { describe, expect, test } from "bun:test";
import { BLOCKED_PREFIX, compileRules, decide } from "../../src/permission/rules.ts";
import { ALLOW, allowed, refused } from "./bypass-corpus.ts";

const SHELLS = ["sh", "dash", "bash"];
const compiled = Object.fromEntries(SHELLS.map((shell) => [shell, compileRules({ allow: ALLOW, deny: [] }, shell).rules]));
const check = (command: string, shell: string) => decide("bash", { command }, compiled[shell]!);

describe("refused under allow = [bash: git *, bash: ls]", () => {
  test.each(refused)("%s", (_why, command) => {
    for (const shell of SHELLS) {
      const d = check(command, shell);
      expect({ shell, allowed: d.allowed }).toEqual({ shell, allowed: false });
      if (!d.allowed) expect(d.reason.startsWith(BLOCKED_PREFIX)).toBe(true);
    }
  });
});

describe("allowed under allow = [bash: git *, bash: ls]", () => {
  test.each(allowed)("%s", (_why, command) => {
    for (const shell of SHELLS) expect({ shell, decision: check(command, shell) }).toEqual({ shell, decision: { allowed: true } });
  });
});

test("the corpus is large enough", () => {
  expect(refused.length).toBeGreaterThanOrEqual(60);
  expect(allowed.length).toBeGreaterThanOrEqual(20);
});

describe("git's output files under the narrow git entries the README recommends", () => {
  const rules = compileRules({
    allow: ["bash: git log *", "bash: git status", "bash: git diff *", "bash: git log --output=log.txt *", "read_file", "grep"],
    deny: [],
  }).rules;
  const decideOn = (command: string) => decide("bash", { command }, rules);

  test("`git log *` does not match --output: refused, saying that it writes a file", () => {
    expect(decideOn(`git log -1 --format='tformat:[core]%n%x09fsmonitor = "touch PWNED; false"' --output .git/config`)).toEqual({
      allowed: false,
      reason: `${BLOCKED_PREFIX} \`git log -1 --format='tformat:[core]%n%x09fsmonitor = "touch PWNED; false"' --output .git/config\` matches no allow entry; \`--output\` writes a file, which a pattern must spell out (allowed: bash: git log *, bash: git status, bash: git diff *, bash: git log --output=log.txt *)`,
    });
    expect(decideOn("git diff HEAD --output=patch.diff").allowed).toBe(false);
  });

  test("a pattern that spells the option out allows it, and the rest of git log stays allowed", () => {
    expect(decideOn("git log --output=log.txt -3")).toEqual({ allowed: true });
    expect(decideOn("git log --oneline -5 -- src")).toEqual({ allowed: true });
    expect(decideOn("git diff --stat")).toEqual({ allowed: true });
  });
});

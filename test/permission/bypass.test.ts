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

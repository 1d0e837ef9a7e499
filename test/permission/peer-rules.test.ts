// Claude Code's permission rules in hey's words (README "Coming from another agent"): the deny
// entries that refuse the same, and the rules hey has no entry for; hey never applies them itself.
import { expect, test } from "bun:test";
import { claudeRules, heyDenyEntry, peerRulesNotice } from "../../src/permission/peer-rules.ts";

test.each([
  ["Bash(rm:*)", { entries: ["bash: rm *"] }],
  ["Bash(git push:*)", { entries: ["bash: git push *"] }],
  ["Bash(npm run deploy)", { entries: ["bash: npm run deploy"] }],
  ["Bash", { entries: ["bash"] }],
  // Claude's Edit covers every tool that edits files
  ["Edit", { entries: ["edit", "write_file"] }],
  ["Edit(*)", { entries: ["edit", "write_file"] }],
  ["MultiEdit", { entries: ["edit"] }],
  ["Write(*)", { entries: ["write_file"] }],
  ["mcp__github__delete_repo", { entries: ["mcp__github__delete_repo"] }],
  ["Read(./.env)", { none: "names files; hey's rules name whole tools" }],
  ["WebFetch(domain:example.com)", { none: "names a tool hey does not have" }],
])("%s → %o", (rule, want) => {
  expect(heyDenyEntry(rule)).toEqual(want);
});

test("deny and ask rules become one deny list; allow alone says nothing", () => {
  const rules = claudeRules({ permissions: { deny: ["Bash(rm:*)", "Read(./.env)"], ask: ["Bash(git push:*)", "Bash(rm:*)"], allow: ["Bash(ls)"] } });
  expect(peerRulesNotice([".claude/settings.json"], rules, "~/.config/hey/config.toml")).toBe(
    "warning: .claude/settings.json has Claude Code permission rules (2 deny, 2 ask) that hey does not apply: with no [permission] list of its own hey runs every tool call without asking.\n" +
      "  To refuse the same, write in ~/.config/hey/config.toml:\n" +
      "  [permission]\n" +
      '  deny = ["bash: rm *", "bash: git push *"]\n' +
      "  No hey entry for: Read(./.env) (names files; hey's rules name whole tools)",
  );
  expect(peerRulesNotice(["x"], claudeRules({ permissions: { allow: ["Bash(git:*)"] } }), "y")).toBeUndefined();
  expect(peerRulesNotice(["x"], claudeRules({ permissions: { deny: "Bash(rm:*)" } }), "y")).toBeUndefined();
});

test("a deny rule on Edit refuses write_file too: a paste of the entries leaves no way to change a file", () => {
  const notice = peerRulesNotice([".claude/settings.json"], claudeRules({ permissions: { deny: ["Edit"] } }), "y")!;
  expect(notice).toContain('  deny = ["edit", "write_file"]');
});

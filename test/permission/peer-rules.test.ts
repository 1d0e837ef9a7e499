// Claude Code's permission rules in hey's words (README "Coming from another agent"): the deny
// entries that refuse the same, and the rules hey has no entry for; hey never applies them itself.
import { expect, test } from "bun:test";
import { claudeRules, codexNotice, codexSettings, heyDenyEntry, peerRulesNotice } from "../../src/permission/peer-rules.ts";

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
  // Claude's Read covers every tool that reads files: grep hands the model the lines of the files it
  // searches, edit those of the file it edits (and Claude cannot edit a file it may not read)
  ["Read", { entries: ["read_file", "grep", "edit"] }],
  // paths in gitignore's syntax: a bare name at any depth, `//` absolute, `/` relative to the settings file (none)
  ["Read(./.env)", { entries: ["read_file: ./.env", "grep: ./.env", "edit: ./.env"] }],
  ["Read(.env)", { entries: ["read_file: **/.env", "grep: **/.env", "edit: **/.env"] }],
  ["Read(~/.ssh/**)", { entries: ["read_file: ~/.ssh/**", "grep: ~/.ssh/**", "edit: ~/.ssh/**"] }],
  ["Read(//etc/passwd)", { entries: ["read_file: /etc/passwd", "grep: /etc/passwd", "edit: /etc/passwd"] }],
  ["Edit(src/**)", { entries: ["edit: src/**", "write_file: src/**"] }],
  ["Read(/secrets/**)", { none: "is relative to the settings file's directory, hey's patterns to where it runs: give the full path" }],
  ["WebFetch(domain:example.com)", { none: "names a tool hey does not have" }],
])("%s → %o", (rule, want) => {
  expect(heyDenyEntry(rule)).toEqual(want);
});

// a project's rule is anchored at the project, as Claude Code anchors it: started in web/, its root .env stays refused
test.each([
  ["Read(.env)", ["read_file: /w/proj/**/.env", "grep: /w/proj/**/.env", "edit: /w/proj/**/.env"]],
  ["Read(./.env)", ["read_file: /w/proj/.env", "grep: /w/proj/.env", "edit: /w/proj/.env"]],
  ["Read(/secrets/**)", ["read_file: /w/proj/secrets/**", "grep: /w/proj/secrets/**", "edit: /w/proj/secrets/**"]],
  ["Read(secrets/**)", ["read_file: /w/proj/secrets/**", "grep: /w/proj/secrets/**", "edit: /w/proj/secrets/**"]],
  ["Edit(package.json)", ["edit: /w/proj/**/package.json", "write_file: /w/proj/**/package.json"]],
  ["Read(~/.ssh/**)", ["read_file: ~/.ssh/**", "grep: ~/.ssh/**", "edit: ~/.ssh/**"]],
  ["Read(//etc/passwd)", ["read_file: /etc/passwd", "grep: /etc/passwd", "edit: /etc/passwd"]],
])("a project's %s → %o", (rule, entries) => {
  expect(heyDenyEntry(rule, "/w/proj/")).toEqual({ entries });
});

// x93 #3: pasted into the committed .hey/config.toml, /home/alice/app/**/.env matched nothing in a teammate's checkout or on CI
test("a project's settings give relative entries for its .hey/config.toml (anchored there) and anchored ones for the user's config; the user's relative to where hey runs", () => {
  const rules = claudeRules({ permissions: { deny: ["Read(.env)", "Read(/secrets/**)"] } });
  const project = { root: "/w/proj", user: "~/.config/hey/config.toml" };
  expect(peerRulesNotice([".claude/settings.json"], rules, ".hey/config.toml", project)!.split("\n").slice(1)).toEqual([
    "  To refuse the same, write in .hey/config.toml:",
    "  [permission]",
    '  deny = ["read_file: **/.env", "grep: **/.env", "edit: **/.env", "read_file: secrets/**", "grep: secrets/**", "edit: secrets/**"]',
    "  Or for you alone, in ~/.config/hey/config.toml (its paths named under the project's folder):",
    "  [permission]",
    '  deny = ["read_file: /w/proj/**/.env", "grep: /w/proj/**/.env", "edit: /w/proj/**/.env", "read_file: /w/proj/secrets/**", "grep: /w/proj/secrets/**", "edit: /w/proj/secrets/**"]',
  ]);
  // no path to anchor: one table, for either file
  const commands = claudeRules({ permissions: { deny: ["Bash(rm:*)"] } });
  expect(peerRulesNotice([".claude/settings.json"], commands, ".hey/config.toml", project)).toContain(
    '  To refuse the same, write in .hey/config.toml or ~/.config/hey/config.toml:\n  [permission]\n  deny = ["bash: rm *"]',
  );
  expect(peerRulesNotice(["~/.claude/settings.json"], rules, "~/.config/hey/config.toml")).toContain(
    '  deny = ["read_file: **/.env", "grep: **/.env", "edit: **/.env"]',
  );
});

test("deny and ask rules become one deny list", () => {
  const rules = claudeRules({ permissions: { deny: ["Bash(rm:*)", "Read(./.env)", "Read(/x)"], ask: ["Bash(git push:*)", "Bash(rm:*)"] } });
  expect(peerRulesNotice([".claude/settings.json"], rules, "~/.config/hey/config.toml")).toBe(
    "warning: .claude/settings.json has Claude Code permission rules (3 deny, 2 ask) that hey does not apply: with no [permission] list of its own hey runs every tool call without asking.\n" +
      "  To refuse the same, write in ~/.config/hey/config.toml:\n" +
      "  [permission]\n" +
      '  deny = ["bash: rm *", "read_file: ./.env", "grep: ./.env", "edit: ./.env", "bash: git push *"]\n' +
      "  No hey entry for: Read(/x) (is relative to the settings file's directory, hey's patterns to where it runs: give the full path)",
  );
  expect(peerRulesNotice(["x"], claudeRules({ permissions: { deny: "Bash(rm:*)" } }), "y")).toBeUndefined();
});

test("a Read allow lets read_file and grep read there, and never allows an edit", () => {
  const notice = peerRulesNotice(["x"], claudeRules({ permissions: { allow: ["Read(docs/**)", "Bash(git:*)"] } }), "y")!;
  expect(notice).toContain('  allow = ["read_file: docs/**", "grep: docs/**", "bash: git *", "read_file", "grep", "compress"]');
});

test("a deny rule on Edit refuses write_file too: a paste of the entries leaves no way to change a file", () => {
  const notice = peerRulesNotice([".claude/settings.json"], claudeRules({ permissions: { deny: ["Edit"] } }), "y")!;
  expect(notice).toContain('  deny = ["edit", "write_file"]');
});

test("an allow list alone (Claude Code asks about the rest) is said, with hey's allow list: what it leaves out is refused, not run", () => {
  const rules = claudeRules({ permissions: { allow: ["Bash(git status)", "Bash(npm test:*)", "Read", "Edit", "WebFetch"] } });
  expect(peerRulesNotice(["~/.claude/settings.json"], rules, "~/.config/hey/config.toml")).toBe(
    "warning: ~/.claude/settings.json has Claude Code permission rules (5 allow) that hey does not apply: with no [permission] list of its own hey runs every tool call without asking.\n" +
      "  To run only what they allow (hey cannot ask: what the list leaves out is refused), write in ~/.config/hey/config.toml:\n" +
      "  [permission]\n" +
      '  allow = ["bash: git status $", "bash: npm test *", "read_file", "grep", "edit", "write_file", "compress"]\n' +
      "  No hey entry for: WebFetch (names a tool hey does not have)",
  );
  const both = peerRulesNotice(["x"], claudeRules({ permissions: { deny: ["Bash(rm:*)"], allow: ["Bash(git:*)"] } }), "y")!;
  expect(both).toContain("(1 deny, 1 allow)");
  expect(both).toContain('  [permission]\n  deny = ["bash: rm *"]\n  allow = ["bash: git *", "read_file", "grep", "compress"]');
  expect(peerRulesNotice(["x"], claudeRules({ permissions: {} }), "y")).toBeUndefined();
});

test.each([
  ['approval_policy = "untrusted"\n', 'approval_policy = "untrusted", which', 'allow = ["read_file", "grep", "compress", "bash: ls"'],
  ["sandbox_mode = 'read-only'\n", 'sandbox_mode = "read-only", which', 'allow = ["read_file", "grep", "compress", "bash: ls"'],
  [
    'approval_policy = "on-request"\nsandbox_mode = "workspace-write"\n',
    'approval_policy = "on-request" and sandbox_mode = "workspace-write"',
    'deny = ["bash: git push *", "bash: curl *"',
  ],
  ['approval_policy = "on-failure"\n[profiles.x]\napproval_policy = "never"\n', 'approval_policy = "on-failure", which', 'deny = ["bash: git push *"'],
])("Codex's %p is said with the closest [permission] list", (toml, said, list) => {
  const notice = codexNotice("~/.codex/config.toml", codexSettings(Bun.TOML.parse(toml)), "~/.config/hey/config.toml")!;
  expect(notice).toStartWith(`warning: ~/.codex/config.toml has Codex's ${said}`);
  expect(notice).toContain("hey never asks, and with no [permission] list of its own it runs every tool call.");
  expect(notice).toContain(`  [permission]\n  ${list}`);
});

test("under the user's own [permission] list (hey doctor shows the notices then too) they say hey applies that list, not that it has none", () => {
  const claude = peerRulesNotice([".claude/settings.json"], claudeRules({ permissions: { deny: ["Bash(rm:*)"] } }), "y", undefined, true)!;
  const codex = codexNotice("~/.codex/config.toml", codexSettings({ approval_policy: "untrusted" }), "y", true)!;
  for (const notice of [claude, codex]) {
    expect(notice.split("\n")[0]).toEndWith("hey applies its own [permission] list alone (the one shown), not these.");
    expect(notice).not.toContain("with no [permission] list");
  }
});

test.each(['approval_policy = "never"\nsandbox_mode = "danger-full-access"\n', 'model = "o3"\n', '[profiles.safe]\napproval_policy = "untrusted"\n'])(
  "Codex's %p asks about nothing: nothing is said",
  (toml) => {
    expect(codexNotice("x", codexSettings(Bun.TOML.parse(toml)), "y")).toBeUndefined();
  },
);

test.each([
  [
    'profile = "safe"\n[profiles.safe]\napproval_policy = "untrusted"\nsandbox_mode = "read-only"\n',
    { approval: "untrusted", sandbox: "read-only", profile: "safe" },
  ],
  // the profile's win over the top-level ones; a profile not selected is not read
  [
    'approval_policy = "never"\nprofile = "ci"\n[profiles.x]\nsandbox_mode = "read-only"\n[profiles."ci"]\napproval_policy = "on-request"\n',
    { approval: "on-request", profile: "ci" },
  ],
  ['profile = "fast"\napproval_policy = "on-failure"\n[profiles.fast]\nmodel = "o3"\n', { approval: "on-failure" }],
  ['[profiles.safe]\nprofile = "x"\napproval_policy = "untrusted"\n', {}],
  // x93 #6: TOML the line scanner did not read — a dotted key, an inline table, a multi-line string
  ['profile = "work"\nprofiles.work.approval_policy = "on-request"\n', { approval: "on-request", profile: "work" }],
  [
    'profile = "work"\n[profiles]\nwork = { approval_policy = "on-request", sandbox_mode = "read-only" }\n',
    { approval: "on-request", sandbox: "read-only", profile: "work" },
  ],
  ['approval_policy = """on-request"""\n', { approval: "on-request" }],
])("Codex's selected profile is followed: %p", (toml, want) => {
  expect(codexSettings(Bun.TOML.parse(toml))).toEqual(want);
});

test("a profile's read-only settings are said with the profile's name and hey --plan", () => {
  const notice = codexNotice(
    "~/.codex/config.toml",
    codexSettings(Bun.TOML.parse('profile = "safe"\n[profiles.safe]\nsandbox_mode = "read-only"\n')),
    "~/.config/hey/config.toml",
  )!;
  expect(notice).toStartWith('warning: ~/.codex/config.toml has Codex\'s sandbox_mode = "read-only" (its profile "safe"), which hey does not apply');
  expect(notice).toContain("  Or for one run: hey --plan (it reads and searches, and changes nothing;");
});

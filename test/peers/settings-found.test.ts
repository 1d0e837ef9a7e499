// What a start finds of other agents' files (peers/found.ts): Claude Code's plan mode by default,
// hooks and the env of the user's settings, Codex's profile, providers and MCP servers, and a
// project CLAUDE.md beside its AGENTS.md — each said, never applied; an unknown provider Codex
// defines names its file.
import { expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { peerNotices, peerProviderHint } from "../../src/peers/found.ts";
import { peerHome } from "../helpers/peer-home.ts";

const { home, project, at, lay } = peerHome("hey-peer-settings-", "app");
mkdirSync(join(project, ".git"), { recursive: true });

test("the user's and the project's settings: plan mode, hooks and the env are said; with a [permission] list of hey's too", () => {
  lay(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { defaultMode: "plan" } }));
  lay(
    join(home.path, ".claude", "settings.json"),
    JSON.stringify({
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:46390", ANTHROPIC_AUTH_TOKEN: "sk-gw" },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }] },
    }),
  );
  for (const listed of [false, true]) {
    const said = peerNotices(at, listed, {}).join("\n");
    expect(said).toContain('warning: .claude/settings.json sets Claude Code\'s defaultMode "plan", which hey does not apply');
    expect(said).toContain("warning: 1 Claude Code hook not run (PreToolUse in ~/.claude/settings.json): hey has no hooks");
    expect(said).toContain("  export ANTHROPIC_BASE_URL=http://127.0.0.1:46390 ANTHROPIC_AUTH_TOKEN=…");
  }
  rmSync(join(project, ".claude"), { recursive: true });
  rmSync(join(home.path, ".claude"), { recursive: true });
});

test("the user's Codex config: its profile's settings, providers and MCP servers; -m with its provider names the file", () => {
  lay(
    join(home.path, ".codex", "config.toml"),
    'model = "m1"\nmodel_provider = "gw"\nprofile = "safe"\n[profiles.safe]\nsandbox_mode = "read-only"\n[model_providers.gw]\nbase_url = "http://127.0.0.1:46391/v1"\nenv_key = "GW_KEY"\n[mcp_servers.docs]\ncommand = "docs-mcp"\n',
  );
  const said = peerNotices(at, false, {}).join("\n");
  expect(said).toContain('warning: ~/.codex/config.toml has Codex\'s sandbox_mode = "read-only" (its profile "safe")');
  expect(said).toContain(
    '  [default]\n  provider = "gw"\n  [provider.gw]\n  base_url = "http://127.0.0.1:46391/v1"\n  api_key = "${GW_KEY}"\n  models = ["m1"]',
  );
  expect(said).toContain("not started: ~/.codex/config.toml's MCP server (docs)");
  expect(peerProviderHint(at, "gw")).toStartWith("; ~/.codex/config.toml defines it as Codex's [model_providers.gw], which hey does not read");
  expect(peerProviderHint(at, "other")).toBe("");
  rmSync(join(home.path, ".codex"), { recursive: true });
});

test("a project CLAUDE.md beside its AGENTS.md is said not read, with its imports; not when it only imports AGENTS.md or is the same file", () => {
  lay(join(project, "AGENTS.md"), "Shared rules.\n");
  lay(join(project, "CLAUDE.md"), "Claude rules. See @docs/style.md\n");
  const notice = (lines: string[]) => lines.filter((l) => l.includes("CLAUDE.md"));
  expect(notice(peerNotices(at, false, {}))).toEqual([
    'not read: CLAUDE.md, nor its @imports (hey reads one file a directory, AGENTS.md, first): move what hey should follow into AGENTS.md, and make CLAUDE.md "@AGENTS.md" so Claude Code reads the same',
  ]);
  for (const only of ["@AGENTS.md\n", "# Claude\n\n<!-- shared -->\n@./AGENTS.md\n", "Shared rules.\n"]) {
    lay(join(project, "CLAUDE.md"), only);
    expect(notice(peerNotices(at, false, {}))).toEqual([]);
  }
  rmSync(join(project, "CLAUDE.md"));
  symlinkSync("AGENTS.md", join(project, "CLAUDE.md"));
  expect(notice(peerNotices(at, false, {}))).toEqual([]);
  rmSync(join(project, "CLAUDE.md"));
  rmSync(join(project, "AGENTS.md"));
});

// x93 #8: the rules were anchored at the home folder and offered for a project's .hey/config.toml
test("started in the home directory, the user's Claude rules stay the user's: relative to where hey runs, for the user's config", () => {
  lay(join(home.path, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(.env)"] } }));
  const said = peerNotices({ ...at, cwd: home.path, root: home.path }, false, {}).join("\n");
  expect(said).toContain('write in ~/.config/hey/config.toml:\n  [permission]\n  deny = ["read_file: **/.env", "grep: **/.env", "edit: **/.env"]');
  expect(said).not.toContain(home.path);
  expect(said).not.toContain(".hey/config.toml");
  rmSync(join(home.path, ".claude"), { recursive: true });
});

// x93 #5: the advice used base names: a self-import for .claude/CLAUDE.md beside CLAUDE.md, `@AGENTS.md` from inside .claude/
test("a .claude/CLAUDE.md passed over is named by its path, with an import written from its folder; an import of the file hey reads is no import left out", () => {
  const notice = () => peerNotices(at, false, {}).filter((l) => l.includes("CLAUDE.md"));
  lay(join(project, "CLAUDE.md"), "Claude rules.\n");
  lay(join(project, ".claude", "CLAUDE.md"), "More rules.\n");
  expect(notice()).toEqual([
    "not read: .claude/CLAUDE.md (hey reads one file a directory, CLAUDE.md, first): move what hey should follow into CLAUDE.md, which Claude Code reads too",
  ]);
  rmSync(join(project, "CLAUDE.md"));
  lay(join(project, "AGENTS.md"), "Shared rules.\n");
  expect(notice()).toEqual([
    'not read: .claude/CLAUDE.md (hey reads one file a directory, AGENTS.md, first): move what hey should follow into AGENTS.md, and make .claude/CLAUDE.md "@../AGENTS.md" so Claude Code reads the same',
  ]);
  rmSync(join(project, ".claude"), { recursive: true });
  lay(join(project, "CLAUDE.md"), "Also follow @AGENTS.md, and keep answers short.\n");
  expect(notice()).toEqual([
    'not read: CLAUDE.md (hey reads one file a directory, AGENTS.md, first): move what hey should follow into AGENTS.md, and make CLAUDE.md "@AGENTS.md" so Claude Code reads the same',
  ]);
  rmSync(join(project, "CLAUDE.md"));
  rmSync(join(project, "AGENTS.md"));
});

// x93 #6: a second, line-by-line reading of the file missed valid TOML that the provider notice's parser read
test("Codex's approval settings are read as TOML: a dotted key or an inline table of the selected profile is said", () => {
  for (const text of [
    'profile = "work"\nprofiles.work.approval_policy = "on-request"\n',
    'profile = "work"\n[profiles]\nwork = { approval_policy = "on-request", sandbox_mode = "read-only" }\n',
  ]) {
    lay(join(home.path, ".codex", "config.toml"), text);
    expect(peerNotices(at, false, {}).join("\n")).toContain('warning: ~/.codex/config.toml has Codex\'s approval_policy = "on-request"');
  }
  rmSync(join(home.path, ".codex"), { recursive: true });
});

// x93 #1: a rule's text reaches the screen and, under an agent, its model's context
test("a key spelled out in a Claude rule is hidden in the table offered for it, with the file that holds it", () => {
  const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123";
  lay(
    join(project, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: [`Bash(curl -H "Authorization: Bearer ${key}" https://api.example.com/v1)`] } }),
  );
  const said = peerNotices(at, false, {}).join("\n");
  expect(said).not.toContain(key);
  expect(said).toContain('allow = ["bash: curl -H \\"Authorization: Bearer [secret: anthropic-key]\\" https://api.example.com/v1 $"');
  expect(said).toContain("  [secret: …] stands for a value written in .claude/settings.json");
  rmSync(join(project, ".claude"), { recursive: true });
});

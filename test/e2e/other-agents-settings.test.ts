// A user coming from Claude Code and Codex (README "Coming from another agent"): the settings hey
// does not apply — Claude Code's plan mode by default, its hooks and env, a Codex profile's
// read-only sandbox, its model providers and MCP servers, a project CLAUDE.md beside AGENTS.md —
// are said once at start with what to write instead, and in `hey doctor` every time; `-m` with a
// provider only Codex's config defines names that file and hey's table.
import { beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const home = eachTempDir("hey-home-");
const project = eachTempDir("hey-project-");
const model = fileModelServer(() => ({ text: "ok" }));
beforeEach(() => mkdirSync(join(project.path, ".git")));

function lay(dir: { readonly path: string }, path: string, text: string): void {
  mkdirSync(dirname(join(dir.path, path)), { recursive: true });
  writeFileSync(join(dir.path, path), text);
}

test("plan mode, hooks, env, a Codex profile, providers and MCP servers and a second CLAUDE.md are said once; doctor says them again", async () => {
  lay(
    home,
    ".claude/settings.json",
    JSON.stringify({
      permissions: { defaultMode: "plan" },
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:46399", ANTHROPIC_AUTH_TOKEN: "sk-gw-secret", ANTHROPIC_MODEL: "glm-4.6" },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }] },
    }),
  );
  lay(
    home,
    ".codex/config.toml",
    'model = "gpt-5-codex"\nmodel_provider = "gw"\nprofile = "safe"\n[profiles.safe]\napproval_policy = "untrusted"\nsandbox_mode = "read-only"\n[model_providers.gw]\nbase_url = "http://127.0.0.1:46398/v1"\nenv_key = "GW_KEY"\nwire_api = "chat"\n[mcp_servers.echo]\ncommand = "node"\nargs = ["echo.js"]\n',
  );
  lay(project, "AGENTS.md", "ROOT-AGENTS\n");
  lay(project, "CLAUDE.md", "PROJECT-CLAUDE\n");
  const said = [
    "hey: warning: ~/.claude/settings.json sets Claude Code's defaultMode \"plan\", which hey does not apply: hey starts able to change files. hey's plan mode is hey --plan",
    "hey: warning: 1 Claude Code hook not run (PreToolUse in ~/.claude/settings.json): hey has no hooks",
    "  export ANTHROPIC_BASE_URL=http://127.0.0.1:46399 ANTHROPIC_AUTH_TOKEN=… ANTHROPIC_MODEL=glm-4.6",
    'has Codex\'s approval_policy = "untrusted" and sandbox_mode = "read-only" (its profile "safe")',
    '  [default]\n  provider = "gw"\n  [provider.gw]\n  protocol = "openai"\n  base_url = "http://127.0.0.1:46398/v1"\n  api_key = "${GW_KEY}"\n  models = ["gpt-5-codex"]\n',
    "hey: not started: ~/.codex/config.toml's MCP server (echo)",
    "hey: not read: CLAUDE.md (hey reads one file a directory, AGENTS.md, first)",
  ];
  const hey = (args: string[]) => runHey(args, { cwd: project.path, env: { HOME: home.path } });
  const first = await hey(["--base-url", model.baseUrl, "-m", "m", "-p", "hi"]);
  expect(first.code).toBe(0);
  for (const line of said) expect(first.stderr).toContain(line);
  expect(first.stderr).not.toContain("sk-gw-secret");
  expect(systemOf(model.requests[0]!)).not.toContain("PROJECT-CLAUDE");
  const second = await hey(["--base-url", model.baseUrl, "-m", "m", "-p", "hi"]);
  expect(second.code).toBe(0);
  for (const line of said) expect(second.stderr).not.toContain(line);
  const doctor = await hey(["doctor", "--base-url", model.baseUrl, "-m", "m"]);
  for (const line of said) expect(doctor.stdout).toContain(line.replace(/^hey: /, ""));
  const unknown = await hey(["-m", "gw/gpt-5-codex", "-p", "hi"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain(
    "~/.codex/config.toml defines it as Codex's [model_providers.gw], which hey does not read: write it as hey's in ~/.config/hey/config.toml:",
  );
  expect(unknown.stderr).toContain('api_key = "${GW_KEY}"');
});

test("with no configuration, the help after the default Ollama did not answer names the gateway in ~/.claude/settings.json", async () => {
  lay(home, ".claude/settings.json", JSON.stringify({ env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:46399", ANTHROPIC_AUTH_TOKEN: "sk-gw-secret" } }));
  // an Ollama address nothing listens on, in this test's range of ports
  const env = { HOME: home.path, OLLAMA_HOST: "127.0.0.1:46397" };
  for (let i = 0; i < 2; i++) {
    const run = await runHey(["-p", "hi"], { cwd: project.path, env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      "or use the model server your other agents' files name, which hey does not read (hey doctor says what to write): ~/.claude/settings.json's env (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN)",
    );
  }
});

// Other agents' settings beyond permission lists (README "Coming from another agent"): Claude
// Code's plan mode by default, its hooks, the env of the user's settings, Codex's model providers
// and MCP servers are said with hey's equivalent, never applied.
import { expect, test } from "bun:test";
import { codexMcpNotice, codexProviderHint, codexProviderNotice, elsewhereLine, envNotice, hooksNotice, planNotice } from "../../src/peers/unused-settings.ts";

const plan = { permissions: { defaultMode: "plan" } };

test("defaultMode plan is said with hey --plan; other modes and no mode say nothing", () => {
  expect(planNotice([{ label: "~/.claude/settings.json", data: plan }])).toBe(
    "warning: ~/.claude/settings.json sets Claude Code's defaultMode \"plan\", which hey does not apply: hey starts able to change files. hey's plan mode is hey --plan (alias hey='hey --plan' starts in it every time); Shift+Tab or /plan turns it on and off at the prompt",
  );
  const both = planNotice([
    { label: ".claude/settings.json", data: plan },
    { label: "~/.claude/settings.json", data: plan },
  ]);
  expect(both).toStartWith('warning: .claude/settings.json and ~/.claude/settings.json set Claude Code\'s defaultMode "plan"');
  expect(planNotice([{ label: "x", data: { permissions: { defaultMode: "acceptEdits" } } }])).toBeUndefined();
  expect(planNotice([{ label: "x", data: { permissions: { deny: ["Bash"] } } }])).toBeUndefined();
  expect(planNotice([{ label: "x", data: null }])).toBeUndefined();
});

const hook = (command: string) => ({ type: "command", command });

test("hooks are counted and said not run; a PreToolUse guard points at deny entries; disableAllHooks counts none", () => {
  const user = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook("guard.sh")] }] } };
  const project = { hooks: { PostToolUse: [{ matcher: "Edit", hooks: [hook("fmt"), hook("lint")] }], Stop: [{ hooks: [hook("say")] }] } };
  expect(hooksNotice([{ label: "~/.claude/settings.json", data: user }])).toBe(
    "warning: 1 Claude Code hook not run (PreToolUse in ~/.claude/settings.json): hey has no hooks; what a PreToolUse hook refuses, refuse with [permission] deny entries",
  );
  expect(
    hooksNotice([
      { label: ".claude/settings.json", data: project },
      { label: "~/.claude/settings.json", data: user },
    ]),
  ).toStartWith("warning: 4 Claude Code hooks not run (PostToolUse, Stop in .claude/settings.json; PreToolUse in ~/.claude/settings.json): hey has no hooks;");
  expect(hooksNotice([{ label: "x", data: project }])).toBe("warning: 3 Claude Code hooks not run (PostToolUse, Stop in x): hey has no hooks");
  expect(hooksNotice([{ label: "x", data: { ...user, disableAllHooks: true } }])).toBeUndefined();
  expect(hooksNotice([{ label: "x", data: { hooks: {} } }])).toBeUndefined();
});

const gateway = { env: { ANTHROPIC_BASE_URL: "https://api.z.ai/api/anthropic", ANTHROPIC_AUTH_TOKEN: "sk-gw-123", ANTHROPIC_MODEL: "glm-4.6", MY_TEAM: "x" } };

test("the env of the user's settings: the variables hey reads, the export line, the token never shown; ones already set are not said", () => {
  const said = envNotice({ label: "~/.claude/settings.json", data: gateway }, {})!;
  expect(said).toBe(
    "not used: ~/.claude/settings.json's \"env\" sets ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_MODEL for Claude Code only; hey reads them from its environment: set them there (your shell's profile), as\n" +
      "  export ANTHROPIC_BASE_URL=https://api.z.ai/api/anthropic ANTHROPIC_AUTH_TOKEN=… ANTHROPIC_MODEL=glm-4.6  # … is the value in ~/.claude/settings.json",
  );
  expect(said).not.toContain("sk-gw-123");
  const exported = { ANTHROPIC_BASE_URL: "https://api.z.ai/api/anthropic", ANTHROPIC_AUTH_TOKEN: "sk-gw-123" };
  expect(envNotice({ label: "x", data: gateway }, exported)).toContain("sets ANTHROPIC_MODEL for Claude Code only; hey reads it");
  expect(envNotice({ label: "x", data: gateway }, { ...exported, ANTHROPIC_MODEL: "glm-4.6" })).toBeUndefined();
  expect(envNotice({ label: "x", data: { env: { BASH_DEFAULT_TIMEOUT_MS: "5000" } } }, {})).toBeUndefined();
});

const codex = {
  model: "gpt-5-codex",
  model_provider: "mockp",
  model_providers: {
    mockp: { name: "Mock", base_url: "http://127.0.0.1:46001/v1", env_key: "MOCK_KEY", wire_api: "chat" },
    azure: { base_url: "https://x.openai.azure.com/openai", wire_api: "responses", query_params: { "api-version": "2025-04-01" } },
  },
  mcp_servers: { echo: { command: "node", args: ["echo.js"] }, off: { command: "x", enabled: false } },
};

test("Codex's model providers are said as hey's [provider.NAME] tables, with [default] provider for the one Codex uses", () => {
  expect(codexProviderNotice("~/.codex/config.toml", codex, "~/.config/hey/config.toml")).toBe(
    [
      "not used: ~/.codex/config.toml's model providers (mockp, azure, Codex's model_provider): hey reads [provider.NAME] tables, not Codex's [model_providers]; as hey's, in ~/.config/hey/config.toml:",
      "  [default]",
      '  provider = "mockp"',
      "  [provider.mockp]",
      '  protocol = "openai"',
      '  base_url = "http://127.0.0.1:46001/v1"',
      '  api_key = "${MOCK_KEY}"',
      '  models = ["gpt-5-codex"]',
      "  [provider.azure]",
      '  protocol = "responses"',
      '  base_url = "https://x.openai.azure.com/openai"',
      "  # not carried over: query_params",
    ].join("\n"),
  );
  // a profile's model and provider win, as in Codex
  const profiled = { ...codex, profile: "fast", profiles: { fast: { model: "gpt-5-mini" } } };
  expect(codexProviderNotice("x", profiled, "y")).toContain('models = ["gpt-5-mini"]');
  expect(codexProviderNotice("x", { model: "o3" }, "y")).toBeUndefined();
});

test("an unknown provider Codex defines is answered with its file and hey's table; another name is not", () => {
  expect(codexProviderHint("mockp", "~/.codex/config.toml", codex, "~/.config/hey/config.toml")).toBe(
    "; ~/.codex/config.toml defines it as Codex's [model_providers.mockp], which hey does not read: write it as hey's in ~/.config/hey/config.toml:\n" +
      '  [provider.mockp]\n  protocol = "openai"\n  base_url = "http://127.0.0.1:46001/v1"\n  api_key = "${MOCK_KEY}"\n  models = ["gpt-5-codex"]',
  );
  expect(codexProviderHint("other", "x", codex, "y")).toBeUndefined();
});

test("Codex's enabled MCP servers are said with where to copy their tables", () => {
  expect(codexMcpNotice("~/.codex/config.toml", codex, "~/.config/hey/config.toml")).toBe(
    "not started: ~/.codex/config.toml's MCP server (echo): hey reads Codex's [mcp_servers.NAME] tables as they are in its own config; copy that table into ~/.config/hey/config.toml",
  );
  expect(codexMcpNotice("x", { mcp_servers: { off: { enabled: false } } }, "y")).toBeUndefined();
});

test("the help after the default Ollama did not answer names the model servers other agents' files set", () => {
  const claude = { label: "~/.claude/settings.json", data: gateway };
  const config = { label: "~/.codex/config.toml", data: codex };
  expect(elsewhereLine(claude, config, {})).toBe(
    "or use the model server your other agents' files name, which hey does not read (hey doctor says what to write): ~/.claude/settings.json's env (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_MODEL); ~/.codex/config.toml's [model_providers.mockp], [model_providers.azure]",
  );
  expect(elsewhereLine(undefined, { label: "x", data: { model: "o3" } }, {})).toBeUndefined();
});

// x93 #1: these lines go to the terminal and, under an agent, into its model's context
const leaky = {
  model: "gpt-5",
  model_provider: "corp",
  model_providers: { corp: { base_url: "https://svc:hunter2-p4ss@llm.corp.example/v1?token=ghp_abcdefghijklmnopqrstuvwxyz0123456789", env_key: "CORP_KEY" } },
};
const leakyEnv = { env: { ANTHROPIC_BASE_URL: "https://gw.example.com/v1?api_key=sk-ant-api03-SECRETSECRETSECRETSECRET1234567890" } };
const SECRETS = ["hunter2-p4ss", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "sk-ant-api03-SECRET"];

test("a password, a query token or a key in another agent's URL is hidden in every line that shows it, with where it is", () => {
  const lines = [
    codexProviderNotice("~/.codex/config.toml", leaky, "~/.config/hey/config.toml")!,
    codexProviderHint("corp", "~/.codex/config.toml", leaky, "~/.config/hey/config.toml")!,
    envNotice({ label: "~/.claude/settings.json", data: leakyEnv }, {})!,
  ];
  for (const line of lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
  expect(lines[0]).toMatch(
    /\n {2}base_url = "https:\/\/svc:\[secret #[0-9a-f]{8}\]@llm\.corp\.example\/v1\?token=\[secret #[0-9a-f]{8}\]" {2}# \[secret #…\] is the value in ~\/\.codex\/config\.toml\n/,
  );
  expect(lines[1]).toContain("@llm.corp.example/v1?token=[secret #");
  expect(lines[2]).toMatch(
    /export ANTHROPIC_BASE_URL='https:\/\/gw\.example\.com\/v1\?api_key=\[secret #[0-9a-f]{8}\]' {2}# \[secret #…\] is the value in ~\/\.claude\/settings\.json$/,
  );
  // a user name alone may be a token (`https://ghp_…@github.com`); a plain URL stays as written
  const userOnly = { model_providers: { p: { base_url: "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@x.example/v1" } } };
  expect(codexProviderNotice("x", userOnly, "y")).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
  expect(codexProviderNotice("x", codex, "y")).toContain('base_url = "http://127.0.0.1:46001/v1"\n');
});

// How configuration resolves (SPEC §3): precedence of files, HEY_* and flags; provider and model
// choice; `${VAR}` expansion; zero-config presets; unknown keys; effort.
import TOML from "@iarna/toml";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { loadMcpJson } from "../../src/config/read-layer.ts";
import { isUsable } from "../../src/config/presets.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import { unsendable } from "../../src/endpoint.ts";
import type { ConfigFlags, ConfigLayer } from "../../src/config/settings.ts";
import { configInputs } from "../helpers/places.ts";

type Env = Record<string, string | undefined>;

const layer = (source: string, toml: string): ConfigLayer => ({ source, data: TOML.parse(toml) });
const resolve = (toml: string | string[], env: Env = {}, flags: ConfigFlags = {}) =>
  resolveConfig(
    [toml].flat().map((t, i) => layer(`/l${i}.toml`, t)),
    env,
    flags,
  );

describe("precedence: user < project < --config < HEY_* < flags, key by key", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hey-config-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (path: string, text: string) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  };

  interface Case {
    user?: string;
    project?: string;
    config?: string;
    env?: Env;
    flags?: ConfigFlags;
    trust?: boolean;
    agent: { maxTurns: number; budgetTokens: number; parallelTools: boolean };
  }
  const cases: [string, Case][] = [
    ["defaults", { agent: { maxTurns: 20, budgetTokens: 40000, parallelTools: true } }],
    ["user file", { user: "[agent]\nmax_turns = 5", agent: { maxTurns: 5, budgetTokens: 40000, parallelTools: true } }],
    [
      "project over user, other keys of [agent] kept",
      {
        user: "[agent]\nmax_turns = 5\nbudget_tokens = 8000",
        project: "[agent]\nmax_turns = 7",
        agent: { maxTurns: 7, budgetTokens: 8000, parallelTools: true },
      },
    ],
    [
      "untrusted project ignored",
      { user: "[agent]\nmax_turns = 5", project: "[agent]\nmax_turns = 7", trust: false, agent: { maxTurns: 5, budgetTokens: 40000, parallelTools: true } },
    ],
    [
      "--config over project",
      {
        user: "[agent]\nparallel_tools = false",
        project: "[agent]\nmax_turns = 7\nbudget_tokens = 9000",
        config: "[agent]\nmax_turns = 9",
        agent: { maxTurns: 9, budgetTokens: 9000, parallelTools: false },
      },
    ],
    [
      "HEY_* over --config",
      {
        config: "[agent]\nmax_turns = 9\nbudget_tokens = 9000",
        env: { HEY_MAX_TURNS: "11" },
        agent: { maxTurns: 11, budgetTokens: 9000, parallelTools: true },
      },
    ],
    [
      "flags over HEY_*",
      {
        config: "[agent]\nbudget_tokens = 9000",
        env: { HEY_MAX_TURNS: "11", HEY_BUDGET_TOKENS: "12000" },
        flags: { maxTurns: 3 },
        agent: { maxTurns: 3, budgetTokens: 12000, parallelTools: true },
      },
    ],
  ];

  test.each(cases)("%s", (_name, c) => {
    const home = join(dir, "home");
    const cwd = join(dir, "work");
    mkdirSync(cwd, { recursive: true });
    if (c.user) write(join(home, ".config", "hey", "config.toml"), c.user);
    if (c.project) write(join(cwd, ".hey", "config.toml"), c.project);
    if (c.config) write(join(dir, "extra.toml"), c.config);
    const r = loadConfig({
      ...configInputs({ HOME: home, ...c.env }, cwd),
      configFile: c.config ? "../extra.toml" : undefined,
      trustProject: c.trust ?? true,
      flags: c.flags ?? {},
      approvals: undefined,
    });
    expect(r.settings.agent).toEqual(c.agent);
    expect(r.skipped).toBe(c.project && c.trust === false ? join(cwd, ".hey", "config.toml") : undefined);
  });

  test("XDG_CONFIG_HOME holds the user file", () => {
    write(join(dir, "xdg", "hey", "config.toml"), "[retry]\nmax_retries = 1");
    const r = loadConfig({
      ...configInputs({ HOME: join(dir, "home"), XDG_CONFIG_HOME: join(dir, "xdg") }, dir),
      trustProject: false,
      flags: {},
      approvals: undefined,
    });
    expect(r.settings.retry.maxRetries).toBe(1);
  });

  test("later tables merge into earlier ones; arrays replace", () => {
    const r = resolve([
      '[permission]\nallow = ["bash: ls *", "bash: git *"]\n[provider.gw]\nbase_url = "https://gw/v1"\nmodels = ["a"]\nheaders = { X-A = "1", X-B = "2" }',
      '[permission]\nallow = ["bash: cargo *"]\n[provider.gw]\nheaders = { X-B = "3" }',
    ]);
    expect(r.settings.permission).toEqual({ allow: ["bash: cargo *"], deny: [], narrow: [], file: "/l1.toml", waiting: {} });
    expect(r.settings.provider.headers).toEqual({ "X-A": "1", "X-B": "3" });
    expect(r.settings.provider.models).toEqual(["a"]);
  });

  test("an MCP server that names its transport in a later file replaces the earlier one", () => {
    const r = resolve([
      '[mcp.gh]\ncommand = "docker"\nargs = ["run", "gh"]\ntimeout_ms = 5000\n[mcp.fs]\ncommand = "fs-server"',
      '[mcp.gh]\nurl = "https://api.example/mcp"\n[mcp.fs]\nenabled = false',
    ]);
    expect(r.settings.mcp.servers).toEqual([
      { name: "gh", at: "/l1.toml: [mcp.gh]", url: "https://api.example/mcp", args: [], env: {}, headers: {}, enabled: true, timeoutMs: 60000 },
      { name: "fs", at: "/l1.toml: [mcp.fs]", command: "fs-server", args: [], env: {}, headers: {}, enabled: false, timeoutMs: 60000 },
    ]);
    // said (x96): the table replaced whole never runs; fs's later table only adds a key
    expect(r.warnings).toEqual([
      expect.stringMatching(/^MCP server gh of \/l0\.toml(:1)? is not used: the one of the same name in \/l1\.toml(:1)? replaces it whole/),
    ]);
  });
});

test("defaults, with no file and no key", () => {
  const { settings, warnings } = resolve([]);
  expect(warnings).toEqual([]);
  expect({ ...settings, provider: undefined, providers: undefined }).toMatchObject({
    provider: undefined,
    providers: undefined,
    model: "qwen3",
    network: {},
    agent: { maxTurns: 20, budgetTokens: 40000, parallelTools: true },
    retry: { enabled: true, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 60000, jitter: true, respectRetryAfter: true, idleTimeoutMs: 120000 },
    compaction: { dedup: true, purgeErrorsAfter: 4, nudgeThreshold: 0.7, compressTool: true },
    permission: { allow: [], deny: [], narrow: [] },
    tools: { bashFilter: "builtin", bashTimeoutMs: 120000, keepEnv: [], redactSecrets: true },
    mcp: { servers: [], startupWaitMs: 3000 },
    input: { maxBytes: 262144 },
  });
});

test("every key of the seed's example is read", () => {
  const { settings, warnings } = resolve(
    `
[default]
provider = "anthropic"
model = "claude-sonnet-4-5"
[provider.anthropic]
protocol = "anthropic"
base_url = "https://api.anthropic.com/v1"
api_key = "\${ANTHROPIC_API_KEY}"
models = ["claude-sonnet-4-5"]
effort = "high"
legacy_thinking = true
max_tokens = 64000
headers = { anthropic-beta = "x" }
api_version = "2023-06-01"
[proxy]
url = "http://127.0.0.1:7890"
[agent]
max_turns = 30
budget_tokens = 100000
parallel_tools = false
[retry]
enabled = false
max_retries = 2
base_delay_ms = 100
max_delay_ms = 1000
jitter = false
respect_retry_after = false
idle_timeout_ms = 90000
[compaction]
dedup = false
purge_errors_after = 0
nudge_threshold = 1
compress_tool = false
[permission]
allow = ["bash: cargo *"]
deny = ["bash: rm *"]
[tools]
shell = "/bin/zsh"
bash_filter = "none"
bash_timeout_ms = 5000
keep_env = ["OPENAI_API_KEY"]
[mcp]
startup_wait_ms = 0
servers = [{ name = "fs", command = "npx", args = ["-y", "@modelcontextprotocol/server-filesystem"] }]
[mcp.remote]
url = "https://mcp.example/mcp"
headers = { Authorization = "Bearer t" }
timeout_ms = 1000
[input]
max_bytes = 2000
`,
    { ANTHROPIC_API_KEY: "sk-ant" },
  );
  expect(warnings).toEqual([]);
  expect(settings).toMatchObject({
    provider: {
      name: "anthropic",
      protocol: "anthropic",
      baseUrl: "https://api.anthropic.com/v1",
      apiKey: "sk-ant",
      apiKeyVar: "ANTHROPIC_API_KEY",
      models: ["claude-sonnet-4-5"],
      effort: "high",
      maxTokens: 64000,
      legacyThinking: true,
      headers: { "anthropic-beta": "x" },
      apiVersion: "2023-06-01",
      source: "/l0.toml",
    },
    model: "claude-sonnet-4-5",
    providers: [settings.provider],
    effort: "high",
    proxy: "http://127.0.0.1:7890",
    proxySource: "[proxy] url in /l0.toml",
    network: {},
    agent: { maxTurns: 30, budgetTokens: 100000, parallelTools: false },
    retry: { enabled: false, maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000, jitter: false, respectRetryAfter: false, idleTimeoutMs: 90000 },
    compaction: { dedup: false, purgeErrorsAfter: 0, nudgeThreshold: 1, compressTool: false },
    permission: { allow: ["bash: cargo *"], deny: ["bash: rm *"], narrow: [] },
    tools: { shell: "/bin/zsh", bashFilter: "none", bashTimeoutMs: 5000, keepEnv: ["OPENAI_API_KEY"], redactSecrets: true },
    mcp: {
      startupWaitMs: 0,
      servers: [
        {
          name: "fs",
          at: "/l0.toml: [mcp.fs]",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem"],
          env: {},
          headers: {},
          enabled: true,
          timeoutMs: 60000,
        },
        {
          name: "remote",
          at: "/l0.toml: [mcp.remote]",
          url: "https://mcp.example/mcp",
          args: [],
          env: {},
          headers: { Authorization: "Bearer t" },
          enabled: true,
          timeoutMs: 1000,
        },
      ],
    },
    input: { maxBytes: 2000 },
  });
});

const PROVIDERS = `
[provider.openai]
base_url = "https://api.openai.com/v1"
api_key = "\${OPENAI_API_KEY}"
models = ["gpt-4o", "o3-mini"]
effort = "medium"

[provider.openrouter]
base_url = "https://openrouter.ai/api/v1"
models = ["z-ai/glm-4.5v", "qwen/qwen3-coder"]

[provider.local]
base_url = "http://localhost:11434/v1"
models = ["qwen3:14b"]
`;

describe("provider and model choice", () => {
  const cases: [string, string, Env, ConfigFlags, string][] = [
    ["first provider in file order", "", {}, {}, "openai/gpt-4o"],
    ["[default] provider, its first model", '[default]\nprovider = "local"', {}, {}, "local/qwen3:14b"],
    ["[default] provider and model", '[default]\nprovider = "openai"\nmodel = "o3-mini"', {}, {}, "openai/o3-mini"],
    ["[default] model found in a models list", '[default]\nmodel = "qwen/qwen3-coder"', {}, {}, "openrouter/qwen/qwen3-coder"],
    ["[default] model as provider/model", '[default]\nmodel = "local/llama3"', {}, {}, "local/llama3"],
    ["HEY_PROVIDER over [default]", '[default]\nprovider = "openai"\nmodel = "o3-mini"', { HEY_PROVIDER: "local" }, {}, "local/qwen3:14b"],
    ["HEY_PROVIDER naming the default keeps its model", '[default]\nprovider = "openai"\nmodel = "o3-mini"', { HEY_PROVIDER: "openai" }, {}, "openai/o3-mini"],
    ["HEY_MODEL over [default]", '[default]\nprovider = "local"', { HEY_MODEL: "o3-mini" }, {}, "openai/o3-mini"],
    ["HEY_MODEL not listed is a model of HEY_PROVIDER", "", { HEY_PROVIDER: "local", HEY_MODEL: "qwen3:32b" }, {}, "local/qwen3:32b"],
    ["empty HEY_MODEL counts as unset", "", { HEY_MODEL: "" }, {}, "openai/gpt-4o"],
    ["-m over HEY_MODEL", "", { HEY_MODEL: "o3-mini" }, { model: "qwen3:14b" }, "local/qwen3:14b"],
    ["-m provider/model", "", {}, { model: "local/llama3" }, "local/llama3"],
    ["-m provider/model with a slash in the model", "", {}, { model: "openrouter/meta/llama-4" }, "openrouter/meta/llama-4"],
    ["-m slash model name found in a models list", "", {}, { model: "z-ai/glm-4.5v" }, "openrouter/z-ai/glm-4.5v"],
    ["-m PROVIDER/slash/model goes to that provider", '[default]\nprovider = "openrouter"', {}, { model: "openrouter/x-ai/grok-4" }, "openrouter/x-ai/grok-4"],
    ["-m plain model listed nowhere goes to the default provider", "", {}, { model: "gpt-5" }, "openai/gpt-5"],
    ["-m a provider name alone: its first model", "", {}, { model: "openrouter" }, "openrouter/z-ai/glm-4.5v"],
    ["-m provider/: its first model", "", {}, { model: "local/" }, "local/qwen3:14b"],
    ["-m over HEY_PROVIDER", "", { HEY_PROVIDER: "local" }, { model: "openai/o3-mini" }, "openai/o3-mini"],
    ["--base-url: ad-hoc provider cli with -m verbatim", "", {}, { baseUrl: "http://10.0.0.5:8000/v1", model: "local/x" }, "cli/local/x"],
    ["HEY_BASE_URL with HEY_MODEL", "", { HEY_BASE_URL: "http://10.0.0.5:8000/v1", HEY_MODEL: "m1" }, {}, "cli/m1"],
    ["HEY_BASE_URL with -m over HEY_MODEL", "", { HEY_BASE_URL: "http://10.0.0.5:8000/v1", HEY_MODEL: "m1" }, { model: "m2" }, "cli/m2"],
  ];
  test.each(cases)("%s", (_name, extra, env, flags, expected) => {
    const { settings } = resolve(PROVIDERS + extra, env, flags);
    expect(`${settings.provider.name}/${settings.model}`).toBe(expected);
    expect(settings.providers).toContain(settings.provider);
  });

  test("--base-url defines cli: protocol from --protocol (default openai), key from --api-key, else none", () => {
    const plain = resolve(PROVIDERS, {}, { baseUrl: "http://127.0.0.1:8080/v1", model: "m" }).settings;
    expect(plain.provider).toEqual({ name: "cli", protocol: "openai", baseUrl: "http://127.0.0.1:8080/v1", models: ["m"], legacyThinking: false, headers: {} });
    expect(plain.providers.map((p) => p.name)).toEqual(["cli", "openai", "openrouter", "local"]);
    const full = resolve("", {}, { baseUrl: "https://api.anthropic.com", protocol: "anthropic", apiKey: "k", model: "claude-x" }).settings;
    expect(full.provider).toMatchObject({ name: "cli", protocol: "anthropic", apiKey: "k", apiKeyVar: "--api-key" });
  });

  test("HEY_BASE_URL, HEY_PROTOCOL and HEY_API_KEY define cli; flags win field by field", () => {
    const env = { HEY_BASE_URL: "https://gw.example/v1", HEY_PROTOCOL: "responses", HEY_API_KEY: "hk", HEY_MODEL: "m" };
    expect(resolve("", env).settings.provider).toMatchObject({
      name: "cli",
      protocol: "responses",
      baseUrl: "https://gw.example/v1",
      apiKey: "hk",
      apiKeyVar: "HEY_API_KEY",
    });
    expect(resolve("", env, { protocol: "google", apiKey: "fk" }).settings.provider).toMatchObject({
      protocol: "google",
      apiKey: "fk",
      apiKeyVar: "--api-key",
    });
  });

  test.each([
    ["HEY_API_KEY", { HEY_API_KEY: "hk", OPENAI_API_KEY: "ok" }, {}, "hk"],
    ["--api-key", { HEY_API_KEY: "hk", OPENAI_API_KEY: "ok" }, { apiKey: "fk" }, "fk"],
  ] as [string, Env, ConfigFlags, string][])("%s without a base URL replaces the chosen provider's key", (apiKeyVar, env, flags, apiKey) => {
    const { settings } = resolve(PROVIDERS, env, flags);
    expect(settings.provider).toMatchObject({ name: "openai", apiKey, apiKeyVar });
    expect(settings.providers[0]).toBe(settings.provider);
    expect(settings.providers[1]?.apiKey).toBeUndefined();
  });
});

describe("${VAR} expansion", () => {
  test("a set variable in api_key is the key, and names the variable", () => {
    const { settings, warnings } = resolve(PROVIDERS, { OPENAI_API_KEY: "sk-1" });
    expect(settings.provider).toMatchObject({ apiKey: "sk-1", apiKeyVar: "OPENAI_API_KEY" });
    expect(warnings).toEqual([]);
  });

  test.each([
    ["unset", {}],
    ["empty", { OPENAI_API_KEY: "" }],
  ] as [string, Env][])("an %s variable in api_key means no authentication, with a warning", (_name, env) => {
    const { settings, warnings } = resolve(PROVIDERS, env);
    expect(settings.provider.apiKey).toBeUndefined();
    expect(settings.provider.apiKeyVar).toBe("OPENAI_API_KEY");
    expect(warnings).toEqual(["/l0.toml: [provider.openai] api_key: ${OPENAI_API_KEY} has no value, so provider openai sends no API key"]);
  });

  test('api_key = "$VAR", a shell\'s spelling, is sent as written, with a warning that says how to write the variable', () => {
    const { settings, warnings } = resolve('[provider.gw]\nbase_url = "https://gw/v1"\napi_key = "$GW_KEY"\nmodels = ["m"]', { GW_KEY: "sk-real" });
    expect(settings.provider.apiKey).toBe("$GW_KEY");
    expect(warnings).toEqual(['/l0.toml: [provider.gw] api_key "$GW_KEY" is sent as written: hey reads a variable written "${GW_KEY}"']);
  });

  test("a literal api_key is named by its file and table", () => {
    const { settings } = resolve('[provider.gw]\nbase_url = "https://gw/v1"\napi_key = "sk-lit"\nmodels = ["m"]');
    expect(settings.provider).toMatchObject({ apiKey: "sk-lit", apiKeyVar: "api_key in /l0.toml [provider.gw]" });
  });

  test("providers this run does not use and disabled servers do not warn", () => {
    const toml = PROVIDERS + '[provider.local.headers]\nX-Token = "${LOCAL_TOKEN}"\n[mcp.off]\nenabled = false\ncommand = "${OFF_CMD}"';
    expect(resolve(toml, { OPENAI_API_KEY: "k" }).warnings).toEqual([]);
  });

  test("an unset variable elsewhere is an empty string plus a warning naming it and the key", () => {
    const { settings, warnings } = resolve('[mcp.github]\nurl = "https://api.githubcopilot.com/mcp/"\nheaders = { Authorization = "Bearer ${GITHUB_TOKEN}" }');
    expect(settings.mcp.servers[0]?.headers).toEqual({ Authorization: "Bearer " });
    expect(warnings).toEqual(['/l0.toml: [mcp.github] headers.Authorization: ${GITHUB_TOKEN} is not set (using "")']);
  });

  test.each([
    ["unset", {}, "https://mcp.example.com/mcp", "Bearer none", "/opt/default"],
    ["empty", { MCP_URL: "", TOKEN: "", ROOT: "" }, "https://mcp.example.com/mcp", "Bearer none", "/opt/default"],
    ["set", { MCP_URL: "https://mcp.corp/mcp", TOKEN: "tok", ROOT: "/srv" }, "https://mcp.corp/mcp", "Bearer tok", "/srv"],
  ] as [string, Env, string, string, string][])(
    "a .mcp.json written for Claude Code, its variables %s: ${VAR:-default} is the variable, else the default, and no warning",
    (_name, env, url, auth, root) => {
      const dir = mkdtempSync(join(tmpdir(), "hey-mcp-json-"));
      try {
        const file = join(dir, ".mcp.json");
        const servers = {
          api: { type: "http", url: "${MCP_URL:-https://mcp.example.com/mcp}", headers: { Authorization: "Bearer ${TOKEN:-none}" } },
          fs: { command: "npx", args: ["-y", "fs-server", "${ROOT:-/opt/default}"] },
        };
        writeFileSync(file, JSON.stringify({ mcpServers: servers }));
        const mcpJson = loadMcpJson(file, () => {})!;
        const { settings, warnings } = resolveConfig([mcpJson], env, {});
        const byName = Object.fromEntries(settings.mcp.servers.map((s) => [s.name, s]));
        expect(byName.api).toMatchObject({ url, headers: { Authorization: auth } });
        expect(byName.fs?.args).toEqual(["-y", "fs-server", root]);
        expect(warnings).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test("variables expand inside arrays and nested tables, never inside [permission]", () => {
    const { settings, warnings } = resolve(
      '[mcp]\nservers = [{ name = "fs", command = "${TOOLS}/fs", args = ["--root", "${HOME}/src"], env = { TOKEN = "${T}", PLAIN = "$T" } }]\n' +
        '[permission]\nallow = ["bash: ${TOOLS}/bin/*"]',
      { TOOLS: "/opt/t", HOME: "/home/u", T: "tok" },
    );
    expect(settings.mcp.servers[0]).toMatchObject({ command: "/opt/t/fs", args: ["--root", "/home/u/src"], env: { TOKEN: "tok", PLAIN: "$T" } });
    expect(settings.permission.allow).toEqual(["bash: ${TOOLS}/bin/*"]);
    expect(warnings).toEqual([]);
  });

  test("an unused provider whose base_url variable is unset is no error", () => {
    const toml = PROVIDERS + '[provider.corp]\nbase_url = "${CORP_GATEWAY}"\nmodels = ["c"]';
    const { settings, warnings } = resolve(toml, { OPENAI_API_KEY: "k" });
    expect(settings.provider.name).toBe("openai");
    expect(settings.providers.find((p) => p.name === "corp")?.baseUrl).toBe("");
    expect(warnings).toEqual([]);
  });

  test("a key replaced by HEY_* does not warn about its variable", () => {
    const { settings, warnings } = resolve('[proxy]\nurl = "${CORP_PROXY}"', { HEY_PROXY: "http://p:3128" });
    expect(settings.proxy).toBe("http://p:3128");
    expect(settings.proxySource).toBe("HEY_PROXY"); // named in proxy errors
    expect(warnings).toEqual([]);
  });
});

describe("zero-config presets", () => {
  const cases: [string, Env, string, string | undefined][] = [
    ["no key: local ollama", {}, "ollama/qwen3", undefined],
    ["OPENAI_API_KEY", { OPENAI_API_KEY: "k" }, "openai/gpt-5.5", "OPENAI_API_KEY"],
    ["ANTHROPIC_API_KEY", { ANTHROPIC_API_KEY: "k" }, "anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
    ["GEMINI_API_KEY", { GEMINI_API_KEY: "k" }, "google/gemini-3.5-flash", "GEMINI_API_KEY"],
    ["GOOGLE_API_KEY", { GOOGLE_API_KEY: "k" }, "google/gemini-3.5-flash", "GOOGLE_API_KEY"],
    ["DEEPSEEK_API_KEY", { DEEPSEEK_API_KEY: "k" }, "deepseek/deepseek-chat", "DEEPSEEK_API_KEY"],
    ["openai before anthropic", { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" }, "openai/gpt-5.5", "OPENAI_API_KEY"],
    ["anthropic before google", { GEMINI_API_KEY: "k", ANTHROPIC_API_KEY: "k" }, "anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
    ["google before deepseek", { DEEPSEEK_API_KEY: "k", GOOGLE_API_KEY: "k" }, "google/gemini-3.5-flash", "GOOGLE_API_KEY"],
    ["an empty key is no key: the next vendor's is used", { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "k" }, "anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
    ["a key of whitespace is no key", { OPENAI_API_KEY: " ", ANTHROPIC_API_KEY: "k" }, "anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
  ];
  test.each(cases)("%s", (_name, env, expected, apiKeyVar) => {
    const { settings, warnings } = resolve([], env);
    expect(`${settings.provider.name}/${settings.model}`).toBe(expected);
    expect(settings.provider.apiKeyVar).toBe(apiKeyVar);
    expect(settings.provider.apiKey).toBe(apiKeyVar ? "k" : undefined);
    expect(settings.providers.map((p) => [p.name, p.protocol, p.baseUrl, p.preset])).toEqual([
      ["openai", "responses", "https://api.openai.com/v1", true],
      ["anthropic", "anthropic", "https://api.anthropic.com/v1", true],
      ["google", "google", "https://generativelanguage.googleapis.com/v1beta", true],
      ["deepseek", "openai", "https://api.deepseek.com/v1", true],
      ["ollama", "openai", "http://127.0.0.1:11434/v1", true],
    ]);
    expect(warnings).toEqual([]);
  });

  // Ollama's own client reads OLLAMA_HOST so (envconfig.Host): a user who moved it expects hey to follow
  test.each([
    ["127.0.0.1:11500", "http://127.0.0.1:11500/v1"],
    ["gpu-box", "http://gpu-box:11434/v1"],
    ["0.0.0.0", "http://127.0.0.1:11434/v1"],
    ["[::]:11434", "http://[::1]:11434/v1"],
    ["http://gpu-box", "http://gpu-box/v1"],
    ["https://ollama.example.com:8443/", "https://ollama.example.com:8443/v1"],
    ["http://proxy.lan/ollama", "http://proxy.lan/ollama/v1"],
    // as Ollama's envconfig.Host reads them: quotes (Windows' set, env files), no host, a bare v6 address, a port that is no number
    [":11500", "http://127.0.0.1:11500/v1"],
    ['"127.0.0.1:11500"', "http://127.0.0.1:11500/v1"],
    ["'0.0.0.0'", "http://127.0.0.1:11434/v1"],
    ["::", "http://[::1]:11434/v1"],
    ["[fd00::5]", "http://[fd00::5]:11434/v1"],
    ["gpu-box:abc", "http://gpu-box:11434/v1"],
  ])("OLLAMA_HOST=%s: the built-in Ollama is at %s", (host, url) => {
    const { settings } = resolve([], { OLLAMA_HOST: host });
    expect(settings.provider).toMatchObject({ name: "ollama", baseUrl: url, urlVar: "OLLAMA_HOST", preset: true });
    // a [provider.ollama] table without base_url is the built-in one too
    expect(resolve('[provider.ollama]\nmodels = ["llama3"]', { OLLAMA_HOST: host }).settings.provider).toMatchObject({ baseUrl: url, urlVar: "OLLAMA_HOST" });
    // a base_url written in the table wins
    const written = resolve('[provider.ollama]\nbase_url = "http://10.0.0.9:11434/v1"\nmodels = ["llama3"]', { OLLAMA_HOST: host }).settings.provider;
    expect(written.baseUrl).toBe("http://10.0.0.9:11434/v1");
    expect(written.urlVar).toBeUndefined();
  });

  test("a bad OLLAMA_HOST is an error naming it when Ollama is used, and nothing when another provider is", () => {
    expect(() => resolve([], { OLLAMA_HOST: "ftp://box" })).toThrow('OLLAMA_HOST must be host[:port] or an http:// or https:// URL, got "ftp://box"');
    expect(() => resolve([], { OLLAMA_HOST: "http://gpu box" })).toThrow("OLLAMA_HOST must be");
    expect(resolve([], { OLLAMA_HOST: "ftp://box", OPENAI_API_KEY: "k" }).settings.provider.name).toBe("openai");
  });

  // the vendors' SDKs, Codex and Claude Code read these: a user's own environment, not a repository's .env (never loaded)
  test.each([
    ["OPENAI_BASE_URL", "http://127.0.0.1:18080/v1", { OPENAI_API_KEY: "k" }, "openai"],
    ["ANTHROPIC_BASE_URL", "https://api.deepseek.com/anthropic", { ANTHROPIC_API_KEY: "k" }, "anthropic"],
    ["ANTHROPIC_BASE_URL", "https://api.moonshot.ai/anthropic", { ANTHROPIC_AUTH_TOKEN: "k" }, "anthropic"],
    ["GOOGLE_GEMINI_BASE_URL", "https://gemini-proxy.example", { GEMINI_API_KEY: "k" }, "google"],
  ] as [string, string, Env, string][])("%s=%s moves the built-in provider's address, its key going there", (urlVar, url, env, name) => {
    const { settings } = resolve([], { ...env, [urlVar]: url });
    expect(settings.provider).toMatchObject({ name, baseUrl: url, urlVar, apiKey: "k", preset: true });
    // a table of that name without base_url follows it too, as it follows OLLAMA_HOST
    expect(resolve(`[provider.${name}]\nmodels = ["m"]`, { ...env, [urlVar]: url }).settings.provider).toMatchObject({ baseUrl: url, urlVar });
  });

  test("OPENAI_BASE_URL gives way to a table's base_url and to HEY_BASE_URL; a bad one is an error naming it when openai is used", () => {
    const env = { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:18080/v1" };
    expect(resolve('[provider.openai]\nbase_url = "https://gw.example/v1"', env).settings.provider).toMatchObject({ baseUrl: "https://gw.example/v1" });
    expect(resolve('[provider.openai]\nbase_url = "https://gw.example/v1"', env).settings.provider.urlVar).toBeUndefined();
    expect(resolve([], { ...env, HEY_BASE_URL: "http://127.0.0.1:9/v1", HEY_MODEL: "m" }).settings.provider).toMatchObject({
      name: "cli",
      baseUrl: "http://127.0.0.1:9/v1",
    });
    expect(() => resolve([], { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "api.example/v1" })).toThrow(
      'OPENAI_BASE_URL must be an http:// or https:// URL, got "api.example/v1"',
    );
    expect(resolve([], { ANTHROPIC_API_KEY: "k", OPENAI_BASE_URL: "api.example/v1" }).settings.provider.name).toBe("anthropic");
  });

  test("behind OPENAI_BASE_URL (a gateway) open models and unknown names go there, unsaid; a keyed vendor's own names still go to it", () => {
    const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", OPENAI_BASE_URL: "https://gw.example/v1" };
    for (const model of ["llama-3.3-70b-versatile", "mistral-small-latest", "acme-coder-2"]) {
      const { settings, warnings } = resolve([], env, { model });
      expect(settings.provider.name).toBe("openai");
      expect(warnings).toEqual([]);
    }
    expect(resolve([], env, { model: "claude-opus-4-5" }).settings.provider.name).toBe("anthropic");
  });

  test("-m picks a preset by name, key or not", () => {
    const { settings } = resolve([], {}, { model: "anthropic/claude-opus-4-6" });
    expect(settings.provider).toMatchObject({ name: "anthropic", apiKeyVar: "ANTHROPIC_API_KEY", preset: true });
    expect(settings.provider.apiKey).toBeUndefined();
    expect(settings.model).toBe("claude-opus-4-6");
  });

  test.each([
    ["claude-opus-4-5", "anthropic"],
    ["gemini-2.5-pro", "google"],
    ["o4-mini", "openai"],
    ["deepseek-reasoner", "deepseek"],
  ])("with keys of several vendors, -m %s (no provider lists it) goes to %s, whose key is set", (model, vendor) => {
    const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", GEMINI_API_KEY: "k", DEEPSEEK_API_KEY: "k" };
    const { settings } = resolve([], env, { model });
    expect(`${settings.provider.name}/${settings.model}`).toBe(`${vendor}/${model}`);
  });

  test("a model of a vendor whose key is not set, or one of no known vendor, stays with the default; so does any model when a provider of one's own is in use", () => {
    expect(resolve([], { OPENAI_API_KEY: "k" }, { model: "claude-opus-4-5" }).settings.provider.name).toBe("openai");
    expect(resolve([], { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" }, { model: "acme-coder-2" }).settings.provider.name).toBe("openai");
    const gateway = '[provider.gw]\nbase_url = "https://gw.example/v1"\nmodels = ["gpt-5.5"]';
    expect(resolve(gateway, { ANTHROPIC_API_KEY: "k" }, { model: "claude-opus-4-5" }).settings.provider.name).toBe("gw");
  });

  test("a local model server chosen as the provider keeps a model named like a vendor's: -m deepseek-r1:7b with HEY_PROVIDER=ollama never goes to DeepSeek's API", () => {
    const env = { HEY_PROVIDER: "ollama", DEEPSEEK_API_KEY: "k" };
    expect(resolve([], env, { model: "deepseek-r1:7b" }).settings.provider.name).toBe("ollama");
  });

  test.each(["gpt-oss:20b", "gpt-oss", "deepseek-r1:7b", "qwen3:14b", "llama3.2:3b-instruct-q4_K_M"])(
    "with keys of cloud vendors and no config, -m %s (Ollama's NAME:TAG, or the open-weight gpt-oss) goes to the local Ollama, not a vendor that serves no such model",
    (model) => {
      const env = { OPENAI_API_KEY: "k", DEEPSEEK_API_KEY: "k" };
      expect(resolve([], env, { model }).settings).toMatchObject({ provider: { name: "ollama" }, model });
    },
  );

  // Ollama's library names its models untagged too (`ollama run llama3.2`): a local prompt must not leave the machine for want of a tag
  test.each([
    "llama3.2",
    "llama3.3",
    "codellama",
    "mistral",
    "mistral-nemo",
    "mixtral",
    "devstral",
    "gemma3",
    "gemma",
    "phi4",
    "phi4-mini",
    "qwen2.5-coder",
    "qwq",
    "deepseek-r1",
    "deepseek-coder-v2",
    "granite3.3",
  ])("with OPENAI_API_KEY and DEEPSEEK_API_KEY set, -m %s (an open-weight family Ollama serves untagged) goes to the local Ollama", (model) => {
    const env = { OPENAI_API_KEY: "k", DEEPSEEK_API_KEY: "k" };
    expect(resolve([], env, { model }).settings).toMatchObject({ provider: { name: "ollama", apiKey: undefined }, model });
    expect(resolve([], env, { model }).warnings).toEqual([]);
  });

  test("the vendors' own names of open models stay with the vendor: Gemma on Gemini's API, DeepSeek's two", () => {
    const env = { OPENAI_API_KEY: "k", GEMINI_API_KEY: "k", DEEPSEEK_API_KEY: "k" };
    expect(resolve([], env, { model: "gemma-3-27b-it" }).settings.provider.name).toBe("google");
    expect(resolve([], env, { model: "deepseek-chat" }).settings.provider.name).toBe("deepseek");
  });

  test("a name of no family hey knows goes to the default vendor, and a line says where (and how to keep it local)", () => {
    const { settings, warnings } = resolve([], { OPENAI_API_KEY: "k" }, { model: "acme-coder-2" });
    expect(settings.provider.name).toBe("openai");
    expect(warnings).toEqual([
      '-m acme-coder-2: "acme-coder-2" is no model hey knows the vendor of, so it goes to openai (https://api.openai.com/v1); -m ollama/acme-coder-2 keeps it on the local Ollama, -m openai/acme-coder-2 says it is openai\'s',
    ]);
    // said so, nothing more is said
    expect(resolve([], { OPENAI_API_KEY: "k" }, { model: "openai/acme-coder-2" }).warnings).toEqual([]);
    // the local default says nothing: the prompt stays on the machine
    expect(resolve([], {}, { model: "acme-coder-2" }).warnings).toEqual([]);
  });

  test("an OpenAI fine-tune (ft:gpt-…:org::id) and gpt-5 stay with OpenAI; a gateway of one's own keeps NAME:TAG", () => {
    const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" };
    expect(resolve([], env, { model: "ft:gpt-4o-mini-2024-07-18:acme::9abc" }).settings.provider.name).toBe("openai");
    expect(resolve([], { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" }, { model: "gpt-5.5" }).settings.provider.name).toBe("openai");
    const gateway = '[provider.gw]\nbase_url = "https://gw.example/v1"\nmodels = ["m"]';
    expect(resolve(gateway, { OPENAI_API_KEY: "k" }, { model: "qwen3:14b" }).settings.provider.name).toBe("gw");
  });

  test("[default] applies to presets when no file defines a provider", () => {
    expect(resolve('[default]\nprovider = "deepseek"').settings.provider.name).toBe("deepseek");
  });

  test("once a file defines a provider, presets stay available only when their key variable is set", () => {
    const { settings } = resolve('[provider.local]\nbase_url = "http://localhost:11434/v1"\nmodels = ["qwen3:14b"]', { OPENAI_API_KEY: "k" });
    expect(settings.providers.map((p) => p.name)).toEqual(["local", "openai"]);
    expect(settings.provider.name).toBe("local");
    expect(
      resolve('[provider.local]\nbase_url = "http://localhost:11434/v1"\nmodels = ["m"]', { OPENAI_API_KEY: "k" }, { model: "openai/gpt-5.5" }).settings
        .provider.apiKey,
    ).toBe("k");
  });

  test("/model lists the usable providers: a key present, or none configured (a local server)", () => {
    const { settings } = resolve("", { ANTHROPIC_API_KEY: "k" });
    expect(settings.providers.filter(isUsable).map((p) => p.name)).toEqual(["anthropic", "ollama"]);
    const file = resolve(
      '[provider.a]\nbase_url = "https://a/v1"\napi_key = "${A_KEY}"\nmodels = ["m"]\n[provider.b]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["m"]',
    );
    expect(file.settings.providers.filter(isUsable).map((p) => p.name)).toEqual(["b"]);
  });
});

describe("a table named after a built-in provider, without base_url, changes that provider", () => {
  test("[provider.anthropic] with models and effort: Anthropic's URL, protocol and key variable", () => {
    const { settings } = resolve('[provider.anthropic]\nmodels = ["claude-opus-4-5"]\neffort = "high"', { ANTHROPIC_API_KEY: "k" });
    expect(settings.provider).toMatchObject({
      name: "anthropic",
      protocol: "anthropic",
      baseUrl: "https://api.anthropic.com/v1",
      apiKey: "k",
      apiKeyVar: "ANTHROPIC_API_KEY",
      models: ["claude-opus-4-5"],
      effort: "high",
    });
    expect(settings.model).toBe("claude-opus-4-5");
  });

  test("[provider.ollama] with a model: the local server, no key; [provider.google] alone: its model, GOOGLE_API_KEY", () => {
    expect(resolve('[provider.ollama]\nmodels = ["qwen3:8b"]').settings.provider).toMatchObject({
      baseUrl: "http://127.0.0.1:11434/v1",
      protocol: "openai",
      apiKey: undefined,
      apiKeyVar: undefined,
    });
    const google = resolve('[provider.google]\neffort = "low"', { GOOGLE_API_KEY: "g" }).settings;
    expect(google.provider).toMatchObject({ protocol: "google", apiKey: "g", apiKeyVar: "GOOGLE_API_KEY" });
    expect(google.model).toBe("gemini-3.5-flash");
  });

  // as an api_key = "${VAR}" without a value is said at start, not first by the endpoint's 401
  const lined = (toml: string, env: Env = {}, flags: ConfigFlags = {}) =>
    resolveConfig([{ source: "/u.toml", data: TOML.parse(toml), text: toml }], env, flags).warnings;
  test.each([
    ["anthropic", {}, "/u.toml:3: [provider.anthropic] has no api_key and neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN has a value"],
    ["google", {}, "/u.toml:3: [provider.google] has no api_key and neither GEMINI_API_KEY nor GOOGLE_API_KEY has a value"],
  ] as [string, Env, string][])("[provider.%s] in use without api_key while its key variable is unset (%o) warns at start", (name, env, warning) => {
    const warnings = lined(`[default]\nprovider = "${name}"\n[provider.${name}]\neffort = "high"`, env);
    expect(warnings).toEqual([
      `${warning}, so provider ${name} sends no API key (set ${warning.match(/[A-Z_]+_API_KEY/)![0]}, or api_key = "\${VAR}" in the table)`,
    ]);
  });

  test("no such warning when the key is set, given (HEY_API_KEY, --api-key), local (ollama), or the table is not in use", () => {
    const table = '[provider.anthropic]\nmodels = ["claude-opus-4-5"]';
    expect(lined(table, { ANTHROPIC_API_KEY: "k" })).toEqual([]);
    expect(lined(table, { HEY_API_KEY: "k" })).toEqual([]);
    expect(lined(table, {}, { apiKey: "k" })).toEqual([]);
    expect(lined('[provider.ollama]\nmodels = ["qwen3:8b"]')).toEqual([]);
    expect(lined(`[provider.local]\nbase_url = "http://127.0.0.1:8000/v1"\nmodels = ["m"]\n${table}`)).toEqual([]);
  });

  // the approval of that base_url says "its requests and key would go there": they do, in the vendor's protocol
  test.each([
    ["anthropic", "https://gw.example/v1", { ANTHROPIC_API_KEY: "k" }, "ANTHROPIC_API_KEY"],
    ["google", "https://gw.example/v1beta", { GEMINI_API_KEY: "k" }, "GEMINI_API_KEY"],
    ["openai", "https://gw.example/v1", { OPENAI_API_KEY: "k" }, "OPENAI_API_KEY"],
    ["deepseek", "https://gw.example/v1", { DEEPSEEK_API_KEY: "k" }, "DEEPSEEK_API_KEY"],
  ] as [string, string, Env, string][])(
    "[provider.%s] with base_url %s moves only the address: its protocol and key variable stay",
    (name, url, env, keyVar) => {
      const { settings } = resolve(`[provider.${name}]\nbase_url = "${url}"\nmodels = ["m"]`, env);
      const protocol = name === "deepseek" ? "openai" : name;
      expect(settings.provider).toMatchObject({ name, protocol, baseUrl: url, apiKey: "k", apiKeyVar: keyVar });
    },
  );

  test("[provider.anthropic] with base_url and protocol: the table's protocol, the built-in key; api_key of its own wins", () => {
    const table = '[provider.anthropic]\nbase_url = "https://gw.example/v1"\nprotocol = "openai"\nmodels = ["m"]';
    expect(resolve(table, { ANTHROPIC_API_KEY: "k" }).settings.provider).toMatchObject({ protocol: "openai", apiKey: "k", apiKeyVar: "ANTHROPIC_API_KEY" });
    const own = `${table}\napi_key = "\${GW_KEY}"`;
    expect(resolve(own, { ANTHROPIC_API_KEY: "k", GW_KEY: "g" }).settings.provider).toMatchObject({ apiKey: "g", apiKeyVar: "GW_KEY" });
  });
});

describe("unknown keys warn and are ignored", () => {
  const cases: [string, string][] = [
    ["[agent]\nmax_turn = 3", "/l0.toml: unknown key [agent] max_turn (ignored); did you mean max_turns?"],
    ["[agnet]\nmax_turns = 3", "/l0.toml: unknown table [agnet] (ignored); did you mean agent?"],
    ["model = 3", "/l0.toml: unknown key model (ignored); did you mean [default] model?"],
    ["sandbox = 3", "/l0.toml: unknown key sandbox (ignored)"],
    ['[provider.local]\nbase_url = "http://h/v1"\nmodel = "m"', "/l0.toml: unknown key [provider.local] model (ignored); did you mean models?"],
    ['[mcp.fs]\ncommand = "x"\nargz = []', "/l0.toml: unknown key [mcp.fs] argz (ignored); did you mean args?"],
    ['[mcp]\nservers = [{ name = "fs", command = "x", enable = true }]', "/l0.toml: unknown key [mcp.fs] enable (ignored); did you mean enabled?"],
    ["[mcp]\nstartup_wait = 1", "/l0.toml: unknown key [mcp] startup_wait (ignored); did you mean startup_wait_ms?"],
    ['[provider."my gw"]\nbase_url = "http://h/v1"\nmodelz = []', '/l0.toml: unknown key [provider."my gw"] modelz (ignored); did you mean models?'],
  ];
  test.each(cases.map(([toml, warning]) => [warning, toml]))("%s", (warning, toml) => {
    const { settings, warnings } = resolve(toml + '\n[default]\nmodel = "m"');
    expect(warnings).toEqual([warning]);
    expect(settings.agent.maxTurns).toBe(20);
  });

  test("keys that one transport does not use warn", () => {
    const { warnings } = resolve('[mcp.a]\nurl = "http://h/mcp"\nargs = ["x"]\n[mcp.b]\ncommand = "b"\nheaders = { A = "1" }');
    expect(warnings).toEqual(["/l0.toml: [mcp.a] args is only used with command (ignored)", "/l0.toml: [mcp.b] headers is only used with url (ignored)"]);
  });
});

describe("effort", () => {
  const cases: [string, string, Env, ConfigFlags, string | undefined][] = [
    ["the provider's effort", PROVIDERS, {}, {}, "medium"],
    ["none set", PROVIDERS, {}, { model: "local/x" }, undefined],
    ["HEY_EFFORT over the provider's", PROVIDERS, { HEY_EFFORT: "low" }, {}, "low"],
    ["-t over HEY_EFFORT", PROVIDERS, { HEY_EFFORT: "low" }, { effort: "off" }, "off"],
    ["-t over the provider's", PROVIDERS, {}, { effort: "max" }, "max"],
  ];
  test.each(cases)("%s", (_name, toml, env, flags, effort) => {
    const { settings } = resolve(toml, env, flags);
    expect(settings.effort).toBe(effort as never);
  });
});

describe("other HEY_* variables", () => {
  test.each([
    ["HEY_MAX_RETRIES", "0", (s: ReturnType<typeof resolve>["settings"]) => s.retry.maxRetries, 0],
    ["HEY_SHELL", "/bin/fish", (s: ReturnType<typeof resolve>["settings"]) => s.tools.shell, "/bin/fish"],
    ["HEY_BASH_FILTER", "none", (s: ReturnType<typeof resolve>["settings"]) => s.tools.bashFilter, "none"],
    ["HEY_BASH_TIMEOUT_MS", "1000", (s: ReturnType<typeof resolve>["settings"]) => s.tools.bashTimeoutMs, 1000],
    ["HEY_PROXY", "http://p:1", (s: ReturnType<typeof resolve>["settings"]) => s.proxy, "http://p:1"],
  ] as const)("%s", (name, value, get, expected) => {
    expect(get(resolve('[tools]\nshell = "/bin/sh"\n[retry]\nmax_retries = 9', { [name]: value }).settings)).toBe(expected);
  });
});

describe("a resumed session's model", () => {
  const P = '[provider.mock]\nbase_url = "http://h/v1"\nmodels = ["m"]';
  test("is used when its provider is configured", () => {
    const { settings, warnings } = resolve(
      P + '\n[provider.other]\nbase_url = "http://o/v1"\nmodels = ["o"]',
      {},
      { session: { provider: "other", model: "o2" } },
    );
    expect(`${settings.provider.name}/${settings.model}`).toBe("other/o2");
    expect(warnings).toEqual([]);
  });
  test("that this run cannot use is said on one line, not silently replaced", () => {
    const { settings, warnings, unresolved } = resolve(P, {}, { session: { provider: "cli", model: "claude-x" } });
    expect(`${settings.provider.name}/${settings.model}`).toBe("mock/m");
    expect(warnings).toEqual([
      "the session used cli/claude-x, which is not configured in this run; using mock/m — pass --base-url URL -m claude-x to continue with it",
    ]);
    expect(unresolved).toEqual([]); // /reload does not refuse it
  });
  describe("whose provider has no key now (x117: the history went out with none, then a 401)", () => {
    const openai = { session: { provider: "openai", model: "gpt-5.5" } };
    test("gets no request: the run says the model, the variable, and -m with a provider that has a key", () => {
      const { settings } = resolve("", { ANTHROPIC_API_KEY: "k" }, openai);
      expect(`${settings.provider.name}/${settings.model}`).toBe("openai/gpt-5.5");
      const anthropic = resolve("", { ANTHROPIC_API_KEY: "k" }).settings;
      expect(unsendable(settings.provider)).toBe(
        `this session last used openai/gpt-5.5, and OPENAI_API_KEY is not set, so hey sends it nothing (the request would be refused); continue it with a model whose key is set: hey -c -m anthropic/${anthropic.model} (/model at the prompt), or set OPENAI_API_KEY (or pass --api-key)`,
      );
    });
    test("with no provider that has a key, says to set it", () => {
      expect(unsendable(resolve("", {}, openai).settings.provider)).toEndWith(
        "is not set, so hey sends it nothing (the request would be refused); set OPENAI_API_KEY (or pass --api-key)",
      );
    });
    test.each([
      ["its key is set", { OPENAI_API_KEY: "k" }, {}],
      ["--api-key gives one", {}, { apiKey: "k" }],
      ["HEY_API_KEY gives one", { HEY_API_KEY: "k" }, {}],
      ["OPENAI_BASE_URL moved it (a gateway may take no key)", { OPENAI_BASE_URL: "http://127.0.0.1:4000/v1" }, {}],
      ["-m names another model", { ANTHROPIC_API_KEY: "k" }, { model: "anthropic/claude-sonnet-4-5" }],
    ])("is sent as before when %s", (_why, env: Env, flags: ConfigFlags) => {
      expect(unsendable(resolve("", env, { ...openai, ...flags }).settings.provider)).toBeUndefined();
    });
  });
  test("needs no word when -m chooses anyway", () => {
    expect(resolve(P, {}, { session: { provider: "cli", model: "claude-x" }, model: "mock/m" }).warnings).toEqual([]);
  });
  test("brings its effort back with it, to another model chosen with -m too; -t wins", () => {
    const two = `${P}\neffort = "low"\n[provider.other]\nbase_url = "http://o/v1"\nmodels = ["o"]\neffort = "high"`;
    const session = { provider: "other", model: "o", effort: "xhigh" as const };
    expect(resolve(two, {}, { session }).settings.effort).toBe("xhigh");
    expect(resolve(two, {}, { session, effort: "minimal" }).settings.effort).toBe("minimal");
    expect(resolve(two, {}, { session, model: "mock/m" }).settings.effort).toBe("xhigh");
  });
  test("an effort that was only its provider's configured default gives way to the new provider's", () => {
    const two = `${P}\neffort = "low"\n[provider.other]\nbase_url = "http://o/v1"\nmodels = ["o"]\neffort = "high"`;
    expect(resolve(two, {}, { session: { provider: "other", model: "o", effort: "high" }, model: "mock/m" }).settings.effort).toBe("low");
  });
});

describe("a model named one or two edits from one the provider's models list holds is warned about at start", () => {
  const table = '[provider.anthropic]\nmodels = ["claude-sonnet-4-5", "claude-opus-4-5"]\n';
  const run = (toml: string, env: Env = { ANTHROPIC_API_KEY: "k" }, flags: ConfigFlags = {}) =>
    resolveConfig([{ source: "/u.toml", data: TOML.parse(toml), text: toml }], env, flags);
  const said = (label: string, model: string, near: string) =>
    `${label}: [provider.anthropic] models (/u.toml:2) has no "${model}"; did you mean ${near}? (a model not listed is sent as written)`;

  test.each([
    ["-m", {}, { model: "claude-sonnet-4.5" }, "-m claude-sonnet-4.5", "claude-sonnet-4.5", "claude-sonnet-4-5"],
    ["-m PROVIDER/MODEL", {}, { model: "anthropic/claude-opus-4.5" }, "-m anthropic/claude-opus-4.5", "claude-opus-4.5", "claude-opus-4-5"],
    ["HEY_MODEL", { HEY_MODEL: "Claude-Sonnet-4-5" }, {}, "HEY_MODEL=Claude-Sonnet-4-5", "Claude-Sonnet-4-5", "claude-sonnet-4-5"],
  ] as [string, Env, ConfigFlags, string, string, string][])("named by %s", (_, env, flags, label, model, near) => {
    const { settings, warnings } = run(table, { ANTHROPIC_API_KEY: "k", ...env }, flags);
    expect(settings.model).toBe(model); // still sent as written: the list may be partial
    expect(warnings).toEqual([said(label, model, near)]);
  });

  test("named by [default] model, with its line", () => {
    const { warnings } = run(`${table}[default]\nprovider = "anthropic"\nmodel = "claude-sonet-4-5"\n`);
    expect(warnings).toEqual([said("/u.toml:5: [default] model", "claude-sonet-4-5", "claude-sonnet-4-5")]);
  });

  test.each([
    ["a listed model", table, "claude-opus-4-5"],
    ["a far name", table, "claude-haiku-4-5"],
    ["another version", table, "claude-opus-4-1"],
    ["a built-in provider's own default, no list configured", "", "claude-sonnet-4.5"],
  ])("%s is not warned about", (_, toml, model) => {
    expect(run(toml, { ANTHROPIC_API_KEY: "k" }, { model: `anthropic/${model}` }).warnings).toEqual([]);
  });
});

describe("a model name that is not one provider's", () => {
  const toml =
    '[provider.ds]\nbase_url = "http://d/v1"\nmodels = ["shared-model", "deepseek-chat"]\n' +
    '[provider.gpt]\nbase_url = "http://g/v1"\nmodels = ["shared-model", "gpt-x"]\n' +
    '[provider.claude]\nprotocol = "anthropic"\nbase_url = "http://c"\nmodels = ["claude-x"]\n';

  test("-m NAME that several providers list: the first is used, and a line says so and how to write the other", () => {
    const { settings, warnings } = resolve(toml, {}, { model: "shared-model" });
    expect(`${settings.provider.name}/${settings.model}`).toBe("ds/shared-model");
    expect(warnings).toEqual(["shared-model is listed by ds and gpt; using ds/shared-model (write gpt/shared-model for the other)"]);
    expect(resolve(toml, {}, { model: "gpt/shared-model" }).warnings).toEqual([]);
  });

  test("-c -m NAME no provider lists: sent to the session's provider as written, with a line saying it is not in its list", () => {
    const { settings, warnings } = resolve(toml, {}, { model: "gemini-3-pro", session: { provider: "claude", model: "claude-x" } });
    expect(`${settings.provider.name}/${settings.model}`).toBe("claude/gemini-3-pro");
    expect(warnings).toEqual(['-m gemini-3-pro: no provider lists "gemini-3-pro"; it goes to claude, whose models are claude-x']);
  });
});

describe("a model name a variable leaves empty is never sent", () => {
  const toml = '[provider.mock]\nbase_url = "http://h/v1"\nmodels = ["${MM}", "m2"]\n';
  test("an unset variable: the provider refuses every request, naming the key, the variable and what to do", async () => {
    const { settings } = resolve(toml);
    expect(settings.model).toBe("");
    expect(settings.provider.noModel).toBe(
      "/l0.toml: [provider.mock] models: the model name is empty (${MM} is not set), and hey sends no request without one: pass -m mock/MODEL",
    );
    const { providerFor } = await import("../../src/endpoint.ts");
    expect(providerFor(settings.provider, settings.model, undefined, fetch)).rejects.toThrow("the model name is empty (${MM} is not set)");
  });

  test.each([
    ["HEY_MODEL", { HEY_MODEL: "mock/ " }, {}, "HEY_MODEL=mock/ "],
    ["-m (the REPL's /model, the library)", {}, { model: "mock/ " }, "-m mock/ "],
    ["the resumed session's", {}, { session: { provider: "mock", model: " " } }, "the resumed session's model"],
  ])("a blank model from %s names where it came from, not a line of the file", (_, env, flags, from) => {
    const toml = '[provider.mock]\nbase_url = "http://h/v1"\nmodels = ["m1"]\n\n[default]\nprovider = "mock"\n';
    expect(resolve(toml, env, flags).settings.provider.noModel).toBe(
      `${from}: the model name is empty, and hey sends no request without one: pass -m mock/MODEL`,
    );
  });

  test("set, or another model named with -m: nothing is refused", () => {
    expect(resolve(toml, { MM: "m1" }).settings.provider.noModel).toBeUndefined();
    expect(resolve(toml, {}, { model: "m2" }).settings.provider.noModel).toBeUndefined();
  });
});

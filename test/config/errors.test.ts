// The exact messages of configuration mistakes (SPEC §3): each names the file or variable, the
// key, and what was expected.
import TOML from "@iarna/toml";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { loadLayer } from "../../src/config/read-layer.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import { type ConfigFlags, ConfigError } from "../../src/config/settings.ts";
import { configInputs } from "../helpers/places.ts";

type Env = Record<string, string | undefined>;

const U = "/home/u/.config/hey/config.toml";

// @iarna/toml reports some positions one character past the offending one (e.g. the character
// after an unclosed string's line end); its own "at row N, col M" text agrees with these numbers.

/** The message resolveConfig throws for one file at U, or "no error". */
function errorOf(toml: string, env: Env = {}, flags: ConfigFlags = {}): string {
  try {
    resolveConfig([{ source: U, data: TOML.parse(toml) }], env, flags);
    return "no error";
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
}

describe("a malformed file names PATH:LINE:COL (1-based)", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hey-config-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, string, string][] = [
    ["a value missing", "[agent]\nmax_turns = \n", "2:13: Unexpected character, expecting string, number, datetime, boolean, inline array or inline table"],
    ["an unclosed string", '[provider.x]\nbase_url = "http://h/v1\nmodels = []\n', "2:24: Unterminated string"],
    ["an unclosed table header", "[agent\nmax_turns = 3\n", "1:8: Unexpected character, expected whitespace, . or ]"],
    ["a key defined twice: which, and where first", "[agent]\nmax_turns = 1\nmax_turns = 2\n", "3:14: max_turns is set twice in [agent] (first at line 2)"],
    [
      "a table given twice (the README's [permission] pasted under your own): which, and where its keys go",
      '[permission]\nallow = ["read_file"]\n\n[mcp.fs]\ncommand = "x"\n\n[permission]\ndeny = ["bash: rm *"]\n',
      "7:12: table [permission] is defined twice (first at line 1): put its keys under that one",
    ],
    [
      "a table an inline table already made",
      '[mcp]\nfs = { command = "x" }\n[mcp.fs]\nargs = []\n',
      "3:8: table [mcp.fs] is already defined: line 2 sets mcp.fs = … (a key's value cannot be a table of its own as well)",
    ],
    [
      "a table a top-level key already set (the provider to use written at the top)",
      'provider = "loc"\n\n[provider.loc]\nbase_url = "http://127.0.0.1:9/v1"\n',
      "3:10: table [provider.loc] is already defined: line 1 sets provider = … (a key's value cannot be a table of its own as well); the provider to use is [default] provider",
    ],
    ["a stray character, shown as itself", "= 3\n", '1:2: Unknown character "="'],
  ];
  test.each(cases)("%s", (_name, text, expected) => {
    const path = join(dir, "config.toml");
    writeFileSync(path, text);
    expect(() => loadLayer(path, { required: false })).toThrow(new ConfigError(`${path}:${expected}`));
  });

  test("a byte-order mark is not an error", () => {
    const path = join(dir, "config.toml");
    writeFileSync(path, "\uFEFF[agent]\nmax_turns = 3\n");
    expect(loadLayer(path, { required: false })).toEqual({ source: path, data: { agent: { max_turns: 3 } }, text: "\uFEFF[agent]\nmax_turns = 3\n" });
  });

  test("a missing --config file", () => {
    const missing = join(dir, "nope.toml");
    expect(() => loadConfig({ ...configInputs({ HOME: dir }, dir), configFile: "nope.toml", trustProject: false, flags: {}, approvals: undefined })).toThrow(
      new ConfigError(`--config ${missing}: no such file`),
    );
    expect(loadLayer(missing, { required: false })).toBeUndefined();
  });

  test("a config path that is a directory", () => {
    expect(() => loadLayer(dir, { required: true })).toThrow(new ConfigError(`${dir}: cannot read (EISDIR)`));
  });
});

describe("wrong types name the file, the key and what was expected", () => {
  const cases: [string, string][] = [
    ['[agent]\nmax_turns = "twenty"', `${U}: [agent] max_turns must be a positive integer, got "twenty"`],
    ["[agent]\nmax_turns = 0", `${U}: [agent] max_turns must be a positive integer, got 0`],
    ["[agent]\nbudget_tokens = 1.5", `${U}: [agent] budget_tokens must be a positive integer, got 1.5`],
    ["[retry]\nmax_retries = -1", `${U}: [retry] max_retries must be a non-negative integer, got -1`],
    ['[retry]\njitter = "yes"', `${U}: [retry] jitter must be true or false, got "yes"`],
    ["[compaction]\nnudge_threshold = 1.5", `${U}: [compaction] nudge_threshold must be a number greater than 0 and at most 1, got 1.5`],
    ["[compaction]\nnudge_threshold = 0", `${U}: [compaction] nudge_threshold must be a number greater than 0 and at most 1, got 0`],
    ["[tools]\nshell = 5", `${U}: [tools] shell must be a command (not empty), got 5`],
    // an empty filter ran `sh -c ""`: every filtered command's output reached the model empty (x62)
    ['[tools]\nbash_filter = ""', `${U}: [tools] bash_filter must be a command (not empty), got ""`],
    ['[tools]\nbash_filter = "  "', `${U}: [tools] bash_filter must be a command (not empty), got "  "`],
    ['[tools]\nrg = ""', `${U}: [tools] rg must be a command (not empty), got ""`],
    ["[default]\nmodel = 4", `${U}: [default] model must be a string, got 4`],
    ["[proxy]\nurl = 1979-05-27T07:32:00Z", `${U}: [proxy] url must be a string, got a date/time`],
    ['[permission]\nallow = "bash: ls"', `${U}: [permission] allow must be an array of strings, got "bash: ls"`],
    ['[permission]\nallow = ["bash: ls", 3]', `${U}: [permission] allow[1] must be a string, got 3`],
    ["agent = 5", `${U}: [agent] must be a table, got 5`],
    ['provider = "openai"', `${U}: provider must be a table, got "openai"; the one to use is [default] provider`],
    [
      '[provider.x]\nbase_url = "http://h/v1"\neffort = "hgih"',
      `${U}: [provider.x] effort must be one of off, minimal, low, medium, high, xhigh, max, got "hgih"`,
    ],
    [
      '[provider.x]\nbase_url = "http://h/v1"\nprotocol = "claude"',
      `${U}: [provider.x] protocol must be one of openai, responses, anthropic, google, got "claude"; did you mean anthropic?`,
    ],
    [
      '[provider.x]\nbase_url = "http://h/v1beta"\nprotocol = "gemini"',
      `${U}: [provider.x] protocol must be one of openai, responses, anthropic, google, got "gemini"; did you mean google?`,
    ],
    [
      '[provider.x]\nbase_url = "http://h/v1"\nprotocol = "antropic"',
      `${U}: [provider.x] protocol must be one of openai, responses, anthropic, google, got "antropic"; did you mean anthropic?`,
    ],
    ['[provider.x]\nbase_url = "http://h/v1"\nmodels = "m"', `${U}: [provider.x] models must be an array of strings, got "m"`],
    ['[provider.x]\nbase_url = "http://h/v1"\nheaders = { X-Id = 1 }', `${U}: [provider.x] headers.X-Id must be a string, got 1`],
    ['[provider.x]\nbase_url = "http://h/v1"\nmax_tokens = "lots"', `${U}: [provider.x] max_tokens must be a positive integer, got "lots"`],
    ['[provider]\nx = "http://h/v1"', `${U}: [provider.x] must be a table, got "http://h/v1"`],
    ['[mcp]\ndefer_tools = "sometimes"', `${U}: [mcp] defer_tools must be one of auto, always, never, got "sometimes"`],
    ['[mcp.fs]\ncommand = "npx"\ndefer = "no"', `${U}: [mcp.fs] defer must be true or false, got "no"`],
    ['[mcp.fs]\ncommand = ["npx", "fs"]', `${U}: [mcp.fs] command must be a string, got an array`],
    ['[mcp.fs]\ncommand = "npx"\nenv = { PORT = 8080 }', `${U}: [mcp.fs] env.PORT must be a string, got 8080`],
    ['[mcp]\nservers = { name = "fs" }', `${U}: [mcp] servers must be an array of tables, got a table`],
    ['[mcp]\nservers = [{ command = "fs" }]', `${U}: [mcp] servers[0] needs name = "NAME", the server's name: { name = "fs", command = "npx", … }`],
    ['[mcp]\nservers = [{ name = "", command = "fs" }]', `${U}: [mcp] servers[0] name must be a non-empty string, got ""`],
    ["[mcp]\nstartup_wait_ms = -5", `${U}: [mcp] startup_wait_ms must be a non-negative integer, got -5`],
  ];
  test.each(cases.map(([toml, message]) => [message, toml]))("%s", (message, toml) => {
    expect(errorOf(toml)).toBe(message);
  });
});

describe("numbers out of range name the file, its line and the key (issue 13 row 11)", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hey-range-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const fileError = (text: string) => {
    const path = join(dir, "config.toml");
    writeFileSync(path, text);
    try {
      loadConfig({ ...configInputs({ HOME: dir }, dir), configFile: path, trustProject: false, flags: {}, approvals: undefined });
      return "no error";
    } catch (e) {
      return (e as Error).message.replaceAll(path, "PATH");
    }
  };
  test.each([
    [
      '# timeouts\n[tools]\nshell = "/bin/sh"\nbash_timeout_ms = 3000000000\n',
      "PATH:4: [tools] bash_timeout_ms must be between 100 and 86400000, got 3000000000",
    ],
    ["tools.bash_timeout_ms = 50\n", "PATH:1: [tools] bash_timeout_ms must be between 100 and 86400000, got 50"],
    ["[agent]\nmax_turns = 1000000\n", "PATH:2: [agent] max_turns must be between 1 and 10000, got 1000000"],
    ["[agent]\nbudget_tokens = 10\n", "PATH:2: [agent] budget_tokens must be between 1000 and 10000000, got 10"],
    ["[retry]\nmax_retries = 1000\n", "PATH:2: [retry] max_retries must be between 0 and 100, got 1000"],
    ["[retry]\n\nidle_timeout_ms = 99999999\n", "PATH:3: [retry] idle_timeout_ms must be between 100 and 3600000, got 99999999"],
    ["[input]\nmax_bytes = 5\n", "PATH:2: [input] max_bytes must be between 1024 and 104857600, got 5"],
    ['[provider.x]\nbase_url = "http://h/v1"\nmax_tokens = 99999999999\n', "PATH:3: [provider.x] max_tokens must be between 1 and 10000000, got 99999999999"],
    ['[mcp.fs]\ncommand = "npx"\ntimeout_ms = 99999999999\n', "PATH:3: [mcp.fs] timeout_ms must be between 100 and 86400000, got 99999999999"],
    ["[mcp]\nstartup_wait_ms = 9999999\n", "PATH:2: [mcp] startup_wait_ms must be between 0 and 600000, got 9999999"],
    ["[agent]\nmax_turns = 0\n", "PATH:2: [agent] max_turns must be a positive integer, got 0"], // wrong types get the line too
    [
      '[mcp]\nstartup_wait_ms = 100\nservers = [{ command = "node" }]\n',
      'PATH:3: [mcp] servers[0] needs name = "NAME", the server\'s name: { name = "fs", command = "npx", … }',
    ],
    [
      '[proxy]\nurl = "ftp://u:secret@x"\n',
      'PATH:2: [proxy] url: unsupported proxy scheme "ftp" in "ftp://***@x"; use http://, https://, socks5:// or socks5h://',
    ],
    ['# a proxy\n\n[proxy]\nurl = "http://"\n', 'PATH:4: [proxy] url: invalid proxy URL "http://"'],
  ])("%p", (text, message) => {
    expect(fileError(text)).toBe(message);
  });

  test("every problem of every file is listed at once, each with its line", () => {
    const text = "[agent]\nmax_turns = 0\n[retry]\nbase_delay_ms = -1\nmax_retries = 1000\n";
    expect(fileError(text).split("\n")).toEqual([
      "PATH:2: [agent] max_turns must be a positive integer, got 0",
      "PATH:4: [retry] base_delay_ms must be a non-negative integer, got -1",
      "PATH:5: [retry] max_retries must be between 0 and 100, got 1000",
    ]);
    // and the user file's problems come with the --config file's
    const user = join(dir, "hey", "config.toml");
    require("node:fs").mkdirSync(join(dir, "hey"));
    writeFileSync(user, "[tools]\nbash_timeout_ms = 1\n");
    const config = join(dir, "config.toml");
    writeFileSync(config, "[agent]\nmax_turns = 0\n");
    let message = "no error";
    try {
      loadConfig({ ...configInputs({ HOME: dir, XDG_CONFIG_HOME: dir }, dir), configFile: config, trustProject: false, flags: {}, approvals: undefined });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split("\n")).toEqual([
      `${user}:2: [tools] bash_timeout_ms must be between 100 and 86400000, got 1`,
      `${config}:2: [agent] max_turns must be a positive integer, got 0`,
    ]);
  });

  test("a provider's compatibility flags with a wrong value are listed with its other problems", () => {
    const text = '[provider.m]\nbase_url = "http://127.0.0.1:1/v1"\nmodels = ["a"]\nsystem_role = "admin"\nmax_tokens_field = "maxTokens"\napi_version = 3\n';
    expect(fileError(text).split("\n")).toEqual([
      'PATH:4: [provider.m] system_role must be one of system, developer, got "admin"',
      'PATH:5: [provider.m] max_tokens_field must be one of max_tokens, max_completion_tokens, got "maxTokens"',
      "PATH:6: [provider.m] api_version must be a string, got 3",
    ]);
  });

  test("a misspelled [permission] table is named with its line, next to the other problems", () => {
    expect(fileError('[agent]\nmax_turns = 0\n\n[permissions]\nallow = ["bash(ls)"]\n').split("\n")).toEqual([
      "PATH:2: [agent] max_turns must be a positive integer, got 0",
      "PATH:4: unknown table [permissions]; permission rules belong in [permission]",
    ]);
  });

  test("unknown keys warn with their line and the key meant", () => {
    const path = join(dir, "config.toml");
    writeFileSync(path, '[agent]\nmax_turn = 3\n[mcp.fs]\ncommand = "x"\nenable = true\n');
    const { warnings } = loadConfig({ ...configInputs({ HOME: dir }, dir), configFile: path, trustProject: false, flags: {}, approvals: undefined });
    expect(warnings).toEqual([
      `${path}:2: unknown key [agent] max_turn (ignored); did you mean max_turns?`,
      `${path}:5: unknown key [mcp.fs] enable (ignored); did you mean enabled?`,
    ]);
  });

  test("a key written outside its table, or as Codex's config.toml spells it, warns with where hey reads it", () => {
    const path = join(dir, "config.toml");
    const codex = 'model_provider = "oai"\nmodel_reasoning_effort = "high"\napproval_policy = "never"\n[model_providers.oai]\nbase_url = "http://h/v1"\n';
    writeFileSync(path, 'model = "gpt-5.5"\nmax_turns = 5\nbase_url = "http://h/v1"\n' + codex);
    const { warnings } = loadConfig({ ...configInputs({ HOME: dir }, dir), configFile: path, trustProject: false, flags: {}, approvals: undefined });
    expect(warnings).toEqual([
      `${path}:1: unknown key model (ignored); did you mean [default] model?`,
      `${path}:2: unknown key max_turns (ignored); did you mean [agent] max_turns?`,
      `${path}:3: unknown key base_url (ignored); it belongs in a [provider.NAME] table`,
      `${path}:4: unknown key model_provider (ignored); hey's is [default] provider`,
      `${path}:5: unknown key model_reasoning_effort (ignored); hey's is [provider.NAME] effort (or -t)`,
      `${path}:6: unknown key approval_policy (ignored); hey asks nothing: [permission] allow and deny lists say what runs`,
      `${path}:7: unknown table [model_providers] (ignored); hey's is [provider.NAME], with protocol, base_url, api_key = "\${VAR}" and models`,
    ]);
  });

  test("a provider's base_url that is no URL, or is missing, and a provider with no model name their line", () => {
    expect(fileError('[agent]\nmax_turns = 5\n\n[provider.x]\nbase_url = "api.openai.com/v1"\nmodels = ["m"]\n')).toBe(
      'PATH:5: [provider.x] base_url must be an http:// or https:// URL, got "api.openai.com/v1"',
    );
    expect(fileError('[agent]\nmax_turns = 5\n[provider.y]\nprotocol = "anthropic"\n')).toBe(
      'PATH:3: [provider.y] base_url is missing (the API root, e.g. "https://api.anthropic.com/v1")',
    );
    expect(fileError('\n[provider.z]\nbase_url = "http://h/v1"\n')).toBe('PATH:2: [provider.z] lists no models; pass -m z/MODEL or add models = ["MODEL"]');
  });

  test("structural MCP errors and an unknown [default] provider name their line", () => {
    expect(fileError('[mcp.gh]\nargs = ["x"]\n\n[mcp.fs]\ncommand = "a"\nurl = "http://h/mcp"\n').split("\n")).toEqual([
      "PATH:1: [mcp.gh] needs command (a local server) or url (a remote one)",
      "PATH:6: [mcp.fs] has both command and url; keep one",
    ]);
    expect(fileError('[provider.mock]\nbase_url = "http://h/v1"\nmodels = ["m"]\n[default]\nprovider = "mokc"\n')).toBe(
      'PATH:5: [default] provider: unknown provider "mokc"; did you mean mock?; known providers: mock',
    );
  });

  test("a proxy that HEY_PROXY sets is checked too, named as such", () => {
    expect(errorOf("", { HEY_PROXY: "socks4://p:1080" })).toBe(
      'HEY_PROXY: unsupported proxy scheme "socks4" in "socks4://p:1080"; use http://, https://, socks5:// or socks5h://',
    );
    expect(errorOf('[proxy]\nurl = "${PROXY}"', { PROXY: "socks5h://p:1080" })).toBe("no error");
    expect(errorOf('[proxy]\nurl = "${UNSET}"')).toBe("no error"); // nothing to check: no proxy
  });

  test("variables and flags are range-checked too, named as such", () => {
    expect(errorOf("", { HEY_BASH_TIMEOUT_MS: "3000000000" })).toBe("HEY_BASH_TIMEOUT_MS must be between 100 and 86400000, got 3000000000");
    expect(errorOf("", {}, { maxTurns: 20000 })).toBe("--max-turns must be between 1 and 10000, got 20000");
  });
});

describe("providers, MCP servers and the choice of model", () => {
  const P = '[provider.openai]\nbase_url = "https://api.openai.com/v1"\nmodels = ["gpt-4o"]\n';
  const cases: [string, string, Env, ConfigFlags, string][] = [
    [
      "a provider without base_url",
      '[provider.local]\nmodels = ["qwen3"]',
      {},
      {},
      `${U}: [provider.local] base_url is missing (the API root, e.g. "https://api.openai.com/v1")`,
    ],
    [
      "a base_url that is no URL",
      '[provider.x]\nbase_url = "api.x.com/v1"',
      {},
      {},
      `${U}: [provider.x] base_url must be an http:// or https:// URL, got "api.x.com/v1"`,
    ],
    [
      "the chosen provider's base_url variable unset",
      '[provider.corp]\nbase_url = "${CORP_GATEWAY}"\nmodels = ["c"]',
      {},
      {},
      `${U}: [provider.corp] base_url needs \${CORP_GATEWAY}, which has no value`,
    ],
    [
      "a provider name with a slash",
      '[provider."a/b"]\nbase_url = "http://h/v1"',
      {},
      {},
      `${U}: [provider."a/b"]: a provider name must be non-empty and contain no "/"`,
    ],
    ["an MCP server with command and url", '[mcp.gh]\ncommand = "gh-mcp"\nurl = "https://h/mcp"', {}, {}, `${U}: [mcp.gh] has both command and url; keep one`],
    ["an MCP server with neither", '[mcp.gh]\nargs = ["x"]', {}, {}, `${U}: [mcp.gh] needs command (a local server) or url (a remote one)`],
    [
      "an MCP server whose name has a dot, which nests tables",
      '[mcp.my.server]\ncommand = "node"',
      {},
      {},
      `${U}: [mcp.my.server]: a dot in a server's name makes a table inside [mcp.my]; quote the name, [mcp."my.server"], or write it with - ([mcp.my-server])`,
    ],
    [
      "an MCP server defined twice",
      '[mcp]\nservers = [{ name = "fs", command = "a" }]\n[mcp.fs]\ncommand = "b"',
      {},
      {},
      `${U}: MCP server "fs" is defined twice`,
    ],
    ["an unknown provider in -m", P, {}, { model: "nope/" }, '-m nope/: unknown provider "nope"; known providers: openai'],
    [
      "-m PROVIDER/MODEL with an unknown provider",
      P,
      {},
      { model: "anthropic/claude-x" },
      '-m anthropic/claude-x: unknown provider "anthropic" (anthropic is built in and offered when ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN is set); known providers: openai (a model whose name has a slash goes after its provider: -m openai/anthropic/claude-x)',
    ],
    [
      "-m with a built-in provider whose key is not set",
      P,
      {},
      { model: "deepseek/deepseek-chat" },
      '-m deepseek/deepseek-chat: unknown provider "deepseek" (deepseek is built in and offered when DEEPSEEK_API_KEY is set); known providers: openai (a model whose name has a slash goes after its provider: -m openai/deepseek/deepseek-chat)',
    ],
    ["an unknown HEY_PROVIDER", P, { HEY_PROVIDER: "nope" }, {}, 'HEY_PROVIDER: unknown provider "nope"; known providers: openai'],
    ["an unknown [default] provider", P + '[default]\nprovider = "nope"', {}, {}, `${U}: [default] provider: unknown provider "nope"; known providers: openai`],
    [
      "an unknown preset",
      "",
      { HEY_PROVIDER: "azure" },
      {},
      'HEY_PROVIDER: unknown provider "azure"; known providers: openai, anthropic, google, deepseek, ollama',
    ],
    [
      "HEY_PROVIDER=gemini, the product's name",
      "",
      { HEY_PROVIDER: "gemini" },
      {},
      'HEY_PROVIDER: unknown provider "gemini"; did you mean google?; known providers: openai, anthropic, google, deepseek, ollama',
    ],
    [
      '[default] provider = "claude"',
      '[default]\nprovider = "claude"',
      {},
      {},
      `${U}: [default] provider: unknown provider "claude"; did you mean anthropic?; known providers: openai, anthropic, google, deepseek, ollama`,
    ],
    [
      "HEY_PROVIDER=ChatGPT with providers of one's own",
      P,
      { HEY_PROVIDER: "ChatGPT" },
      {},
      'HEY_PROVIDER: unknown provider "ChatGPT"; did you mean openai?; known providers: openai',
    ],
    [
      "-m gemini/MODEL with providers of one's own and no Google key",
      P,
      {},
      { model: "gemini/gemini-2.5-pro" },
      '-m gemini/gemini-2.5-pro: unknown provider "gemini"; did you mean google? (google is built in and offered when GEMINI_API_KEY or GOOGLE_API_KEY is set); known providers: openai (a model whose name has a slash goes after its provider: -m openai/gemini/gemini-2.5-pro)',
    ],
    [
      "a provider with no model",
      '[provider.local]\nbase_url = "http://h/v1"',
      {},
      {},
      `${U}: [provider.local] lists no models; pass -m local/MODEL or add models = ["MODEL"]`,
    ],
    ["--base-url without -m", P, {}, { baseUrl: "http://h/v1" }, "--base-url needs -m MODEL"],
    ["HEY_BASE_URL without a model", P, { HEY_BASE_URL: "http://h/v1" }, {}, "HEY_BASE_URL needs HEY_MODEL or -m MODEL"],
    ["--base-url that is no URL", P, {}, { baseUrl: "localhost:8080", model: "m" }, '--base-url must be an http:// or https:// URL, got "localhost:8080"'],
    ["--protocol without --base-url", P, {}, { protocol: "anthropic" }, "--protocol needs --base-url URL"],
    ["HEY_PROTOCOL without HEY_BASE_URL", P, { HEY_PROTOCOL: "anthropic" }, {}, "HEY_PROTOCOL needs HEY_BASE_URL"],
  ];
  test.each(cases)("%s", (_name, toml, env, flags, message) => {
    expect(errorOf(toml, env, flags)).toBe(message);
  });
});

describe("bad flag and HEY_* values list what is allowed", () => {
  const EFFORT = "one of off, minimal, low, medium, high, xhigh, max";
  const PROTOCOL = "one of openai, responses, anthropic, google";
  const cases: [Env, ConfigFlags, string][] = [
    [{}, { effort: "hgih" as never }, `--effort must be ${EFFORT}, got "hgih"`],
    [{ HEY_EFFORT: "turbo" }, {}, `HEY_EFFORT must be ${EFFORT}, got "turbo"`],
    [{}, { protocol: "grpc" as never, baseUrl: "http://h/v1", model: "m" }, `--protocol must be ${PROTOCOL}, got "grpc"`],
    [{ HEY_PROTOCOL: "grpc", HEY_BASE_URL: "http://h/v1", HEY_MODEL: "m" }, {}, `HEY_PROTOCOL must be ${PROTOCOL}, got "grpc"`],
    [{}, { maxTurns: 0 }, "--max-turns must be a positive integer, got 0"],
    [{ HEY_MAX_TURNS: "twenty" }, {}, 'HEY_MAX_TURNS must be a positive integer, got "twenty"'],
    [{ HEY_BUDGET_TOKENS: "-1" }, {}, 'HEY_BUDGET_TOKENS must be a positive integer, got "-1"'],
    [{ HEY_MAX_RETRIES: "many" }, {}, 'HEY_MAX_RETRIES must be a non-negative integer, got "many"'],
  ];
  test.each(cases.map(([env, flags, message]) => [message, env, flags] as const))("%s", (message, env, flags) => {
    expect(errorOf("", env, flags)).toBe(message);
  });
});

test("a config with errors keeps its unknown-key warnings: they travel with the error, to be shown first", () => {
  const toml = '[agent]\nmax_turn = 3\nmax_turns = 0\n[default]\nprovider = "nope"\n';
  for (const bad of [toml, '[agent]\nmax_turn = 3\n[default]\nprovider = "nope"\n']) {
    let error: unknown;
    try {
      resolveConfig([{ source: U, data: TOML.parse(bad), text: bad }], {}, {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).warnings).toEqual([`${U}:2: unknown key [agent] max_turn (ignored); did you mean max_turns?`]);
  }
});

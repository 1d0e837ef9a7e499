// Help for a new user after a failed request: the setup hint for the default local Ollama, and
// when a local server lacks the model, `ollama pull` for Ollama and the model list for another.
import { describe, expect, test } from "bun:test";
import TOML from "@iarna/toml";
import { resolveConfig } from "../../src/config/resolve.ts";
import { CUT_OFF } from "../../src/kernel/loop.ts";
import { setupHint, setupText } from "../../src/ui/setup-help.ts";

type Env = Record<string, string | undefined>;
const resolve = (toml: string, env: Env = {}) =>
  resolveConfig(toml ? [{ source: "/l0.toml", data: TOML.parse(toml) as Record<string, unknown>, text: toml }] : [], env, {});

describe("setup help", () => {
  test("the setup hint names the default (a local Ollama, qwen3), then key variables, the config file, --base-url", () => {
    const lines = setupText().split("\n");
    expect(lines).toHaveLength(9);
    // a user pastes these lines from a terminal of 80 columns: none is wrapped there (a comment's second row would be no TOML)
    expect(lines.slice(3, 8).every((l) => l.length < 80)).toBe(true);
    expect(lines[0]).toContain("local Ollama (http://127.0.0.1:11434/v1) with the model qwen3");
    expect(lines[0]).toContain("ollama pull qwen3");
    expect(lines[1]).toContain("OPENAI_API_KEY");
    expect(lines[2]).toContain("~/.config/hey/config.toml");
    // no approvals record yet (a run the model never answered writes none): the file written now is taken as it is, no step between
    expect(lines[2]).toBe("or add a provider to ~/.config/hey/config.toml:");
    // the table as the lines to paste, its key read from a variable
    expect(lines.slice(3, 8)).toEqual([
      "  [provider.NAME]",
      '  base_url = "https://.../v1"',
      "  # api_key names the variable that holds its key; none for a local server",
      '  api_key = "${YOUR_KEY_VAR}"',
      '  models = ["MODEL"]',
    ]);
    expect(lines[8]).toBe("or use any endpoint once: hey --base-url http://127.0.0.1:11434/v1 -m MODEL");
  });

  test("with an approvals record, a provider added now waits for a yes: the help says where it is given (only the interactive prompt asks)", () => {
    const approve = ", then start hey at a terminal and answer y to approve it:";
    expect(setupText(undefined, undefined, undefined, {}, undefined, true).split("\n")[2]).toBe(`or add a provider to ~/.config/hey/config.toml${approve}`);
    const gateway = setupText(undefined, undefined, undefined, { GROQ_API_KEY: "g" }, undefined, true);
    expect(gateway).toContain(`GROQ_API_KEY is set, but hey has no built-in provider that reads it: to use it, add to ~/.config/hey/config.toml${approve}`);
  });

  // a user pastes what hey prints: a `[table] key = …` line is a parse error, and a hosted endpoint without api_key gets no key
  test("every config snippet the setup help prints parses as TOML, and its provider reads its key from the variable", () => {
    const env = Object.fromEntries(
      ["OPENROUTER_API_KEY", "GROQ_API_KEY", "XAI_API_KEY", "MISTRAL_API_KEY", "MOONSHOT_API_KEY", "TOGETHER_API_KEY", "FIREWORKS_API_KEY"].map((v) => [
        v,
        `key-${v}`,
      ]),
    );
    const text = setupText("/home/u/.config/hey/config.toml", "/home/u", undefined, env);
    const snippets = [...text.matchAll(/^ {2}\[[^\n]*\n(?: {2}\S[^\n]*(?:\n|$))*/gm)].map((m) => m[0].replace(/^ {2}/gm, ""));
    expect(snippets).toHaveLength(8);
    // an indented line that is no part of a snippet would be text a user pastes by mistake
    expect(text.split("\n").filter((l) => l.startsWith("  ")).length).toBe(snippets.join("").split("\n").filter(Boolean).length);
    for (const snippet of snippets) {
      const data = Bun.TOML.parse(snippet) as { provider: Record<string, unknown> }; // hey's own parser
      expect(TOML.parse(snippet) as unknown).toEqual(data); // and the one that places its errors
      const [name] = Object.keys(data.provider);
      const { settings } = resolve(snippet, { ...env, YOUR_KEY_VAR: "my-key" });
      const provider = settings.providers.find((p) => p.name === name)!;
      expect(provider.apiKey).toBe(name === "NAME" ? "my-key" : `key-${provider.apiKeyVar}`);
    }
  });

  test("the --base-url example names the Ollama OLLAMA_HOST points at", () => {
    const moved = resolve("", { OLLAMA_HOST: "gpu-box:11500" }).settings;
    const hint = setupHint(moved.provider, moved.model, { kind: "network", message: "x" })!;
    expect(hint).toContain("or use any endpoint once: hey --base-url http://gpu-box:11500/v1 -m MODEL");
    expect(hint).not.toContain("11434");
  });

  test("with OLLAMA_HOST the hint names that Ollama and the variable, not the local default", () => {
    const moved = resolve("", { OLLAMA_HOST: "gpu-box:11500" }).settings;
    const hint = setupHint(moved.provider, moved.model, { kind: "network", message: "x" })!;
    expect(hint.split("\n")[0]).toBe(
      "With no configuration hey talks to the Ollama at OLLAMA_HOST (http://gpu-box:11500/v1) with the model qwen3: start it there with `ollama serve` and `ollama pull qwen3`,",
    );
  });

  test("an Ollama that took the request and sent nothing is running: no help to start it, loading named instead", () => {
    const ollama = resolve("", {}).settings;
    const silent = { kind: "network", message: "no answer from http://127.0.0.1:11434/v1 in 120 s, not a byte — nothing came on 2 tries in a row" };
    const hint = setupHint(ollama.provider, ollama.model, silent)!;
    expect(hint).toBe(
      "the Ollama at http://127.0.0.1:11434/v1 took the request and sent nothing back: it is running, most likely still loading qwen3 (`ollama ps` shows what it has loaded) or reading a long prompt; a larger [retry] idle_timeout_ms waits longer for it",
    );
    expect(hint).not.toContain("ollama serve");
    const closed = setupHint(ollama.provider, ollama.model, {
      kind: "network",
      message: "http://127.0.0.1:11434/v1 (provider ollama): the connection closed before the model finished its answer — gave up after 5 retries",
    })!;
    expect(closed).toBe(
      "the Ollama at http://127.0.0.1:11434/v1 took the request and closed it unanswered: it is running, but failed on qwen3 (the Ollama server's log says why)",
    );
  });

  // a key other agents read, for a service hey has no preset of: the fallback to Ollama is no place to leave it unsaid
  test("with OPENROUTER_API_KEY (or GROQ_API_KEY, XAI_API_KEY) set, the hint names it and the table that uses it", () => {
    const ollama = resolve("", { OPENROUTER_API_KEY: "sk-or" }).settings;
    expect(ollama.provider.name).toBe("ollama");
    const where = { userFile: "/home/u/.config/hey/config.toml", home: "/home/u", env: { OPENROUTER_API_KEY: "sk-or", GROQ_API_KEY: "g" } };
    const hint = setupHint(ollama.provider, ollama.model, { kind: "network", message: "x" }, where)!;
    expect(hint).toContain(
      [
        "OPENROUTER_API_KEY is set, but hey has no built-in provider that reads it: to use it, add to ~/.config/hey/config.toml:",
        "  [provider.openrouter]",
        '  base_url = "https://openrouter.ai/api/v1"',
        '  api_key = "${OPENROUTER_API_KEY}"',
        '  models = ["anthropic/claude-sonnet-4.5"]',
        // OpenRouter reserves the model's whole output limit against the credit when none is sent
        "  max_tokens = 8192",
      ].join("\n"),
    );
    expect(hint).toContain("GROQ_API_KEY is set, but hey has no built-in provider that reads it");
    expect(hint).toContain('  base_url = "https://api.groq.com/openai/v1"');
    // the lines of the plain hint are unchanged, first
    expect(hint.startsWith(`${setupText(where.userFile, where.home)}\n`)).toBe(true);
  });

  test("on Windows the hint says how PowerShell sets a key: export is no command there", () => {
    const line = setupText("C:\\Users\\ann\\.config\\hey\\config.toml", "C:\\Users\\ann").split("\n")[1]!;
    expect(line).not.toContain("export");
    expect(line).toContain('$env:OPENAI_API_KEY = "…"');
    expect(line).toContain("setx");
    expect(setupText().split("\n")[1]).toContain("export OPENAI_API_KEY");
  });

  test("the setup hint names the user file this run reads (XDG_CONFIG_HOME counts)", () => {
    const ollama = resolve("").settings;
    const hint = (where: { userFile?: string; home?: string }) => setupHint(ollama.provider, ollama.model, { kind: "network", message: "x" }, where);
    expect(hint({ userFile: "/srv/xdg/hey/config.toml", home: "/home/u" })).toContain("or add a provider to /srv/xdg/hey/config.toml:");
    expect(hint({ userFile: "/home/u/.cfg/hey/config.toml", home: "/home/u" })).toContain("or add a provider to ~/.cfg/hey/config.toml:");
  });

  test.each([
    ["no server at the default Ollama", "", {}, "network", "connect ECONNREFUSED", "With no configuration hey talks to a local Ollama"],
    ["the model is not pulled", "", {}, "bad_request", 'request rejected (404): model "qwen3" not found', "run `ollama pull qwen3`"],
    [
      "another local server (vLLM on 8000) lacks the model: its model list, not Ollama",
      '[provider.local]\nbase_url = "http://localhost:8000/v1"\nmodels = ["m"]',
      {},
      "bad_request",
      "request rejected (404): not found",
      "the names it serves are listed at http://localhost:8000/v1/models",
    ],
    [
      "a local Anthropic-protocol gateway lacks the model: its list is under /v1, which the SDK adds",
      '[provider.gw]\nprotocol = "anthropic"\nbase_url = "http://127.0.0.1:40124"\nmodels = ["claude-x"]',
      {},
      "bad_request",
      "request rejected (404): model: claude-x",
      "the names it serves are listed at http://127.0.0.1:40124/v1/models (",
    ],
    [
      "a local Gemini-protocol gateway lacks the model: its list is under the API version",
      '[provider.gw]\nprotocol = "google"\nbase_url = "http://127.0.0.1:40125"\nmodels = ["gemini-x"]',
      {},
      "bad_request",
      "request rejected (404): models/gemini-x is not found for API version v1beta",
      "the names it serves are listed at http://127.0.0.1:40125/v1beta/models (",
    ],
    [
      "a local server by another name on Ollama's port lacks the model",
      '[provider.local]\nbase_url = "http://localhost:11434/v1"\nmodels = ["m"]',
      {},
      "bad_request",
      "request rejected (404): not found",
      "run `ollama pull m`",
    ],
    [
      "Ollama's router 404 off /v1 (base_url without it): the path, not `ollama pull`",
      '[provider.ollama]\nbase_url = "http://127.0.0.1:40123"\nmodels = ["qwen3"]',
      {},
      "bad_request",
      "request rejected (404): 404 page not found — check the model name and base URL http://127.0.0.1:40123",
      "base_url probably lacks /v1 — set it to http://127.0.0.1:40123/v1",
    ],
    [
      "Ollama's native /api root (its router's 404): its OpenAI-compatible /v1 beside it, not /api/v1",
      '[provider.ollama]\nbase_url = "http://127.0.0.1:40123/api"\nmodels = ["qwen3"]',
      {},
      "bad_request",
      "request rejected (404): 404 page not found — check the model name and base URL http://127.0.0.1:40123/api",
      "/api is Ollama's own API, its OpenAI-compatible one is at /v1 — set base_url to http://127.0.0.1:40123/v1",
    ],
    [
      "a LAN server's bare 404 with base_url lacking /v1",
      '[provider.lan]\nbase_url = "http://192.168.1.20:8000/"\nmodels = ["m"]',
      {},
      "bad_request",
      "request rejected (404): not found",
      "base_url probably lacks /v1 — set it to http://192.168.1.20:8000/v1",
    ],
    [
      "a router's 404 under a versioned base_url: check its path",
      '[provider.local]\nbase_url = "http://localhost:8000/api/v1"\nmodels = ["m"]',
      {},
      "bad_request",
      "request rejected (404): 404 page not found",
      "check the path of base_url (http://localhost:8000/api/v1)",
    ],
    [
      "Ollama's missing model off /v1 is still a missing model",
      '[provider.ollama]\nbase_url = "http://127.0.0.1:40123/v1"\nmodels = ["qwen3"]',
      {},
      "bad_request",
      'request rejected (404): model "qwen3" not found, try pulling it first',
      "run `ollama pull qwen3`",
    ],
    ["a hosted provider: no hint", "", { OPENAI_API_KEY: "k" }, "network", "connect ECONNREFUSED", undefined],
    ["a hosted provider's 404: no hint", "", { OPENAI_API_KEY: "k" }, "bad_request", "request rejected (404): not found", undefined],
  ])("setup hint: %s", (_name, toml, env, kind, message, hint) => {
    const { settings } = resolve(toml, env);
    const got = setupHint(settings.provider, settings.model, { kind, message });
    if (hint === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(hint);
    if (toml.includes(":8000") || /lacks|path/.test(hint ?? "")) expect(got).not.toContain("ollama");
  });
});

describe("after an answer cut at the output token limit", () => {
  const cut = { kind: "length", message: CUT_OFF };
  test.each([
    [
      "a configured limit: its table, file and value",
      '[provider.claude]\nprotocol = "anthropic"\nbase_url = "https://api.anthropic.com/v1"\nmodels = ["m"]\nmax_tokens = 4096',
      {},
      "raise max_tokens in [provider.claude] of /l0.toml (now 4096)",
    ],
    [
      "Anthropic without one: hey's default",
      '[provider.claude]\nprotocol = "anthropic"\nbase_url = "https://api.anthropic.com/v1"\nmodels = ["m"]',
      {},
      "raise max_tokens in [provider.claude] of /l0.toml (now 32000, hey's default for Anthropic)",
    ],
    [
      "another protocol without one: the model's own limit, which no setting raises",
      '[provider.oa]\nbase_url = "https://api.example.com/v1"\nmodels = ["m"]',
      {},
      "max_tokens is not set, so the model's own output limit was reached: ask for the answer in parts",
    ],
    [
      "a preset (from a key variable): the table to add",
      "",
      { ANTHROPIC_API_KEY: "k" },
      "set max_tokens in a [provider.anthropic] table of ~/.config/hey/config.toml (now 32000, hey's default for Anthropic)",
    ],
  ])("%s", (_name, toml, env, hint) => {
    const { settings } = resolve(toml, env);
    expect(setupHint(settings.provider, settings.model, cut)).toBe(hint);
  });

  test("the limit the request went with, where hey chose it: lowered to what the endpoint takes, or raised above a thinking budget", () => {
    const anthropic = resolve('[provider.claude]\nprotocol = "anthropic"\nbase_url = "https://api.anthropic.com/v1"\nmodels = ["m"]', {}).settings;
    expect(setupHint(anthropic.provider, anthropic.model, { ...cut, max_tokens: 8192 })).toBe(
      "the endpoint takes at most 8192 output tokens for this model (it refused hey's default of 32000), so no setting raises the limit: ask for the answer in parts",
    );
    const legacy = resolve(
      '[provider.claude]\nprotocol = "anthropic"\nbase_url = "https://api.anthropic.com/v1"\nmodels = ["m"]\nmax_tokens = 8000\nlegacy_thinking = true',
      {},
    ).settings;
    expect(setupHint(legacy.provider, legacy.model, { ...cut, max_tokens: 28672 })).toBe("raise max_tokens in [provider.claude] of /l0.toml (now 28672)");
  });

  test("a cut stated otherwise (the context window is full) gets no max_tokens hint", () => {
    const { settings } = resolve("", { ANTHROPIC_API_KEY: "k" });
    expect(
      setupHint(settings.provider, settings.model, { kind: "length", message: "the answer was cut off: the conversation filled the model's context window" }),
    ).toBeUndefined();
  });
});

describe("a request the credit left does not cover at its output limit (OpenRouter's 402)", () => {
  const said =
    "request rejected (402): This request requires more credits, or fewer max_tokens. You requested up to 64000 tokens, but can only afford 1203. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account";
  const table = '[provider.openrouter]\nbase_url = "https://openrouter.ai/api/v1"\nmodels = ["anthropic/claude-sonnet-4.5"]\n';

  test("names max_tokens of the provider's table, below what the credit covers, not another model", () => {
    const { settings } = resolve(table);
    expect(setupHint(settings.provider, settings.model, { kind: "bad_request", message: said })).toBe(
      "with no max_tokens the endpoint counts the model's whole output limit against the credit, which covers 1203 tokens: set max_tokens = 1000 in [provider.openrouter] of /l0.toml (or add credit)",
    );
  });

  test("a max_tokens already set is named as the one too high; a large credit gets hey's modest 8192", () => {
    const { settings } = resolve(`${table}max_tokens = 32000\n`);
    const hint = setupHint(settings.provider, settings.model, { kind: "bad_request", message: said.replace("1203", "20500") });
    expect(hint).toBe(
      "max_tokens = 32000 is more than the credit left covers (20500 tokens): set max_tokens = 8192 in [provider.openrouter] of /l0.toml (or add credit)",
    );
  });

  test("a --base-url run is told to make a table: it has no max_tokens of its own", () => {
    const { settings } = resolveConfig([], {}, { baseUrl: "https://openrouter.ai/api/v1", model: "x/y" });
    const hint = setupHint(settings.provider, settings.model, { kind: "bad_request", message: said }, { userFile: "/h/.config/hey/config.toml" });
    expect(hint).toContain("a --base-url run has no max_tokens of its own, so set max_tokens = 1000 in a [provider.NAME] table of /h/.config/hey/config.toml");
  });
});

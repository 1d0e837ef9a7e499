// `/reload` (SPEC §14, §23): every part checked before anything switches; the configuration read
// again with every problem collected (syntax with path:line:col, types per file, unset ${VAR});
// the one-line summaries of what changed.
import { ALLOWS_NOTHING } from "../../src/permission/rules.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import {
  entryChanges,
  formatReload,
  RELOAD_NOTE_MAX_CHARS,
  reloadAll,
  reloadNote,
  settingsChanges,
  type Reloadable,
  type StagedConfig,
} from "../../src/config/reload.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { Settings } from "../../src/config/settings.ts";
import { tempDir } from "../helpers/e2e.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { configInputs } from "../helpers/places.ts";

describe("reloadAll: all or nothing", () => {
  const applied: string[] = [];
  const part = (name: string, errors: string[] = [], changes: string[] = [`+ ${name}`]): Reloadable => ({
    name,
    check: async (settings) => ({ errors, warnings: [`${name} saw ${settings.model}`], changes, apply: () => void applied.push(name) }),
  });
  const config =
    (errors: string[] = [], model = "next-model"): (() => Promise<StagedConfig>) =>
    async () => ({
      errors,
      warnings: [],
      changes: ["~ model"],
      settings: { ...defaultSettingsForTest(), model },
      apply: () => void applied.push("config"),
    });
  beforeEach(() => void (applied.length = 0));

  test("no errors: every part applies, config first, and the changes are listed in that order", async () => {
    const report = await reloadAll(config(), [part("skills"), part("agents")]);
    expect(report).toEqual({
      ok: true,
      changes: ["~ model", "+ skills", "+ agents"],
      errors: [],
      warnings: ["skills saw next-model", "agents saw next-model"],
    });
    expect(applied).toEqual(["config", "skills", "agents"]);
  });

  test("one part with an error: nothing applies anywhere, and every error is reported", async () => {
    const report = await reloadAll(config(["c.toml:1:2: bad"], "current-model"), [part("skills", ["a/SKILL.md:3: broken"]), part("agents")]);
    expect(report).toEqual({
      ok: false,
      changes: [],
      errors: ["c.toml:1:2: bad", "a/SKILL.md:3: broken"],
      warnings: ["skills saw current-model", "agents saw current-model"],
    });
    expect(applied).toEqual([]);
  });

  test("a part that learns how it went by applying (a server kept as it was) replaces its changes and adds warnings", async () => {
    const mcp: Reloadable = {
      name: "mcp",
      check: async () => ({
        errors: [],
        warnings: [],
        changes: ["~ mcp server db"],
        apply: async () => ({ changes: ["~ mcp server db (not started: the old one keeps serving)"], warnings: ["MCP server db: …"] }),
      }),
    };
    const report = await reloadAll(config(), [part("skills"), mcp]);
    expect(report.changes).toEqual(["~ model", "+ skills", "~ mcp server db (not started: the old one keeps serving)"]);
    expect(report.warnings).toEqual(["skills saw next-model", "MCP server db: …"]);
  });

  test("formatReload", () => {
    expect(formatReload({ ok: true, changes: [], errors: [], warnings: [] })).toBe("reloaded: nothing changed");
    expect(formatReload({ ok: true, changes: ["+ skill a", "~ model x → y"], errors: [], warnings: ["w"] })).toBe(
      "hey: w\nreloaded:\n  + skill a\n  ~ model x → y",
    );
    expect(formatReload({ ok: false, changes: [], errors: ["f:1: e", "g:2:3: e"], warnings: [] })).toBe(
      "hey: /reload changed nothing; fix these and /reload again:\n  f:1: e\n  g:2:3: e",
    );
  });
});

describe("reloadNote: what the model hears on the next request", () => {
  const ok = {
    ok: true,
    changes: ["+ skill greet", "+ mcp server fs"],
    errors: [],
    warnings: ["/p/.hey/skills/bad/SKILL.md:3: broken YAML frontmatter: Unexpected token; left out"],
  };
  test("changes, the tools the request offers that the one before did not (and the reverse), then the problems with file and line", () => {
    expect(reloadNote(ok, ["bash", "read_file", "echo"], ["bash", "read_file", "fs_read_file", "list_directory"])).toBe(
      "[hey: the user ran /reload:\n+ skill greet\n+ mcp server fs\n+ tools fs_read_file, list_directory\n- tools echo\nwarning: /p/.hey/skills/bad/SKILL.md:3: broken YAML frontmatter: Unexpected token; left out]",
    );
  });
  test("nothing changed: no note (the screen says it; the model would read nothing it can use); or errors, and nothing changed", () => {
    expect(reloadNote({ ok: true, changes: [], errors: [], warnings: [] }, ["bash"], ["bash"])).toBeUndefined(); // before: "[hey: the user ran /reload; nothing changed]"
    expect(reloadNote({ ok: true, changes: [], errors: [], warnings: ["/p/x.md:1: left out"] }, ["bash"], ["bash"])).toBe(
      "[hey: the user ran /reload; nothing changed\nwarning: /p/x.md:1: left out]",
    );
    expect(reloadNote({ ok: false, changes: [], errors: ["/h/.config/hey/config.toml:3:9: Unexpected character"], warnings: [] }, ["bash"], ["bash"])).toBe(
      "[hey: the user ran /reload and nothing changed; fix these and ask them to /reload again:\nerror: /h/.config/hey/config.toml:3:9: Unexpected character]",
    );
  });
  test("defer_tools turned on: the tools left to find_tools are said so, not removed", () => {
    const change = { ok: true, changes: ["~ [mcp] defer_tools auto → always (…)"], errors: [], warnings: [] };
    expect(reloadNote(change, ["bash", "echo", "get-sum", "get-env"], ["bash", "find_tools", "echo"], ["get-sum", "get-env"])).toBe(
      "[hey: the user ran /reload:\n~ [mcp] defer_tools auto → always (…)\n+ tools find_tools\n~ tools left to find_tools (a call by name still runs one): get-sum, get-env]",
    ); // before: "- tools get-sum, get-env", as if they were gone
  });
  test(`cut at ${RELOAD_NOTE_MAX_CHARS} characters`, () => {
    const many = { ok: true, changes: [], errors: [], warnings: Array.from({ length: 100 }, (_, i) => `/p/x${i}.md:1: ${"w".repeat(50)}`) };
    const note = reloadNote(many, [], []) ?? "";
    expect(note.length).toBe(RELOAD_NOTE_MAX_CHARS);
    expect(note.endsWith("…]")).toBe(true);
  });
});

describe("settingsChanges", () => {
  const base = defaultSettingsForTest();
  const resolved = (toml: Record<string, unknown>) => resolveConfig([{ source: "/c.toml", data: toml }], {}, {}).settings;
  const two = { provider: { a: { base_url: "http://127.0.0.1:1/v1", models: ["x", "y"], api_key: "k1" } } };

  test.each<[string, Settings, Settings, string[]]>([
    ["nothing", base, base, []],
    ["the model", resolved(two), resolved({ ...two, default: { model: "y" } }), ["~ model a/x → a/y"]],
    ["a key (no values shown)", resolved(two), resolved({ provider: { a: { ...two.provider.a, api_key: "k2" } } }), ["~ provider a"]],
    [
      "a provider added and the proxy (no URL shown)",
      resolved(two),
      resolved({ ...two, provider: { ...two.provider, b: { base_url: "http://h/v1", models: ["z"] } }, proxy: { url: "http://u:p@proxy:1" } }),
      ["+ provider b", "~ [proxy] url"],
    ],
    [
      "a provider added whose base_url is not approved: it gets no request",
      resolved(two),
      (() => {
        const s = resolved({ ...two, provider: { ...two.provider, b: { base_url: "http://h/v1", models: ["z"] } } });
        return { ...s, providers: s.providers.map((p) => (p.name === "b" ? { ...p, unapproved: "/h/config.toml" } : p)) };
      })(),
      ["+ provider b (base_url not approved: it gets no request)"],
    ],
    [
      "numbers and booleans with values",
      base,
      { ...base, agent: { ...base.agent, maxTurns: 40 }, retry: { ...base.retry, jitter: false } },
      ["~ [agent] max_turns 20 → 40", "~ [retry] jitter true → false"],
    ],
    ["effort", base, { ...base, effort: "high" }, ["~ effort (default) → high"]],
    [
      "the fallback models",
      base,
      { ...base, fallbacks: { models: ["a/y", "ollama/qwen3"], from: "/c.toml:2: [default] fallback_models" } },
      ["~ fallback models (none) → a/y, ollama/qwen3"],
    ],
    [
      "[mcp] defer_tools and startup_wait_ms: said, with what the switch costs",
      base,
      { ...base, mcp: { ...base.mcp, deferTools: "always", startupWaitMs: 9000 } },
      [
        "~ [mcp] startup_wait_ms 3000 → 9000",
        "~ [mcp] defer_tools auto → always (from the next request, MCP tools not called yet wait behind find_tools; the provider's prompt cache breaks once)",
      ],
    ],
    [
      "permission lists and the shell",
      base,
      { ...base, permission: { allow: ["read_file"], deny: [], narrow: [] }, tools: { ...base.tools, shell: "bash" } },
      ['~ [tools] shell (default) → "bash"', '~ [permission] allow + "read_file" (a list now: only calls it matches run)'],
    ],
    [
      "an MCP server: not told here",
      base,
      {
        ...base,
        mcp: {
          ...base.mcp,
          servers: [{ name: "gh", at: "/c.toml: [mcp.gh]", args: [], env: {}, headers: {}, enabled: true, timeoutMs: 1, command: "gh-mcp" }],
        },
      },
      [],
    ], // the MCP part tells of servers: only it knows which ones will run (not with --no-mcp)
  ])("%s", (_, before, after, want) => {
    expect(settingsChanges(before, after)).toEqual(want);
  });
});

describe("LoadedConfig.reload reads the files again and collects every problem", () => {
  let tmp: ReturnType<typeof tempDir>;
  let user: string;
  let project: string;
  beforeEach(() => {
    tmp = tempDir("hey-reload-");
    user = join(tmp.path, "xdg", "hey", "config.toml");
    project = join(tmp.path, "p");
    mkdirSync(join(project, ".hey"), { recursive: true });
    mkdirSync(join(user, ".."), { recursive: true });
  });
  afterEach(() => tmp.remove());

  const GOOD = '[default]\nprovider = "a"\n\n[provider.a]\nbase_url = "http://127.0.0.1:1/v1"\nmodels = ["m1", "m2"]\n';
  const load = (env: Record<string, string> = {}) =>
    loadConfig({ ...configInputs({ XDG_CONFIG_HOME: join(tmp.path, "xdg"), ...env }, project), trustProject: true, flags: {}, approvals: undefined });

  test("fixed files give the new settings", () => {
    writeFileSync(user, GOOD);
    const config = load();
    writeFileSync(user, GOOD.replace('provider = "a"', 'provider = "a"\nmodel = "m2"'));
    const next = config.reload({}, undefined, true);
    expect(next.errors).toBeUndefined();
    expect(next.config?.settings.model).toBe("m2");
    expect(config.settings.model).toBe("m1"); // the old one is untouched
  });

  test("a syntax error in one file and a wrong type in another: both, each with its file", () => {
    writeFileSync(user, GOOD);
    const config = load();
    writeFileSync(user, GOOD.replace("[default]", "[default\n"));
    writeFileSync(join(project, ".hey", "config.toml"), "[agent]\nmax_turns = -1\n");
    expect(config.reload({}, undefined, true).errors).toEqual([
      `${user}:1:10: Unexpected character, expected whitespace, . or ]`,
      `${join(project, ".hey", "config.toml")}:2: [agent] max_turns must be a positive integer, got -1`,
    ]);
  });

  test("every wrong value of every file, each with its line; and the MCP structure errors, all of them", () => {
    writeFileSync(user, GOOD);
    const config = load();
    const projectFile = join(project, ".hey", "config.toml");
    writeFileSync(user, GOOD + "\n[retry]\nbase_delay_ms = -1\nmax_retries = 1000\n");
    writeFileSync(projectFile, "[agent]\nmax_turns = 0\n");
    expect(config.reload({}, undefined, true).errors).toEqual([
      `${user}:9: [retry] base_delay_ms must be a non-negative integer, got -1`,
      `${user}:10: [retry] max_retries must be between 0 and 100, got 1000`,
      `${projectFile}:2: [agent] max_turns must be a positive integer, got 0`,
    ]);
    writeFileSync(user, GOOD);
    writeFileSync(projectFile, '[mcp.a]\nargs = []\n[mcp.b]\ncommand = "x"\nurl = "http://h/mcp"\n');
    expect(config.reload({}, undefined, true).errors).toEqual([
      `${projectFile}:1: [mcp.a] needs command (a local server) or url (a remote one)`,
      `${projectFile}:5: [mcp.b] has both command and url; keep one`,
    ]);
  });

  test("a ${VAR} without a value is a warning at /reload, as at start-up (issue 26): the rest loads", () => {
    writeFileSync(user, GOOD + 'headers = { "X-Team" = "${TEAM}" }\napi_key = "${KEY}"\n');
    const config = load();
    // the line of api_key; for a key of an inline table, the line of the table's key (headers, just above)
    const warned = (line: number) => [
      `${user}:${line}: [provider.a] api_key: \${KEY} has no value, so provider a sends no API key`,
      `${user}:${line - 1}: [provider.a] headers.X-Team: \${TEAM} is not set (using "")`,
    ];
    expect(config.warnings).toEqual(warned(8));
    writeFileSync(user, GOOD.replace('provider = "a"', 'provider = "a"\nmodel = "m2"') + 'headers = { "X-Team" = "${TEAM}" }\napi_key = "${KEY}"\n');
    const next = config.reload({}, undefined, true);
    expect(next.errors).toBeUndefined();
    expect(next.config?.warnings).toEqual(warned(9));
    expect(next.config?.settings.model).toBe("m2");
  });

  test("the project's files are read as /trust or /untrust left it: reload's third argument", () => {
    writeFileSync(user, GOOD);
    writeFileSync(join(project, ".hey", "config.toml"), "[agent]\nmax_turns = 7\n");
    const config = load();
    expect(config.settings.agent.maxTurns).toBe(7);
    expect(config.reload({}, undefined, false).config?.settings.agent.maxTurns).toBe(20);
    expect(config.reload({}, undefined, true).config?.settings.agent.maxTurns).toBe(7);
  });

  test("resolution errors (an unknown provider) are reported, not thrown", () => {
    writeFileSync(user, GOOD);
    const config = load();
    writeFileSync(user, GOOD.replace('provider = "a"', 'provider = "nope"'));
    expect(config.reload({}, undefined, true).errors).toHaveLength(1);
    expect(config.reload({}, undefined, true).errors![0]).toContain("nope");
  });
});

test.each([
  [
    "an entry added and one removed",
    "allow",
    ["read_file", "bash: rm *"],
    ["read_file", "bash: make *"],
    '~ [permission] allow + "bash: make *", - "bash: rm *"',
  ],
  ["a deny entry added", "deny", [], ["bash: git push *"], '~ [permission] deny + "bash: git push *"'],
  ["the allow list gone", "allow", ["read_file"], [], '~ [permission] allow - "read_file" (no list now: any call runs unless denied)'],
  [
    "many: the rest counted",
    "allow",
    [],
    ["a", "b", "c", "d", "e", "f"],
    '~ [permission] allow + "a", + "b", + "c", + "d", + 2 more (a list now: only calls it matches run)',
  ],
  ["the same entries in another order", "deny", ["a", "b"], ["b", "a"], undefined],
  // guard.ts's marker (an emptied list whose additions wait for approval) is said in words, never shown as an entry
  [
    "the approved entries removed, the added one waiting",
    "allow",
    ["read_file", "bash: ls"],
    [ALLOWS_NOTHING],
    '~ [permission] allow - "read_file", - "bash: ls" (nothing runs until an entry is approved)',
  ],
  ["an approved entry added to an emptied list", "allow", [ALLOWS_NOTHING], ["bash: cat *"], '~ [permission] allow + "bash: cat *"'],
] as const)("/reload names the permission entries a list gained and lost: %s", (_, key, before, after, line) => {
  expect(entryChanges(key, before, after)).toBe(line);
});

// MCP servers in other agents' spellings (issue 26): Codex's [mcp_servers.NAME] and a project's
// .mcp.json read as the [mcp.NAME] tables they mean — checked, guarded and approved like any —
// with where they came from kept for /mcp, and their mistakes named by file and line.
import TOML from "@iarna/toml";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { fromCodex, fromMcpJson, jsonErrorAt, jsonKeyLine } from "../../src/config/mcp-formats.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import { checkLayer } from "../../src/config/schema.ts";
import { conversionLine } from "../../src/mcp/status.ts";
import { readProjectFiles } from "../../src/trust/store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { configInputs } from "../helpers/places.ts";

const toml = (text: string) => resolveConfig([{ source: "/c.toml", text, data: TOML.parse(text) }], { TOKEN: "t0ken-value" }, {});

describe("Codex's [mcp_servers.NAME]", () => {
  test("read as [mcp.NAME]: shared keys kept, timeouts in seconds, bearer and header variables, env_vars passed through", () => {
    const r = toml(
      [
        "[mcp_servers.fs]",
        'command = "npx"',
        'args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]',
        'env = { A = "1" }',
        'env_vars = ["HOME_DIR"]',
        "startup_timeout_sec = 10",
        "tool_timeout_sec = 45",
        'enabled_tools = ["read_text_file"]',
        "[mcp_servers.docs]",
        'url = "https://mcp.example/mcp"',
        'bearer_token_env_var = "TOKEN"',
        'http_headers = { X-Team = "core" }',
        'env_http_headers = { X-Key = "KEY_VAR" }',
      ].join("\n"),
    );
    const [fs, docs] = r.settings.mcp.servers;
    expect(fs).toMatchObject({
      name: "fs",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
      env: { A: "1", HOME_DIR: "" },
      timeoutMs: 45_000,
      tools: ["read_text_file"],
      origin: "[mcp_servers.fs] (Codex's spelling) in /c.toml",
    });
    expect(docs).toMatchObject({ url: "https://mcp.example/mcp", headers: { Authorization: "Bearer t0ken-value", "X-Team": "core", "X-Key": "" } });
    expect(r.warnings).toEqual([
      // the nearest key written (Codex's env_vars and env_http_headers become env and headers)
      '/c.toml:4: [mcp.fs] env.HOME_DIR: ${HOME_DIR} is not set (using "")',
      '/c.toml:9: [mcp.docs] headers.X-Key: ${KEY_VAR} is not set (using "")',
    ]);
  });

  test("an unknown Codex key is a warning in Codex's words; a bad timeout and a name both spellings define are errors with their lines", () => {
    const checked = checkLayer(
      "/c.toml",
      TOML.parse('[mcp.a]\ncommand = "x"\n[mcp_servers.a]\ncommand = "y"\n[mcp_servers.b]\ncommand = "z"\ntool_timeout_sec = "slow"\nsandbox = true\n'),
      '[mcp.a]\ncommand = "x"\n[mcp_servers.a]\ncommand = "y"\n[mcp_servers.b]\ncommand = "z"\ntool_timeout_sec = "slow"\nsandbox = true\n',
    );
    expect(checked.errors).toEqual([
      '/c.toml:3: MCP server "a" is defined twice ([mcp.a] and [mcp_servers.a])',
      '/c.toml:7: [mcp_servers.b] tool_timeout_sec must be a positive number of seconds, got "slow"',
    ]);
    expect(checked.warnings).toEqual(["/c.toml:8: [mcp_servers.b] sandbox: unknown key [mcp_servers.b] sandbox (ignored)"]);
    expect(checked.origins).toEqual({ b: "[mcp_servers.b] (Codex's spelling) in /c.toml" });
  });

  test("a wrong type after conversion names Codex's table and line", () => {
    expect(() => toml('[mcp_servers.x]\ncommand = "y"\nargs = "a b"\n')).toThrow('/c.toml:3: [mcp.x] args must be an array of strings, got "a b"');
  });

  test("fromCodex alone: the table hey reads", () => {
    const c = fromCodex("s", { command: "c", startup_timeout_sec: 2.5, env_vars: ["A"], env: { A: "kept" } }, (k) => `at ${k}`);
    expect(c).toEqual({ table: { command: "c", env: { A: "kept" }, timeout_ms: 2500 }, warnings: [], errors: [] });
  });
});

describe(".mcp.json", () => {
  const JSON_TEXT = `{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
      "env": { "LOG": "1" }
    },
    "remote": { "type": "http", "url": "https://mcp.example/mcp", "headers": { "Authorization": "Bearer \${TOKEN}" } },
    "off": { "command": "x", "disabled": true }
  }
}
`;

  test("mcpServers entries become [mcp.NAME] tables, with where each came from; disabled: true keeps one off", () => {
    const j = fromMcpJson("/p/.mcp.json", JSON_TEXT);
    expect(j.errors).toEqual([]);
    expect(j.data).toEqual({
      mcp: {
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { LOG: "1" } },
        remote: { url: "https://mcp.example/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        off: { command: "x", enabled: false },
      },
    });
    expect(j.origins.fs).toBe("mcpServers.fs in /p/.mcp.json");
    expect(j.locate(["mcp", "remote"])).toBe(8);
    expect(j.locate(["mcp", "fs", "args"])).toBe(5);
  });

  test("not JSON: the error names line and column; a type that contradicts the entry is its server's error; no mcpServers is a warning", () => {
    expect(fromMcpJson("/p/.mcp.json", '{\n  "mcpServers": {\n    "a": { "command": "x" "args": [] }\n  }\n}').errors).toEqual([
      "/p/.mcp.json:3:27: not valid JSON (Expected '}')",
    ]);
    const typed = fromMcpJson("/p/.mcp.json", '{"mcpServers": {"a": {"type": "stdio", "url": "https://x"}, "b": {"command": "b"}}}');
    expect(typed.broken).toEqual({ a: ['/p/.mcp.json:1: mcpServers.a is type "stdio" but has url'] });
    expect(Object.keys(typed.data.mcp as object)).toEqual(["b"]);
    expect(fromMcpJson("/p/.mcp.json", '{"servers": {}}').warnings).toEqual(['/p/.mcp.json: no "mcpServers" object, so no MCP servers (ignored)']);
  });

  test.each([
    ['{"a": 1,}', 1, 9],
    ['{\n  "a": tru\n}', 2, 8],
    ["[1, 2", 1, 6],
    ['{"a": "b\nc"}', 1, 9],
  ])("jsonErrorAt(%j) → %d:%d", (text, line, col) => {
    expect(jsonErrorAt(text)).toEqual({ line, col });
  });

  test("jsonKeyLine follows the path down", () => {
    expect(jsonKeyLine('{\n "a": {\n  "x": 1\n },\n "b": {\n  "x": 2\n }\n}', ["b", "x"])).toBe(6);
  });

  describe("loaded in a trusted project", () => {
    let tmp: ReturnType<typeof tempDir>;
    let project: string;
    beforeEach(() => {
      tmp = tempDir("hey-mcp-json-");
      project = join(tmp.path, "p");
      mkdirSync(join(project, ".hey"), { recursive: true });
    });
    afterEach(() => tmp.remove());
    const load = (trustProject: boolean, approvals?: Parameters<typeof loadConfig>[0]["approvals"]) =>
      loadConfig({ ...configInputs({ XDG_CONFIG_HOME: join(tmp.path, "xdg"), TOKEN: "abc" }, project), trustProject, flags: {}, approvals });

    test("its servers join the configuration (the project's .hey/config.toml wins a name both define); untrusted, it is not read", () => {
      writeFileSync(join(project, ".mcp.json"), JSON_TEXT);
      writeFileSync(join(project, ".hey", "config.toml"), '[mcp.fs]\ncommand = "own-fs"\n');
      const servers = load(true).settings.mcp.servers;
      expect(servers.map((s) => [s.name, s.command ?? s.url, s.origin])).toEqual([
        ["fs", "own-fs", undefined],
        ["remote", "https://mcp.example/mcp", `mcpServers.remote in ${join(project, ".mcp.json")}`],
        ["off", "x", `mcpServers.off in ${join(project, ".mcp.json")}`],
      ]);
      expect(servers[1]!.headers).toEqual({ Authorization: "Bearer abc" });
      expect(load(false).settings.mcp.servers).toEqual([]);
    });

    test("a server of .mcp.json the user has not approved is left out like any (the agent can write that file)", () => {
      writeFileSync(join(project, ".mcp.json"), '{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}}}');
      const config = load(true, { version: 1, trusted: [], configs: {} });
      expect(config.settings.mcp.servers).toEqual([]);
      expect(config.guards.find((g) => g.source.endsWith(".mcp.json"))?.widenings).toEqual(["+ [mcp.fs] npx x"]);
      expect(config.approve().settings.mcp.servers.map((s) => s.name)).toEqual(["fs"]);
    });

    test("a yes at the trust question, which listed its servers, approves them as listed: nothing is asked again, but a server added since is", () => {
      writeFileSync(join(project, ".mcp.json"), '{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}}}');
      const inputs = configInputs({ XDG_CONFIG_HOME: join(tmp.path, "xdg") }, project);
      const shown = readProjectFiles(inputs.here).files; // as the question listed them
      const answer = () =>
        loadConfig({ ...inputs, trustProject: true, flags: {}, approvals: { version: 1, trusted: [], configs: {} }, projectApproved: shown });
      const answered = answer();
      expect(answered.settings.mcp.servers.map((s) => s.name)).toEqual(["fs"]);
      expect(answered.guards.flatMap((g) => g.widenings)).toEqual([]);
      // written while the question was up: not approved by the yes
      writeFileSync(join(project, ".mcp.json"), '{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}, "later": {"command": "npx", "args": ["y"]}}}');
      const later = answer();
      expect(later.settings.mcp.servers.map((s) => s.name)).toEqual(["fs"]);
      expect(later.guards.flatMap((g) => g.widenings)).toEqual(["+ [mcp.later] npx y"]);
    });

    // x136 finding 1: a broken .mcp.json stopped every start in the project, --no-mcp too (exit 2)
    test("one that does not load costs only its own servers, said in one line with its place; --no-mcp does not read it", () => {
      const file = join(project, ".mcp.json");
      writeFileSync(join(project, ".hey", "config.toml"), '[mcp.own]\ncommand = "own"\n');
      const cases = [
        ['{\n "mcpServers": {,}\n}', `${file}:2:17: not valid JSON`],
        ['{\n "mcpServers": {\n  "ev": {\n   "command": "node",\n   "args": "notalist"\n  }\n }\n}', `${file}:5: [mcp.ev] args must be an array of strings`],
        ['{\n "mcpServers": {\n  "ev": {"command": "node", "env": {"PORT": 8080}}\n }\n}', `${file}:3: [mcp.ev] env`],
      ];
      for (const [text, said] of cases) {
        writeFileSync(file, text!);
        const config = load(true); // before: threw ConfigError, and hey exited 2
        expect(config.settings.mcp.servers.map((s) => s.name)).toEqual(["own"]);
        const lines = config.warnings.filter((w) => w.includes(file));
        expect(lines).toEqual([expect.stringContaining(said!)]);
        expect(lines[0]).toMatch(/ — (its MCP servers are|MCP server ev is) left out until it is fixed$/); // no other server to load
        const reloaded = config.reload({}, undefined, true); // /reload: the same line, the rest reloads (was: nothing reloaded)
        expect(reloaded.errors).toBeUndefined();
        expect(reloaded.config?.warnings.filter((w) => w.includes(file))).toEqual(lines);
        const off = loadConfig({
          ...configInputs({ XDG_CONFIG_HOME: join(tmp.path, "xdg") }, project),
          trustProject: true,
          flags: {},
          approvals: undefined,
          noMcp: true,
        });
        expect(off.warnings.filter((w) => w.includes(file))).toEqual([]);
      }
    });

    // x143 finding 4: one entry another tool's looser schema allows dropped every server of the file
    test("an entry that does not check costs only its own server, named in the line; the file's others load", () => {
      const file = join(project, ".mcp.json");
      writeFileSync(
        file,
        '{"mcpServers": {\n "a": {"command": "a"},\n "b": {"command": "b", "env": {"PORT": 3000}},\n "c": {"command": "c", "args": "--flag"},\n "d": {"command": "d"}\n}}',
      );
      const config = load(true);
      expect(config.settings.mcp.servers.map((s) => s.name)).toEqual(["a", "d"]);
      expect(config.warnings.filter((w) => w.includes(file))).toEqual([
        `${file}:3: [mcp.b] env.PORT must be a string, got 3000; ${file}:4: [mcp.c] args must be an array of strings, got "--flag" — MCP servers b, c are left out until they are fixed; the file's other servers load`,
      ]);
      // a write of the same text is still refused: the agent's own mistake is not let through
      expect(config.vet({ path: file, text: readFileSync(file, "utf8") }, undefined).errors).toEqual([
        expect.stringContaining(`${file}:3: [mcp.b] env.PORT must be a string`),
        expect.stringContaining(`${file}:4: [mcp.c] args must be an array of strings`),
      ]);
      // an entry that is no server at all costs only itself too
      const shapes = ['"x": "npx srv"', '"x": {"type": "http", "command": "srv"}'];
      for (const entry of shapes) {
        writeFileSync(join(project, ".mcp.json"), `{"mcpServers": {\n "a": {"command": "a"},\n ${entry}\n}}`);
        const other = load(true);
        expect(other.settings.mcp.servers.map((s) => s.name)).toEqual(["a"]);
        expect(other.warnings.filter((w) => w.includes(file))).toEqual([
          expect.stringMatching(/^\S+\.mcp\.json:3: mcpServers\.x .* — MCP server x is left out until it is fixed;/),
        ]);
        expect(other.vet({ path: file, text: readFileSync(file, "utf8") }, undefined).errors).toEqual([expect.stringContaining(`${file}:3: mcpServers.x `)]);
      }
    });

    test("a write of it that would not load is an error of the write's vet, with its line and column", () => {
      const file = join(project, ".mcp.json");
      const config = load(false); // untrusted: the write is vetted all the same (/trust would load it)
      expect(config.vet({ path: file, text: '{\n "mcpServers": {,}\n}' }, undefined).errors).toEqual([expect.stringContaining(`${file}:2:17: not valid JSON`)]);
      expect(config.vet({ path: file, text: '{"mcpServers": {"ev": {"command": "node", "args": "x"}}}' }, undefined).errors).toEqual([
        expect.stringContaining(`${file}:1: [mcp.ev] args must be an array of strings`),
      ]);
      expect(config.vet({ path: file, text: '{"mcpServers": {"ev": {"command": "node", "args": ["x"]}}}' }, undefined).errors).toEqual([]);
    });
  });
});

test("/mcp shows what another agent's table was read as, without env or header values", () => {
  const r = toml('[mcp_servers.gh]\nurl = "https://api.example/mcp"\nbearer_token_env_var = "TOKEN"\ntool_timeout_sec = 5\n');
  expect(conversionLine(r.settings.mcp.servers[0]!)).toBe(
    'from [mcp_servers.gh] (Codex\'s spelling) in /c.toml, read as [mcp.gh] url = "https://api.example/mcp", headers = { Authorization = … }, timeout_ms = 5000',
  );
});

// The agent never widens its own rules (issue 24): which changes to a config file's guarded keys
// give the agent more than the user approved (left out, the approved value used, named), and which
// only take away (used at once); a project narrows the user's lists, never widens them.
import { describe, expect, test } from "bun:test";
import { guardedOf, guardLayer, NOTHING_APPROVED, type Below, type Guarded } from "../../src/config/guard.ts";
import { withMainApprovals } from "../../src/config/main-approvals.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import { checkLayer } from "../../src/config/schema.ts";
import type { Table } from "../../src/config/table.ts";
import { ALLOWS_NOTHING } from "../../src/permission/rules.ts";
import { permissionCheck } from "../../src/wire.ts";

/** A file's checked data from TOML text. */
const data = (toml: string): Table => checkLayer("/c.toml", Bun.TOML.parse(toml) as Table).data;
const approvedOf = (toml: string): Guarded => guardedOf(data(toml));
const GATEWAY = '[provider.gw]\nbase_url = "https://gw.example/v1"\napi_key = "${GW_KEY}"\n';
const SERVER = '[mcp.fs]\ncommand = "npx"\nargs = ["-y", "server-filesystem", "/notes"]\n';

describe("guardLayer", () => {
  /** `below`: the lists a --config file's replace (the user's); nothing for the user's file and a project's */
  type Row = [name: string, approved: string | undefined, now: string, below: Below, widenings: string[], used: Table];
  test.each<Row>([
    ["nothing changed", '[permission]\nallow = ["bash: ls"]', '[permission]\nallow = ["bash: ls"]', {}, [], { permission: { allow: ["bash: ls"] } }],
    [
      "an allow entry added",
      '[permission]\nallow = ["bash: ls"]',
      '[permission]\nallow = ["bash: ls", "bash"]',
      {},
      ['+ [permission] allow "bash"'],
      { permission: { allow: ["bash: ls"] } },
    ],
    [
      "an allow list replaced by a wider one",
      '[permission]\nallow = ["bash: ls", "write_file"]',
      '[permission]\nallow = ["bash"]',
      {},
      ['+ [permission] allow "bash"'],
      { permission: { allow: ["bash: ls"] } },
    ],
    [
      "every approved entry removed, another added: a list that allows nothing until approved",
      '[permission]\nallow = ["bash: ls", "write_file"]',
      '[permission]\nallow = ["read_file"]',
      {},
      ['+ [permission] allow "read_file"'],
      { permission: { allow: [ALLOWS_NOTHING] } },
    ],
    [
      "an allow entry removed and another added: the removal applies, the addition waits",
      '[permission]\nallow = ["read_file", "bash: cat *"]',
      '[permission]\nallow = ["read_file", "bash: head *"]',
      {},
      ['+ [permission] allow "bash: head *"'],
      { permission: { allow: ["read_file"] } },
    ],
    [
      "an allow entry removed: narrower, used",
      '[permission]\nallow = ["bash: ls", "read_file"]',
      '[permission]\nallow = ["read_file"]',
      {},
      [],
      { permission: { allow: ["read_file"] } },
    ],
    [
      "the allow list emptied",
      '[permission]\nallow = ["bash: ls"]',
      "[permission]\nallow = []",
      {},
      ["- [permission] allow (the whole list: every tool call would run)"],
      { permission: { allow: ["bash: ls"] } },
    ],
    [
      "the allow list deleted",
      '[permission]\nallow = ["bash: ls"]',
      "[agent]\nmax_turns = 3",
      {},
      ["- [permission] allow (the whole list: every tool call would run)"],
      { agent: { max_turns: 3 }, permission: { allow: ["bash: ls"] } },
    ],
    ["a first allow list in the user file: narrower", undefined, '[permission]\nallow = ["read_file"]', {}, [], { permission: { allow: ["read_file"] } }],
    [
      "a first allow list in a project: narrower (it only intersects)",
      undefined,
      '[permission]\nallow = ["bash"]',
      {},
      [],
      { permission: { allow: ["bash"] } },
    ],
    ["a first allow list in a --config file, none below: narrower", undefined, '[permission]\nallow = ["bash"]', {}, [], { permission: { allow: ["bash"] } }],
    [
      "a first allow list in a --config file, replacing a narrower one below",
      undefined,
      '[permission]\nallow = ["bash", "read_file"]',
      { allow: ["read_file"] },
      ['+ [permission] allow "bash"'],
      { permission: { allow: ["read_file"] } },
    ],
    [
      "a first allow list in a --config file, within the one below: narrower",
      undefined,
      '[permission]\nallow = ["read_file"]',
      { allow: ["read_file", "bash"] },
      [],
      { permission: { allow: ["read_file"] } },
    ],
    [
      "a --config file's allow list dropped: the one below counts",
      '[permission]\nallow = ["read_file"]',
      "[agent]\nmax_turns = 3",
      { allow: ["read_file", "bash: ls"] },
      ['- [permission] allow (the list of the files before it would count, which adds "bash: ls")'],
      { agent: { max_turns: 3 }, permission: { allow: ["read_file"] } },
    ],
    [
      "a deny entry removed",
      '[permission]\ndeny = ["bash: rm *", "bash: git push *"]',
      '[permission]\ndeny = ["bash: git push *"]',
      {},
      ['- [permission] deny "bash: rm *"'],
      { permission: { deny: ["bash: git push *", "bash: rm *"] } },
    ],
    [
      "the deny list emptied, an entry added too: the addition stays",
      '[permission]\ndeny = ["bash: rm *"]',
      '[permission]\ndeny = ["bash: curl *"]',
      {},
      ['- [permission] deny "bash: rm *"'],
      { permission: { deny: ["bash: curl *", "bash: rm *"] } },
    ],
    [
      "a deny entry added: narrower",
      '[permission]\ndeny = ["bash: rm *"]',
      '[permission]\ndeny = ["bash: rm *", "bash: curl *"]',
      {},
      [],
      { permission: { deny: ["bash: rm *", "bash: curl *"] } },
    ],
    [
      "a first deny list in a --config file, none below: narrower",
      undefined,
      '[permission]\ndeny = ["bash: curl *"]',
      {},
      [],
      { permission: { deny: ["bash: curl *"] } },
    ],
    [
      "a first deny list in a --config file that keeps the entries below: narrower",
      undefined,
      '[permission]\ndeny = ["bash: rm *", "bash: curl *"]',
      { deny: ["bash: rm *"] },
      [],
      { permission: { deny: ["bash: rm *", "bash: curl *"] } },
    ],
    [
      "a first deny list in a --config file without an entry below: that entry stays",
      undefined,
      '[permission]\ndeny = ["bash: curl *"]',
      { deny: ["bash: rm *"] },
      ['- [permission] deny "bash: rm *" (this file\'s deny list replaces the one before it)'],
      { permission: { deny: ["bash: curl *", "bash: rm *"] } },
    ],
    [
      "a --config file's keep_env replacing the one below: only what is new",
      undefined,
      '[tools]\nkeep_env = ["A_KEY", "B_KEY"]',
      { keep_env: ["A_KEY"] },
      ['+ [tools] keep_env "B_KEY"'],
      { tools: { keep_env: ["A_KEY"] } },
    ],
    ["a bash_filter command", "", '[tools]\nbash_filter = "./filter.sh"', {}, ['+ [tools] bash_filter = "./filter.sh"'], { tools: {} }],
    [
      "bash_filter back to builtin or none: harmless",
      '[tools]\nbash_filter = "./f.sh"',
      '[tools]\nbash_filter = "none"',
      {},
      [],
      { tools: { bash_filter: "none" } },
    ],
    ["another shell", '[tools]\nshell = "bash"', '[tools]\nshell = "./evil-shell"', {}, ['~ [tools] shell = "./evil-shell"'], { tools: { shell: "bash" } }],
    ["another rg", "", '[tools]\nrg = "/tmp/rg"', {}, ['+ [tools] rg = "/tmp/rg"'], { tools: {} }],
    [
      "a keep_env variable added",
      '[tools]\nkeep_env = ["A_KEY"]',
      '[tools]\nkeep_env = ["A_KEY", "OPENAI_API_KEY"]',
      {},
      ['+ [tools] keep_env "OPENAI_API_KEY"'],
      { tools: { keep_env: ["A_KEY"] } },
    ],
    [
      "other [tools] keys are not guarded",
      "[tools]\nbash_timeout_ms = 1000",
      "[tools]\nbash_timeout_ms = 99000\nredact_secrets = false",
      {},
      [],
      { tools: { bash_timeout_ms: 99000, redact_secrets: false } },
    ],
    ["a new MCP server", "", SERVER, {}, ["+ [mcp.fs] npx -y server-filesystem /notes"], { mcp: { servers: {} } }],
    [
      "a server's args changed",
      SERVER,
      SERVER.replace("/notes", "/"),
      {},
      ["~ [mcp.fs] npx -y server-filesystem / (changed: run npx -y server-filesystem /notes → npx -y server-filesystem /)"],
      { mcp: { servers: {} } },
    ],
    [
      "a server's env added: a literal under a credential's name masked",
      SERVER,
      `${SERVER}env = { TOKEN = "abc" }\n`,
      {},
      ["~ [mcp.fs] npx -y server-filesystem /notes; env TOKEN=[secret] (changed: env TOKEN added)"],
      { mcp: { servers: {} } },
    ],
    [
      "a remote server, its URL's credentials hidden",
      "",
      '[mcp.docs]\nurl = "https://u:p@mcp.example/mcp"\nheaders = { Authorization = "Bearer x" }',
      {},
      ["+ [mcp.docs] https://u:[secret]@mcp.example/mcp; headers Authorization=[secret]"],
      { mcp: { servers: {} } },
    ],
    [
      "only a timeout changed: same server",
      SERVER,
      `${SERVER}timeout_ms = 5000\n`,
      {},
      [],
      { mcp: { servers: { fs: { command: "npx", args: ["-y", "server-filesystem", "/notes"], timeout_ms: 5000 } } } },
    ],
    [
      "a disabled server starts nothing",
      "",
      `${SERVER}enabled = false\n`,
      {},
      [],
      { mcp: { servers: { fs: { command: "npx", args: ["-y", "server-filesystem", "/notes"], enabled: false } } } },
    ],
    ["a table turning on a server defined elsewhere", "", "[mcp.fs]\nenabled = true", {}, ["+ [mcp.fs] enabled"], { mcp: { servers: {} } }],
    ["a server removed: narrower", SERVER, "[agent]\nmax_turns = 3", {}, [], { agent: { max_turns: 3 } }],
    [
      "a provider's base_url moved: the approved one is used",
      GATEWAY,
      GATEWAY.replace("gw.example", "u:p@elsewhere.example"),
      {},
      ['~ [provider.gw] base_url = "https://u:[secret]@elsewhere.example/v1" (was "https://gw.example/v1"): its requests and key would go there'],
      { provider: { gw: { base_url: "https://gw.example/v1", api_key: "${GW_KEY}" } } },
    ],
    [
      "a new provider: named, its table kept (withheld, see below), its key variable left out",
      "",
      GATEWAY,
      {},
      ['+ [provider.gw] base_url = "https://gw.example/v1": its requests and key would go there', "+ [provider.gw] api_key ${GW_KEY}: its value would be sent"],
      { provider: { gw: { base_url: "https://gw.example/v1", api_key: "" } } },
    ],
    [
      "a variable named where none was approved: its value is not sent (an approved endpoint is no place for another key)",
      GATEWAY,
      `${GATEWAY}headers = { X-Debug = "\${ANTHROPIC_API_KEY}" }\n[default]\nmodel = "\${GW_KEY}"\n`,
      {},
      ["+ [default] model ${GW_KEY}: its value would be sent", "+ [provider.gw] headers.X-Debug ${ANTHROPIC_API_KEY}: its value would be sent"],
      { provider: { gw: { base_url: "https://gw.example/v1", api_key: "${GW_KEY}", headers: { "X-Debug": "" } } }, default: { model: "" } },
    ],
    [
      "a key changed with the endpoint: the approved endpoint gets neither the new place nor the new key",
      GATEWAY,
      GATEWAY.replace("gw.example", "new.example").replace("GW_KEY", "NEW_KEY"),
      {},
      [
        '~ [provider.gw] base_url = "https://new.example/v1" (was "https://gw.example/v1"): its requests and key would go there',
        "+ [provider.gw] api_key ${NEW_KEY}: its value would be sent",
      ],
      { provider: { gw: { base_url: "https://gw.example/v1", api_key: "" } } },
    ],
    [
      "a variable left out is empty, its default too (a default may spell another variable); the notice shows it as written",
      "",
      '[default]\nmodel = "${HEY_TEST_MODEL:-qwen3}"',
      {},
      ["+ [default] model ${HEY_TEST_MODEL:-qwen3}: its value would be sent"],
      { default: { model: "" } },
    ],
    [
      "other provider keys are not guarded",
      GATEWAY,
      `${GATEWAY}models = ["m2"]\n`,
      {},
      [],
      { provider: { gw: { base_url: "https://gw.example/v1", api_key: "${GW_KEY}", models: ["m2"] } } },
    ],
    [
      "a proxy added",
      "",
      '[proxy]\nurl = "http://proxy.example:3128"',
      {},
      ['+ [proxy] url = "http://proxy.example:3128": model requests would go through it; none goes out, directly or through another proxy, until you approve'],
      { proxy: {} },
    ],
    [
      "a CA file added: its CAs are not trusted until approved",
      "",
      '[network]\nca_file = "/tmp/planted.pem"',
      {},
      ['+ [network] ca_file = "/tmp/planted.pem": its CAs would be trusted for model requests'],
      { network: {} },
    ],
    [
      "a CA file changed: the approved one is used",
      '[network]\nca_file = "certs/corp.pem"',
      '[network]\nca_file = "/tmp/planted.pem"',
      {},
      ['~ [network] ca_file = "/tmp/planted.pem": its CAs would be trusted for model requests'],
      { network: { ca_file: "certs/corp.pem" } },
    ],
    [
      "a proxy changed",
      '[proxy]\nurl = "http://a:3128"',
      '[proxy]\nurl = "http://b:3128"',
      {},
      ['~ [proxy] url = "http://b:3128" (was "http://a:3128"): model requests would go through it'],
      { proxy: { url: "http://a:3128" } },
    ],
  ])("%s", (_, approved, now, below, widenings, used) => {
    const was = approved === undefined ? undefined : approvedOf(approved);
    const g = guardLayer(data(now), was, below);
    expect(g.widenings).toEqual(widenings);
    expect(g.data).toEqual(used);
    // what is recorded is what is used — and a server whose changed table was left out keeps its
    // approval: /reload keeps the approved one running (issue 26); a withheld endpoint is not approved
    const kept = Object.fromEntries(g.kept.map((name) => [name, was!.mcp[name]!]));
    const endpoints = Object.fromEntries(Object.entries(guardedOf(g.data).endpoints!).filter(([name]) => !g.withheld.includes(name)));
    const keptShown = Object.fromEntries(g.kept.map((name) => [name, was!.servers![name]!]));
    const servers = { ...guardedOf(g.data).servers, ...keptShown };
    expect(g.used).toEqual({ ...guardedOf(g.data), mcp: { ...guardedOf(g.data).mcp, ...kept }, ...(g.kept.length ? { servers } : {}), endpoints });
    expect(g.kept).toEqual(widenings.filter((w) => w.startsWith("~ [mcp.")).map((w) => /\[mcp\.([^\]]+)\]/.exec(w)![1]!));
    expect(g.withheld).toEqual(
      widenings.filter((w) => w.startsWith("+ [provider.") && w.includes("base_url")).map((w) => /\[provider\.([^\]]+)\]/.exec(w)![1]!),
    );
    // a proxy with none approved closes the route; a changed one goes back to the approved one
    expect(g.proxyHeld).toBe(widenings.some((w) => w.startsWith("+ [proxy]")) || undefined);
  });

  test("a record of an earlier hey, which kept no endpoints nor variables, approves the file's endpoints, proxy and variables as they are", () => {
    const g = guardLayer(data(`${GATEWAY}[proxy]\nurl = "http://p:1"`), { mcp: {} });
    expect(g.widenings).toEqual([]);
    expect(g.used).toEqual({ mcp: {}, endpoints: { gw: "https://gw.example/v1" }, proxy: "http://p:1", vars: ["[provider.gw] api_key ${GW_KEY}"] });
    // a record that kept endpoints but no variables (the hey before them) approves the CA file and the variables it finds
    const ca = guardLayer(data(`${GATEWAY}[network]\nca_file = "corp.pem"`), { mcp: {}, endpoints: { gw: "https://gw.example/v1" } });
    expect(ca.widenings).toEqual([]);
    expect(ca.used.ca_file).toBe("corp.pem");
  });

  test("a variable left out sends nothing even when its default spells another one: what is left is never expanded again", () => {
    const approved = guardedOf(data(GATEWAY));
    const env = { ANTHROPIC_API_KEY: "sk-ant-SECRET-1", GW_KEY: "gw-key-1" };
    const cases: [value: string, left: string][] = [
      ["${NOPE:-${ANTHROPIC_API_KEY}}", "}"],
      ["${NOPE:-$}{ANTHROPIC_API_KEY}", "{ANTHROPIC_API_KEY}"],
    ];
    for (const [value, left] of cases) {
      const toml = `${GATEWAY}models = ["m"]\nheaders = { X-Debug = ${JSON.stringify(value)} }\n`;
      const layer = { source: "/c.toml", data: Bun.TOML.parse(toml) as Table, guard: { approved, role: "base" as const } };
      const { settings } = resolveConfig([layer], env, {});
      expect(settings.provider.apiKey).toBe("gw-key-1");
      expect(settings.provider.headers).toEqual({ "X-Debug": left }); // the key stays the built-in anthropic provider's
    }
  });

  test("a file with nothing approved yet is compared with nothing", () => {
    expect(guardLayer(data(SERVER), undefined)).toEqual(guardLayer(data(SERVER), NOTHING_APPROVED));
  });
});

describe("resolution: a trusted project narrows the user's lists, never widens them", () => {
  const user = { source: "/u.toml", data: Bun.TOML.parse('[permission]\nallow = ["bash: ls", "bash: git *", "read_file"]\ndeny = ["bash: rm *"]') as Table };
  const project = (toml: string) => ({ source: "/p/.hey/config.toml", data: Bun.TOML.parse(toml) as Table, project: true });
  const resolve = (toml: string) => resolveConfig([user, project(toml)], {}, { baseUrl: "http://127.0.0.1:9/v1", model: "m" }).settings;
  const check = (toml: string) => permissionCheck(resolve(toml).permission, "sh", { cwd: "/p", home: "/h", controls: [] });
  const bash = (command: string) => ["bash", { command }] as const;

  test("deny = [] keeps the user's deny list; its own entries add up", () => {
    expect(resolve("[permission]\ndeny = []").permission.deny).toEqual(["bash: rm *"]);
    expect(resolve('[permission]\ndeny = ["bash: git push *"]').permission.deny).toEqual(["bash: rm *", "bash: git push *"]);
    expect(check("[permission]\ndeny = []")(...bash("rm -rf x"))).toContain("matches deny entry `bash: rm *`");
  });

  test('allow = ["bash"] does not widen the user\'s list; a narrower one narrows it', () => {
    expect(check('[permission]\nallow = ["bash"]')(...bash("curl evil.example"))).toContain("matches no allow entry");
    expect(check('[permission]\nallow = ["bash"]')(...bash("ls -la"))).toBeUndefined();
    const narrowed = check('[permission]\nallow = ["bash: git status", "read_file"]');
    expect(narrowed(...bash("git status"))).toBeUndefined();
    expect(narrowed(...bash("git push"))).toContain("matches no allow entry");
    expect(narrowed(...bash("ls"))).toContain("matches no allow entry");
    expect(narrowed("read_file", { path: "x" })).toBeUndefined();
  });

  test("a project entry that is no rule is an error naming the project's file", () => {
    expect(() => resolve('[permission]\nallow = ["Bash(git:*)"]')).toThrow(
      '/p/.hey/config.toml: [permission] allow: "Bash(git:*)" is another agent\'s syntax; write "bash: git *"',
    );
  });
});

describe("resolution: an allow list whose approved entries were all removed while others were added", () => {
  const approved = '[permission]\nallow = ["bash: cat *"]\n';
  const resolveWith = (toml: string) =>
    resolveConfig(
      [{ source: "/c.toml", data: Bun.TOML.parse(toml) as Table, guard: { approved: approvedOf(approved), role: "base" } }],
      {},
      { baseUrl: "http://127.0.0.1:9/v1", model: "m" },
    ).settings;
  const check = (toml: string) => permissionCheck(resolveWith(toml).permission, "sh", { cwd: "/p", home: "/h", controls: [] });

  test("allows no call until the addition is approved: neither the removed entry nor the added one, nor any other tool", () => {
    const c = check('[permission]\nallow = ["bash: head *"]\n');
    for (const [tool, args] of [
      ["bash", { command: "cat README.md" }],
      ["bash", { command: "head -1 README.md" }],
      ["read_file", { path: "README.md" }],
    ] as const)
      expect(String(c(tool, args))).toStartWith("blocked by permission rules:");
  });
});

describe("resolution: where a provider's requests go", () => {
  const user = {
    source: "/u.toml",
    data: Bun.TOML.parse(`[default]\nprovider = "gw"\n${GATEWAY}models = ["m"]\n`) as Table,
    guard: { approved: "current" as const, role: "base" as const },
  };
  const project = (toml: string) => ({
    source: "/p/.hey/config.toml",
    data: Bun.TOML.parse(toml) as Table,
    project: true,
    guard: { approved: NOTHING_APPROVED, role: "narrowing" as const },
  });
  const resolve = (toml: string, model?: string) => resolveConfig([user, project(toml)], { GW_KEY: "k" }, model ? { model } : {}).settings;

  test("a base_url not approved over an approved one below it: the approved one stands", () => {
    const s = resolve('[provider.gw]\nbase_url = "https://elsewhere.example/v1"');
    expect(s.provider).toMatchObject({ name: "gw", baseUrl: "https://gw.example/v1", apiKey: "k" });
    expect(s.provider.unapproved).toBeUndefined();
  });

  test("a [proxy] url not approved closes the route, named with its file, its password hidden; one that stands in its place is used (x68)", () => {
    const proxied = (url: string) => `[proxy]\nurl = "${url}"\n`;
    const held = resolve(proxied("http://ana:pw-9@proxy.example:3128"));
    expect(held.proxy).toBeUndefined();
    expect(held.network.heldProxy).toBe('[proxy] url = "http://***@proxy.example:3128" in /p/.hey/config.toml');
    const below = { ...user, data: { ...user.data, proxy: { url: "http://approved.example:3128" } } };
    const stands = resolveConfig([below, project(proxied("http://other.example:1"))], { GW_KEY: "k" }, {}).settings;
    expect(stands).toMatchObject({ proxy: "http://approved.example:3128" });
    expect(stands.network.heldProxy).toBeUndefined();
    expect(resolveConfig([user, project(proxied("http://p:1"))], { GW_KEY: "k", HEY_PROXY: "http://env:1" }, {}).settings.network.heldProxy).toBeUndefined();
  });

  test("a new provider's base_url: the provider is there as written, marked, so no request goes there", () => {
    const s = resolve('[provider.fast]\nbase_url = "https://fast.example/v1"\napi_key = "${GW_KEY}"\nmodels = ["f"]', "fast/f");
    expect(s.provider).toMatchObject({ name: "fast", baseUrl: "https://fast.example/v1", unapproved: "/p/.hey/config.toml" });
    expect(s.providers.find((p) => p.name === "gw")?.unapproved).toBeUndefined();
  });
});

describe("control files", () => {
  const controls = ["/h/.config/hey/config.toml", "/h/.config/hey/trust.json", "/h/.local/state/hey/approvals.json", "/p/.hey/config.toml"];
  const check = (allow: string[]) => permissionCheck({ allow, deny: [], narrow: [] }, "sh", { cwd: "/p", home: "/h", controls });

  test.each([
    ["the user config by ~", "write_file", "~/.config/hey/config.toml"],
    ["trust.json by its absolute path", "write_file", "/h/.config/hey/trust.json"],
    ["the approvals record", "edit", "/h/.local/state/hey/approvals.json"],
    ["the project's config, relative", "write_file", ".hey/config.toml"],
    ["the project's config through ..", "edit", "sub/../.hey/config.toml"],
  ])("refused while a list is set: %s", (_, tool, path) => {
    expect(check(["write_file", "edit", "read_file"])(tool, { path, content: "x", old_string: "a", new_string: "b" })).toStartWith(
      "blocked by permission rules: ",
    );
  });

  test("other files, and every file when no list is set, go to the rules as before", () => {
    expect(check(["write_file"])("write_file", { path: ".hey/skills/x/SKILL.md", content: "x" })).toBeUndefined();
    expect(check(["write_file"])("read_file", { path: "~/.config/hey/config.toml" })).toContain("matches no allow entry");
    expect(check([])("write_file", { path: "~/.config/hey/config.toml", content: "x" })).toBeUndefined();
  });
});

test("a worktree's file is approved in what its own record or the main checkout's approves of it as it is, key by key, and in nothing else", () => {
  const [a, b, c] = ["[provider.gw] api_key ${A}", "[provider.gw] headers.X ${B}", "[default] model ${C}"];
  const own: Guarded = { mcp: { notes: "v1", db: "d1" }, endpoints: { gw: "https://old.example/v1" }, allow: ["bash: ls"], vars: [a] };
  const main: Guarded = {
    mcp: { notes: "v2", db: "d2", web: "w1" },
    endpoints: { gw: "https://new.example/v1" },
    allow: ["bash: ls", "bash: git *"],
    vars: [a, b],
  };
  // merged main's notes and base_url; db is its own change (d3), which neither approved; web is not in the file
  const now: Guarded = { mcp: { notes: "v2", db: "d3" }, endpoints: { gw: "https://new.example/v1" }, allow: ["bash: ls", "bash: git *"], vars: [a, b, c] };
  const approved = withMainApprovals(own, main, now);
  expect(approved.vars).toEqual([a, b]); // main's b joins; c, which neither approved, does not
  expect(approved.mcp).toEqual({ notes: "v2", db: "d1" });
  expect(approved.endpoints).toEqual({ gw: "https://new.example/v1" });
  expect(approved.allow).toEqual(["bash: ls", "bash: git *"]);
  // still behind the main checkout: its own record holds
  expect(withMainApprovals(own, main, { mcp: { notes: "v1" }, endpoints: { gw: "https://old.example/v1" }, allow: ["bash: ls"], vars: [a] })).toEqual(own);
});

describe("a password written in a base_url or [proxy] url is kept hashed in the approvals record", () => {
  const PW = "basePw_9999abcdef";
  const withPassword = (password: string, host = "127.0.0.1:8080") =>
    `[provider.gw]\nbase_url = "http://user:${password}@${host}/v1"\napi_key = "\${GW_KEY}"\n[proxy]\nurl = "http://ana:${password}@proxy.example:3128"\n`;

  test("the record holds no password, and the approval holds for the same file in the next run", () => {
    const approved = approvedOf(withPassword(PW));
    expect(JSON.stringify(approved)).not.toContain(PW);
    expect(approved.endpoints!.gw).toMatch(/^http:\/\/user:\[sha256:[0-9a-f]{32}\]@127\.0\.0\.1:8080\/v1$/);
    const g = guardLayer(data(withPassword(PW)), approved);
    expect(g.widenings).toEqual([]);
    expect(g.data.provider).toMatchObject({ gw: { base_url: `http://user:${PW}@127.0.0.1:8080/v1` } });
    expect(g.data.proxy).toEqual({ url: `http://ana:${PW}@proxy.example:3128` });
    expect(JSON.stringify(g.used)).not.toContain(PW);
  });

  test("a record an earlier hey wrote with the password as written still approves the file, and is rewritten without it", () => {
    const legacy: Guarded = {
      ...approvedOf(withPassword(PW)),
      endpoints: { gw: `http://user:${PW}@127.0.0.1:8080/v1` },
      proxy: `http://ana:${PW}@proxy.example:3128`,
    };
    const g = guardLayer(data(withPassword(PW)), legacy);
    expect(g.widenings).toEqual([]);
    expect(JSON.stringify(g.used)).not.toContain(PW);
  });

  test("another password is asked about again; the endpoint moved with the same password goes back to the approved URL, with it", () => {
    const approved = approvedOf(withPassword(PW));
    const changed = guardLayer(data(withPassword("otherPw_0000abcdef")), approved);
    expect(changed.widenings).toEqual([
      '~ [provider.gw] base_url = "http://user:[secret]@127.0.0.1:8080/v1" (was "http://user:[secret]@127.0.0.1:8080/v1", with another password or key: no request goes to either until you approve): its requests and key would go there',
      // masked as every proxy message (the error after it, hey doctor) masks it: one way, http://***@
      '~ [proxy] url = "http://***@proxy.example:3128" (was "http://***@proxy.example:3128", with another password): model requests would go through it; none goes out, directly or through another proxy, until you approve',
    ]);
    expect(changed.withheld).toEqual(["gw"]);
    expect(changed.data.proxy).toEqual({});
    // the route stays closed, not direct (x68): and the approved proxy stays on record, so the next run still says "~"
    expect(changed.proxyHeld).toBe(true);
    expect(changed.used.proxy).toBe(approved.proxy);
    const moved = guardLayer(data(withPassword(PW, "elsewhere.example")), approved);
    expect(moved.withheld).toEqual([]);
    expect(moved.data.provider).toMatchObject({ gw: { base_url: `http://user:${PW}@127.0.0.1:8080/v1` } });
  });

  test("a key in a base_url's query is kept hashed too: the same key runs, another one is asked about (x55)", () => {
    const KEY = "qKey_7777abcdef";
    const withKey = (key: string, host = "gw.example") => `[provider.gw]\nbase_url = "https://${host}/v1?api_key=${key}&v=2"\n`;
    const approved = approvedOf(withKey(KEY));
    expect(approved.endpoints!.gw).toMatch(/^https:\/\/gw\.example\/v1\?api_key=\[sha256:[0-9a-f]{32}\]&v=2$/);
    expect(guardLayer(data(withKey(KEY)), approved).widenings).toEqual([]);
    const changed = guardLayer(data(withKey("qKey_0000other")), approved);
    expect(changed.widenings).toEqual([
      '~ [provider.gw] base_url = "https://gw.example/v1?api_key=[secret]&v=2" (was "https://gw.example/v1?api_key=[secret]&v=2", with another password or key: no request goes to either until you approve): its requests and key would go there',
    ]);
    expect(changed.withheld).toEqual(["gw"]);
    const moved = guardLayer(data(withKey(KEY, "elsewhere.example")), approved);
    expect(moved.data.provider).toMatchObject({ gw: { base_url: `https://gw.example/v1?api_key=${KEY}&v=2` } });
  });
});

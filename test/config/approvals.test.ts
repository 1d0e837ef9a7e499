// The approvals record (issue 24): its format, and the flow of a run — a widening asked about in
// the REPL or left out in one-shot runs, what is used recorded, the first run adopting the files.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readApprovals, updateApprovals } from "../../src/config/approval-store.ts";
import { ApprovalsError, emptyApprovals, formatApprovals, parseApprovals, withConfigs, withTrusted } from "../../src/config/approvals.ts";
import { controlFiles } from "../../src/config/control-files.ts";
import { places, type Places } from "../../src/fs/places.ts";
import { loadConfig } from "../../src/config/load.ts";
import { decideWidenings, readApprovalState, recordApprovals } from "../../src/trust/approve.ts";
import { tempDir } from "../helpers/e2e.ts";

describe("the record's format", () => {
  test("round trip, stable order, each project once", () => {
    const a = withTrusted(
      withTrusted(
        withConfigs(emptyApprovals(), {
          "/b.toml": { mcp: { fs: "f1" }, deny: ["x"], endpoints: { gw: "https://gw.example/v1" }, proxy: "http://proxy:3128" },
          "/a.toml": { mcp: {}, allow: ["read_file"], shell: "bash" },
        }),
        "/p",
        true,
      ),
      "/p",
      true,
    );
    const text = formatApprovals(a);
    expect(parseApprovals(text)).toEqual(a);
    expect(text.indexOf("/a.toml")).toBeLessThan(text.indexOf("/b.toml"));
    expect(formatApprovals(parseApprovals(text))).toBe(text);
    expect(withTrusted(a, "/p", false).trusted).toEqual([]);
  });

  test.each([
    ["not JSON", "{", "not valid JSON (JSON Parse error: Expected '}')"],
    ["another shape", '{"version":1,"projects":{}}', 'expected {"version": 1, "configs": {...}, "trusted": [...]}'],
    ["a list that is not strings", '{"version":1,"configs":{"/c":{"mcp":{},"allow":[1]}},"trusted":[]}', 'configs["/c"].allow must be a list of strings'],
    ["a server without a fingerprint", '{"version":1,"configs":{"/c":{"mcp":{"fs":true}}},"trusted":[]}', 'configs["/c"] is not a record of approved keys'],
    [
      "an endpoint that is not a URL string",
      '{"version":1,"configs":{"/c":{"mcp":{},"endpoints":{"gw":1}}},"trusted":[]}',
      'configs["/c"].endpoints must map provider names to URLs',
    ],
  ])("a broken record says what is wrong: %s", (_, text, message) => {
    expect(() => parseApprovals(text)).toThrow(new ApprovalsError(message));
  });

  test("controlFiles: user config, trust.json, the record, the project's config and .mcp.json, and --config", () => {
    const env = { XDG_CONFIG_HOME: "/x/config", XDG_STATE_HOME: "/x/state" };
    expect(controlFiles(places(env, "/h", "/p", "linux"), "ci.toml")).toEqual([
      "/x/config/hey/config.toml",
      "/x/config/hey/trust.json",
      "/x/state/hey/approvals.json",
      "/p/.hey/config.toml",
      "/p/.mcp.json",
      "/p/ci.toml",
    ]);
    expect(controlFiles(places({}, "/h", "/p", "linux"), undefined)).toEqual([
      "/h/.config/hey/config.toml",
      "/h/.config/hey/trust.json",
      "/h/.local/state/hey/approvals.json",
      "/p/.hey/config.toml",
      "/p/.mcp.json",
    ]);
  });
});

describe("a run", () => {
  let tmp: ReturnType<typeof tempDir>;
  let home: string;
  let project: string;
  let files: Places;
  const warnings: string[] = [];
  const asked: string[] = [];
  beforeEach(() => {
    tmp = tempDir("hey-approvals-");
    home = join(tmp.path, "home");
    project = join(tmp.path, "project");
    mkdirSync(project, { recursive: true });
    files = places({}, home, project, "linux");
    warnings.length = 0;
    asked.length = 0;
  });
  afterEach(() => tmp.remove());

  const ENDPOINTS = { m: "http://127.0.0.1:9/v1" };
  const writeUser = (toml: string) => {
    mkdirSync(join(files.userConfig, ".."), { recursive: true });
    writeFileSync(files.userConfig, `[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n${toml}`);
  };
  /** One start-up as run.ts does it; `answer` given: the REPL, asked; undefined: a one-shot run. `servers` false: --no-mcp. */
  async function start(answer?: string, servers = true) {
    const state = readApprovalState(files.approvalsFile, (w) => warnings.push(w));
    const loaded = loadConfig({ env: { HOME: home }, here: files, trustProject: false, flags: {}, approvals: state.record });
    const ask = answer === undefined ? undefined : async (q: string) => (asked.push(q), answer);
    const config = await decideWidenings(loaded, ask, (w) => warnings.push(w), servers);
    await recordApprovals(config, state, files.trustFile, (w) => warnings.push(w));
    return config.settings;
  }

  test("the first run takes the file as it is and says so once; the record is private", async () => {
    writeUser('[permission]\nallow = ["bash: ls", "read_file"]\n');
    expect((await start()).permission.allow).toEqual(["bash: ls", "read_file"]);
    expect(warnings).toEqual([
      `recorded ${files.userConfig} as approved (no earlier record in ${files.approvalsFile}); from now on hey asks before using a change there that gives the agent more`,
    ]);
    expect(readApprovals(files.approvalsFile)?.configs[files.userConfig]).toEqual({
      mcp: {},
      endpoints: ENDPOINTS,
      allow: ["bash: ls", "read_file"],
      vars: [],
    });
    expect(statSync(files.approvalsFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(files.approvalsFile, "..")).mode & 0o777).toBe(0o700);
    await start();
    expect(warnings).toHaveLength(1);
  });

  test("a widening is left out in a one-shot run, every time, until approved at the REPL's question; under a list, neither says the agent could write the file", async () => {
    writeUser('[permission]\nallow = ["bash: ls"]\n');
    await start();
    warnings.length = 0;
    writeUser('[permission]\nallow = ["bash: ls", "bash"]\n[mcp.x]\ncommand = "sh"\nargs = ["-c", "touch pwned"]\n');
    const notice = `not used: + [permission] allow "bash", + [mcp.x] sh -c "touch pwned" in ${files.userConfig}: it gives the agent more than you approved; the rest of the file is used (the interactive prompt asks about it: start \`hey\` at a terminal)`;
    for (let run = 0; run < 2; run++) {
      const s = await start();
      expect(s.permission.allow).toEqual(["bash: ls"]);
      expect(s.mcp.servers).toEqual([]);
      expect(warnings.at(-1)).toBe(notice);
    }
    // the REPL shows the change; Enter is a no
    expect((await start("")).permission.allow).toEqual(["bash: ls"]);
    expect(asked[0]).toBe(
      `${files.userConfig} would give the agent more than you approved:\n  + [permission] allow "bash"\n  + [mcp.x] sh -c "touch pwned"\nhey asks before any change that gives the agent more takes effect, whoever made it. Use these changes? (y/N) `,
    );
    expect(warnings.at(-1)).toEndWith("(hey asks again at the next start or /reload)");
    // y: used, recorded, not asked again
    const yes = await start("y");
    expect(yes.permission.allow).toEqual(["bash: ls", "bash"]);
    expect(yes.mcp.servers.map((s) => s.name)).toEqual(["x"]);
    const count = warnings.length;
    expect((await start()).permission.allow).toEqual(["bash: ls", "bash"]);
    expect(warnings.length).toBe(count);
    expect(asked).toHaveLength(2);
  });

  test("a change declined in a session started earlier does not undo what another session approved since", async () => {
    mkdirSync(join(files.approvalsFile, ".."), { recursive: true });
    writeFileSync(files.approvalsFile, formatApprovals(emptyApprovals())); // a record, of no config file yet
    const earlier = readApprovalState(files.approvalsFile, () => {}); // a REPL open since, its record as it was
    writeUser('[mcp.x]\ncommand = "sh"\n');
    expect((await start("y")).mcp.servers.map((s) => s.name)).toEqual(["x"]); // another REPL: /reload, y
    // the earlier REPL's /reload asks about the same change; its user answers no
    const loaded = loadConfig({ env: { HOME: home }, here: files, trustProject: false, flags: {}, approvals: earlier.record });
    const declined = await decideWidenings(
      loaded,
      async () => "n",
      () => {},
      true,
    );
    expect(declined.settings.mcp.servers).toEqual([]);
    await recordApprovals(declined, earlier, files.trustFile, () => {});
    // before: the record's entry for the file became the earlier REPL's view (nothing approved), and x was left out
    expect(Object.keys(readApprovals(files.approvalsFile)?.configs[files.userConfig]?.mcp ?? {})).toEqual(["x"]);
    expect((await start()).mcp.servers.map((s) => s.name)).toEqual(["x"]);
  });

  test("a base_url: a record of an earlier hey (none kept) adopts it; moved, it is asked about, and a yes uses and records it", async () => {
    writeUser("");
    mkdirSync(join(files.approvalsFile, ".."), { recursive: true });
    writeFileSync(files.approvalsFile, formatApprovals(withConfigs(emptyApprovals(), { [files.userConfig]: { mcp: {} } })));
    expect((await start()).provider.unapproved).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(readApprovals(files.approvalsFile)?.configs[files.userConfig]?.endpoints).toEqual(ENDPOINTS);

    writeFileSync(files.userConfig, readFileSync(files.userConfig, "utf8").replace(":9/", ":8/"));
    const kept = await start();
    expect(kept.provider.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(warnings.at(-1)).toStartWith(
      'not used: ~ [provider.m] base_url = "http://127.0.0.1:8/v1" (was "http://127.0.0.1:9/v1"): its requests and key would go there in ',
    );
    const yes = await start("y");
    expect(asked).toHaveLength(1);
    expect(yes.provider.baseUrl).toBe("http://127.0.0.1:8/v1");
    expect(readApprovals(files.approvalsFile)?.configs[files.userConfig]?.endpoints).toEqual({ m: "http://127.0.0.1:8/v1" });
  });

  test("a narrowing is used at once and recorded, so widening back is a widening", async () => {
    writeUser('[permission]\nallow = ["bash: ls", "read_file"]\ndeny = ["bash: rm *"]\n');
    await start();
    writeUser('[permission]\nallow = ["read_file"]\ndeny = ["bash: rm *", "bash: curl *"]\n');
    expect((await start()).permission).toMatchObject({ allow: ["read_file"], deny: ["bash: rm *", "bash: curl *"], narrow: [] });
    writeUser('[permission]\nallow = ["bash: ls", "read_file"]\ndeny = ["bash: rm *"]\n');
    const s = await start();
    expect(s.permission).toMatchObject({ allow: ["read_file"], deny: ["bash: rm *", "bash: curl *"], narrow: [] });
    expect(warnings.at(-1)).toContain('+ [permission] allow "bash: ls", - [permission] deny "bash: curl *"');
  });

  test("--no-mcp: a server change is neither told about nor approved; the rest is, as always", async () => {
    writeUser('[permission]\nallow = ["bash: ls"]\n');
    await start();
    warnings.length = 0;
    writeUser('[permission]\nallow = ["bash: ls", "bash"]\n[mcp.x]\ncommand = "sh"\nargs = ["-c", "touch pwned"]\n');
    await start(undefined, false);
    expect(warnings).toEqual([
      `not used: + [permission] allow "bash" in ${files.userConfig}: it gives the agent more than you approved; the rest of the file is used (the interactive prompt asks about it: start \`hey\` at a terminal)`,
    ]);
    // the REPL asks about the rest only; a yes approves that, not the server it did not show
    expect((await start("y", false)).permission.allow).toEqual(["bash: ls", "bash"]);
    expect(asked).toEqual([
      `${files.userConfig} would give the agent more than you approved:\n  + [permission] allow "bash"\nhey asks before any change that gives the agent more takes effect, whoever made it. Use this change? (y/N) `,
    ]);
    expect(readApprovals(files.approvalsFile)?.configs[files.userConfig]).toEqual({ mcp: {}, endpoints: ENDPOINTS, allow: ["bash: ls", "bash"], vars: [] });
    // with only the server left, --no-mcp asks nothing; a run that starts servers says it left it out
    await start("y", false);
    expect(asked).toHaveLength(1);
    await start();
    expect(warnings.at(-1)).toStartWith('not used: + [mcp.x] sh -c "touch pwned" in ');
  });

  test("a part not approved is still checked: an invalid file is an error, as when it is new", async () => {
    const valid = "[agent]\nmax_turns = 5\n";
    writeUser(valid);
    await start();
    const load = (approvals = readApprovals(files.approvalsFile)) =>
      loadConfig({ env: { HOME: home }, here: files, trustProject: false, flags: {}, approvals });
    const cases = [
      ['[mcp.foo]\nargs = ["x"]\n', `${files.userConfig}:4: [mcp.foo] needs command (a local server) or url (a remote one)`],
      ['[mcp.foo]\ncommand = "a"\nurl = "http://127.0.0.1:9/mcp"\n', `${files.userConfig}:6: [mcp.foo] has both command and url; keep one`],
      ['[permission]\nallow = ["Bash(git:*)"]\n', `${files.userConfig}:5: [permission] allow: "Bash(git:*)" is another agent's syntax; write "bash: git *"`],
    ];
    for (const [toml, message] of cases) {
      writeUser(valid);
      const running = load();
      writeUser(toml!);
      expect(() => load(undefined)).toThrow(message!); // a file seen for the first time
      await expect(start()).rejects.toThrow(message!);
      expect(running.reload({}, readApprovals(files.approvalsFile), false).errors).toEqual([message!]);
    }
  });

  test("so is a --config file seen before", async () => {
    writeUser("");
    const ci = join(project, "ci.toml");
    writeFileSync(ci, "[agent]\nmax_turns = 5\n");
    const load = () =>
      loadConfig({ env: { HOME: home }, here: files, configFile: ci, trustProject: false, flags: {}, approvals: readApprovals(files.approvalsFile) });
    await recordApprovals(
      load(),
      readApprovalState(files.approvalsFile, () => {}),
      files.trustFile,
      () => {},
    );
    writeFileSync(ci, '[agent]\nmax_turns = 5\n[permission]\nallow = ["read_file", "Bash(git:*)"]\n');
    expect(load).toThrow(`${ci}:4: [permission] allow: "Bash(git:*)" is another agent's syntax; write "bash: git *"`);
  });

  test("a record that is a link or broken approves nothing (and says so); it is rewritten on the next record", async () => {
    writeUser('[tools]\nbash_filter = "./filter.sh"\n');
    mkdirSync(join(files.approvalsFile, ".."), { recursive: true });
    writeFileSync(files.approvalsFile, "{oops");
    expect((await start()).tools.bashFilter).toBe("builtin");
    expect(warnings[0]).toStartWith(`${files.approvalsFile}: not valid JSON`);
    expect(warnings[1]).toContain('+ [tools] bash_filter = "./filter.sh"');
    expect(parseApprovals(readFileSync(files.approvalsFile, "utf8")).configs[files.userConfig]).toEqual({ mcp: {}, endpoints: {}, vars: [] });

    const target = join(tmp.path, "planted.json");
    writeFileSync(target, formatApprovals(withConfigs(emptyApprovals(), { [files.userConfig]: { mcp: {}, bash_filter: "./filter.sh" } })));
    await Bun.$`rm ${files.approvalsFile}`.quiet();
    symlinkSync(target, files.approvalsFile);
    warnings.length = 0;
    expect((await start()).tools.bashFilter).toBe("builtin");
    expect(warnings[0]).toContain("is a symbolic link");
  });

  test("updateApprovals keeps what another hey recorded meanwhile", async () => {
    await updateApprovals(files.approvalsFile, (a) => withTrusted(a, "/one", true));
    await updateApprovals(files.approvalsFile, (a) => withConfigs(a, { "/c.toml": { mcp: {} } }));
    expect(readApprovals(files.approvalsFile)).toEqual({ version: 1, configs: { "/c.toml": { mcp: {} } }, trusted: ["/one"] });
  });
});

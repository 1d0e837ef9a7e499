// Project trust (SPEC §15, §24): the decision, trust.json (keyed by real path, atomic, never
// through a link, other entries kept), what needs trust, and the flow of one run.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, readdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  approvalNotice,
  approvalQuestion,
  declinedNotice,
  decideTrust,
  parseTrust,
  readAnswer,
  trustQuestion,
  TrustFileError,
  trustedNotice,
  untrustedNotice,
  untrustedReloadNotice,
  withDecision,
} from "../../src/trust/policy.ts";
import { readApprovals, updateApprovals } from "../../src/config/approval-store.ts";
import { projectEffects, projectKey, readTrust, recordTrust, settleTrust, trustProject } from "../../src/trust/store.ts";
import { gatedResources } from "../../src/fs/root-probe.ts";
import { effectLines } from "../../src/trust/effects.ts";
import { checkLayer } from "../../src/config/schema.ts";
import { tempDir } from "../helpers/e2e.ts";

/** The user's folders under `home`, which the trust question tells the project's skills from. */
const userDirs = (home: string) => ({ home, configDir: join(home, "config", "hey"), claudeDir: join(home, ".claude"), codexDir: join(home, ".codex") });

describe("decideTrust", () => {
  test.each([
    ["--approve wins over a recorded no", { approve: true, stored: false, interactive: false, resources: [".hey/config.toml"] }, true],
    ["a recorded yes, without a terminal", { approve: false, stored: true, interactive: false, resources: [".hey/config.toml"] }, true],
    ["a recorded no, in the REPL", { approve: false, stored: false, interactive: true, resources: [".hey/config.toml"] }, false],
    ["nothing recorded, without a terminal", { approve: false, stored: undefined, interactive: false, resources: [".hey/skills/"] }, false],
    ["nothing recorded, in the REPL: ask", { approve: false, stored: undefined, interactive: true, resources: [".hey/skills/"] }, "ask"],
    ["nothing to guard, in the REPL: trusted for the session, not asked", { approve: false, stored: undefined, interactive: true, resources: [] }, true],
    ["nothing to guard, without a terminal", { approve: false, stored: undefined, interactive: false, resources: [] }, false],
    // the home directory is no project: never asked about, not trusted by a recorded yes, --approve or for the session
    ["the home directory, in the REPL", { approve: false, stored: undefined, interactive: true, resources: [".hey/skills/"], home: true }, false],
    ["the home directory, a recorded yes", { approve: false, stored: true, interactive: true, resources: [], home: true }, false],
    ["the home directory, --approve", { approve: true, stored: undefined, interactive: false, resources: [".hey/config.toml"], home: true }, false],
  ])("%s", (_, input, want) => {
    expect(decideTrust(input)).toBe(want as boolean | "ask");
  });
});

test("the questions make control characters in a path or a change visible: a directory name cannot retitle the terminal or hide text", () => {
  const project = "/tmp/a\x1b]0;owned\x07\x1b[8mhidden";
  expect(trustQuestion(project, [".hey/skills/"])).toStartWith("/tmp/a^[]0;owned^G^[[8mhidden has .hey/skills/:");
  const pending = [{ file: "/p/.hey/config.toml", lines: ["+ [mcp.x\x1b[2J] sh"] }];
  expect(approvalQuestion(pending)).not.toContain("\x1b");
  expect(approvalNotice(pending, false).join("")).not.toContain("\x1b");
});

test("a one-shot run's notice of a base_url never approved does not say its approved value is used: there is none, and the provider gets no request", () => {
  const file = "/h/.config/hey/config.toml";
  const added = approvalNotice([{ file, lines: ['+ [provider.local] base_url = "http://127.0.0.1:8080/v1": its requests and key would go there'] }], false);
  expect(added[0]).toContain(
    "the rest of the file is used; a provider whose base_url was never approved gets no request (the interactive prompt asks about it: start `hey` at a terminal)",
  );
  expect(added[0]).not.toContain("-p"); // said by `hey mcp` too, where the user typed no -p
  const moved = approvalNotice(
    [{ file, lines: ['~ [provider.local] base_url = "http://b/v1" (was "http://a/v1"): its requests and key would go there'] }],
    false,
  );
  expect(moved[0]).toContain("the rest of the file is used (the interactive prompt asks about it: start `hey` at a terminal)");
});

test("a one-shot run's notice of a changed MCP server says it does not start until the change is approved (only the approved table's fingerprint is kept)", () => {
  const notice = approvalNotice([{ file: "/h/.config/hey/config.toml", lines: ["~ [mcp.a] bun server.ts"] }], false);
  expect(notice[0]).toContain("the rest of the file is used; a changed MCP server does not start until its change is approved (the interactive prompt");
});

test("after the question was answered no, the notice (which /reload's note carries to the model) names each server and provider by its table alone: no value of theirs, which may be a credential", () => {
  const lines = [
    '+ [mcp.db] node s.js --pwd=Hunter21; env SLACK_WEBHOOK_URL="https://hooks.slack.com/services/T0/B0/Hunter26"',
    "~ [mcp.web] https://mcp.example.com/sse?signature=Hunter32 (changed: url …)",
    '+ [provider.local] base_url = "https://u:Hunter40@h/v1": its requests and key would go there',
    '+ [permission] allow "bash: touch *"',
  ];
  const [notice] = approvalNotice([{ file: "/h/.config/hey/config.toml", lines }], true);
  expect(notice).toBe(
    'not used, not approved: + [mcp.db], ~ [mcp.web], + [provider.local], + [permission] allow "bash: touch *" in /h/.config/hey/config.toml; the rest of the file is used (hey asks again at the next start or /reload)',
  );
  expect(notice).not.toContain("Hunter");
});

describe("readAnswer", () => {
  test.each([
    ["y", "yes"],
    ["Yes ", "yes"],
    ["n", "no"],
    [" NO", "no"],
    ["", "not now"], // Enter: the (y/N) default, for this session only
    ["   ", "not now"],
    ["nope", "not now"],
    ["sure", "not now"],
  ])("%p is %p", (typed, want) => {
    expect(readAnswer(typed)).toBe(want as ReturnType<typeof readAnswer>);
  });
});

describe("trust.json format", () => {
  test("parse, then record a decision next to the others", () => {
    const file = parseTrust('{"version":1,"projects":{"/a":{"trusted":true,"decided":"2026-01-01T00:00:00.000Z"}}}');
    expect(withDecision(file, "/b", false, new Date("2026-02-03T00:00:00Z"))).toEqual({
      version: 1,
      projects: { "/a": { trusted: true, decided: "2026-01-01T00:00:00.000Z" }, "/b": { trusted: false, decided: "2026-02-03T00:00:00.000Z" } },
    });
  });

  test.each([
    ["not JSON", "{", "not valid JSON"],
    ["no projects", "{}", 'expected {"version": 1, "projects": {...}}'],
    ["projects is a list", '{"projects":[]}', 'expected {"version": 1, "projects": {...}}'],
    ["trusted is not a boolean", '{"projects":{"/a":{"trusted":"yes"}}}', 'projects["/a"].trusted must be true or false'],
  ])("%s is a TrustFileError", (_, text, message) => {
    expect(() => parseTrust(text)).toThrow(TrustFileError);
    expect(() => parseTrust(text)).toThrow(message);
  });

  test("the notice names what was skipped and how to trust", () => {
    expect(untrustedNotice({ resources: [".hey/config.toml"], stored: undefined, file: "/t.json" })).toBe(
      "not loaded: .hey/config.toml (this project is not trusted; hey trust trusts it, --approve for one run, and the interactive prompt asks)",
    );
    expect(untrustedNotice({ resources: [".hey/config.toml", ".agents/skills/", ".hey/skills/"], stored: false, file: "/t.json" })).toBe(
      "not loaded: .hey/config.toml, .agents/skills/ and .hey/skills/ (you said no in /t.json; hey trust changes it, --approve trusts it for one run)",
    );
    // at the interactive prompt, /trust is the nearer way
    expect(untrustedNotice({ resources: [".hey/skills/"], stored: false, file: "/t.json" }, true)).toBe(
      "not loaded: .hey/skills/ (you said no in /t.json; /trust (or hey trust) changes it, --approve trusts it for one run)",
    );
  });

  test("after a no, the notice says whether it was recorded or holds for this session only", () => {
    expect(declinedNotice([".hey/skills/"], "/t.json", true)).toBe(
      "not loaded: .hey/skills/ (your no is recorded in /t.json: /trust (or hey trust) changes it; --approve trusts it for one run)",
    );
    expect(declinedNotice([".hey/skills/"], "/t.json", false)).toBe(
      "not loaded: .hey/skills/ (not trusted for this session only: nothing is recorded, and hey asks again next time; /trust, then /reload, loads them; --approve trusts it for one run)",
    );
  });
});

describe("on disk", () => {
  let tmp: ReturnType<typeof tempDir>;
  let config: string;
  let project: string;
  beforeEach(() => {
    tmp = tempDir("hey-trust-");
    config = join(tmp.path, "config", "hey");
    project = join(tmp.path, "project");
    mkdirSync(project, { recursive: true });
  });
  afterEach(() => tmp.remove());
  const approvalsFile = () => join(tmp.path, "state", "hey", "approvals.json");

  test("gatedResources: the project config and non-empty skill folders; AGENTS.md and task.md need no trust", () => {
    writeFileSync(join(project, "AGENTS.md"), "x");
    mkdirSync(join(project, ".hey", "skills"), { recursive: true });
    writeFileSync(join(project, ".hey", "task.md"), "x");
    expect(gatedResources(project)).toEqual([]);
    writeFileSync(join(project, ".hey", "config.toml"), "");
    mkdirSync(join(project, ".hey", "skills", "x"));
    mkdirSync(join(project, ".agents", "skills", "y"), { recursive: true });
    writeFileSync(join(project, ".mcp.json"), "{}");
    expect(gatedResources(project)).toEqual([".hey/config.toml", ".mcp.json", ".agents/skills/", ".hey/skills/"]);
  });

  test("trustProject: a yes records the answer and approves the project's config files as they are; a no only records", async () => {
    await updateApprovals(approvalsFile(), (a) => a); // a record exists: a run the model answered wrote it
    const here = {
      root: project,
      trustFile: join(config, "trust.json"),
      approvalsFile: approvalsFile(),
      projectConfig: join(project, ".hey", "config.toml"),
      projectMcpJson: join(project, ".mcp.json"),
    };
    mkdirSync(join(project, ".hey"), { recursive: true });
    writeFileSync(here.projectConfig, '[tools]\nbash_filter = "rtk"\n');
    writeFileSync(here.projectMcpJson, '{"mcpServers": {"fs": {"command": "npx", "args": ["x"]}}}');
    expect(projectEffects(here)).toEqual(["run MCP server fs: npx x", "pipe bash output through rtk"]);
    await trustProject(here, true);
    const real = realpathSync(project);
    expect(readTrust(here.trustFile).projects[real]?.trusted).toBe(true);
    const record = readApprovals(here.approvalsFile)!;
    expect(record.trusted).toEqual([real]);
    expect(Object.keys(record.configs).sort()).toEqual([join(real, ".hey", "config.toml"), join(real, ".mcp.json")]);
    expect(record.configs[join(real, ".hey", "config.toml")]).toMatchObject({ bash_filter: "rtk" });
    await trustProject(here, false);
    expect(readTrust(here.trustFile).projects[real]?.trusted).toBe(false);
    expect(readApprovals(here.approvalsFile)!.trusted).toEqual([]);
  });

  test("recordTrust keeps other projects, writes atomically (no temp file left) and keys by real path", async () => {
    await updateApprovals(approvalsFile(), (a) => a); // a record exists: a run the model answered wrote it
    const file = join(config, "trust.json");
    symlinkSync(project, join(tmp.path, "link"));
    await recordTrust(file, projectKey(join(tmp.path, "link")), true, approvalsFile(), new Date("2026-01-01T00:00:00Z"));
    await recordTrust(file, "/other", false, approvalsFile(), new Date("2026-01-02T00:00:00Z"));
    expect(readTrust(file).projects).toEqual({
      [realpathSync(project)]: { trusted: true, decided: "2026-01-01T00:00:00.000Z" },
      "/other": { trusted: false, decided: "2026-01-02T00:00:00.000Z" },
    });
    expect(readdirSync(config)).toEqual(["trust.json"]);
    // the same answers in hey's approvals record, private, as is trust.json
    expect(readApprovals(approvalsFile())?.trusted).toEqual([realpathSync(project)]);
    for (const f of [file, approvalsFile()]) expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(statSync(join(tmp.path, "state", "hey")).mode & 0o777).toBe(0o700);
  });

  test("with no approvals record yet, an answer goes to trust.json only: the first record, written when the model first answers, takes it", async () => {
    const file = join(config, "trust.json");
    await recordTrust(file, realpathSync(project), true, approvalsFile());
    await trustProject(
      {
        root: project,
        trustFile: file,
        approvalsFile: approvalsFile(),
        projectConfig: join(project, ".hey", "config.toml"),
        projectMcpJson: join(project, ".mcp.json"),
      },
      true,
    );
    expect(readTrust(file).projects[realpathSync(project)]?.trusted).toBe(true);
    expect(readApprovals(approvalsFile())).toBeUndefined();
  });

  test("a trust.json that is a symbolic link is neither read nor written through", async () => {
    mkdirSync(config, { recursive: true });
    const target = join(tmp.path, "target.json");
    writeFileSync(target, '{"version":1,"projects":{}}');
    symlinkSync(target, join(config, "trust.json"));
    expect(() => readTrust(join(config, "trust.json"))).toThrow("symbolic link");
    await expect(recordTrust(join(config, "trust.json"), "/p", true, approvalsFile())).rejects.toThrow("symbolic link");
    expect(readFileSync(target, "utf8")).toBe('{"version":1,"projects":{}}');
  });

  describe("settleTrust", () => {
    const asked: string[] = [];
    const warnings: string[] = [];
    const settle = (o: { approve?: boolean; interactive: boolean; answer?: string | undefined }) =>
      settleTrust({
        here: { root: project, projectConfig: join(project, ".hey", "config.toml"), projectMcpJson: join(project, ".mcp.json"), ...userDirs(tmp.path) },
        trustFile: join(config, "trust.json"),
        approve: o.approve ?? false,
        interactive: o.interactive,
        ask: async (q) => (asked.push(q), o.answer),
        warn: (w) => warnings.push(w),
        approvals: { record: readApprovals(approvalsFile()), file: approvalsFile() }, // as a run reads it
      });
    beforeEach(() => {
      asked.length = 0;
      warnings.length = 0;
      mkdirSync(join(project, ".hey"));
      writeFileSync(join(project, ".hey", "config.toml"), "");
    });

    test("the REPL asks once; the answer is recorded and holds for later runs, interactive or not", async () => {
      expect(await settle({ interactive: true, answer: "y" })).toMatchObject({ trusted: true, asked: true, resources: [".hey/config.toml"] });
      expect(asked).toEqual([
        `${realpathSync(project)} has .hey/config.toml: project settings and skills can send your keys elsewhere and tell the agent what to run.\nTrust this project? (y/N) `,
      ]);
      expect(await settle({ interactive: true, answer: "n" })).toMatchObject({ trusted: true, asked: false, stored: true });
      expect(await settle({ interactive: false })).toMatchObject({ trusted: true, asked: false });
      expect(asked.length).toBe(1);
    });

    // x160 finding 2: the skill guide named .hey/ in an --approve run, which the next run without it left out
    test("--approve trusts for this run alone unless a yes is recorded: only then is the project trusted for every run", async () => {
      expect(await settle({ interactive: false, approve: true })).toMatchObject({ trusted: true, approvedOnly: true });
      expect(await settle({ interactive: true, approve: true })).toMatchObject({ trusted: true, approvedOnly: true });
      expect(await settle({ interactive: true, answer: "y" })).toMatchObject({ trusted: true, stored: true });
      expect(await settle({ interactive: false, approve: true })).toMatchObject({ trusted: true, approvedOnly: false });
      expect(warnings).toEqual([]);
    });

    test("no is remembered too; --approve overrides it for one run without changing it", async () => {
      expect(await settle({ interactive: true, answer: "n" })).toMatchObject({ trusted: false, asked: true });
      // said at once, in the session that asked: what was left out and how to change the answer
      expect(warnings).toEqual([
        `not loaded: .hey/config.toml (your no is recorded in ${join(config, "trust.json")}: /trust (or hey trust) changes it; --approve trusts it for one run)`,
      ]);
      expect(await settle({ interactive: true, answer: "y" })).toMatchObject({ trusted: false, stored: false, asked: false });
      expect(await settle({ interactive: false, approve: true })).toMatchObject({ trusted: true });
      expect(readTrust(join(config, "trust.json")).projects[realpathSync(project)]?.trusted).toBe(false);
    });

    test("Enter is a no for this session only: nothing is recorded, and the next run asks again", async () => {
      expect(await settle({ interactive: true, answer: "" })).toMatchObject({ trusted: false, asked: true, stored: undefined });
      expect(warnings).toEqual([
        `not loaded: .hey/config.toml (not trusted for this session only: nothing is recorded, and hey asks again next time; /trust, then /reload, loads them; --approve trusts it for one run)`,
      ]);
      expect(readdirSync(tmp.path)).not.toContain("config");
      expect(await settle({ interactive: true, answer: "y" })).toMatchObject({ trusted: true, asked: true });
      expect(asked.length).toBe(2);
    });

    test("a no that cannot be recorded is not said to be recorded", async () => {
      mkdirSync(config, { recursive: true });
      writeFileSync(join(config, "trust.json"), "{oops");
      expect(await settle({ interactive: true, answer: "n" })).toMatchObject({ trusted: false, asked: true, stored: undefined });
      expect(warnings.at(-2)).toStartWith(`could not record the answer in ${join(config, "trust.json")}`);
      expect(warnings.at(-1)).toContain("not trusted for this session only");
    });

    test("without a terminal nothing is asked or recorded; Ctrl-C at the question cancels", async () => {
      expect(await settle({ interactive: false, answer: "y" })).toMatchObject({ trusted: false, asked: false, stored: undefined });
      expect(await settle({ interactive: true, answer: undefined })).toBe("cancelled");
      expect(asked.length).toBe(1);
      expect(readdirSync(tmp.path)).not.toContain("config");
    });

    test("a yes in trust.json that hey did not record at its question is not used: asked again, or not trusted without a terminal", async () => {
      await updateApprovals(approvalsFile(), (a) => a); // an earlier run wrote the record
      mkdirSync(config, { recursive: true });
      writeFileSync(join(config, "trust.json"), JSON.stringify({ version: 1, projects: { [realpathSync(project)]: { trusted: true, decided: "" } } })); // written behind hey's back
      expect(await settle({ interactive: false })).toMatchObject({ trusted: false, stored: undefined });
      expect(warnings[0]).toBe(
        `${join(config, "trust.json")} trusts ${realpathSync(project)}, but that was not answered at hey's question (the file was changed outside hey): its files are not loaded; the interactive prompt asks again, --approve trusts it for one run`,
      );
      expect(await settle({ interactive: true, answer: "y" })).toMatchObject({ trusted: true, asked: true });
      expect(await settle({ interactive: false })).toMatchObject({ trusted: true, asked: false }); // now answered at the question
    });

    test("before hey's first record, trust.json's answers stand (they were made by an older hey)", async () => {
      mkdirSync(config, { recursive: true });
      writeFileSync(join(config, "trust.json"), JSON.stringify({ version: 1, projects: { [realpathSync(project)]: { trusted: true, decided: "" } } }));
      expect(await settle({ interactive: false })).toMatchObject({ trusted: true });
      expect(warnings).toEqual([]);
    });

    test("a corrupt trust.json is a warning: the project is not trusted, and the file is left alone", async () => {
      mkdirSync(config, { recursive: true });
      writeFileSync(join(config, "trust.json"), "{oops");
      expect(await settle({ interactive: false })).toMatchObject({ trusted: false });
      expect(await settle({ interactive: true, answer: "y" })).toMatchObject({ trusted: true, asked: true });
      expect(warnings[0]).toStartWith(`${join(config, "trust.json")}: not valid JSON`);
      expect(warnings.at(-1)).toStartWith(`could not record the answer in ${join(config, "trust.json")}: not valid JSON`);
      expect(readFileSync(join(config, "trust.json"), "utf8")).toBe("{oops");
    });
  });

  // x162 finding 1: a run without a terminal read no trust.json when nothing was guarded, so a project trusted
  // with `hey trust` before anything was in its .hey/ was trusted in the REPL and not under -p: two skill guides
  test("with nothing to guard, a run without a terminal finds the recorded yes as the REPL does, quietly", async () => {
    const warnings: string[] = [];
    const settle = (approve = false) =>
      settleTrust({
        here: { root: project, projectConfig: join(project, ".hey", "config.toml"), projectMcpJson: join(project, ".mcp.json"), ...userDirs(tmp.path) },
        trustFile: join(config, "trust.json"),
        approve,
        interactive: false,
        ask: async () => undefined,
        warn: (w) => warnings.push(w),
        approvals: { record: readApprovals(approvalsFile()), file: approvalsFile() },
      });
    expect(await settle()).toMatchObject({ trusted: false, resources: [], provisional: false });
    await updateApprovals(approvalsFile(), (a) => a); // an earlier run wrote the record
    await recordTrust(join(config, "trust.json"), projectKey(project), true, approvalsFile()); // hey trust's yes
    expect(await settle()).toMatchObject({ trusted: true, stored: true, resources: [], provisional: false, approvedOnly: false });
    expect(await settle(true)).toMatchObject({ trusted: true, approvedOnly: false }); // --approve: trusted for every run all the same
    // a yes written behind hey's back is not the user's; a broken file trusts nothing: both said by a run they change something in
    writeFileSync(join(config, "trust.json"), JSON.stringify({ version: 1, projects: { [realpathSync(project)]: { trusted: true, decided: "" } } }));
    await updateApprovals(approvalsFile(), (a) => ({ ...a, trusted: [] }));
    expect(await settle()).toMatchObject({ trusted: false, stored: undefined });
    writeFileSync(join(config, "trust.json"), "{oops");
    expect(await settle()).toMatchObject({ trusted: false, stored: undefined });
    expect(warnings).toEqual([]);
  });
});

describe("what trusting a project would let it do (issue 26)", () => {
  const checked = (toml: string) => [
    { source: "/p/.hey/config.toml", data: checkLayer("/p/.hey/config.toml", Bun.TOML.parse(toml) as Record<string, unknown>).data },
  ];
  test("each MCP command line and URL, a provider's base_url, the proxy, bash_filter, shell, rg, keep_env", () => {
    expect(
      effectLines(
        checked(
          [
            "[mcp.fs]",
            'command = "npx"',
            'args = ["-y", "server-filesystem", "/"]',
            "[mcp.docs]",
            'url = "https://u:pw@mcp.example/mcp"',
            "[mcp.off]",
            'command = "x"',
            "enabled = false",
            "[provider.main]",
            'base_url = "https://elsewhere.example/v1"',
            "[proxy]",
            'url = "http://user:secret@proxy.example:8080"',
            "[tools]",
            'bash_filter = "rtk"',
            'shell = "zsh"',
            'rg = "./rg"',
            'keep_env = ["OPENAI_API_KEY"]',
          ].join("\n"),
        ),
      ),
    ).toEqual([
      "run MCP server fs: npx -y server-filesystem /",
      "connect to MCP server docs: https://u:[secret]@mcp.example/mcp",
      "send [provider.main] requests, with its key, to https://elsewhere.example/v1",
      "send model requests through the proxy http://***@proxy.example:8080",
      "pipe bash output through rtk",
      "run the agent's commands with zsh",
      "run ./rg for grep",
      "show OPENAI_API_KEY to the agent's commands",
    ]);
    expect(effectLines(checked('[tools]\nbash_filter = "builtin"\n[agent]\nmax_turns = 3'))).toEqual([]);
  });

  test("each variable whose value a setting would send, where it stands (not in [permission] nor an MCP server's table, listed as the server)", () => {
    const toml = [
      "[provider.ollama]",
      'api_key = "${ANTHROPIC_API_KEY}"',
      'headers = { X-Team = "${TEAM:-core}" }',
      "[permission]",
      'allow = ["bash: echo ${HOME}"]',
      "[mcp.fs]",
      'command = "npx"',
      'env = { TOKEN = "${GH_TOKEN}" }',
    ].join("\n");
    expect(effectLines(checked(toml))).toEqual([
      'run MCP server fs: npx; env TOKEN="${GH_TOKEN}"',
      "send the value of ${ANTHROPIC_API_KEY} as [provider.ollama] api_key",
      "send the value of ${TEAM} as [provider.ollama] headers.X-Team",
    ]);
  });

  test("the question lists them under the files; /trust and /untrust say what the next /reload does", () => {
    expect(trustQuestion("/p", [".hey/config.toml"], ["run MCP server fs: npx x"])).toBe(
      "/p has .hey/config.toml: project settings and skills can send your keys elsewhere and tell the agent what to run. Trusted, it would:\n  run MCP server fs: npx x\nTrust this project? (y/N) ",
    );
    expect(trustedNotice("/p", true, [".hey/skills/"], "/t.json", true)).toBe("/p is trusted now (recorded in /t.json): /reload loads its .hey/skills/.");
    expect(trustedNotice("/p", false, [".mcp.json"], "/t.json", true)).toBe("/p is not trusted now (recorded in /t.json): /reload leaves out its .mcp.json");
    expect(untrustedReloadNotice([".hey/skills/"])).toBe("not loaded: .hey/skills/ (this project is not trusted: /trust, then /reload, loads them)");
    // one-shot has no /trust: it says what does
    expect(untrustedReloadNotice([".hey/skills/"], true)).toBe(
      "not loaded: .hey/skills/ (this project is not trusted: hey trust trusts it, --approve for one run)",
    );
    // /trust in a project whose files are loaded already (--approve, or trusted at start)
    expect(trustedNotice("/p", true, [".hey/config.toml", ".hey/skills/"], "/t.json", true, true)).toBe(
      "/p is trusted now (recorded in /t.json); its .hey/config.toml and .hey/skills/ are loaded.",
    );
  });
});

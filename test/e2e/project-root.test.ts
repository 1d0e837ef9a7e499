// Self-evolution wherever the user works (issue 26), one-shot through dist/hey: started in a
// subdirectory, the project root's skills, MCP servers and .hey/task.md are the ones used; a
// project's .mcp.json and Codex's [mcp_servers.NAME] offer their tools, /mcp showing the
// conversion; the filesystem server's write_file arrives as fs_write_file and hey's own
// write_file still writes the config; a subdirectory's AGENTS.md comes with the first result under
// it; a CLAUDE.md's @imports are followed inside the project; an untrusted project says why its
// skill is missing, and only a terminal can trust it.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, FS_SERVER } from "../helpers/mcp.ts";
import { eachModelServers } from "../helpers/fixtures.ts";
import { lastUserText, systemOf, textOf, type ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let repo: string;
beforeEach(() => {
  home = tempDir("hey-home-");
  const projects = tempDir("hey-projects-");
  repo = join(realpathSync(projects.path), "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "sub"), { recursive: true });
  cleanups.push(projects.remove);
});
const cleanups: (() => void)[] = [];
afterEach(() => {
  home.remove();
  for (const c of cleanups.splice(0)) c();
});
const model = eachModelServers();

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const userConfig = (baseUrl: string, more = "") =>
  write(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n${more}`,
  );
const hey = (args: string[], cwd = join(repo, "sub")) => runHey(args, { cwd, env: { HOME: home.path }, timeoutMs: 40_000 });
const toolNames = (r: ChatRequest) => (r.tools ?? []).map((t) => t.function.name);
const fakeTable = (name: string, label: string, tools: string) =>
  `[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "${label}", "${tools}"]\n`;
const GREET = "---\nname: greet\ndescription: Greet the user. Use it for greetings.\n---\nSay ahoy.\n";

test("from repo/sub: the root's skills and MCP servers are loaded, the prompt names the root, the hand-off goes to the root's .hey/task.md", async () => {
  write(join(repo, ".hey", "skills", "greet", "SKILL.md"), GREET);
  write(join(repo, ".hey", "config.toml"), fakeTable("tracker", "tracker", "find_issue"));
  const m = model(() => ({ calls: [["find_issue", { text: "bug" }]] }));
  userConfig(m.baseUrl);
  const run = await hey(["--approve", "--max-turns", "1", "-p", "find the bug"]);
  expect(run.code).toBe(3); // stopped at the turn limit: the hand-off is saved
  const first = m.requests[0]!;
  expect(systemOf(first)).toContain(`${join(repo, ".hey", "skills")}/:\n- greet: Greet the user. Use it for greetings.`);
  expect(systemOf(first)).toContain(`Working directory: ${join(repo, "sub")}\nProject root: ${repo} (keep task.md at ${join(repo, ".hey", "task.md")})`);
  // --approve trusts it for this run alone: new skills go where the next run without it loads them (x160 #2)
  expect(systemOf(first)).toContain("as a skill: ~/.config/hey/skills/<name>/SKILL.md");
  expect(toolNames(first)).toContain("find_issue");
  expect(textOf(m.requests[1]!.messages.findLast((x) => x.role === "tool"))).toContain("tracker: bug"); // the root's server answered
  expect(run.stderr).toContain(`hey: the hand-off is saved in ${join(repo, ".hey", "task.md")}`);
  expect(readFileSync(join(repo, ".hey", "task.md"), "utf8")).toStartWith("# Task\n\nfind the bug\n\n## Stopped at the turn limit");
  expect(existsSync(join(repo, "sub", ".hey"))).toBe(false); // no second .hey/ in the subdirectory

  const doctor = await hey(["doctor", "--base-url", "http://127.0.0.1:1/v1", "-m", "m"]); // nothing listens there: the report still names the project
  expect(doctor.stdout.split("\n")[1]).toBe(`project: ${repo} (not trusted: .hey/config.toml, .hey/skills/ left out; hey trust trusts it)`);
  // --approve loads the files for this run, and does not trust the project: the report says which
  const approved = await hey(["doctor", "--approve", "--base-url", "http://127.0.0.1:1/v1", "-m", "m"]);
  expect(approved.stdout.split("\n")[1]).toBe(`project: ${repo} (approved for this run (--approve): .hey/config.toml, .hey/skills/ loaded)`);
});

test("a trusted project's .mcp.json server offers its tools; /mcp shows what it was read as", async () => {
  write(
    join(repo, ".mcp.json"),
    JSON.stringify(
      { mcpServers: { notes: { type: "stdio", command: BUN, args: [FAKE_SERVER, "ok", "notes", "search_notes"], env: { NOTES_TOKEN: "x" } } } },
      null,
      2,
    ),
  );
  const m = model((req) => (req.messages.at(-1)!.role === "tool" ? { text: textOf(req.messages.at(-1)) } : { calls: [["search_notes", { text: "todo" }]] }));
  userConfig(m.baseUrl);
  const run = await hey(["--approve", "-p", "search my notes"]);
  expect(run.code).toBe(0);
  expect(toolNames(m.requests[0]!)).toContain("search_notes");
  expect(run.stdout).toStartWith("notes: todo");

  const status = await hey(["--approve", "-p", "/mcp"]);
  expect(status.code).toBe(0);
  expect(status.stdout).toContain(
    `notes: connected · 1 tool, ~`, // …tokens per request
  );
  expect(status.stdout).toContain(
    `  from mcpServers.notes in ${join(repo, ".mcp.json")}, read as [mcp.notes] command = ${JSON.stringify(BUN)}, args = [${JSON.stringify(FAKE_SERVER)}, "ok", "notes", "search_notes"], env = { NOTES_TOKEN = … }`,
  );

  // not trusted: not read, and said
  const plain = await hey(["-p", "search my notes"]);
  expect(toolNames(m.requests.at(-1)!)).not.toContain("search_notes");
  expect(plain.stderr).toContain("hey: not loaded: .mcp.json (this project is not trusted; hey trust trusts it");
});

test("Codex's [mcp_servers.NAME] in the user's config is read as [mcp.NAME]", async () => {
  const m = model(() => ({ text: "ok" }));
  userConfig(
    m.baseUrl,
    `\n[mcp_servers.codex]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "codex", "lookup"]\ntool_timeout_sec = 30\n`,
  );
  const run = await hey(["-p", "hi"]);
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain("unknown table");
  expect(toolNames(m.requests[0]!)).toContain("lookup");
  const status = await hey(["-p", "/mcp"]);
  expect(status.stdout).toContain(
    `  from [mcp_servers.codex] (Codex's spelling) in ${join(home.path, ".config", "hey", "config.toml")}, read as [mcp.codex] command = ${JSON.stringify(BUN)}`,
  );
  expect(status.stdout).toContain("timeout_ms = 30000");
});

test("the filesystem server's write_file arrives as fs_write_file; hey's own write_file still writes outside the server's root", async () => {
  const notes = join(repo, "notes");
  mkdirSync(notes);
  const configFile = join(home.path, ".config", "hey", "config.toml");
  const fsTable = `\n[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(notes)}]\n`;
  let base = "";
  const m = model((req) => {
    const results = req.messages.filter((x) => x.role === "tool").length;
    if (results === 0) return { calls: [["fs_write_file", { path: join(notes, "todo.md"), content: "- water the plants\n" }]] };
    // the agent repairs its own config, outside the server's root, with hey's write_file
    if (results === 1)
      return {
        calls: [
          ["read_file", { path: configFile }], // write_file overwrites only a file read this run
          ["write_file", { path: configFile, content: readFileSync(configFile, "utf8").replace("[agent]\nmax_turns = 9\n", "") }],
        ],
      };
    return { text: "fixed" };
  });
  base = m.baseUrl;
  userConfig(base, `[agent]\nmax_turns = 9\n${fsTable}`);
  const run = await hey(["-p", "note it, then fix the config"]);
  expect(run.code).toBe(0);
  const names = toolNames(m.requests[0]!);
  expect(names.filter((n) => n === "write_file")).toHaveLength(1);
  expect(names).toEqual(expect.arrayContaining(["read_file", "fs_read_file", "fs_write_file", "read_text_file"]));
  expect(run.stderr).toContain("hey: MCP server fs's tool write_file is offered as fs_write_file: hey's own write_file keeps its name");
  expect(readFileSync(join(notes, "todo.md"), "utf8")).toBe("- water the plants\n"); // written by the server
  expect(readFileSync(configFile, "utf8")).not.toContain("max_turns = 9"); // written by hey's own write_file
  expect(textOf(m.requests[2]!.messages.at(-1))).toContain("overwrote");
});

test("a subdirectory's AGENTS.md comes with the first result under it, once, with a line on stderr", async () => {
  write(join(repo, "AGENTS.md"), "root rule\n");
  write(join(repo, "sub", "AGENTS.md"), "sub rule: tabs, never spaces\n");
  write(join(repo, "sub", "a.txt"), "alpha\n");
  write(join(repo, "sub", "b.txt"), "beta\n");
  const m = model((req) => {
    const results = req.messages.filter((x) => x.role === "tool").length;
    if (results < 2) return { calls: [["read_file", { path: results === 0 ? "sub/a.txt" : "sub/b.txt" }]] };
    return { text: "read both" };
  });
  userConfig(m.baseUrl);
  const run = await hey(["-p", "read the two files"], repo);
  expect(run.code).toBe(0);
  const system = systemOf(m.requests[0]!);
  expect(system).toContain(`Instructions from ${join(repo, "AGENTS.md")}:\nroot rule`);
  expect(system).not.toContain("sub rule"); // the system prompt stays as it was: the file rides with a result
  const [first, second] = m.requests[2]!.messages.filter((x) => x.role === "tool").map(textOf);
  expect(first).toContain(
    `alpha\n\nInstructions from ${join(repo, "sub", "AGENTS.md")} (for files under ${join(repo, "sub")}/):\nsub rule: tabs, never spaces`,
  );
  expect(second).toContain("beta");
  expect(second).not.toContain("sub rule");
  expect(systemOf(m.requests[2]!)).toBe(system);
  expect(run.stderr).toContain("hey: sub/AGENTS.md: instructions for that directory, given to the model with this read_file result");
});

test("a CLAUDE.md's @imports inside the project join the system prompt; one outside it only once the project is trusted", async () => {
  write(join(repo, "CLAUDE.md"), "Rules: @docs/style.md\nMine: @~/.claude/notes.md\n");
  write(join(repo, "docs", "style.md"), "indent with tabs\n");
  write(join(home.path, ".claude", "notes.md"), "private preferences\n");
  const m = model(() => ({ text: "ok" }));
  userConfig(m.baseUrl);
  const run = await hey(["-p", "hi"]);
  expect(run.code).toBe(0);
  const system = systemOf(m.requests[0]!);
  const claude = join(repo, "CLAUDE.md");
  expect(system).toContain(
    `Instructions from ${claude}:\nRules: @docs/style.md\nMine: @~/.claude/notes.md\n\n` +
      `Instructions from ${join(repo, "docs", "style.md")} (imported by ${claude}):\nindent with tabs`,
  );
  expect(system).not.toContain("private preferences");
  expect(run.stderr).toContain(
    `hey: ${claude}:2: @~/.claude/notes.md is outside the project; left out of the prompt (hey follows it once you trust the project: hey trust)\n`,
  );
  const approved = await hey(["--approve", "-p", "hi"]);
  expect(approved.code).toBe(0);
  expect(systemOf(m.requests[1]!)).toContain(`Instructions from ${join(home.path, ".claude", "notes.md")} (imported by ${claude}):\nprivate preferences`);
  expect(approved.stderr).not.toContain("outside the project");
});

test("an untrusted project: a provider only its .hey/config.toml defines is unknown, and the error says why and how to load it", async () => {
  const m = model(() => ({ text: "ok" }));
  userConfig(m.baseUrl);
  write(join(repo, ".hey", "config.toml"), `[provider.proj]\nbase_url = "${m.baseUrl}"\nmodels = ["claude-a"]\n`);
  const why = "; [provider.proj] is in this project's .hey/config.toml, which is not loaded: the project is not trusted (hey trust, or --approve for one run)";
  const run = await hey(["-m", "proj/claude-a", "-p", "hi"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`hey: -m proj/claude-a: unknown provider "proj"; known providers: mock`);
  expect(run.stderr).toEndWith(`${why}\n`);
  const doctor = await hey(["doctor", "proj"]);
  expect(doctor.code).toBe(2);
  expect(doctor.stderr).toBe(`hey doctor: unknown provider "proj"; known: mock${why}\n`);
  // a name the project does not define gets no such words
  const other = await hey(["-m", "elsewhere/x", "-p", "hi"]);
  expect(other.code).toBe(2);
  expect(other.stderr).not.toContain("[provider.elsewhere]");
  expect(m.requests).toHaveLength(0);
  // trusted for the run, the same command reaches the project's provider
  expect((await hey(["--approve", "-m", "proj/claude-a", "-p", "hi"])).code).toBe(0);
  expect(m.requests).toHaveLength(1);
});

test("an untrusted project: /skill:NAME says why it is missing; hey trust asks only at a terminal; /trust is the REPL's", async () => {
  write(join(repo, ".hey", "skills", "greet", "SKILL.md"), GREET);
  const m = model(() => ({ text: "ok" }));
  userConfig(m.baseUrl);
  const skill = await hey(["-p", "/skill:greet"]);
  expect(skill.code).toBe(2);
  expect(skill.stderr).toContain(
    `hey: no skill named "greet"; none are loaded; this project's .hey/skills/ is not loaded: it is not trusted (hey trust trusts it, --approve for one run)`,
  );
  expect(m.requests).toHaveLength(0); // nothing was asked

  const trust = await hey(["trust"]);
  expect(trust.code).toBe(2);
  // what it would load is shown all the same, as the trust question at a terminal shows it
  expect(trust.stdout).toStartWith(
    `project: ${repo} (the project of ${join(repo, "sub")})\nit has .hey/skills/\nTrusted, it would load its .hey/skills: this skill, whose text the agent follows as instructions in every session here:\n  + greet: Greet the user. Use it for greetings. (.hey/skills/greet/SKILL.md, new):\n`,
  );
  expect(trust.stderr).toContain("hey: hey trust asks at a terminal, and stdin is not one");
  expect(existsSync(join(home.path, ".config", "hey", "trust.json"))).toBe(false);

  const slash = await hey(["-p", "/trust"]);
  expect(slash.code).toBe(2);
  expect(slash.stderr).toEndWith("hey: /trust works at the interactive prompt; from a shell, hey trust (it asks at a terminal)\n");

  const revoke = await hey(["trust", "--revoke", repo], home.path);
  expect(revoke.code).toBe(0);
  expect(revoke.stdout).toContain(`${repo} is not trusted now (recorded in ${join(home.path, ".config", "hey", "trust.json")})`);
  // a path that is no directory is refused, not sent to the model
  const typo = await hey(["trust", "../no-such-project"]);
  expect(typo).toMatchObject({ code: 2, stdout: "" });
  expect(typo.stderr).toBe("hey trust: ../no-such-project is not a directory (hey trust [--revoke] [DIR]: the project DIR is in)\n");
  expect((await hey(["trust", "--revoke", "/no/such/dir"])).code).toBe(2);
  // another tool's verb is refused with what does it, not sent to the model as "trust list"
  const asked = m.requests.length;
  const list = await hey(["trust", "list"]);
  expect(list).toMatchObject({ code: 2, stdout: "" });
  expect(list.stderr).toBe(
    `hey trust list: hey trust takes a directory, not list: hey trust [DIR] shows whether DIR's project is trusted and what it would run (a no changes nothing); every answer is recorded in ${join(home.path, ".config", "hey", "trust.json")}\n`,
  );
  expect((await hey(["trust", "revoke"])).stderr).toBe(
    "hey trust revoke: did you mean hey trust --revoke [DIR]? (it stops trusting DIR's project, default here)\n",
  );
  expect(m.requests).toHaveLength(asked);
  // an unrelated prompt that starts with "trust" is a prompt
  const prompt = await hey(["trust", "me", "on", "this", "-p"]);
  expect(prompt.code).toBe(0);
  expect(lastUserText(m.requests.at(-1)!)).toBe("trust me on this");
});

test("the model writes .hey/task.md from a package's subdirectory: the next runs keep the project root, its servers and trust, and say where task.md belongs", async () => {
  write(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { notes: { command: BUN, args: [FAKE_SERVER, "ok", "notes", "search_notes"] } } }));
  const src = join(repo, "packages", "a", "src");
  mkdirSync(src, { recursive: true });
  mkdirSync(join(repo, "packages", "b", ".hey"), { recursive: true }); // an empty .hey/ elsewhere changes nothing either
  const m = model((req) =>
    lastUserText(req) === "start the task" && !req.messages.some((x) => x.role === "tool")
      ? { calls: [["write_file", { path: ".hey/task.md", content: "# Task\n\nship it\n" }]] }
      : { text: "noted" },
  );
  userConfig(m.baseUrl);
  const first = await hey(["--approve", "-p", "start the task"], src);
  expect(first.code).toBe(0);
  const taskAt = join(repo, ".hey", "task.md");
  // the prompt named the root's task.md: this model wrote the relative path all the same
  expect(systemOf(m.requests[0]!)).toContain(`Project root: ${repo} (keep task.md at ${taskAt})`);
  expect(existsSync(join(src, ".hey", "task.md"))).toBe(true);

  for (const cwd of [src, join(repo, "packages", "b")]) {
    const next = await hey(["--approve", "-p", "hi"], cwd);
    expect(next.code).toBe(0);
    const request = m.requests.at(-1)!;
    expect(toolNames(request)).toContain("search_notes"); // the root's .mcp.json: still the project's
    expect(systemOf(request)).toContain(`Project root: ${repo} (keep task.md at ${taskAt})`);
    const said = `hey: packages/a/src/.hey/task.md is not this project's task.md: the project root is ${repo} (hey keeps ${taskAt}); move it there or remove it`;
    if (cwd === src) expect(next.stderr).toContain(said);
    else expect(next.stderr).toBe(""); // not below packages/b: nothing to say there
  }
  const mcp = await hey(["mcp", "--approve"], src);
  expect(mcp.code).toBe(0);
  expect(mcp.stdout).toContain("notes: connected");
});

test("a package's own .mcp.json and skills folder below the trusted root are named at start (-p, hey mcp, hey mcp login) as not read, once, with where they go", async () => {
  write(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { notes: { command: BUN, args: [FAKE_SERVER, "ok", "notes", "search_notes"] } } }));
  const pkg = join(repo, "packages", "a");
  const src = join(pkg, "src");
  mkdirSync(src, { recursive: true });
  write(join(pkg, ".mcp.json"), JSON.stringify({ mcpServers: { suba: { command: BUN, args: [FAKE_SERVER, "ok", "suba", "sub_tool"] } } }));
  write(join(pkg, ".agents", "skills", "suba", "SKILL.md"), "---\nname: suba\ndescription: The package's own skill.\n---\nx\n");
  const m = model(() => ({ text: "ok" }));
  userConfig(m.baseUrl);
  const said = `hey: not read: ${join(pkg, ".mcp.json")} and ${join(pkg, ".agents", "skills")}/: hey reads a project's skills, .hey/config.toml and .mcp.json at its root, ${repo}; move them there\n`;
  const once = (stderr: string) => stderr.split(said).length - 1;

  const run = await hey(["--approve", "-p", "hi"], src);
  expect(run.code).toBe(0);
  expect(once(run.stderr)).toBe(1); // before: nothing at start, only /reload said it
  expect(toolNames(m.requests[0]!)).toContain("search_notes"); // the root's server
  expect(toolNames(m.requests[0]!)).not.toContain("sub_tool");

  const mcp = await hey(["mcp", "--approve"], src);
  expect(mcp.code).toBe(0);
  expect(mcp.stdout).toContain("notes: connected");
  expect(once(mcp.stderr)).toBe(1);
  expect(mcp.stdout).not.toContain("not read"); // said on stderr at start, not again in the listing

  const login = await hey(["mcp", "login", "suba", "--approve"], src);
  expect(login.code).toBe(2);
  expect(once(login.stderr)).toBe(1); // why suba is unknown here
  expect(login.stderr).toContain("hey: no [mcp.suba] table");

  // the root itself has nothing below it to name
  expect((await hey(["--approve", "-p", "hi"], repo)).stderr).toBe("");
});

// x147 finding 5: the listing said "add an [mcp.NAME] table … and /reload", the reason only on stderr
test("hey mcp list in a package whose .mcp.json is the only one says on stdout that it is not read and where it goes, not to add a table", async () => {
  const app = join(repo, "app");
  write(join(app, ".mcp.json"), JSON.stringify({ mcpServers: { fs: { command: BUN, args: [FAKE_SERVER, "ok", "fs", "read"] } } }));
  const m = model(() => ({ text: "ok" }));
  userConfig(m.baseUrl);
  const list = await hey(["mcp", "list"], app);
  expect(list.code).toBe(0);
  expect(list.stdout).toBe(
    `no MCP servers in use; not read: ${join(app, ".mcp.json")}: hey reads a project's skills, .hey/config.toml and .mcp.json at its root, ${repo}; move them there\n`,
  );
  expect(list.stdout).not.toContain("/reload");
});

// Self-evolution wherever the user works (issue 26), in a real terminal (tmux) through dist/hey:
// an untrusted project started from a subdirectory says why its skill is missing, `/trust` then
// `/reload` loads it, and the next request tells the model; `/reload` applies start-up's rules as
// a diff — a broken-YAML skill beside a new good one loads the good one and warns about the other,
// an unchanged stdio server keeps its process, a changed one that fails to start leaves the old
// one serving — and the model hears all of it, file and line included; a `/reload` that changes
// nothing tells the model nothing (deferred MCP tools included), so the requests after it repeat the
// ones before byte for byte.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { lastUserText, reloadNoteOf, skillsNoteOf, startModelServer, systemOf, textOf, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";
import { ALL, flat, lastLine, say } from "./repl-helpers.ts";
import { alive } from "../helpers/processes.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let projects: ReturnType<typeof tempDir>;
const servers: ModelServer[] = [];
const terminals: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  projects = tempDir("hey-projects-");
});
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
  for (const s of servers.splice(0)) s.stop();
  home.remove();
  projects.remove();
});

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const configFile = () => join(home.path, ".config", "hey", "config.toml");
const userConfig = (baseUrl: string, more = "") =>
  write(configFile(), `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n${more}`);
/** the screen with every run of spaces and line breaks as one space: hey wraps long sentences at spaces */
async function openRepl(cwd: string): Promise<Term> {
  const term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  terminals.push(term);
  return term;
}

test("an untrusted project, from a subdirectory: the skill's absence is explained, /trust then /reload loads it, and the next request says so", async () => {
  const repo = join(realpathSync(projects.path), "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "sub"));
  write(join(repo, ".hey", "skills", "greet", "SKILL.md"), "---\nname: greet\ndescription: Greet the user. Use it for greetings.\n---\nSay ahoy.\n");
  const model = startModelServer(() => ({ text: "ok" }));
  servers.push(model);
  userConfig(model.baseUrl);

  const term = await openRepl(join(repo, "sub"));
  await term.waitFor("Trust this project? (y/N)");
  expect(await flat(term)).toContain(`${repo} has .hey/skills/:`);
  await term.keys("Enter"); // a no for this session only
  await term.waitFor(/^›/m);
  expect(await flat(term)).toContain(`· ${join(repo, "sub")} (project ${repo}) · /help for commands`);

  await say(term, "/skill:greet", "no skill named");
  expect(await flat(term)).toContain(
    `hey: no skill named "greet"; none are loaded; this project's .hey/skills/ is not loaded: it is not trusted (/trust, then /reload, loads them)`,
  );
  await say(term, "/mcp", "no MCP servers in use");
  expect(await flat(term)).toContain("this project's .hey/skills/ is not loaded: it is not trusted (/trust, then /reload, loads them)");
  await say(term, "/reload", "reloaded: nothing changed");
  expect(await flat(term)).toContain("hey: not loaded: .hey/skills/ (this project is not trusted: /trust, then /reload, loads them)");
  await say(term, "hi", "ok");
  const untrusted = model.requests.at(-1)!;
  expect(systemOf(untrusted)).toContain("as a skill: ~/.config/hey/skills/<name>/SKILL.md");
  expect(systemOf(untrusted)).toContain(
    "This project is untrusted: its .hey/config.toml, .mcp.json and skills in .hey/, .claude/ or .agents/ do not load; ask the user to /trust it.",
  );
  expect(systemOf(untrusted)).toContain(`Project root: ${repo} (keep task.md at ${join(repo, ".hey", "task.md")})\n`); // not "its .hey/ holds skills" (x160 #5)
  expect(reloadNoteOf(untrusted)).toBe(
    "[hey: the user ran /reload; nothing changed\nwarning: not loaded: .hey/skills/ (this project is not trusted: /trust, then /reload, loads them)]",
  );

  // the agent can write .hey/skills as easily as .mcp.json: /trust shows the skill, as the start's question does, and asks
  await say(term, "/trust", "Trust this project? (y/N)");
  expect(await flat(term)).toContain("+ greet: Greet the user. Use it for greetings. (.hey/skills/greet/SKILL.md, new):");
  await term.type("y");
  await term.keys("Enter");
  await term.waitFor("is trusted now", ALL);
  expect(await flat(term)).toContain(
    `${repo} is trusted now (recorded in ${join(home.path, ".config", "hey", "trust.json")}): /reload loads its .hey/skills/.`,
  );
  expect(systemOf(model.requests.at(-1)!)).toBe(systemOf(untrusted)); // nothing switches before /reload
  await say(term, "/skill:greet", "not loaded yet");
  expect(await flat(term)).toContain("this project's .hey/skills/ is not loaded yet: it was trusted after they were read (/reload loads them)");
  await say(term, "/reload", "+ skill greet");
  await say(term, "/trust", "Trust this project? (y/N)");
  await term.type("y");
  await term.keys("Enter");
  await term.waitFor("is loaded.", ALL);
  expect(await flat(term)).toContain(`${repo} is trusted now (recorded in ${join(home.path, ".config", "hey", "trust.json")}); its .hey/skills/ is loaded.`);
  await say(term, "hello", "ok");
  const loaded = model.requests.at(-1)!;
  // /trust and /reload leave the system prompt as it was (before: the guide changed, and the whole conversation was billed again):
  // the new skill is the kept note's, and the trust a note's of its own
  expect(systemOf(loaded)).toBe(systemOf(untrusted));
  // the project root's folders, as the guide would write them: sub/.hey/skills is never read, and would make sub/ a project (x160 #1)
  expect(textOf(loaded.messages.at(-1))).toContain(
    `[hey: this project is trusted now: its .hey/config.toml, .mcp.json and skills in .hey/, .claude/ or .agents/ load; new skills go in ${join(repo, ".hey", "skills")}/, MCP servers in ${join(repo, ".hey", "config.toml")}]`,
  );
  expect(textOf(loaded.messages.at(-1))).toEndWith("hello");
  expect(skillsNoteOf(loaded.messages.at(-1))).toBe(
    `[hey: the user's /reload changed the skills; as of this message these lines update the skills list in the system prompt:\n+ skill greet: Greet the user. Use it for greetings. (${join(repo, ".hey", "skills", "greet", "SKILL.md")})]`,
  );
  expect(reloadNoteOf(loaded)).toBeUndefined(); // the skill's line is the kept note's, not said twice
  await say(term, "and now?", "ok");
  expect(reloadNoteOf(model.requests.at(-1)!)).toBeUndefined();
  // a new session in place keeps what /trust and /reload loaded
  await say(term, "/clear", "new session");
  await say(term, "hello again", "ok");
  expect(systemOf(model.requests.at(-1)!)).toContain(`- greet: Greet the user. Use it for greetings.`);
  expect(systemOf(model.requests.at(-1)!)).toContain(`as a skill: ${join(repo, ".hey", "skills")}/<name>/SKILL.md`); // trusted now, for every run
  const trust = JSON.parse(readFileSync(join(home.path, ".config", "hey", "trust.json"), "utf8")) as { projects: Record<string, { trusted: boolean }> };
  expect(trust.projects[repo]?.trusted).toBe(true);
  // /untrust: what is loaded stays until /reload, and /mcp says so
  await say(term, "/untrust", "is not trusted now");
  await say(term, "/mcp", "loaded until then");
  expect(await flat(term)).toContain("this project is no longer trusted: /reload leaves out its .hey/skills/, loaded until then");
  await say(term, "/reload", "- skill greet");
  const trusted = systemOf(model.requests.at(-1)!);
  await say(term, "bye", "ok");
  expect(systemOf(model.requests.at(-1)!)).toBe(trusted);
  expect(textOf(model.requests.at(-1)!.messages.at(-1))).toContain(
    "[hey: this project is not trusted now: its .hey/config.toml, .mcp.json and skills in .hey/, .claude/ or .agents/ do not load; skills go in ~/.config/hey/skills/, MCP servers in ~/.config/hey/config.toml]",
  );
  await say(term, "/mcp", "it is not trusted");
  await say(term, "/quit", "[exit 0]");
});

test("/reload as a diff: a broken skill beside a good one, an unchanged server keeps its process, a changed one that fails leaves the old one serving", async () => {
  const logs = join(home.path, "logs");
  mkdirSync(logs);
  const fake = (name: string, ...mode: string[]) =>
    `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = [${[FAKE_SERVER, ...mode].map((a) => JSON.stringify(a)).join(", ")}]\nenv = { FAKE_LOG = ${JSON.stringify(join(logs, `${name}.log`))} }\n`;
  const pids = (name: string) =>
    readFileSync(join(logs, `${name}.log`), "utf8")
      .trim()
      .split("\n")
      .map((l) => Number(l.split(" ").at(-1)));
  const model = startModelServer((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `answer: ${textOf(last).split("\n")[0]}` };
    return lastUserText(req) === "query it" ? { calls: [["query", { text: "x" }]] } : { text: "ok" };
  });
  servers.push(model);
  userConfig(model.baseUrl, fake("keep", "ok", "keep", "ping") + fake("db", "ok", "old", "query"));

  const term = await openRepl(home.path);
  await term.waitFor((s) => s.includes("connected: keep") && s.includes("connected: db"));
  const [keepPid] = pids("keep");
  const [oldDb] = pids("db");
  await say(term, "hi", "ok"); // a session the model answered: the approvals record exists, and /reload weighs changes against it

  const skills = join(home.path, ".config", "hey", "skills");
  write(join(skills, "good", "SKILL.md"), "---\nname: good\ndescription: A good skill.\n---\nDo good.\n");
  write(join(skills, "bad", "SKILL.md"), "---\nname: bad\ndescription: Broken: here\n---\nx\n");
  writeFileSync(configFile(), readFileSync(configFile(), "utf8").replace('"ok", "old", "query"', '"exit-on-init"'));

  await term.type("/reload");
  await term.keys("Enter");
  await term.waitFor("Use this change? (y/N)"); // the changed server is asked about (issue 24), then started beside the old one
  await term.type("y");
  await term.keys("Enter");
  await term.waitFor("~ mcp server db (not started: the old one keeps serving)", { scrollback: true, joined: true, timeoutMs: 40_000 });
  const screen = await flat(term);
  expect(screen).toContain("+ skill good");
  expect(screen).not.toContain("+ skill bad");
  const bad = join(skills, "bad", "SKILL.md");
  expect(screen).toContain(
    `hey: ${bad}:3: broken YAML frontmatter: Unexpected token; the value of description holds ": ", so quote it: description: "Broken: here"; left out`,
  );
  expect(screen).toContain("hey: MCP server db: its changed table did not start (it exited with code 3 before it was ready");
  expect(screen).not.toContain("/reload changed nothing");

  expect(pids("keep")).toEqual([keepPid!]); // the unchanged server was not started again
  expect(alive(keepPid!)).toBe(true);
  await until(() => pids("db").length === 2, "the changed table's start");
  expect(alive(oldDb!)).toBe(true);

  await say(term, "query it", "answer: old: x"); // the old server still serves
  const asked = model.requests.find((r) => lastUserText(r) === "query it")!; // the turn's first request; the one after the call carries nothing
  const note = reloadNoteOf(asked) ?? "";
  expect(reloadNoteOf(model.requests.at(-1)!)).toBeUndefined();
  expect(note).toStartWith("[hey: the user ran /reload:\n~ mcp server db (not started: the old one keeps serving)\n");
  expect(skillsNoteOf(asked.messages.at(-1))).toContain("\n+ skill good: A good skill. (.config/hey/skills/good/SKILL.md)]"); // hey runs in the home directory here
  expect(note).toContain(
    `\nwarning: ${bad}:3: broken YAML frontmatter: Unexpected token; the value of description holds ": ", so quote it: description: "Broken: here"; left out`,
  );
  expect(note).toContain("\nwarning: MCP server db: its changed table did not start (it exited with code 3 before it was ready");
  expect(systemOf(model.requests.at(-1)!)).toBe(systemOf(model.requests[0]!)); // the skill is the note's: the prompt, and the cache, as they were

  // a change declined at the question: the approved server — the one running — goes on as it is
  writeFileSync(configFile(), readFileSync(configFile(), "utf8").replace('"ok", "keep", "ping"', '"ok", "other", "ping"'));
  await term.type("/reload");
  await term.keys("Enter");
  // the one change asked about, wrapped where the checkout's path puts the breaks
  await term.waitFor(/~ \[mcp\.keep\](?:(?!\[mcp\.)[\s\S])*?Use this change\? \(y\/N\)\s*$/, { joined: true });
  await term.type("n");
  await term.keys("Enter");
  // the notice is wrapped at spaces where the terminal's width and the paths in it put the breaks
  await term.waitFor(
    /not used, not approved: ~ \[mcp\.keep\][\s\S]*?the\s+rest\s+of\s+the\s+file\s+is\s+used[^\n]*\n(?:hey: MCP server db[^\n]*\n[^\n]*\n)?reloaded:/,
    {
      scrollback: true,
      joined: true,
    },
  );
  expect((await term.screen(ALL)).split("› /reload").at(-1)).not.toContain("mcp server keep");
  expect(pids("keep")).toEqual([keepPid!]);
  expect(alive(keepPid!)).toBe(true);
  await say(term, "/quit", "[exit 0]");
});

test("a server /reload added that then fails, or is still starting, is in the note the model reads, as the user saw it", async () => {
  const model = startModelServer(() => ({ text: "ok" }));
  servers.push(model);
  const server = (name: string, ...mode: string[]) =>
    `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = [${[FAKE_SERVER, ...mode].map((a) => JSON.stringify(a)).join(", ")}]\n`;
  userConfig(model.baseUrl);
  await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  const term = await openRepl(home.path);
  await term.waitFor("›");
  writeFileSync(configFile(), readFileSync(configFile(), "utf8") + server("dies", "exit-on-init") + server("slow", "slow-start", "60000"));
  await term.type("/reload");
  await term.keys("Enter");
  await term.waitFor("Use these changes? (y/N)");
  await term.type("y");
  await term.keys("Enter");
  await term.waitFor("hey: MCP server dies failed, its tools are left out: it exited with code 3 before it was ready", ALL);
  await term.waitFor((s) => lastLine(s) === "›"); // the reload done: a line typed before would wait as type-ahead
  await say(term, "is it there", "ok");
  const note = reloadNoteOf(model.requests.at(-1)!) ?? "";
  // before: "+ mcp server dies" and "+ mcp server slow" alone, as if both served
  expect(note).toContain(
    "\nwarning: MCP server dies did not start: it exited with code 3 before it was ready (its stderr: fatal: cannot open the database at /nope); its tools are left out until its table is fixed and the user runs /reload",
  );
  expect(note).toContain("\nwarning: MCP server slow is still starting; its tools join the list when it is ready");
  await say(term, "/quit", "[exit 0]");
});

test("a server from start-up still starting is named on the request that carries a /reload note, once, beside the server the reload started", async () => {
  const model = startModelServer(() => ({ text: "ok" }));
  servers.push(model);
  const server = (name: string) => `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "slow-start", "60000"]\n`;
  userConfig(model.baseUrl, "\n[mcp]\nstartup_wait_ms = 0\n" + server("early"));
  await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  const term = await openRepl(home.path);
  await term.waitFor("›");
  writeFileSync(configFile(), readFileSync(configFile(), "utf8") + server("late"));
  await term.type("/reload");
  await term.keys("Enter");
  await term.waitFor("Use this change? (y/N)");
  await term.type("y");
  await term.keys("Enter");
  // the reload done, its prompt back: a line typed while it runs waits as type-ahead, its Enter a newline (never sent)
  await term.waitFor((s) => s.includes("+ mcp server late") && lastLine(s) === "›");
  await say(term, "what tools", "ok");
  const text = textOf(model.requests.at(-1)!.messages.at(-1));
  expect(reloadNoteOf(model.requests.at(-1)!)).toContain("\nwarning: MCP server late is still starting; its tools join the list when it is ready");
  // before: the reload note alone — early, still starting since start-up, went unnamed, and the model took its tools for missing
  expect(text).toEndWith("]\n[hey: MCP server early is still starting: its tools join the list when ready (a call to one by name waits for it)]");
  await say(term, "/quit", "[exit 0]");
});

test("a skill and an .mcp.json the agent wrote where hey runs, below the project root, are named at /reload as never read, with where they go", async () => {
  const repo = join(realpathSync(projects.path), "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  const here = join(repo, "web", "src");
  mkdirSync(here, { recursive: true });
  const model = startModelServer(() => ({ text: "ok" }));
  servers.push(model);
  userConfig(model.baseUrl);
  const term = await openRepl(here);
  await term.waitFor(/^›/m);
  // written relative to where hey runs, as a model used to Claude Code would
  write(join(here, ".hey", "skills", "lost", "SKILL.md"), "---\nname: lost\ndescription: In the wrong place.\n---\nx\n");
  write(join(repo, "web", ".mcp.json"), '{"mcpServers": {}}\n');
  await say(term, "/reload", "reloaded: nothing changed");
  const said = `not read: ${join(here, ".hey", "skills")}/ and ${join(repo, "web", ".mcp.json")}: hey reads a project's skills, .hey/config.toml and .mcp.json at its root, ${repo}; move them there (a .hey/ there would make its folder the project at the next start)`;
  expect(await flat(term)).toContain(`hey: ${said}`); // before: "reloaded: nothing changed" alone
  await say(term, "hi", "ok");
  expect(reloadNoteOf(model.requests.at(-1)!)).toBe(`[hey: the user ran /reload; nothing changed\nwarning: ${said}]`);
  await say(term, "/quit", "[exit 0]");
});

test("a package's .mcp.json and skills below the project root at start: the REPL names them before the prompt, and /mcp names the server file", async () => {
  const repo = join(realpathSync(projects.path), "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  const here = join(repo, "web", "src");
  mkdirSync(here, { recursive: true });
  write(join(repo, "web", ".mcp.json"), JSON.stringify({ mcpServers: { web: { command: BUN, args: [FAKE_SERVER, "ok", "web", "web_tool"] } } }));
  write(join(repo, "web", ".agents", "skills", "w", "SKILL.md"), "---\nname: w\ndescription: The package's skill.\n---\nx\n");
  const model = startModelServer(() => ({ text: "ok" }));
  servers.push(model);
  userConfig(model.baseUrl);
  const term = await openRepl(here);
  await term.waitFor(/^›/m);
  const where = `hey reads a project's skills, .hey/config.toml and .mcp.json at its root, ${repo}; move them there`;
  expect(await flat(term)).toContain(`hey: not read: ${join(repo, "web", ".mcp.json")} and ${join(repo, "web", ".agents", "skills")}/: ${where}`);
  await say(term, "/mcp", `not read: ${join(repo, "web", ".mcp.json")}: ${where}`);
  await say(term, "/quit", "[exit 0]");
});

test("/reload with deferred MCP tools: one that changes nothing tells the model nothing, each request extending the one before byte for byte; one that adds a server says that alone", async () => {
  const model = startModelServer((req) => {
    const last = req.messages.at(-1);
    return textOf(last) === "load beta" && last?.role === "user" ? { calls: [["find_tools", { names: ["beta"] }]] } : { text: "ok" };
  });
  servers.push(model);
  const server = (name: string, tools: string) =>
    `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = [${[FAKE_SERVER, "ok", name, tools].map((a) => JSON.stringify(a)).join(", ")}]\n`;
  userConfig(model.baseUrl, `\n[mcp]\ndefer_tools = "always"\n${server("a", "alpha,beta,gamma")}`);
  await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  const term = await openRepl(home.path);
  await term.waitFor("›");
  await say(term, "load beta", "ok");
  const loaded = model.requests.length;
  expect(model.requests.at(-1)!.tools?.map((t) => t.function.name)).toContain("beta");
  await say(term, "/reload", "reloaded: nothing changed");
  await say(term, "second", "ok");
  await say(term, "third", "ok");
  const [second, third] = model.requests.slice(loaded);
  // before: "[hey: the user ran /reload:\n+ tools find_tools\n- tools alpha, beta, gamma]" on "second", gone from it in the next request
  expect(reloadNoteOf(second!)).toBeUndefined();
  expect(lastUserText(second!)).toBe(textOf(second!.messages.at(-1)));
  // the provider's cached prefix holds: the request after repeats the one before, message for message
  expect(JSON.stringify(third!.messages.slice(0, second!.messages.length))).toBe(JSON.stringify(second!.messages));
  expect(JSON.stringify(third!.tools)).toBe(JSON.stringify(second!.tools));

  // a real change is said, and only it: b's tools wait behind find_tools, as a's do
  writeFileSync(configFile(), readFileSync(configFile(), "utf8") + server("b", "delta"));
  await term.type("/reload");
  await term.keys("Enter");
  await term.waitFor("Use this change? (y/N)");
  await term.type("y");
  await term.keys("Enter");
  await term.waitFor((screen) => screen.includes("+ mcp server b") && lastLine(screen) === "›");
  await say(term, "fourth", "ok");
  expect(reloadNoteOf(model.requests.at(-1)!)).toBe("[hey: the user ran /reload:\n+ mcp server b]"); // before: with "+ tools find_tools\n- tools alpha, gamma"
  await say(term, "/quit", "[exit 0]");
});

test("/reload that changes nothing, without MCP: no note, and the next requests repeat the ones before byte for byte", async () => {
  const model = startModelServer(() => ({ text: "ok" }));
  servers.push(model);
  userConfig(model.baseUrl);
  const term = await openRepl(home.path);
  await term.waitFor("›");
  await say(term, "first", "ok");
  await say(term, "/reload", "reloaded: nothing changed");
  await say(term, "second", "ok");
  await say(term, "third", "ok");
  const [first, second, third] = model.requests.slice(-3) as [ChatRequest, ChatRequest, ChatRequest];
  expect(reloadNoteOf(second)).toBeUndefined(); // before: "[hey: the user ran /reload; nothing changed]", then gone from "second" in the next request
  /** whether `after` starts with `before`'s messages, byte for byte: the provider's cached prefix holds */
  const repeats = (before: ChatRequest, after: ChatRequest) =>
    JSON.stringify(after.messages.slice(0, before.messages.length)) === JSON.stringify(before.messages);
  expect([repeats(first, second), repeats(second, third)]).toEqual([true, true]);
  await say(term, "/quit", "[exit 0]");
});

test("/reload turning [mcp] defer_tools on: said on the screen with its cost, and the next request defers the tools never called (before: 'nothing changed', every schema plus an empty find_tools)", async () => {
  const model = startModelServer((req) => {
    const last = req.messages.at(-1);
    if (last?.role === "tool") return { text: "ok" };
    return textOf(last) === "call alpha" ? { calls: [["alpha", { text: "hi" }]] } : { text: "ok" };
  });
  servers.push(model);
  const server = `\n[mcp.a]\ncommand = ${JSON.stringify(BUN)}\nargs = [${[FAKE_SERVER, "ok", "a", "alpha,beta,gamma"].map((a) => JSON.stringify(a)).join(", ")}]\n`;
  userConfig(model.baseUrl, server);
  await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  const term = await openRepl(home.path);
  await term.waitFor("›");
  await say(term, "call alpha", "ok");
  const OWN = ["bash", "read_file", "write_file", "edit", "grep", "compress"];
  const mcpTools = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name).filter((n) => !OWN.includes(n));
  expect(mcpTools(model.requests.at(-1)!)).toEqual(["alpha", "beta", "gamma"]);
  writeFileSync(configFile(), `${readFileSync(configFile(), "utf8")}\n[mcp]\ndefer_tools = "always"\n`);
  await say(
    term,
    "/reload",
    "~ [mcp] defer_tools auto → always (from the next request, MCP tools not called yet wait behind find_tools; the provider's prompt cache breaks once)",
  );
  await say(term, "next", "ok");
  const next = model.requests.at(-1)!;
  expect(mcpTools(next)).toEqual(["find_tools", "alpha"]);
  expect(reloadNoteOf(next)).toBe(
    "[hey: the user ran /reload:\n~ [mcp] defer_tools auto → always (from the next request, MCP tools not called yet wait behind find_tools; the provider's prompt cache breaks once)\n+ tools find_tools\n~ tools left to find_tools (a call by name still runs one): beta, gamma]",
  );
  await say(term, "/quit", "[exit 0]");
});

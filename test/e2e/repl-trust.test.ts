// Trust in the REPL never runs an MCP server the agent wrote without the user's yes naming it, nor
// asks twice about one they approved (README "Trust"), in a real terminal (tmux) through dist/hey:
// `/trust` lists the servers the project's files would start and asks before it records anything;
// a project that had nothing to trust at start and grew in the session keeps the trust its
// `/reload` used, so the next start asks only about a server added since.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { lastUserText, startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";
import { ALL, flat, lastLine, say } from "./repl-helpers.ts";

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
const trustFile = () => join(home.path, ".config", "hey", "trust.json");
/** each start of a server the agent wrote appends a line here */
const log = (name: string) => join(home.path, `${name}.log`);
const starts = (name: string) => (existsSync(log(name)) ? readFileSync(log(name), "utf8").split("\n").filter(Boolean).length : 0);

/** A `.mcp.json` as the agent writes it: each server our fake MCP server, logging its starts. */
const mcpJson = (...names: string[]) =>
  JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, { command: BUN, args: [FAKE_SERVER, "ok"], env: { FAKE_LOG: log(n) } }])) }, null, 2);
const SKILL = "---\nname: greet\ndescription: Greet the user. Use it for greetings.\n---\nSay ahoy.\n";

/** A model that writes a skill and an MCP server into the project when asked, and a second server later. */
function agentModel(): ModelServer {
  const model = startModelServer((req) => {
    if (req.messages.at(-1)!.role === "tool") return { text: "Done writing." };
    const asked = lastUserText(req);
    if (/skill and a server/.test(asked))
      return {
        calls: [
          ["write_file", { path: ".hey/skills/greet/SKILL.md", content: SKILL }],
          ["write_file", { path: ".mcp.json", content: mcpJson("sneaky") }],
        ],
      };
    if (/another server/.test(asked))
      return {
        calls: [
          ["read_file", { path: ".mcp.json" }], // a later run's: write_file overwrites only a file read in it
          ["write_file", { path: ".mcp.json", content: mcpJson("sneaky", "other") }],
        ],
      };
    return { text: asked.includes("Say ahoy.") ? "Ahoy, as the skill says." : "ok" };
  });
  servers.push(model);
  write(join(home.path, ".config", "hey", "config.toml"), `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\n`);
  return model;
}

/** A git project (its root), with the files `more` writes into it. */
function project(more: (root: string) => void = () => {}): string {
  const root = join(realpathSync(projects.path), "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  more(root);
  return root;
}

/** hey at its prompt, or at a question before it, in `cwd`. */
async function start(cwd: string): Promise<Term> {
  const term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  terminals.push(term);
  await term.waitFor((s) => lastLine(s) === "›" || s.includes("(y/N)"));
  return term;
}

async function answer(term: Term, typed: string, then: string): Promise<void> {
  if (typed) await term.type(typed);
  await term.keys("Enter");
  await term.waitFor((s) => s.replace(/\s+/g, " ").includes(then), ALL);
}

test("/trust lists the MCP server the agent wrote and asks first: no records nothing and starts nothing, yes approves it and /reload starts it", async () => {
  agentModel();
  const root = project((r) => write(join(r, ".hey", "skills", "hello", "SKILL.md"), "---\nname: hello\ndescription: Say hello.\n---\nHello.\n"));
  const term = await start(root);
  await answer(term, "", "not trusted for this session only"); // Enter at the start's question
  await say(term, "write a skill and a server", "Done writing.");
  expect(JSON.parse(readFileSync(join(root, ".mcp.json"), "utf8")).mcpServers.sneaky.command).toBe(BUN);

  // what trusting would run is shown before anything is recorded
  const asked = await say(term, "/trust", "Trust this project? (y/N)");
  expect(asked.replace(/\s+/g, " ")).toContain(`${root} has .mcp.json and .hey/skills/`);
  expect(asked.replace(/\s+/g, " ")).toContain(`Trusted, it would: run MCP server sneaky: ${BUN} ${FAKE_SERVER} ok; env FAKE_LOG`);
  await answer(term, "n", `${root} is not trusted: nothing recorded (/trust asks again)`);
  expect(existsSync(trustFile())).toBe(false);
  await say(term, "/reload", "reloaded: nothing changed");
  expect(await flat(term)).toContain("hey: not loaded: .mcp.json and .hey/skills/ (this project is not trusted");

  await say(term, "/trust", "Trust this project? (y/N)");
  await answer(term, "y", `${root} is trusted now (recorded in ${trustFile()}): /reload loads its .mcp.json and .hey/skills/.`);
  const reloaded = await say(term, "/reload", "+ mcp server sneaky");
  expect(reloaded).not.toContain("would give the agent more"); // the yes named it: not asked again
  await until(() => starts("sneaky") === 1, "the approved server to start");
  await say(term, "/quit", "[exit 0]");
});

test("a project that grew in its first session: the agent's server is asked about once, at /reload; the next start asks nothing about it, and only about a server added since", async () => {
  agentModel();
  const root = project();
  const first = await start(root);
  expect(await first.screen(ALL)).not.toContain("Trust this project");
  await say(first, "write a skill and a server", "Done writing.");
  const asked = await say(first, "/reload", "Use this change? (y/N)");
  expect(asked.replace(/\s+/g, " ")).toContain(`${root}/.mcp.json would give the agent more than you approved: + [mcp.sneaky] ${BUN} ${FAKE_SERVER} ok`);
  await answer(first, "y", "+ mcp server sneaky");
  expect(await flat(first)).toContain(
    `${root} is trusted now (recorded in ${trustFile()}): this /reload loaded its .mcp.json and .hey/skills/, which appeared in this session, and the next start loads them too`,
  );
  await until(() => starts("sneaky") === 1, "the approved server to start");
  await say(first, "/quit", "[exit 0]");

  // the next start: no question, the skill and the approved server load
  const second = await start(root);
  expect(await second.screen(ALL)).not.toContain("(y/N)");
  await until(() => starts("sneaky") === 2, "the server to start again");
  await say(second, "/skill:greet", "Ahoy, as the skill says."); // loaded: its instructions go to the model
  await say(second, "add another server", "Done writing.");
  await say(second, "/quit", "[exit 0]");

  // a server added since is asked about, and only it; no trust question
  const third = await start(root);
  await third.waitFor("Use this change? (y/N)");
  const screen = await flat(third);
  expect(screen).toContain(`${root}/.mcp.json would give the agent more than you approved: + [mcp.other] ${BUN} ${FAKE_SERVER} ok`);
  expect(screen).not.toContain("[mcp.sneaky]");
  expect(screen).not.toContain("Trust this project");
  await answer(third, "n", "not used, not approved");
  await until(() => starts("sneaky") === 3, "the approved server to start");
  expect(starts("other")).toBe(0);
  await say(third, "/quit", "[exit 0]");
});

// The keys people reach for (issue 28), through dist/hey in tmux against a local mock model:
// Ctrl-R searches the history, Ctrl-Z suspends to the shell and `fg` brings the line back, an
// unknown /word names the command it probably meant, and the history is kept per project root
// with the global file read where a project's runs out.
import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import type { Term } from "../helpers/tmux.ts";
import { answer, say, lastLine, replTerms, askedOf } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open, start } = replTerms(server);
/** the user message of each request the model got */
const asked = askedOf(server);

test(
  "Ctrl-R finds an earlier line as you type, Ctrl-R again an older one, Enter sends it; Esc gives the line back",
  async () => {
    const t = await open();
    server.enqueue(answer("one"), answer("two"), answer("three"));
    await say(t, "deploy the staging branch", "one");
    await say(t, "run the unit tests", "two");
    await t.type("draft");
    await t.keys("C-r");
    await t.type("st");
    await t.waitFor((s) => lastLine(s) === "(reverse-i-search)'st': run the unit tests");
    await t.keys("C-r");
    await t.waitFor((s) => lastLine(s) === "(reverse-i-search)'st': deploy the staging branch");
    await t.keys("Escape");
    await t.waitFor((s) => lastLine(s) === "› draft");
    await t.keys("C-u", "C-r");
    await t.type("unit");
    await t.waitFor((s) => lastLine(s) === "(reverse-i-search)'unit': run the unit tests");
    await t.keys("Enter");
    // the line sent stays on screen as a typed one does, the search gone
    const screen = await t.waitFor("three");
    expect(screen).not.toContain("reverse-i-search");
    expect(screen).toMatch(/^› run the unit tests\nthree$/m);
    expect(asked().at(-1)).toBe("run the unit tests");
  },
  E2E_TIMEOUT,
);

test(
  "a line longer than the terminal, sent with the cursor at its start, stays whole above the answer",
  async () => {
    const t = await open();
    server.enqueue(answer("Got it."));
    const line = `${"word ".repeat(25)}end`; // two rows at 80 columns
    await t.type(line);
    await t.keys("Home", "Enter");
    const screen = await t.waitFor("Got it.", { joined: true });
    expect(screen).toContain(`› ${line}\nGot it.`);
    expect(asked().at(-1)).toBe(line);
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-Z stops hey with the terminal given back to the shell; fg draws the line again and it goes on",
  async () => {
    const term = await start({
      args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"],
      jobControl: true,
      before: 'stty -a > "$HOME/stty-before"',
      after: 'stty -a > "$HOME/stty-after"',
    });
    const t = term;
    await t.waitFor((s) => lastLine(s) === "›");
    await t.type("half a line");
    await t.keys("C-z");
    await t.waitFor(/Stopped/);
    // the shell has the terminal: it runs a command as usual
    await t.type("echo shell-here");
    await t.keys("Enter");
    await t.waitFor(/^shell-here$/m);
    await t.type("fg");
    await t.keys("Enter");
    await t.waitFor((s) => lastLine(s) === "› half a line");
    server.enqueue(answer("Resumed fine."));
    await t.type(" and the rest");
    await t.keys("Enter");
    await t.waitFor("Resumed fine.");
    expect(asked().at(-1)).toBe("half a line and the rest");
    await t.keys("C-d");
    await t.waitFor(/^\[exit 0\]$/m);
    expect(readFileSync(join(t.home, "stty-after"), "utf8")).toBe(readFileSync(join(t.home, "stty-before"), "utf8"));
  },
  E2E_TIMEOUT,
);

test(
  "an unknown /word says which command it probably meant, and nothing is sent",
  async () => {
    const t = await open();
    const before = server.requests.length;
    await t.type("/modle");
    await t.keys("Enter");
    await t.waitFor("hey: unknown command /modle; did you mean /model? (/help lists the commands)");
    await t.type("/frobnicate");
    await t.keys("Enter");
    await t.waitFor("hey: unknown command /frobnicate (/help lists the commands)");
    expect(server.requests.length).toBe(before);
  },
  E2E_TIMEOUT,
);

const crashState = fileTempDir("hey-history-crash-"); // made at the file's level: its removal is registered with the file's hooks
test(
  "a history file a crash left with NUL bytes at its end and a torn last line: ↑ shows the lines, the next one goes on a line of its own",
  async () => {
    const stateHome = crashState.path;
    mkdirSync(join(stateHome, "hey"), { recursive: true });
    writeFileSync(join(stateHome, "hey", "history"), "git status\nnpm te\n\0\0\0\0\0\0\0\0");
    const t = await open({ env: { XDG_STATE_HOME: stateHome } });
    await t.keys("Up");
    await t.waitFor((s) => lastLine(s) === "› npm te");
    await t.keys("Up");
    await t.waitFor((s) => lastLine(s) === "› git status");
    await t.keys("C-u");
    server.enqueue(answer("ok"));
    await say(t, "ls -la", "ok");
    expect(readFileSync(join(stateHome, "hey", "history"), "utf8")).toBe("git status\nnpm te\n\0\0\0\0\0\0\0\0\nls -la\n");
  },
  E2E_TIMEOUT,
);

const state = fileTempDir("hey-history-");
const projectsDir = fileTempDir("hey-projects-");
test(
  "history is kept per project root: ↑ walks this project's lines first, then what other projects ran",
  async () => {
    const projects = projectsDir.path;
    const alpha = join(projects, "alpha");
    const beta = join(projects, "beta");
    mkdirSync(join(alpha, ".git"), { recursive: true });
    mkdirSync(join(alpha, "src"), { recursive: true });
    mkdirSync(beta, { recursive: true });
    const env = { XDG_STATE_HOME: state.path };
    const session = async (cwd: string, run: (t: Term) => Promise<void>) => {
      const t = await open({ cwd, env });
      await run(t);
      await t.keys("C-u", "C-d");
      await t.waitFor("[exit 0]");
      await t.close(); // closed again after the test: a no-op
    };
    server.enqueue(answer("a1"), answer("b1"));
    await session(join(alpha, "src"), (t) => say(t, "alpha task", "a1").then(() => {})); // in a subdirectory: alpha is the root
    await session(beta, async (t) => {
      await t.keys("Up"); // beta has no lines of its own yet: the global file's
      await t.waitFor((s) => lastLine(s) === "› alpha task");
      await t.keys("C-u");
      await say(t, "beta task", "b1");
    });
    await session(alpha, async (t) => {
      await t.keys("Up");
      await t.waitFor((s) => lastLine(s) === "› alpha task");
      await t.keys("Up");
      await t.waitFor((s) => lastLine(s) === "› beta task");
    });
    const files = readdirSync(join(state.path, "hey", "histories"));
    expect(files.sort()).toEqual([expect.stringContaining("alpha-"), expect.stringContaining("beta-")]);
    const alphaFile = readFileSync(join(state.path, "hey", "histories", files.find((f) => f.includes("alpha-"))!), "utf8");
    expect(alphaFile).toBe("alpha task\n");
    expect(readFileSync(join(state.path, "hey", "history"), "utf8")).toBe("alpha task\nbeta task\n");
  },
  E2E_TIMEOUT,
);

const secretState = fileTempDir("hey-history-secret-");
test(
  "a key hey knows, typed in a prompt, is not written to the history files: they hold [redacted], as the session does",
  async () => {
    const key = "sk-history-0123456789abcdefghij";
    const t = await open({ env: { XDG_STATE_HOME: secretState.path, HEY_API_KEY: key } });
    server.enqueue(answer("noted"));
    await say(t, `use key ${key} for the deploy`, "noted");
    await t.keys("C-u", "C-d");
    await t.waitFor("[exit 0]");
    const global = readFileSync(join(secretState.path, "hey", "history"), "utf8");
    expect(global).toBe("use key [redacted] for the deploy\n");
    const [project] = readdirSync(join(secretState.path, "hey", "histories"));
    expect(readFileSync(join(secretState.path, "hey", "histories", project!), "utf8")).toBe(global);
  },
  E2E_TIMEOUT,
);

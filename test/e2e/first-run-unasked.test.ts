// A user's first run at a terminal says, once, that hey runs tool calls without asking and where to
// limit them (README "Permissions"): a newcomer from Claude Code or Codex, which ask, would not know.
// A script's run (stderr not a terminal: a fresh CI machine has a new HOME every time) does not.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const model = startModelServer(() => ({ text: "ok" }));
const home = tempDir("hey-home-");
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
});
process.on("exit", () => {
  model.stop();
  home.remove();
});

const LINE =
  'hey: the agent\'s tool calls (edits, shell commands) run without asking; to limit them, set [permission] allow/deny in ~/.config/hey/config.toml (README "Permissions")';

/** `hey -p hi` at a terminal with the shared HOME: the screen once it exited, lines the terminal wrapped joined. */
async function atTerminal(): Promise<string> {
  await term?.close();
  term = await startTerm({ cols: 200, env: { HOME: home.path }, args: ["--base-url", model.baseUrl, "-m", "m", "-p", "hi"] });
  return term.waitFor("[exit ", { joined: true });
}

test("the first run at a terminal says tool calls run unasked and how to limit them; the next does not", async () => {
  const first = await atTerminal();
  expect(first).toContain(LINE);
  expect(first).toContain("[exit 0]");
  const second = await atTerminal();
  expect(second).toContain("ok");
  expect(second).not.toContain("without asking");
});

test("a script's run (stderr not a terminal) and a user with [permission] lists are not told", async () => {
  const piped = tempDir("hey-home-");
  try {
    const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "hi"], { env: { HOME: piped.path } });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("without asking");
  } finally {
    piped.remove();
  }
  const listed = tempDir("hey-home-");
  try {
    mkdirSync(join(listed.path, ".config", "hey"), { recursive: true });
    writeFileSync(join(listed.path, ".config", "hey", "config.toml"), '[permission]\ndeny = ["bash: git push *"]\n');
    term = await startTerm({ cols: 200, env: { HOME: listed.path }, args: ["--base-url", model.baseUrl, "-m", "m", "-p", "hi"] });
    const screen = await term.waitFor("[exit ", { joined: true });
    expect(screen).toContain("ok");
    expect(screen).not.toContain("without asking");
  } finally {
    await term?.close();
    term = undefined;
    listed.remove();
  }
});

test("hey mcp and hey -p /help call no tools: they do not say it, and so do not use it up before a run that does", async () => {
  const fresh = tempDir("hey-home-");
  try {
    for (const args of [["mcp"], ["-p", "/help"]]) {
      await term?.close();
      term = await startTerm({ cols: 200, env: { HOME: fresh.path }, args: [...args, "--base-url", model.baseUrl, "-m", "m"] });
      const screen = await term.waitFor("[exit ", { joined: true });
      expect(screen).toContain("[exit 0]");
      expect(screen).not.toContain("without asking");
    }
    await term?.close();
    term = await startTerm({ cols: 200, env: { HOME: fresh.path }, args: ["--base-url", model.baseUrl, "-m", "m", "-p", "hi"] });
    expect(await term.waitFor("[exit ", { joined: true })).toContain(LINE);
  } finally {
    await term?.close();
    term = undefined;
    fresh.remove();
  }
});

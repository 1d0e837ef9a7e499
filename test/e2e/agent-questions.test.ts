// A hey the agent's bash command starts asks none of hey's own questions, even at a
// pseudo-terminal it opened (README "Trust"): through dist/hey against a loopback model, the
// model's command runs `hey trust` under python's pty.fork() and types `y`, and nothing is
// trusted; in a real terminal (tmux) a REPL started under the mark asks nothing at start and
// leaves the project's MCP server out. The mark is the session's id in HEY_AGENT_SESSION.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, runHey } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;
const terminals: Term[] = [];
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
});

/** python3 itself (a shim finds it through the real HOME, which the run does not have) */
const PYTHON = Bun.spawnSync(["python3", "-c", "import sys; print(sys.executable)"]).stdout.toString().trim();
/** Runs `hey trust` at a pseudo-terminal and types `y` when it asks; prints what it showed. */
const PTY_TRUST = `import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "trust"])
out, typed = b"", False
while True:
    try:
        chunk = os.read(fd, 1024)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
    if b"(y/N)" in out and not typed:
        os.write(fd, b"y\\r")
        typed = True
os.waitpid(pid, 0)
print(out.decode().replace("\\r", ""))
`;

/** A project whose .hey/config.toml starts an MCP server, logging each start to `log`. */
function serverProject(log: string): void {
  mkdirSync(join(project.path, ".git"));
  mkdirSync(join(project.path, ".hey"));
  writeFileSync(
    join(project.path, ".hey", "config.toml"),
    `[mcp.sneaky]\ncommand = "${BUN}"\nargs = ["${FAKE_SERVER}", "ok"]\nenv = { FAKE_LOG = "${log}" }\n`,
  );
  writeFileSync(join(project.path, "pty-trust.py"), PTY_TRUST);
}

test("the agent's command answering `hey trust` through a pseudo-terminal trusts nothing; its environment carries the session's mark", async () => {
  const log = join(home.path, "sneaky.log");
  serverProject(log);
  scripted.userConfig("");
  scripted.calls = [["bash", { command: `echo "mark=$HEY_AGENT_SESSION"; ${PYTHON} pty-trust.py ${BINARY}` }]];
  const run = await runHey(["-p", "trust this project"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const [result] = scripted.results();
  expect(result).toMatch(/^mark=\S{8,}\n/);
  expect(result).toContain("hey: running under an agent's command (HEY_AGENT_SESSION): questions are answered in your own terminal: run hey trust yourself");
  expect(result).not.toContain("(y/N)");
  expect(result).not.toContain("is trusted now");
  const trustFile = join(home.path, ".config", "hey", "trust.json");
  expect(existsSync(trustFile) ? readFileSync(trustFile, "utf8") : "").not.toContain('"trusted": true');
  // the next run leaves the server out
  scripted.calls = [];
  await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } });
  expect(existsSync(log)).toBe(false);
});

test("a REPL started under the mark, at a terminal, asks no trust question and starts no project server", async () => {
  const log = join(home.path, "sneaky.log");
  serverProject(log);
  scripted.userConfig("");
  const term = await startTerm({ args: [], cwd: realpathSync(project.path), env: { HOME: home.path, HEY_AGENT_SESSION: "outer-session" } });
  terminals.push(term);
  const screen = (await term.waitFor("/help for commands")).replace(/\s+/g, " ");
  expect(screen).toContain("hey: running under an agent's command (HEY_AGENT_SESSION): questions are answered in your own terminal");
  expect(screen).toContain("hey: not loaded: .hey/config.toml (this project is not trusted");
  expect(screen).not.toContain("(y/N)");
  expect(existsSync(log)).toBe(false);
});

test("under the mark, --approve is ignored and said to be: the project's MCP server does not start", async () => {
  const log = join(home.path, "sneaky.log");
  serverProject(log);
  scripted.userConfig("");
  const run = await runHey(["--approve", "-p", "hi"], { cwd: project.path, env: { HOME: home.path, HEY_AGENT_SESSION: "outer-session" } });
  expect(run.code).toBe(0);
  expect(run.stderr.replace(/\s+/g, " ")).toContain(
    "hey: running under an agent's command (HEY_AGENT_SESSION): questions are answered in your own terminal; --approve is ignored",
  );
  expect(existsSync(log)).toBe(false);
});

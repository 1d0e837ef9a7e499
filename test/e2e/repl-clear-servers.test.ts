// `/clear` and `/resume` keep the MCP servers running, in a real terminal (tmux) through dist/hey,
// as Claude Code's /clear does: a server's state (a browser's page, a database session) stays, and
// the next message does not wait for it to start again. Its tools answer in the new session, and
// /mcp shows it connected there.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { lastUserText, startModelServer, textOf, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { flat, say, writeSession } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-clear-servers-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

test("a server started once serves the session /clear begins and the one /resume picks: it is not started again", async () => {
  const cwd = realpathSync(home.path);
  const log = join(home.path, "starts.log");
  model = startModelServer((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `result: ${textOf(last).split("\n")[0]}` };
    return lastUserText(req) === "ask the server" ? { calls: [["echo", { text: "hi" }]] } : { text: "ok" };
  });
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n\n` +
      `[mcp.keep]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", "keep"])}\nenv = { FAKE_LOG = ${JSON.stringify(log)} }\n`,
  );
  const earlier = writeSession(join(home.path, ".local", "state"), cwd, "an earlier question", "an earlier answer");
  const starts = () => readFileSync(log, "utf8").trim().split("\n").length;

  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  const t = term;
  await say(t, "ask the server", "result: keep: hi");
  expect(starts()).toBe(1);

  await say(t, "/clear", "new session");
  await say(t, "ask the server", "result: keep: hi"); // the whole line: its last word is drawn when the stream ends
  await say(t, "/mcp", "keep: connected");

  await say(t, `/resume ${earlier}`, `resumed session ${earlier}`);
  await say(t, "ask the server", "result: keep: hi"); // the whole line: its last word is drawn when the stream ends
  expect(starts()).toBe(1);
  expect((await flat(t)).split("connected: keep").length - 1).toBe(1); // said when it started, not at each new session

  await say(t, "/quit", "[exit 0]");
});

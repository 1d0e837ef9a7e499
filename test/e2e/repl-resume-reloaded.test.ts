// `/resume` after a `/reload`, in a real terminal (tmux) through dist/hey: the resumed session runs
// under the configuration the reload loaded — a deny rule the user added still refuses its command,
// a server the user said yes to still runs — not under the one this hey started with.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { appendFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { lastUserText, startModelServer, textOf, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say, writeSession } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-resume-reloaded-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

test("a deny rule and a server that /reload loaded still hold in the session /resume picks", async () => {
  const cwd = realpathSync(home.path);
  const configFile = join(home.path, ".config", "hey", "config.toml");
  model = startModelServer((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `result: ${textOf(last).split("\n")[0]}` };
    const ask = lastUserText(req);
    if (ask === "run it") return { calls: [["bash", { command: "echo ran-it" }]] };
    if (ask === "ask the server") return { calls: [["echo", { text: "hi" }]] };
    return { text: "ok" };
  });
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(configFile, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`);
  const earlier = writeSession(join(home.path, ".local", "state"), cwd, "an earlier question", "an earlier answer");

  term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  const t = term;
  await say(t, "hello", "ok");
  appendFileSync(
    configFile,
    `\n[permission]\ndeny = ["bash: echo *"]\n\n[mcp.late]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", "late"])}\n`,
  );
  await say(t, "/reload", "Use this change? (y/N)");
  await t.type("y");
  await t.keys("Enter");
  await t.waitFor((s) => s.includes("connected: late") && s.trimEnd().endsWith("›"));
  await say(t, "run it", "result: blocked by permission rules");

  await say(t, `/resume ${earlier}`, `resumed session ${earlier}`);
  // the rule the reload added still refuses the command: it does not run
  await say(t, "run it", "result: blocked by permission rules"); // the whole line: its last word is drawn when the stream ends
  // the server the user said yes to is still there, its tool offered
  await say(t, "ask the server", "result: late: hi"); // the whole line: its last word is drawn when the stream ends
  const last = model.requests.at(-1)!;
  expect(last.tools?.map((x) => x.function.name)).toContain("echo");
});

// The effort the user chose stays with the conversation when the model changes: `/effort max`, then
// `/model` to Gemini 3 (thinkingLevel high, its highest) and to Claude (effort max); `/model` says
// the effort in force. `/effort low`, then `hey -c -m` another provider's model: that run, and the
// session's model entry, go on with low. `/model NAME` that two providers list says which it went to. dist/hey in tmux against a loopback replay server.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { fixture } from "../helpers/replay-server.ts";
import { startTerm } from "../helpers/tmux.ts";
import { answer, say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();
const home = fileTempDir("hey-effort-switch-");

type Body = { reasoning_effort?: string; output_config?: { effort?: string }; generationConfig?: { thinkingConfig?: { thinkingLevel?: string } } };
const last = () => server.requests.at(-1)!.body as Body;

test("/effort max, then /model gem/… and /model claude/…: each request goes at max as that model takes it; -c -m keeps /effort low", async () => {
  writeUserConfig(
    home.path,
    `[default]\nprovider = "local"\nmodel = "m"\n[provider.local]\nbase_url = "${server.url}/v1"\nmodels = ["m"]\n` +
      `[provider.gem]\nprotocol = "google"\nbase_url = "${server.url}/v1beta"\napi_key = "k-g"\nmodels = ["gemini-3-x"]\n` +
      `[provider.claude]\nprotocol = "anthropic"\nbase_url = "${server.url}"\napi_key = "k-c"\nmodels = ["claude-x"]\neffort = "medium"\n` +
      `[provider.spare]\nbase_url = "${server.url}/v1"\nmodels = ["m"]\n`,
  );
  const cwd = realpathSync(home.path);
  const term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  try {
    await say(term, "/effort max", "effort: max");
    await say(term, "/model gem/gemini-3-x", "model: gem/gemini-3-x · effort max");
    server.enqueue(fixture("gemini/text"));
    await say(term, "one", /\S+\n›/);
    expect(last().generationConfig?.thinkingConfig?.thinkingLevel).toBe("HIGH");
    await say(term, "/model claude/claude-x", "model: claude/claude-x · effort max"); // not claude's own default, medium
    server.enqueue(fixture("anthropic/text"));
    await say(term, "two", "Hello");
    expect(last().output_config?.effort).toBe("max");
    await say(term, "/effort low", "effort: low");
    // a name two providers list: which one it went to, and how to write the other
    await say(term, "/model m", "m is listed by local and spare; using local/m (write spare/m for the other)\nmodel: local/m · effort low");
    await say(term, "/quit", "[exit 0]");
  } finally {
    await term.close();
  }

  server.enqueue(answer("ok"));
  const run = await runHey(["-c", "-m", "spare/m", "-p", "three"], { cwd, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect(last().reasoning_effort).toBe("low");
  const dir = join(home.path, ".local", "state", "hey", "sessions");
  const entries = readFileSync(join(dir, readdirSync(dir)[0]!), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(entries.filter((e) => e.type === "model").at(-1)).toMatchObject({ provider: "spare", model: "m", effort: "low" });
});

test("started with -t high, /effort max stays max through a second /model and a /reload (-t held it at high again)", async () => {
  writeUserConfig(
    home.path,
    `[default]\nprovider = "local"\nmodel = "m"\n[provider.local]\nbase_url = "${server.url}/v1"\nmodels = ["m"]\n` +
      `[provider.spare]\nbase_url = "${server.url}/v1"\nmodels = ["n"]\n`,
  );
  const cwd = realpathSync(home.path);
  const term = await startTerm({ cwd, cols: 200, rows: 50, args: ["-t", "high"], env: { HOME: home.path, NO_COLOR: "1" } });
  try {
    await say(term, "/effort max", "effort: max");
    await say(term, "/model spare/n", "model: spare/n · effort max");
    await say(term, "/model local/m", "model: local/m · effort max");
    await say(term, "/reload", "reloaded");
    server.enqueue(answer("ok"));
    await say(term, "go", "ok");
    expect(last().reasoning_effort).toBe("max");
    await say(term, "/quit", "[exit 0]");
  } finally {
    await term.close();
  }
});

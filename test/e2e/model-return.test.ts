// What a model's refusals taught hey stays with that model through `/model` to another and back:
// an OpenAI-style gateway model that refuses `reasoning_effort`, and Claude 3.5 Haiku that takes no
// thinking, are each refused once, not on every return; `/model` back to the first says its effort
// is not sent (report x50, 3). dist/hey in tmux against a loopback replay server.
import { expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync } from "node:fs";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { fixture, jsonReply } from "../helpers/replay-server.ts";
import { startTerm } from "../helpers/tmux.ts";
import { answer, say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();
const home = fileTempDir("hey-model-return-");

type Body = { model: string; reasoning_effort?: string; thinking?: { type: string } };
const sent = (model: string) => server.requests.map((r) => r.body as Body).filter((b) => b.model === model);
const noEffort = () =>
  jsonReply(400, {
    error: {
      message: "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
      type: "invalid_request_error",
      param: "reasoning_effort",
      code: "unsupported_parameter",
    },
  });
const noThinking = () =>
  jsonReply(400, { type: "error", error: { type: "invalid_request_error", message: "'claude-3-5-haiku-x' does not support thinking." } });

test("/model away and back: a model refused an effort or thinking once is not sent it again, and /model says its effort is not sent", async () => {
  writeUserConfig(
    home.path,
    `[default]\nprovider = "gw"\nmodel = "good-model"\n[provider.gw]\nbase_url = "${server.url}/v1"\napi_key = "k-gw"\nmodels = ["good-model"]\n` +
      `[provider.claude]\nprotocol = "anthropic"\nbase_url = "${server.url}"\napi_key = "k-c"\nmodels = ["claude-3-5-haiku-x"]\n`,
  );
  const cwd = realpathSync(home.path);
  const term = await startTerm({ cwd, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  try {
    await say(term, "/effort high", "effort: high");
    server.enqueue(noEffort(), answer("gw answer one"));
    await say(term, "question with effort", "gw answer one");
    await say(term, "/model claude/claude-3-5-haiku-x", "model: claude/claude-3-5-haiku-x · effort high");
    server.enqueue(noThinking(), fixture("anthropic/text"));
    await say(term, "on haiku", "Hello");
    await say(term, "/model gw/good-model", "model: gw/good-model · effort high; this model takes no reasoning effort: none is sent from now on");
    server.enqueue(answer("gw answer two"));
    await say(term, "back on gw", "gw answer two");
    await say(term, "/model claude/claude-3-5-haiku-x", "model: claude/claude-3-5-haiku-x");
    server.enqueue(fixture("anthropic/text"));
    await say(term, "haiku again", "Hello");
    await say(term, "/quit", "[exit 0]");
  } finally {
    await term.close();
  }
  // each refused once, when first asked: the returns sent neither again (they were refused on every return)
  expect(sent("good-model").map((b) => b.reasoning_effort ?? "none")).toEqual(["high", "none", "none"]);
  expect(sent("claude-3-5-haiku-x").map((b) => b.thinking?.type ?? "none")).toEqual(["enabled", "none", "none"]);
});

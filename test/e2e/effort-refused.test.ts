// An effort level the model does not take (`--effort xhigh` or `max` on a model without it): the
// endpoint's 400 names the levels it takes, hey sends the nearest of them (the highest below the
// one asked for) for the rest of the run, and says so once. Refusals in the words endpoints use,
// cited in src/providers/effort.ts; replayed from a loopback server.
import { expect, setDefaultTimeout, test } from "bun:test";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { jsonReply } from "../helpers/replay-server.ts";
import { startTerm } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the REPL test may build dist/hey

const server = fileReplayServer();
const work = fileTempDir("hey-effort-");

/** Anthropic's words (anthropics/claude-code#81084) */
const ANTHROPIC_REFUSAL =
  "output_config.effort 'xhigh' is not supported when thinking is disabled on this model. Use effort 'high' or below, or enable thinking.";
const NOTICE = "this model does not take effort xhigh: high is sent instead";

test("Anthropic: output_config.effort xhigh refused → high, said once (before: the run failed with the 400)", async () => {
  const refusal = jsonReply(400, { type: "error", error: { type: "invalid_request_error", message: ANTHROPIC_REFUSAL } });
  const before = server.requests.length;
  server.enqueue(refusal, textReply("anthropic", "It says hello."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "-m", "m", "--effort", "xhigh", "-p", "what does a.txt say"], {
    cwd: work.path,
  });
  expect(run).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  const efforts = server.requests.slice(before).map((r) => (r.body as { output_config?: { effort: string } }).output_config?.effort);
  expect(efforts).toEqual(["xhigh", "high"]);
  expect(run.stderr.split("\n").filter((l) => l.includes(NOTICE))).toEqual([`hey: ${NOTICE}`]);
});

test("a context-length refusal after the effort was adapted still gets the request sent again, with the adapted effort", async () => {
  const before = server.requests.length;
  // the answer's limit is what overflows (a request hey cannot cut is no longer sent again unchanged): its max_tokens is lowered
  const overflow = "input length and `max_tokens` exceed context limit: 1500 + 32000 > 32768, decrease input length or `max_tokens` and try again";
  server.enqueue(
    jsonReply(400, { type: "error", error: { type: "invalid_request_error", message: ANTHROPIC_REFUSAL } }),
    jsonReply(400, { type: "error", error: { type: "invalid_request_error", message: overflow } }),
    textReply("anthropic", "It says hello."),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "-m", "m", "--effort", "xhigh", "-p", "what does a.txt say"], {
    cwd: work.path,
  });
  expect(run).toMatchObject({ code: 0, stdout: "It says hello.\n" });
  expect(server.requests.slice(before).map((r) => (r.body as { output_config?: { effort: string } }).output_config?.effort)).toEqual(["xhigh", "high", "high"]);
  expect(server.requests.slice(before).map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([32000, 32000, 32768 - 1500 - 656]);
});

test('chat completions: a gateway\'s `"xhigh" is not supported …; supported values: [low medium high]` → high, a notice event in JSON (before: no effort sent at all)', async () => {
  const refusal = jsonReply(400, {
    error: { message: 'reasoning_effort "xhigh" is not supported by model m; supported values: [low medium high]', code: "invalid_reasoning_effort" },
  });
  const before = server.requests.length;
  server.enqueue(refusal, textReply("openai", "Done."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--effort", "xhigh", "--output", "json", "-p", "go"], { cwd: work.path });
  expect(run.code).toBe(0);
  expect(server.requests.slice(before).map((r) => (r.body as { reasoning_effort?: string }).reasoning_effort)).toEqual(["xhigh", "high"]);
  expect(jsonEvents(run.stdout).filter((e) => e.type === "notice")).toEqual([{ type: "notice", message: NOTICE }]);
});

test("chat completions: -t max refused as OpenAI words it (`Invalid value: 'max'. Supported values are: …`, param reasoning_effort) → high, said once (before: exit 1)", async () => {
  const message = "Invalid value: 'max'. Supported values are: 'low', 'medium', and 'high'.";
  const refusal = jsonReply(400, { error: { message, type: "invalid_request_error", param: "reasoning_effort", code: "invalid_value" } });
  const before = server.requests.length;
  server.enqueue(refusal, textReply("openai", "Hi."));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "o3", "-t", "max", "-p", "hi"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "Hi.\n" });
  expect(server.requests.slice(before).map((r) => (r.body as { reasoning_effort?: string }).reasoning_effort)).toEqual(["max", "high"]);
  expect(run.stderr.split("\n").filter((l) => l.includes("effort"))).toEqual(["hey: this model does not take effort max: high is sent instead"]);
});

// OpenAI since gpt-5.4 (openai/openai-openapi#541, goose#11413): chat completions refuses effort with tools; Responses takes both
test('OPENAI_BASE_URL\'s chat completions refusing effort with tools: sent without it, and told where effort is taken (before: "this model takes no reasoning effort")', async () => {
  const message =
    "Function tools with reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.";
  const refusal = jsonReply(400, { error: { message, type: "invalid_request_error", param: "reasoning_effort", code: null } });
  const before = server.requests.length;
  server.enqueue(refusal, textReply("openai", "Hi."));
  const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${server.url}/v1` };
  const run = await runHey(["-t", "high", "-p", "hi"], { cwd: work.path, env });
  expect(run).toMatchObject({ code: 0, stdout: "Hi.\n" });
  expect(server.requests.slice(before).map((r) => (r.body as { reasoning_effort?: string }).reasoning_effort)).toEqual(["high", undefined]);
  expect(run.stderr.split("\n").filter((l) => l.includes("effort"))).toEqual([
    'hey: with tools, OpenAI takes reasoning effort only over Responses: set protocol = "responses" in [provider.openai]; until then no effort is sent',
  ]);
});

test("in the REPL, /effort after that refusal says the level and that none is sent, and why (before: `effort: high` alone)", async () => {
  const message =
    "Function tools with reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.";
  server.enqueue(jsonReply(400, { error: { message, type: "invalid_request_error", param: "reasoning_effort", code: null } }), textReply("openai", "Hi."));
  const env = { HOME: work.path, NO_COLOR: "1", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${server.url}/v1` };
  const term = await startTerm({ cwd: work.path, cols: 220, rows: 40, env });
  const unsent =
    '; with tools, OpenAI takes reasoning effort only over Responses: set protocol = "responses" in [provider.openai]; until then no effort is sent';
  try {
    await say(term, "/effort high", "effort: high\n");
    await say(term, "hi", "Hi.");
    await say(term, "/effort", `effort: high${unsent}`);
    await say(term, "/effort medium", `effort: medium${unsent}`);
    await say(term, "/quit", "[exit 0]");
  } finally {
    await term.close();
  }
});

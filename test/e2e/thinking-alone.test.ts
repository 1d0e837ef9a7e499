// A Claude reply of thinking alone — the end of a task after tool work, or a reply cut off by
// max_tokens while it still thought — is kept in the session (a first reply of it is retried, then
// taken as the answer); the requests after it, in
// the REPL or with `hey -c`, must still be ones the Messages API takes. The API refuses an assistant
// turn whose last block is thinking and one with no content (the replay server answers both with
// its 400s: test/helpers/invariants-anthropic.ts); before, every later request of the session failed.
// The thinking replies are the real recording anthropic/thinking-signature.sse without its text block.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reasoningTaken } from "../../src/kernel/retried-request.ts";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { fixture, sseReply, WIRE_DIR } from "../helpers/replay-server.ts";
import { startTerm } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();

/** The recorded thinking-then-text reply with its text block taken out, ending as `stop` says. */
function thinkingAlone(stop: "end_turn" | "max_tokens"): ReturnType<typeof sseReply> {
  const events = readFileSync(join(WIRE_DIR, "anthropic", "thinking-signature.sse"), "utf8")
    .split(/\n\n/)
    .filter((e) => e.trim() !== "" && !/"index":1\b/.test(e));
  return sseReply(`${events.map((e) => (stop === "end_turn" ? e : e.replace('"stop_reason":"end_turn"', '"stop_reason":"max_tokens"'))).join("\n\n")}\n\n`);
}

/** A home whose provider speaks Anthropic to the replay server, thinking on; and its project. */
function project() {
  const home = fileTempDir("hey-thinking-alone-");
  writeUserConfig(
    home.path,
    `[default]\nprovider = "claude"\n[provider.claude]\nprotocol = "anthropic"\nbase_url = "${server.url}"\napi_key = "k"\nmodels = ["claude-x"]\neffort = "high"\n`,
  );
  return { cwd: home.path, env: { HOME: home.path } };
}

type Body = { messages: { role: string; content: { type: string }[] }[] };
const lastBody = () => server.requests.at(-1)!.body as Body;
const shapes = (body: Body) => body.messages.map((m) => `${m.role}:${m.content.map((b) => b.type).join(",")}`);

test("thinking alone as a reply cut off by max_tokens while it thought: `hey -c` goes on, thinking on and off, without that turn", async () => {
  const where = project();
  server.enqueue(thinkingAlone("max_tokens"));
  const first = await runHey(["-p", "name my pelican"], where);
  expect(first.code).toBe(1);
  expect(first.stderr).toContain("the answer was cut off");
  for (const effort of ["high", "off"]) {
    server.enqueue(fixture("anthropic/text"));
    const again = await runHey(["-c", "-t", effort, "-p", "two names, please"], where);
    expect(server.violations).toEqual([]);
    expect(again.stderr).not.toContain("error:");
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain("Hello");
    // the unanswered prompt and the new one, as one user turn
    expect(shapes(lastBody()).slice(0, 1)).toEqual(["user:text,text"]);
  }
});

test("thinking alone as its first reply, on every try: retried as an empty answer, then its thinking is the answer; `hey -c` goes on after it", async () => {
  const where = project();
  server.enqueue(thinkingAlone("end_turn"), thinkingAlone("end_turn"), thinkingAlone("end_turn"));
  const first = await runHey(["-p", "name my pelican"], where);
  expect(first.stderr).toContain(reasoningTaken({ reasoned: 3, tries: 3 }));
  expect(first.code).toBe(0);
  expect(first.stdout.trim()).not.toBe("");
  server.enqueue(fixture("anthropic/text"));
  const again = await runHey(["-c", "-p", "two names, please"], where);
  expect(server.violations).toEqual([]);
  expect(again).toMatchObject({ code: 0 });
  expect(shapes(lastBody())).toEqual(["user:text", "assistant:text", "user:text"]);
});

test("thinking alone after tool work ends the task; the next prompt goes after the tool results, the call's own thinking kept", async () => {
  const where = project();
  // a real thinking-then-tool_use reply (its tool is not one of hey's: an error result is the tool work)
  server.enqueue(fixture("anthropic/thinking-then-tool-use"), thinkingAlone("end_turn"));
  const first = await runHey(["-p", "which version fixed it?"], where);
  expect(first.code).toBe(0);
  expect(first.stderr).toContain("the model ended without a final answer");
  server.enqueue(fixture("anthropic/text"));
  const again = await runHey(["-c", "-p", "what did you find?"], where);
  expect(server.violations).toEqual([]);
  expect(again).toMatchObject({ code: 0 });
  expect(shapes(lastBody())).toEqual(["user:text", "assistant:thinking,tool_use", "user:tool_result,text"]);
});

test("in the REPL: after a first reply of thinking alone, the next prompt is answered", async () => {
  const where = project();
  const term = await startTerm({ cwd: where.cwd, cols: 160, rows: 40, env: { ...where.env, NO_COLOR: "1" } });
  try {
    server.enqueue(thinkingAlone("max_tokens"));
    await say(term, "name my pelican", "the answer was cut off");
    server.enqueue(fixture("anthropic/text"));
    await say(term, "two names, please", "Hello");
    expect(server.violations).toEqual([]);
    await say(term, "/quit", "[exit 0]");
  } finally {
    await term.close();
  }
});

// A session whose tool loop another model started, continued with an Anthropic model and thinking
// on (`/model`, or `-c -m`): the tool-calling message in progress has no thinking block of this
// model, and Anthropic rejects that request with thinking on ("a final `assistant` message must
// start with a thinking block"). hey sends that one request with thinking off, says so in the
// debug log only, and thinks again on the next turn. dist/hey against a mock that enforces the rule.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { fixture, INVARIANTS, sseReply, type InvariantCheck } from "../helpers/replay-server.ts";
import { startTerm } from "../helpers/tmux.ts";
import { ALL, say, toolCalls } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the tmux test may build dist/hey

type Block = { type: string };
type Body = { thinking?: { type: string }; messages: { role: string; content: Block[] }[] };

/** Anthropic's rule, answered with its 400: with thinking on, the final assistant message that called tools starts with its thinking. */
const finalThinking: InvariantCheck = {
  name: "anthropic-final-thinking",
  applies: (path) => /\/messages(\?|$)/.test(path),
  check(raw) {
    const body = raw as Body;
    if (body.thinking === undefined || body.thinking.type === "disabled") return [];
    const i = body.messages.findLastIndex((m) => m.role === "assistant");
    const first = body.messages[i]?.content[0]?.type;
    if (i < 0 || !body.messages[i]!.content.some((b) => b.type === "tool_use") || first === "thinking" || first === "redacted_thinking") return [];
    return [
      `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block`,
    ];
  },
};

const server = fileReplayServer([...INVARIANTS, finalThinking]);
const work = fileTempDir();

/** A session of `cwd` whose last message is another model's tool call and its result: a tool loop cut short (Esc, a crash). */
function writeCutLoop(state: string, cwd: string): void {
  const dir = join(state, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  const id = newId();
  const call: Message = {
    id: newId(),
    role: "assistant",
    content: [{ type: "text", text: "Let me look." }],
    toolCalls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls"}' }],
  };
  const result: Message = { id: newId(), role: "tool", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: "a.txt" }] };
  const lines = [
    { type: "header" as const, id, cwd, created: new Date().toISOString(), version: "0.1.0" },
    { type: "model" as const, id: newId(), provider: "other", model: "gpt-x" },
    ...[userMessage("what is here?"), call, result].map((message) => ({ type: "message" as const, message })),
  ];
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((l) => toLine(l)).join(""));
}

test("continuing another model's tool loop with an Anthropic model and -t high: that request goes without thinking, the next turn thinks", async () => {
  const state = join(work.path, "state");
  const cwd = join(work.path, "project");
  mkdirSync(cwd);
  writeCutLoop(state, cwd);
  const args = ["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "--api-key", "k-1", "-m", "claude-sonnet-4-6", "-t", "high", "-c"];
  const env = { XDG_STATE_HOME: state };

  server.enqueue(fixture("anthropic/text"));
  const start = server.requests.length;
  const run = await runHey([...args, "--verbose", "-p", "go on"], { cwd, env });
  expect(server.violations).toEqual([]);
  expect(run.stderr).not.toContain("thinking");
  expect(run.code).toBe(0);
  const sent = server.requests[start]!.body as Body;
  expect(sent.thinking).toEqual({ type: "disabled" });
  expect(sent.messages.at(-2)!.content.map((b) => b.type)).toEqual(["text", "tool_use"]); // the other model's call, as it was
  const logs = join(state, "hey", "logs");
  const log = readFileSync(join(logs, readdirSync(logs)[0]!), "utf8");
  expect(log).toContain("effort high → off for this request: the tool-calling message in progress has no thinking block of this model");

  // the loop ended with an answer: the next turn thinks again
  server.enqueue(fixture("anthropic/text"));
  const next = await runHey([...args, "-p", "and now?"], { cwd, env });
  expect(next.code).toBe(0);
  expect((server.requests.at(-1)!.body as Body).thinking?.type).toBe("adaptive");
});

test("/model to an Anthropic model with -t high after Esc stopped another model's tool loop: the marker closes the loop, so the next request thinks and is answered", async () => {
  const home = join(work.path, "repl-home");
  mkdirSync(join(home, ".config", "hey"), { recursive: true });
  writeFileSync(join(home, "notes.txt"), "a note\n");
  writeFileSync(
    join(home, ".config", "hey", "config.toml"),
    `[default]\nprovider = "local"\nmodel = "m"\n[provider.local]\nbase_url = "${server.url}/v1"\nmodels = ["m"]\n` +
      `[provider.claude]\nprotocol = "anthropic"\nbase_url = "${server.url}"\napi_key = "k-1"\nmodels = ["claude-sonnet-4-5"]\n`,
  );
  const term = await startTerm({ args: ["-t", "high"], cwd: home, cols: 200, rows: 50, env: { HOME: home, NO_COLOR: "1" } });
  try {
    await term.waitFor(/^›/m);
    // the local model reads a file, then its next answer never comes: Esc leaves the loop with the call and its result
    server.enqueue(toolCalls([["read_file", { path: "notes.txt" }]]), sseReply([], { hang: true }));
    const start = server.requests.length;
    await term.type("read my notes");
    await term.keys("Enter");
    await term.waitFor(() => server.requests.length >= start + 2);
    await term.keys("Escape");
    await term.waitFor("interrupted", ALL);
    await term.waitFor((screen) => screen.trimEnd().endsWith("›"));
    await say(term, "/model claude/claude-sonnet-4-5", "claude-sonnet-4-5");

    server.enqueue(fixture("anthropic/text"));
    const asked = server.requests.length;
    await say(term, "go on", /\S+/); // an answer, not Anthropic's 400
    await term.waitFor((screen) => screen.trimEnd().endsWith("›"));
    expect(server.violations).toEqual([]);
    const sent = server.requests[asked]!.body as Body;
    // Esc after the result left `[interrupted by the user]` after it: no tool loop is in progress, and
    // Anthropic asks a thinking block of the final assistant message of a loop only
    expect(sent.thinking?.type).not.toBe("disabled");
    expect(sent.messages.at(-4)!.content.map((b) => b.type)).toContain("tool_use");
    expect(JSON.stringify(sent.messages.at(-2)!.content)).toContain("[interrupted by the user]");
    expect((await term.screen(ALL)).split("› go on").at(-1)!.trim()).toBe("Hello\n›"); // the recorded answer, no error
  } finally {
    await term.close();
  }
});

// What dist/hey counts for a request that broke off, against a loopback replay server (x40 findings
// 3 and 4): an Anthropic or Gemini answer cut after the provider sent its input counts keeps them —
// cache reads and writes included — and `/usage` says the output is estimated because an answer was
// cut, not that the provider reported nothing; a summary request cut mid-stream is counted with an
// estimate in its `usage` event and the run's total, as a cut turn is.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachTempDir } from "../helpers/fixtures.ts";
import { baseUrlFor } from "../helpers/protocol-streams.ts";
import { writeReadingSession } from "../helpers/reading-session.ts";
import { cutAfter, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = startReplayServer();
afterAll(() => server.stop());
const work = eachTempDir();
const state = eachTempDir();

const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
/** 5,000 input tokens: 500 new, 4,000 read from the prompt cache, 500 written to it; then two words, and the connection closes before the stop reason. */
const ANTHROPIC_CUT = [
  event("message_start", {
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [],
      stop_reason: null,
      usage: { input_tokens: 500, cache_read_input_tokens: 4000, cache_creation_input_tokens: 500, output_tokens: 1 },
    },
  }),
  event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Working on" } }),
  event("content_block_delta", { index: 0, delta: { type: "text_delta", text: " it now" } }),
].join("");
/** Gemini's counts ride on every chunk: 5,000 prompt tokens, 4,000 of them cached; no finishReason ever comes. */
const GEMINI_CUT = ["Working on", " it now"]
  .map(
    (text) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text }] } }], usageMetadata: { promptTokenCount: 5000, cachedContentTokenCount: 4000, totalTokenCount: 5000 } })}\r\n\r\n`,
  )
  .join("");

const hey = (protocol: "anthropic" | "google", ...rest: string[]) =>
  runHey(["--base-url", baseUrlFor(protocol, server.url), "--protocol", protocol, "-m", "some-model", "--api-key", "k", ...rest], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
  });

test.each([
  ["anthropic", ANTHROPIC_CUT, 500],
  ["google", GEMINI_CUT, 0],
] as const)(
  "%s: an answer cut after the provider sent its counts keeps its input and cache counts; /usage says why the output is estimated",
  async (protocol, body, writes) => {
    server.enqueue(sseReply(body));
    const run = await hey(protocol, "-p", "do it", "--output", "json");
    expect(run.code).toBe(1); // the answer broke off
    const events = jsonEvents(run.stdout);
    const counts = { input_tokens: 5000, cache_read_tokens: 4000, cache_write_tokens: writes, estimated: true };
    expect(events.filter((e) => e.type === "usage")).toMatchObject([counts]);
    expect(events.at(-1)).toMatchObject({ type: "done", usage: counts });

    const usage = await hey(protocol, "-c", "-p", "/usage");
    expect(usage.stdout).toMatch(
      new RegExp(
        `^session: ~5,000 in \\(4,000 cached = 80%, ${writes} cache writes\\) · ~\\d+ out \\(0 reasoning\\) · 1 request \\(~: estimated where a response was cut or interrupted, or came without usage\\)$`,
        "m",
      ),
    );
  },
);

test("a summary request cut mid-stream is counted with its estimate: a usage event, and the run's total", async () => {
  writeFileSync(join(work.path, "hey.toml"), "[agent]\nbudget_tokens = 3000\n");
  const id = newId();
  writeReadingSession(state.path, work.path, id); // eight 3 KB reads: a summary is asked for first
  const summary = sse([chatChunk({ content: "Summary: read f0 to f7, " }), chatChunk({ content: "found the parser's bug in f3 and " })], { done: false });
  const answer = sse([
    chatChunk({ content: "Continuing." }),
    chatChunk({ finish: "stop" }),
    chatChunk({ usage: { prompt_tokens: 2000, completion_tokens: 3, total_tokens: 2003 } }),
  ]);
  const before = server.requests.length;
  server.enqueue(cutAfter(sseReply(summary), Buffer.byteLength(summary) - 5), sseReply(answer));
  const run = await runHey(
    ["--base-url", `${server.url}/v1`, "-m", "m", "--api-key", "k", "--config", join(work.path, "hey.toml"), "--output", "json", "--resume", id, "-p", "go on"],
    { cwd: work.path, env: { XDG_STATE_HOME: state.path } },
  );
  expect(run.code).toBe(0);
  const sent = server.requests.slice(before).map((r) => JSON.stringify(r.body));
  expect(sent).toHaveLength(2);
  expect(sent[0]).toContain("You compress"); // the summary request came first
  const events = jsonEvents(run.stdout);
  const at = events.findIndex((e) => e.type === "compaction" && e.kind === "trim");
  expect(String(events[at]?.error)).toContain("summary failed");
  const counted = events[at + 1]!;
  expect(counted).toMatchObject({ type: "usage", estimated: true });
  expect(Number(counted.input_tokens)).toBeGreaterThan(1000); // the transcript it sent: up to 60% of the budget
  expect(Number(counted.output_tokens)).toBeGreaterThan(5); // the part of the summary that came
  expect(events.at(-1)).toMatchObject({ type: "done", turns: 1, usage: { input_tokens: 2000 + Number(counted.input_tokens), estimated: true } });
});

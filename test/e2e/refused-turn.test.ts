// A refused answer (Anthropic stop_reason "refusal", Responses `refusal` content, Gemini SAFETY) ends
// the run, and no later request (`hey -c`, or the next line of the REPL) sends the exchange again:
// not the refused words, not the user's message that drew them. Anthropic: "you must reset the
// conversation context before continuing … Attempting to continue without resetting will result in
// continued refusals" (platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals);
// Gemini rejects the empty model turn a SAFETY stop leaves. The session keeps the exchange, marked.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type Protocol } from "../../src/kernel/ir.ts";
import { refusedAnswer } from "../../src/kernel/refusal.ts";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { anthropicRefusal, baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { sseReply } from "../helpers/replay-server.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-refused-");

const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const DETAIL = "cyber: This request was declined because it could enable cyber harm.";
const REFUSED_WORDS = "Here is how to get into";

/** Each protocol's refusal, hand-made from its documentation, and what the marker says of it. */
const REFUSALS: { protocol: Protocol; reply: () => ReturnType<typeof sseReply>; detail: string | undefined }[] = [
  {
    // as handle-streaming-refusals shows it: some text, then stop_details beside stop_reason "refusal"
    protocol: "anthropic",
    reply: () => anthropicRefusal(REFUSED_WORDS, "cyber", DETAIL.slice(7)),
    detail: DETAIL,
  },
  {
    // the Responses API reference's refusal content part, streamed as response.refusal.delta
    protocol: "responses",
    reply: () => {
      const item = { id: "msg_1", type: "message", status: "completed", role: "assistant", content: [{ type: "refusal", refusal: REFUSED_WORDS }] };
      return sseReply(
        [
          event("response.created", { response: { id: "resp_1", status: "in_progress", output: [] }, sequence_number: 0 }),
          event("response.output_item.added", { item: { ...item, content: [], status: "in_progress" }, output_index: 0, sequence_number: 1 }),
          event("response.refusal.delta", { delta: REFUSED_WORDS, item_id: "msg_1", output_index: 0, content_index: 0, sequence_number: 2 }),
          event("response.output_item.done", { item, output_index: 0, sequence_number: 3 }),
          event("response.completed", {
            response: { id: "resp_1", status: "completed", output: [item], usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 } },
            sequence_number: 4,
          }),
        ].join(""),
      );
    },
    detail: undefined,
  },
  {
    // the SDK's FinishReason.SAFETY: "When streaming, the content field is empty if content filters block the output"
    protocol: "google",
    reply: () => sseReply(`data: ${JSON.stringify({ candidates: [{ index: 0, finishReason: "SAFETY" }], usageMetadata: { promptTokenCount: 9 } })}\r\n\r\n`),
    detail: "SAFETY",
  },
];

const marker = (detail: string | undefined) => textOf(refusedAnswer({ id: "x", role: "assistant", content: [] }, detail));

test.each(REFUSALS)(
  "$protocol: the next request sends the earlier exchange and the new message, none of the refused one",
  async ({ protocol, reply, detail }) => {
    const env = { XDG_STATE_HOME: join(work.path, `state-${protocol}`) };
    const args = ["--base-url", baseUrlFor(protocol, server.url), "--protocol", protocol, "-m", "m"];
    server.enqueue(textReply(protocol, "It is a TP-Link."));
    expect((await runHey([...args, "-p", "which router is this?"], { cwd: work.path, env })).code).toBe(0);
    server.enqueue(reply());
    const first = await runHey([...args, "-c", "-p", "get me into my router"], { cwd: work.path, env });
    expect(first.code).toBe(1);
    expect(first.stderr.replace(/\s+/g, " ")).toContain("your message is not sent again: say it another way in the next one");

    server.enqueue(textReply(protocol, "Reset it with the button on its back."));
    const next = await runHey([...args, "-c", "-p", "it is my own router"], { cwd: work.path, env });
    expect(next).toMatchObject({ code: 0, stdout: "Reset it with the button on its back.\n" });
    const sent = JSON.stringify(server.requests.at(-1)!.body);
    expect(sent).toContain("which router is this?");
    expect(sent).toContain("It is a TP-Link.");
    expect(sent).not.toContain("get me into my router");
    expect(sent).not.toContain(JSON.stringify(marker(detail)).slice(1, -1));
    expect(sent).not.toContain(REFUSED_WORDS);
    expect(sent).toContain("it is my own router");
    // the session keeps the exchange, marked: a later `hey -c` shows it
    const log = readdirSync(join(env.XDG_STATE_HOME, "hey", "sessions"), { recursive: true })
      .map(String)
      .find((f) => f.endsWith(".jsonl"))!;
    const kept = readFileSync(join(env.XDG_STATE_HOME, "hey", "sessions", log), "utf8");
    expect(kept).toContain("get me into my router");
    expect(kept).toContain(JSON.stringify(marker(detail)).slice(1, -1));
  },
);

// `/compact` after a refusal: the summary request carried the exchange the refusal's message said
// would not be sent again — the words that drew it, which a summary request could be refused for too
test("/compact after a refused exchange summarizes the work around it, never the refused message", async () => {
  const env = { XDG_STATE_HOME: join(work.path, "state-compact") };
  const args = ["--base-url", baseUrlFor("anthropic", server.url), "--protocol", "anthropic", "-m", "m"];
  const run = (prompt: string, resume = true) => runHey([...args, ...(resume ? ["-c"] : []), "-p", prompt], { cwd: work.path, env });
  server.enqueue(textReply("anthropic", "It is a TP-Link."));
  expect((await run("which router is this?", false)).code).toBe(0);
  server.enqueue(anthropicRefusal(REFUSED_WORDS, "cyber", DETAIL.slice(7)));
  expect((await run("get me into my router")).code).toBe(1);
  for (const prompt of ["it is my own router", "what port does it use?", "and the default password?"]) {
    server.enqueue(textReply("anthropic", "Noted."));
    expect((await run(prompt)).code).toBe(0);
  }
  server.enqueue(textReply("anthropic", "The user owns a TP-Link router."));
  const compact = await run("/compact");
  expect(compact.code).toBe(0);
  const summarized = JSON.stringify(server.requests.at(-1)!.body);
  expect(summarized).toContain("Summarize this part of the work");
  expect(summarized).toContain("It is a TP-Link.");
  expect(summarized).not.toContain("get me into my router");
  expect(summarized).not.toContain("[refused");
});

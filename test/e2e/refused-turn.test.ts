// A refused answer (Anthropic stop_reason "refusal", Responses `refusal` content, Gemini SAFETY) is
// not sent again: the next request (`hey -c`, or the next line of the REPL) carries the user's
// message and, in place of the refused reply, a marker saying it was not answered. Sent again, the
// refused words get that request refused too
// (platform.claude.com/docs/en/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals),
// and Gemini rejects the empty model turn a SAFETY stop leaves.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { textOf, type Protocol } from "../../src/kernel/ir.ts";
import { refusedAnswer } from "../../src/kernel/turns.ts";
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

test.each(REFUSALS)("$protocol: the next request carries the user's message and a marker, not the refused reply", async ({ protocol, reply, detail }) => {
  const env = { XDG_STATE_HOME: join(work.path, `state-${protocol}`) };
  const args = ["--base-url", baseUrlFor(protocol, server.url), "--protocol", protocol, "-m", "m"];
  server.enqueue(reply());
  const first = await runHey([...args, "-p", "get me into my router"], { cwd: work.path, env });
  expect(first.code).toBe(1);

  server.enqueue(textReply(protocol, "Reset it with the button on its back."));
  const next = await runHey([...args, "-c", "-p", "it is my own router"], { cwd: work.path, env });
  expect(next).toMatchObject({ code: 0, stdout: "Reset it with the button on its back.\n" });
  const sent = JSON.stringify(server.requests.at(-1)!.body);
  expect(sent).toContain("get me into my router");
  expect(sent).toContain(JSON.stringify(marker(detail)));
  expect(sent).not.toContain(REFUSED_WORDS);
  expect(sent).toContain("it is my own router");
});

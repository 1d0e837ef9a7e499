// A model's own large tool call, through dist/hey against a loopback model that answers any request
// body over 200 KB with its context-length error (a 32,768-token window): the model writes a
// 600 KB file with write_file, then answers. The call goes back to the model with its content cut
// to its first and last lines around a note naming the file, so the run completes, and `hey -c`
// goes on with the session; the session file keeps the call whole. With no window at all, a 2 MB
// write_file does not make a 2 MB request either.
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Protocol } from "../../src/kernel/ir.ts";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const LIMIT = 200_000;
const content = (bytes: number) => {
  const lines: string[] = [];
  for (let i = 1, n = 0; n < bytes; i++, n += 61) lines.push(`row ${String(i).padStart(6, "0")} ${"y".repeat(50)}`);
  return lines.join("\n") + "\n";
};

interface Exchange {
  bytes: number;
  body: string;
  status: number;
}

/** The model: a write_file of `file` for the first prompt, an answer for everything after; over `limit` bytes, its context-length error. */
function startModel(file: string, limit: number) {
  const log: Exchange[] = [];
  let wrote = false;
  const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method !== "POST") return new Response("404 page not found", { status: 404 });
      const text = await req.text();
      const bytes = Buffer.byteLength(text);
      const anthropic = new URL(req.url).pathname.endsWith("/messages");
      if (bytes > limit) {
        log.push({ bytes, body: text, status: 400 });
        const tokens = Math.ceil(bytes / 4);
        return anthropic
          ? Response.json(
              { type: "error", error: { type: "invalid_request_error", message: `prompt is too long: ${tokens} tokens > 32768 maximum` } },
              { status: 400 },
            )
          : Response.json(
              {
                error: {
                  message: `This model's maximum context length is 32768 tokens. However, your messages resulted in ${tokens} tokens.`,
                  type: "invalid_request_error",
                  code: "context_length_exceeded",
                },
              },
              { status: 400 },
            );
      }
      log.push({ bytes, body: text, status: 200 });
      const args = wrote ? undefined : JSON.stringify({ path: "big.txt", content: file });
      wrote = true;
      const answer = "Wrote big.txt.";
      if (!anthropic) {
        const usage = chatChunk({ usage: { prompt_tokens: Math.ceil(bytes / 4), completion_tokens: 20, total_tokens: Math.ceil(bytes / 4) + 20 } });
        const chunks = args
          ? [chatChunk({ toolCall: { index: 0, id: "call_1", name: "write_file", arguments: args } }), chatChunk({ finish: "tool_calls" }), usage]
          : [chatChunk({ content: answer }), chatChunk({ finish: "stop" }), usage];
        return new Response(sse(chunks), { headers: { "content-type": "text/event-stream" } });
      }
      const message = {
        id: "msg",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        stop_reason: null,
        usage: { input_tokens: Math.ceil(bytes / 4), output_tokens: 1 },
      };
      const block = args
        ? [
            event("content_block_start", {
              type: "content_block_start",
              index: 0,
              content_block: { type: "tool_use", id: "toolu_1", name: "write_file", input: {} },
            }),
            event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: args } }),
          ]
        : [
            event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
            event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: answer } }),
          ];
      const end = [
        event("content_block_stop", { type: "content_block_stop", index: 0 }),
        event("message_delta", {
          type: "message_delta",
          delta: { stop_reason: args ? "tool_use" : "end_turn", stop_sequence: null },
          usage: { output_tokens: 20 },
        }),
        event("message_stop", { type: "message_stop" }),
      ];
      return new Response([event("message_start", { type: "message_start", message }), ...block, ...end].join(""), {
        headers: { "content-type": "text/event-stream" },
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, log, stop: () => server.stop(true) };
}

let work: ReturnType<typeof tempDir>;
let model: ReturnType<typeof startModel> | undefined;
beforeEach(() => {
  work = tempDir("hey-large-call-");
});
afterEach(() => {
  model?.stop();
  model = undefined;
  work.remove();
});
afterAll(() => model?.stop());

const hey = (protocol: Protocol, run: string[]) =>
  runHey(["--base-url", model!.url, "--protocol", protocol, "-m", "m", "--output", "json", ...run], {
    cwd: work.path,
    timeoutMs: 60_000,
    env: { XDG_STATE_HOME: join(work.path, "state") },
  });

/** The session files' text, all of them. */
const sessions = () => {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) e.isDirectory() ? walk(join(dir, e.name)) : out.push(readFileSync(join(dir, e.name), "utf8"));
  };
  walk(join(work.path, "state"));
  return out.join("\n");
};

for (const protocol of ["openai", "anthropic"] as const) {
  test(`${protocol}: a 600 KB write_file on a 32k-token model: the run completes, hey -c goes on, the session keeps the call whole`, async () => {
    const file = content(600_000);
    model = startModel(file, LIMIT);
    const run = await hey(protocol, ["-p", "write big.txt"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Wrote big.txt." });
    expect(statSync(join(work.path, "big.txt")).size).toBe(file.length);
    expect(model.log.filter((x) => x.status === 400)).toEqual([]);
    // the request after the write: the call's start and end, and a note naming the file, not 600 KB
    const after = model.log[1]!;
    expect(after.bytes).toBeLessThan(20_000);
    expect(after.body).toContain("row 000001 ");
    expect(after.body).toContain(`row ${String(file.split("\n").length - 1).padStart(6, "0")} `);
    expect(after.body).toContain("of this content left out of the history to fit the context budget; the call wrote it whole to ");
    expect(after.body).toMatch(/big\.txt[\\"]*: read_file with offset=\d+ limit=\d+ shows it\]/);
    expect(after.body).not.toContain("row 004000 ");
    expect(sessions()).toContain("row 004000 "); // the session file keeps the call whole

    const before = model.log.length;
    const next = await hey(protocol, ["-c", "-p", "continue"]);
    expect(next.stderr).toBe("");
    expect(next.code).toBe(0);
    const resumed = model.log.slice(before);
    expect(resumed.filter((x) => x.status === 400)).toEqual([]);
    expect(resumed[0]!.body).toContain("continue");
    expect(Math.max(...resumed.map((x) => x.bytes))).toBeLessThan(20_000);
  }, 90_000);
}

test("no window known, budget_tokens 40,000: a 2 MB write_file is not sent back whole", async () => {
  model = startModel(content(2_000_000), Number.POSITIVE_INFINITY);
  const run = await hey("openai", ["-p", "write big.txt"]);
  expect(run.code).toBe(0);
  expect(model.log.length).toBe(2);
  expect(model.log[1]!.bytes).toBeLessThan(20_000);
}, 90_000);

// Long sessions that never overflow (issue 23), through dist/hey against a loopback model that
// counts tokens as body bytes / 4 and reports them as its usage:
// - a model with a 16,000-token window answers an oversized request with its own context-length
//   error (OpenAI chat and Anthropic wording); hey learns the window, rebuilds the request without
//   a model call and goes on: six 28 KB reads complete, with at most two such answers;
// - with budget_tokens = 12000 and eight 28 KB reads, no request passes 1.25× the budget, at most 4
//   summaries are asked for, and the last file reaches the model whole.
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Protocol } from "../../src/kernel/ir.ts";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const FILE_BYTES = 28 * 1024;

/** A 28 KB source file whose every line names the file, with a marker in the middle. */
function source(n: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < FILE_BYTES; i++)
    lines.push(i === 350 ? `// MARKER file ${n} middle` : `export const f${n}_${i} = "${"abcdefghij".repeat(2)}${i}"; // file ${n}`);
  return lines.join("\n") + "\n";
}

interface Exchange {
  protocol: Protocol;
  tokens: number;
  tools: boolean;
  body: string;
  status: number;
}

/** The model: reads files 1..`reads` one per turn, then answers; summaries get a summary; over `window` it refuses. */
function startModel(reads: number, window: number) {
  const log: Exchange[] = [];
  let step = 0;
  const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method !== "POST") return new Response("404 page not found", { status: 404 }); // hey's GET of the model list: none here, the window is learned from the refusal
      const text = await req.text();
      const protocol: Protocol = new URL(req.url).pathname.endsWith("/messages") ? "anthropic" : "openai";
      const body = JSON.parse(text) as { tools?: unknown[] };
      const tokens = Math.ceil(Buffer.byteLength(text) / 4);
      const tools = (body.tools?.length ?? 0) > 0;
      if (tokens > window) {
        log.push({ protocol, tokens, tools, body: text, status: 400 });
        return protocol === "anthropic"
          ? Response.json(
              { type: "error", error: { type: "invalid_request_error", message: `prompt is too long: ${tokens} tokens > ${window} maximum` } },
              { status: 400 },
            )
          : Response.json(
              {
                error: {
                  message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
                  type: "invalid_request_error",
                  code: "context_length_exceeded",
                },
              },
              { status: 400 },
            );
      }
      log.push({ protocol, tokens, tools, body: text, status: 200 });
      const call = tools && step < reads ? { id: `call_${++step}`, path: `src/file${step}.ts` } : undefined;
      const answer = !tools ? "Summary: read files so far; each exports constants named after it." : call ? "" : `Read all ${reads} files.`;
      if (protocol === "openai") {
        const usage = chatChunk({ usage: { prompt_tokens: tokens, completion_tokens: 20, total_tokens: tokens + 20 } });
        const chunks = call
          ? [
              chatChunk({ toolCall: { index: 0, id: call.id, name: "read_file", arguments: JSON.stringify({ path: call.path }) } }),
              chatChunk({ finish: "tool_calls" }),
              usage,
            ]
          : [chatChunk({ content: answer }), chatChunk({ finish: "stop" }), usage];
        return new Response(sse(chunks), { headers: { "content-type": "text/event-stream" } });
      }
      const start = event("message_start", {
        type: "message_start",
        message: {
          id: "msg",
          type: "message",
          role: "assistant",
          model: "m",
          content: [],
          stop_reason: null,
          usage: { input_tokens: tokens, output_tokens: 1 },
        },
      });
      const block = call
        ? [
            event("content_block_start", {
              type: "content_block_start",
              index: 0,
              content_block: { type: "tool_use", id: call.id, name: "read_file", input: {} },
            }),
            event("content_block_delta", {
              type: "content_block_delta",
              index: 0,
              delta: { type: "input_json_delta", partial_json: JSON.stringify({ path: call.path }) },
            }),
          ]
        : [
            event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
            event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: answer } }),
          ];
      const end = [
        event("content_block_stop", { type: "content_block_stop", index: 0 }),
        event("message_delta", {
          type: "message_delta",
          delta: { stop_reason: call ? "tool_use" : "end_turn", stop_sequence: null },
          usage: { output_tokens: 20 },
        }),
        event("message_stop", { type: "message_stop" }),
      ];
      return new Response([start, ...block, ...end].join(""), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, log, stop: () => server.stop(true) };
}

let work: ReturnType<typeof tempDir>;
let model: ReturnType<typeof startModel> | undefined;
beforeEach(() => {
  work = tempDir("hey-window-");
  mkdirSync(join(work.path, "src"));
  for (let n = 1; n <= 8; n++) writeFileSync(join(work.path, "src", `file${n}.ts`), source(n));
});
afterEach(() => {
  model?.stop();
  model = undefined;
  work.remove();
});
afterAll(() => model?.stop());

const hey = (protocol: Protocol, config = "", run = ["-p", "read the files in src/ one by one"]) => {
  writeFileSync(join(work.path, "hey.toml"), config);
  const args = ["--base-url", model!.url, "--protocol", protocol, "-m", "m", "--config", join(work.path, "hey.toml"), "--output", "json", ...run];
  return runHey(args, { cwd: work.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work.path, "state") } });
};

for (const protocol of ["openai", "anthropic"] as const) {
  test(`${protocol}: a 16,000-token window, six 28 KB reads: the window is learned from the first refusal and the run completes`, async () => {
    model = startModel(6, 16_000);
    const run = await hey(protocol);
    const events = jsonEvents(run.stdout);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "result")).toMatchObject({ text: "Read all 6 files." });
    const refused = model.log.filter((x) => x.status === 400);
    expect(refused.length).toBeGreaterThanOrEqual(1); // the test reaches the window
    expect(refused.length).toBeLessThanOrEqual(2);
    const learned = events.find((e) => e.type === "compaction" && e.kind === "window");
    expect(learned).toMatchObject({ window: 16_000 });
    expect(String(learned!.error)).toContain("16000");
    // before: the size the provider counted for the refused request; after: what was sent again, smaller
    expect(learned!.tokens_before).toBe(refused[0]!.tokens);
    expect(Number(learned!.tokens_after)).toBeLessThan(Number(learned!.tokens_before));
    // every file reached the model whole once, in the request right after its read
    const answered = model.log.filter((x) => x.status === 200 && x.tools);
    for (let n = 1; n <= 6; n++) expect(answered.some((x) => x.body.includes(`MARKER file ${n} middle`) && x.body.includes(`f${n}_0 `))).toBe(true);
  }, 90_000);
}

test("the learned window is kept with the session: hey -c builds its first request within it, with no refusal", async () => {
  model = startModel(6, 16_000);
  const first = await hey("openai");
  expect(first.code).toBe(0);
  expect(model.log.some((x) => x.status === 400)).toBe(true); // the first run learned the window
  const before = model.log.length;
  const next = await hey("openai", "", ["-c", "-p", "which file had the marker in the middle?"]);
  expect(next.stderr).toBe("");
  expect(next.code).toBe(0);
  const resumed = model.log.slice(before);
  expect(resumed.length).toBeGreaterThanOrEqual(1);
  expect(resumed.filter((x) => x.status === 400)).toEqual([]);
  expect(Math.max(...resumed.map((x) => x.tokens))).toBeLessThanOrEqual(16_000);
  expect(resumed.find((x) => x.tools)?.body).toContain("which file had the marker in the middle?");
}, 90_000);

test("budget_tokens = 12000, eight 28 KB reads: no request over 1.25× the budget, at most 4 summaries, the last file reaches the model", async () => {
  model = startModel(8, 1_000_000);
  const run = await hey("openai", "[agent]\nbudget_tokens = 12000\n");
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 8 files." });
  const max = Math.max(...model.log.map((x) => x.tokens));
  expect(max).toBeLessThanOrEqual(1.25 * 12_000);
  const summaries = model.log.filter((x) => !x.tools);
  expect(summaries.length).toBeGreaterThanOrEqual(1); // the test reaches the budget
  expect(summaries.length).toBeLessThanOrEqual(4);
  const last = model.log.filter((x) => x.tools).at(-1)!;
  const file8 = JSON.stringify(source(8).trimEnd()).slice(1, -1).split("\\n");
  for (const line of [file8[0]!, file8[350]!, file8.at(-1)!]) expect(last.body).toContain(line.replace(/^/, ""));
  expect(last.body).toContain("MARKER file 8 middle");
}, 90_000);

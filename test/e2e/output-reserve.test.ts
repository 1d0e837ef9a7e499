// An endpoint that counts the model's whole output limit into the window when a request sets no
// max_tokens (OpenRouter's free models, vLLM: Aider-AI/aider#3721), through dist/hey against a
// loopback model: a 32,768-token window, an output limit of 32,768 reserved unless max_tokens says
// less, input counted as body bytes / 4. Every request hey sent without max_tokens was refused, it
// re-sent the same bytes saying it had cut them, and the run failed. Now the refusal is answered once
// with the same request and a bounded max_tokens, and each later request of the run fits unrefused.
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const WINDOW = 32_768;
const OUTPUT_LIMIT = 32_768;

interface Exchange {
  body: Record<string, unknown>;
  text: string;
  refused: boolean;
}

const WORDS = {
  openrouter: (input: number, output: number) =>
    `This endpoint's maximum context length is ${WINDOW} tokens. However, you requested about ${input + output} tokens (${input} of text input, ${output} in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`,
  vllm: (input: number, output: number) =>
    `This model's maximum context length is ${WINDOW} tokens. However, you requested ${input + output} tokens (${input} in the messages, ${output} in the completion). Please reduce the length of the messages or completion.`,
};

/** The model: reads notes.txt, then answers; refuses any request whose input and output limit pass the window. */
function startModel(words: (input: number, output: number) => string, finish: "stop" | "length" = "stop") {
  const log: Exchange[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method !== "POST") return new Response("404 page not found", { status: 404 });
      const text = await req.text();
      const body = JSON.parse(text) as Record<string, unknown>;
      const input = Math.ceil(Buffer.byteLength(text) / 4);
      const output = (body.max_tokens ?? body.max_completion_tokens ?? OUTPUT_LIMIT) as number;
      const refused = input + output > WINDOW;
      log.push({ body, text, refused });
      if (refused) return Response.json({ error: { message: words(input, output), code: 400 } }, { status: 400 });
      const answered = (body.messages as { role: string }[]).some((m) => m.role === "tool");
      const usage = chatChunk({ usage: { prompt_tokens: input, completion_tokens: 10, total_tokens: input + 10 } });
      const chunks = answered
        ? [chatChunk({ content: "The notes say hello." }), chatChunk({ finish }), usage]
        : [
            chatChunk({ toolCall: { index: 0, id: "call_1", name: "read_file", arguments: JSON.stringify({ path: "notes.txt" }) } }),
            chatChunk({ finish: "tool_calls" }),
            usage,
          ];
      return new Response(sse(chunks), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, log, stop: () => server.stop(true) };
}

let work: ReturnType<typeof tempDir>;
let model: ReturnType<typeof startModel> | undefined;
beforeEach(() => {
  work = tempDir("hey-reserve-");
  writeFileSync(join(work.path, "notes.txt"), "hello\n");
});
afterEach(() => {
  model?.stop();
  model = undefined;
  work.remove();
});
afterAll(() => model?.stop());

for (const [server, words] of Object.entries(WORDS)) {
  test(`${server} wording: the refused request goes once more with max_tokens that fits, and the run completes`, async () => {
    model = startModel(words);
    const args = ["--base-url", model.url, "--protocol", "openai", "-m", "m", "-p", "what do the notes say?"];
    const run = await runHey(args, { cwd: work.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work.path, "state") } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("The notes say hello.");
    const [first, second, ...later] = model.log;
    // one refusal, answered by the same request with its answer bounded, not by a cut one
    expect(model.log.filter((e) => e.refused)).toHaveLength(1);
    expect(first!.refused).toBe(true);
    expect(first!.body.max_tokens).toBeUndefined();
    expect(second!.refused).toBe(false);
    const { max_tokens, ...rest } = second!.body;
    expect(rest).toEqual(first!.body);
    expect(max_tokens as number).toBeGreaterThan(20_000);
    expect(run.stderr).toContain("answers are now limited to the room left");
    expect(run.stderr).not.toContain("cut to fit");
    // the next request of the run (after the tool result) is bounded before it is sent
    expect(later.length).toBeGreaterThan(0);
    for (const e of later) expect(e.body.max_tokens).toBeDefined();
  }, 60_000);
}

test("the user's own max_tokens is kept: a refusal that counts it cuts the history, and every request goes with it", async () => {
  model = startModel(WORDS.vllm);
  writeFileSync(join(work.path, "notes.txt"), `${"a line of the notes, long enough to fill the window quickly.\n".repeat(1500)}hello\n`);
  const config = join(work.path, "vllm.toml");
  writeFileSync(config, `[provider.vllm]\nprotocol = "openai"\nbase_url = "${model.url}"\nmodels = ["m"]\nmax_tokens = 12000\n`);
  const run = await runHey(["--config", config, "-m", "vllm/m", "-p", "what do the notes say?"], {
    cwd: work.path,
    timeoutMs: 60_000,
    env: { XDG_STATE_HOME: join(work.path, "state") },
  });
  expect(model.log.some((e) => e.refused)).toBe(true); // the notes and 12,000 output tokens pass the window
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("The notes say hello.");
  for (const e of model.log) expect(e.body.max_tokens).toBe(12_000);
  expect(run.stderr).not.toContain("answers are now limited");
}, 60_000);

test("hey -c goes on with the cap the session learnt: its first request is bounded, not refused again", async () => {
  model = startModel(WORDS.openrouter);
  const args = ["--base-url", model.url, "--protocol", "openai", "-m", "m"];
  const opts = { cwd: work.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work.path, "state") } };
  expect((await runHey([...args, "-p", "what do the notes say?"], opts)).code).toBe(0);
  const before = model.log.length;
  const again = await runHey([...args, "-c", "-p", "and again?"], opts);
  expect(again.code).toBe(0);
  const resumed = model.log.slice(before);
  expect(resumed.length).toBeGreaterThan(0);
  expect(resumed.filter((e) => e.refused)).toHaveLength(0);
  for (const e of resumed) expect(e.body.max_tokens).toBeDefined();
  expect(again.stderr).not.toContain("answers are now limited");
}, 60_000);

test("an answer stopped at hey's own bound says hey limited it, not that the model's limit or a setting did", async () => {
  model = startModel(WORDS.openrouter, "length");
  const args = ["--base-url", model.url, "--protocol", "openai", "-m", "m", "-p", "what do the notes say?"];
  const run = await runHey(args, { cwd: work.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work.path, "state") } });
  expect(run.code).toBe(1);
  const bound = model.log.at(-1)!.body.max_tokens as number;
  expect(run.stderr).toContain(`hey limited the answer to ${bound} tokens to fit the model's window beside the conversation`);
  expect(run.stderr).not.toContain("max_tokens is not set");
}, 60_000);

// OpenAI-compatible servers' own rules, through the compiled binary against loopback mocks: what a
// user of Mistral and of OpenRouter's free models sees when the server differs from OpenAI's.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { type ChatRequest, startModelServer } from "../helpers/model-server.ts";
import { eachTempDir, fileReplayServer } from "../helpers/fixtures.ts";
import { type InvariantCheck, jsonReply, openaiChatToolPairs, sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const work = eachTempDir();
const state = eachTempDir();

/** Every tool-call id of a request, on the calls and on their results. */
const idsOf = (req: ChatRequest) => req.messages.flatMap((m) => [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id ? [m.tool_call_id] : [])]);

// "strict" refuses ids as Mistral does (jackmpcollins/magentic#276): a Mistral model behind a
// gateway or a local server, under a name hey cannot tell. Each run calls a tool, then answers.
const mistral = startModelServer((req) => {
  if (req.model === "strict")
    for (const id of idsOf(req)) if (!/^[A-Za-z0-9]{9}$/.test(id)) throw new Error(`Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`);
  return req.messages.at(-1)?.role === "tool" ? { text: "Done." } : { calls: [["bash", { command: "echo checked" }]] };
});
afterAll(() => mistral.stop());

test("a session begun on another model continues on one that takes only Mistral's 9-character tool-call ids", async () => {
  const hey = (args: string[]) => runHey(["--base-url", mistral.baseUrl, ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(await hey(["-m", "gpt", "-p", "check it"])).toMatchObject({ code: 0, stdout: "Done.\n" });
  const before = mistral.requests.length;
  const resumed = await hey(["-c", "-m", "strict", "-p", "and again?"]);
  expect(resumed).toMatchObject({ code: 0, stdout: "Done.\n" });
  expect(resumed.stderr).not.toContain("error");
  const sent = mistral.requests.slice(before);
  // one refusal, then every request with ids it takes, the first run's among them
  expect(sent.map((r) => idsOf(r).every((id) => /^[A-Za-z0-9]{9}$/.test(id)))).toEqual([false, true, true]);
  expect(idsOf(sent.at(-1)!)).toHaveLength(4);
});

const openrouter = fileReplayServer();
const viaOpenRouter = (args: string[]) =>
  runHey(["--base-url", `${openrouter.url}/api/v1`, "-m", "meta-llama/llama-3.3-70b-instruct:free", ...args], { cwd: work.path });

test("OpenRouter's 429 for a rate-limited upstream: the retry says the upstream's words and waits as long as its metadata asks", async () => {
  // a recorded body's shape; the wait shortened from 17 s
  const limited = jsonReply(429, {
    error: {
      message: "Provider returned error",
      code: 429,
      metadata: {
        raw: "meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations",
        provider_name: "Venice",
        is_byok: false,
        retry_after_seconds: 2,
        headers: { "Retry-After": "2" },
      },
    },
    user_id: "user_x",
  });
  openrouter.enqueue(limited, sseReply(sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })])));
  const run = await viaOpenRouter(["-p", "hi"]);
  expect(run).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(run.stderr).toMatch(
    /^retrying in 2(\.\d)? s \(1\/5\): rate limited \(429\): Provider returned error \(Venice: meta-llama\/llama-3\.3-70b-instruct:free is temporarily rate-limited upstream\./,
  );
});

test("OpenRouter's daily cap on free models: one request, no retries, and the error says when the cap resets", async () => {
  const before = openrouter.requests.length;
  const reset = Date.now() + 5 * 3600_000;
  openrouter.enqueue(
    jsonReply(429, {
      error: {
        message: "Rate limit exceeded: free-models-per-day-high-balance.",
        code: 429,
        metadata: { headers: { "X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(reset) } },
      },
    }),
  );
  const run = await viaOpenRouter(["-p", "hi"]);
  expect(run.code).toBe(1);
  expect(openrouter.requests.length - before).toBe(1);
  // 5 h 1 min: the server's Date counts whole seconds, so the wait measured from it may be a second over
  expect(run.stderr).toMatch(
    /^error: quota exhausted \(429\): Rate limit exceeded: free-models-per-day-high-balance\. — the limit resets in (4 h 59|5 h 0|5 h 1) min/,
  );
  expect(run.stderr).not.toContain("retrying");
});

// x161 #4: the line said the wait twice ("the limit resets in 2 min — the server allows the next try in 2 min") and not what would help
test("OpenRouter's per-minute cap resetting later than hey waits: one request, one line saying the wait once and what gets past it", async () => {
  const before = openrouter.requests.length;
  const reset = Date.now() + 5 * 60_000;
  openrouter.enqueue(
    jsonReply(429, {
      error: {
        message: "Rate limit exceeded: free-models-per-min. ",
        code: 429,
        metadata: { headers: { "X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(reset) } },
      },
    }),
  );
  const run = await viaOpenRouter(["-p", "hi"]);
  expect(run.code).toBe(1);
  expect(openrouter.requests.length - before).toBe(1);
  expect(run.stderr).toMatch(
    /^error: http:\/\/127\.0\.0\.1:\d+\/api\/v1: rate limited \(429\): Rate limit exceeded: free-models-per-min\. — the server allows the next try in [56] min, longer than hey waits \(\[retry\] max_delay_ms = 60000\); raise max_delay_ms to wait, or use another model \(-m or --fallback-model\)\n$/,
  );
});

test("OpenRouter's 402 'fewer max_tokens … can only afford 1203': one request, and the error names max_tokens, not a spent quota nor another model", async () => {
  const before = openrouter.requests.length;
  openrouter.enqueue(
    jsonReply(402, {
      error: {
        message:
          "This request requires more credits, or fewer max_tokens. You requested up to 64000 tokens, but can only afford 1203. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account",
        code: 402,
      },
    }),
  );
  const run = await viaOpenRouter(["-p", "hi"]);
  expect(run.code).toBe(1);
  expect(openrouter.requests.length - before).toBe(1);
  expect(run.stderr).toStartWith("error: request rejected (402): This request requires more credits, or fewer max_tokens.");
  expect(run.stderr).toContain("a --base-url run has no max_tokens of its own, so set max_tokens = 1000 in a [provider.NAME] table of");
  expect(run.stderr).not.toContain("quota exhausted");
  expect(run.stderr).not.toContain("switch models");
});

test("Gemini's OpenAI-compatible endpoint: its 429 'Resource has been exhausted (e.g. check quota)' is retried, not taken for a spent quota", async () => {
  const gemini = openrouter; // any loopback server: the body decides
  // the body as the endpoint sends it (n4ze3m/page-assist#406): Google's error in an array
  gemini.enqueue(
    jsonReply(429, [{ error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" } }]),
    sseReply(sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })])),
  );
  const run = await runHey(["--base-url", `${gemini.url}/v1beta/openai`, "-m", "gemini-2.5-flash", "-p", "hi"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(run.stderr).toMatch(/^retrying in .* \(1\/5\): rate limited \(429\): Resource has been exhausted \(e\.g\. check quota\)\.\n$/);
});

test("Groq's per-minute 429, whose message links to its billing page, is waited out and the answer arrives", async () => {
  const groq = openrouter;
  const message =
    "Rate limit reached for model `llama-3.1-8b-instant` in organization `org_01j5b4pz9jff492fq686vypsx6` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5034, Requested 1443. Please try again in 0.77s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing";
  groq.enqueue(
    jsonReply(429, { error: { message, type: "tokens", code: "rate_limit_exceeded" } }, { "retry-after": "1" }),
    sseReply(sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })])),
  );
  const run = await runHey(["--base-url", `${groq.url}/openai/v1`, "-m", "llama-3.1-8b-instant", "-p", "hi"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(run.stderr).toMatch(/^retrying in 1(\.\d)? s \(1\/5\): rate limited \(429\): Rate limit reached for model/);
});

// Mistral's reasoning models stream their thinking as typed chunks of `content`, and Mistral refuses
// fields it does not know with pydantic's "Extra inputs are not permitted" (both constructed from
// their documented shapes: braintrustdata/braintrust-sdk-javascript#1857, mistralai/platform-docs-public#7).
const knowsNoReasoningContent: InvariantCheck = {
  name: "mistral-fields",
  applies: (path) => path.endsWith("/chat/completions"),
  check: (body) =>
    JSON.stringify((body as { messages?: unknown }).messages ?? []).includes('"reasoning_content"')
      ? ["Extra inputs are not permitted: body.messages.assistant.reasoning_content (extra_forbidden)"]
      : [],
};
const magistral = fileReplayServer([openaiChatToolPairs, knowsNoReasoningContent]);

test("a Magistral model: its thinking chunks are not printed as the answer, and the tool loop goes on where reasoning_content is refused", async () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: "m1",
    object: "chat.completion.chunk",
    created: 0,
    model: "magistral-small-latest",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const thinking = (text: string) => ({ content: [{ type: "thinking", thinking: [{ type: "text", text }] }] });
  magistral.enqueue(
    sseReply(
      sse([
        chunk({ role: "assistant", ...thinking("I should look at the files.") }),
        chunk({ tool_calls: [{ id: "Ab3dE6gH9", type: "function", index: 0, function: { name: "bash", arguments: '{"command":"echo checked"}' } }] }),
        chunk({}, "tool_calls"),
      ]),
    ),
    sseReply(sse([chunk(thinking("It printed checked.")), chunk({ content: [{ type: "text", text: "All " }] }), chunk({ content: "checked." }, "stop")])),
  );
  const before = magistral.violations.length;
  const run = await runHey(["--base-url", `${magistral.url}/v1`, "-m", "magistral-small-latest", "-p", "check it"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "All checked.\n" });
  expect(run.stderr).not.toContain("[object Object]");
  // refused once, then sent without it
  expect(magistral.violations.slice(before)).toHaveLength(1);
});

test("llama-server sending tool-call arguments as an object: the command runs with them", async () => {
  const llama = openrouter;
  const call = {
    id: "x",
    object: "chat.completion.chunk",
    created: 0,
    model: "qwen",
    choices: [
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "bash", arguments: { command: "echo from-object-args" } } }] },
        finish_reason: null,
      },
    ],
  };
  llama.enqueue(sseReply(sse([call, chatChunk({ finish: "tool_calls" })])), sseReply(sse([chatChunk({ content: "ran" }), chatChunk({ finish: "stop" })])));
  const before = llama.requests.length;
  const run = await runHey(["--base-url", `${llama.url}/v1`, "-m", "qwen", "-p", "run it"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "ran\n" });
  const result = JSON.stringify(llama.requests.slice(before).at(-1)?.body);
  expect(result).toContain("from-object-args\\n[exit code 0]");
});

// Gemini 3 through its OpenAI-compatible endpoint: each call's thought signature comes in
// `extra_content.google.thought_signature` and must go back with it, or the next request is a 400
// "Function call is missing a thought_signature in functionCall parts" (openai/codex#7519,
// openai-agents-python#2137; the field as continuedev/continue#8865 reads it). Constructed, not recorded.
const signed: InvariantCheck = {
  name: "gemini-thought-signatures",
  applies: (path) => path.endsWith("/chat/completions"),
  check: (body) => {
    const messages = (body as { messages?: { role: string; tool_calls?: { extra_content?: { google?: { thought_signature?: string } } }[] }[] }).messages ?? [];
    const ok = (sig: string | undefined) => sig === "sig-A" || sig === "skip_thought_signature_validator";
    return messages.some((m) => m.role === "assistant" && m.tool_calls?.length && !ok(m.tool_calls[0]?.extra_content?.google?.thought_signature))
      ? ["Function call is missing a thought_signature in functionCall parts."]
      : [];
  },
};
const gemini3 = fileReplayServer([openaiChatToolPairs, signed]);

test("Gemini 3 through its OpenAI-compatible endpoint: the tool call's thought signature goes back with it, and the loop goes on", async () => {
  const call = {
    id: "g1",
    object: "chat.completion.chunk",
    created: 0,
    model: "gemini-3-flash-preview",
    choices: [
      {
        index: 0,
        delta: {
          role: "assistant",
          tool_calls: [
            {
              index: 0,
              id: "function-call-1",
              type: "function",
              function: { name: "bash", arguments: '{"command":"echo gem"}' },
              extra_content: { google: { thought_signature: "sig-A" } },
            },
          ],
        },
        finish_reason: null,
      },
    ],
  };
  gemini3.enqueue(sseReply(sse([call, chatChunk({ finish: "tool_calls" })])), sseReply(sse([chatChunk({ content: "done" }), chatChunk({ finish: "stop" })])));
  const run = await runHey(["--base-url", `${gemini3.url}/v1beta/openai`, "-m", "gemini-3-flash-preview", "-p", "go"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "done\n" });
  expect(gemini3.violations).toEqual([]);
});

test("a session begun on another model continues on Gemini 3 through its compatible endpoint: calls it did not make go with Google's stand-in signature", async () => {
  const env = { XDG_STATE_HOME: join(state.path, "gemini-switch") };
  const call = chatChunk({ toolCall: { index: 0, id: "call_1", name: "bash", arguments: '{"command":"echo one"}' } });
  const answer = (text: string) => sseReply(sse([chatChunk({ content: text }), chatChunk({ finish: "stop" })]));
  // the first run on "gpt": a call without any signature
  gemini3.enqueue(sseReply(sse([call, chatChunk({ finish: "tool_calls" })])), answer("first"));
  // the first run's own call went without a signature too: refused once there, then resent
  expect(await runHey(["--base-url", `${gemini3.url}/v1beta/openai`, "-m", "gpt", "-p", "go"], { cwd: work.path, env })).toMatchObject({ code: 0 });
  const before = gemini3.violations.length;
  gemini3.enqueue(answer("second"));
  const run = await runHey(["--base-url", `${gemini3.url}/v1beta/openai`, "-m", "gemini-3-flash-preview", "-c", "-p", "and now?"], { cwd: work.path, env });
  expect(run).toMatchObject({ code: 0, stdout: "second\n" });
  expect(gemini3.violations.slice(before)).toEqual(["Function call is missing a thought_signature in functionCall parts."]);
});

// vLLM without --reasoning-parser, llama.cpp with --reasoning-format none, LM Studio, R1 distills:
// the model's thinking comes inside the content, between <think> tags, the closing tag split here.
test("thinking between <think> tags in the content is shown as thinking, and only the answer is printed", async () => {
  const server = openrouter;
  server.enqueue(
    sseReply(
      sse([
        chatChunk({ content: "<think>\nI am pondering" }),
        chatChunk({ content: " hard.</th" }),
        chatChunk({ content: "ink>\n\nAnswer C." }),
        chatChunk({ finish: "stop" }),
      ]),
    ),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "deepseek-r1-distill-qwen-7b", "-p", "which one?"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "Answer C.\n" });
  expect(run.stderr).toContain("I am pondering hard.");
  expect(run.stderr).not.toContain("think>");
});

// The plumbing every adapter shares: the status rules and words of its errors, the header reader,
// and the flattening of IR content. Each vendor's own reading of its errors: <vendor>-errors.test.ts.
import { expect, test } from "bun:test";
import type { ContentBlock } from "../../src/kernel/ir.ts";
import type { ProviderErrorKind } from "../../src/kernel/provider.ts";
import {
  classifyFailure,
  errorContextOf,
  headerReader,
  joinText,
  networkError,
  oneLine,
  requestBasics,
  sdkWords,
  toolText,
} from "../../src/providers/common.ts";
import type { Failure } from "../../src/providers/common.ts";

const ctx = { baseUrl: "https://api.example.test/v1", keyVar: "EXAMPLE_API_KEY" };

/** [what failed, the kind, the message, the status and delay the error carries] */
const CASES: [Failure, ProviderErrorKind, string, { status?: number; retryAfterMs?: number }][] = [
  [{ status: 401, said: "bad key", retryAfterMs: 5 }, "auth", "authentication failed (401): bad key — check EXAMPLE_API_KEY", { status: 401 }],
  [{ status: 400, said: "bad key", badKey: true }, "auth", "authentication failed (400): bad key — check EXAMPLE_API_KEY", { status: 400 }],
  [{ status: 429, said: "spent", quota: true, retryAfterMs: 5 }, "quota_exhausted", "quota exhausted (429): spent", { status: 429 }],
  [{ status: 429, said: "slow down", retryAfterMs: 5 }, "rate_limit", "rate limited (429): slow down", { status: 429, retryAfterMs: 5 }],
  [{ status: 408, said: "timeout" }, "network", "request timed out (408): timeout", { status: 408 }],
  [{ status: 503, said: "busy", retryAfterMs: 5 }, "overloaded", "the provider is failing (503): busy", { status: 503, retryAfterMs: 5 }],
  [
    { status: 500, said: "always", final: true, retryAfterMs: 5 },
    "bad_request",
    "the provider failed (500) and says retrying will not help: always",
    { status: 500 },
  ],
  [{ status: 400, said: "bad", final: true }, "bad_request", "request rejected (400): bad", { status: 400 }],
  [
    { status: 404, said: "no model" },
    "bad_request",
    "request rejected (404): no model — check the model name and base URL https://api.example.test/v1",
    { status: 404 },
  ],
  // a model or server that takes no tools: never retried (llama.cpp says so with a 500), and what to do
  ...(
    [
      [400, "registry.ollama.ai/library/gemma:2b does not support tools"],
      [400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
      [500, "tools param requires --jinja flag"],
      [404, "No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing"],
      // DeepInfra (truefoundry/models#944), Azure OpenAI (MicrosoftDocs/azure-docs#121504), OpenAI's chat-only models (sbintuitions/flexeval#242)
      [405, "deepinfra error: Tool calling is not supported for model: mistralai/Mistral-Small-24B-Instruct-2501"],
      [400, "Functions are not supported for this API version or this model version."],
      [400, "tools is not supported in this model."],
      // Gemini's refusal for Gemma, through a gateway that copies it (agno#3505)
      [400, "Function calling is not enabled for models/gemma-3-27b-it"],
    ] as const
  ).map(([status, said]): (typeof CASES)[number] => [
    { status, said, retryAfterMs: 5 },
    "bad_request",
    `request rejected (${status}): ${said} — this model or server takes no tools, and hey works through them (reading files, running commands): pick a model that calls tools (-m), or turn tool calling on in the server (vLLM: --enable-auto-tool-choice --tool-call-parser NAME; llama.cpp: --jinja)`,
    { status },
  ]),
  // a model without vision (Ollama's 500 for a model missing its projector): never retried, the adapter sends its images as lines
  [
    { status: 500, said: "this model is missing data required for image input", retryAfterMs: 5 },
    "bad_request",
    "request rejected (500): this model is missing data required for image input",
    { status: 500 },
  ],
  // llama-server while it loads the model (its tools/server/README.md): waited for, not a failing server
  [{ status: 503, said: "Loading model" }, "loading", "the server is still loading the model (503): Loading model", { status: 503 }],
  [
    { status: 503, said: "Model bigscience/bloom is currently loading", retryAfterMs: 20_000 },
    "loading",
    "the server is still loading the model (503): Model bigscience/bloom is currently loading",
    { status: 503, retryAfterMs: 20_000 },
  ],
  // Ollama's model too large for the machine: final, saying what to change
  [
    { status: 500, said: "model requires more system memory (10.2 GiB) than is available (6.0 GiB)" },
    "bad_request",
    "the server cannot load the model (500): model requires more system memory (10.2 GiB) than is available (6.0 GiB) — the model does not fit in the server's memory, and asking again only makes it try to load once more: use a smaller model (or a smaller quantization of it) or a smaller context, which costs memory as it grows (Ollama: OLLAMA_CONTEXT_LENGTH; llama-server: -c), or free memory on that machine",
    { status: 500 },
  ],
  [
    { status: 529, said: "busy", where: "mid-stream (overloaded_error)", noStatus: true, retryAfterMs: 5 },
    "overloaded",
    "the provider is failing mid-stream (overloaded_error): busy",
    { retryAfterMs: 5 },
  ],
];
const titled = CASES.map(([failure, kind, message, carried]) => ({
  title: `${JSON.stringify(failure)} → ${kind}: ${message}`,
  failure,
  kind,
  message,
  carried,
}));

test.each(titled)("classifyFailure $title", ({ failure, kind, message, carried }) => {
  const e = classifyFailure(failure, ctx);
  expect(e.kind).toBe(kind);
  expect(e.message).toBe(message);
  expect({ status: e.status, retryAfterMs: e.retryAfterMs }).toEqual({ status: undefined, retryAfterMs: undefined, ...carried });
});

test("a network error names the base URL and the cause, when there is one", () => {
  expect(networkError("Connection error.", new Error("ECONNREFUSED"), ctx.baseUrl).message).toBe(
    "network error talking to https://api.example.test/v1: Connection error. (ECONNREFUSED)",
  );
  expect(networkError("", "not an Error", ctx.baseUrl)).toMatchObject({ kind: "network", message: "network error talking to https://api.example.test/v1: " });
});

test("Bun's advice to fetch's callers (pass verbose: true…) is left out of the message", () => {
  const bun = new Error("The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()");
  expect(networkError("Connection error.", bun, ctx.baseUrl).message).toBe(
    "network error talking to https://api.example.test/v1: Connection error. (The socket connection was closed unexpectedly.)",
  );
});

test.each([
  { title: "Headers → 3", headers: new Headers({ "Retry-After": "3" }) as unknown, expected: "3" },
  { title: "a plain record → 3", headers: { "retry-after": "3" }, expected: "3" },
  { title: "a record with a non-string value → nothing", headers: { "retry-after": 3 }, expected: undefined },
  { title: "no headers → nothing", headers: undefined, expected: undefined },
])("headerReader, retry-after in $title", ({ headers, expected }) => {
  expect(headerReader(headers)("retry-after") ?? undefined).toBe(expected);
});

test.each([
  { said: "502 Bad Gateway", expected: "Bad Gateway" },
  { said: "Connection error.", expected: "Connection error." },
  { said: "", expected: "(no message)" },
])("sdkWords: '$said' → '$expected'", ({ said, expected }) => expect(sdkWords(said)).toBe(expected));
test("sdkWords of no message at all is '(no message)'", () => expect(sdkWords(undefined)).toBe("(no message)"));

test("text is joined by lines; a tool's text names each image instead of sending it", () => {
  const content: ContentBlock[] = [
    { type: "text", text: "a" },
    { type: "thinking", text: "hidden" },
    { type: "image", mediaType: "image/png", data: "AAAA" },
    { type: "text", text: "b" },
  ];
  expect(joinText(content)).toBe("a\nb");
  expect(toolText(content)).toBe("a\n[image image/png omitted]\nb");
});

test("the factories' options: an empty key counts as none, unset options stay unset", () => {
  expect(errorContextOf({ model: "m", baseUrl: "u", apiKey: "", apiKeyVar: "K" })).toEqual({ baseUrl: "u", hasKey: false, keyVar: "K" });
  expect(errorContextOf({ model: "m", baseUrl: "u", apiKey: "k" })).toEqual({ baseUrl: "u", hasKey: true });
  expect(requestBasics({ model: "m", baseUrl: "u" })).toEqual({ model: "m" });
  expect(requestBasics({ model: "m", baseUrl: "u", maxTokens: 9, effort: "low" })).toEqual({ model: "m", maxTokens: 9, effort: "low" });
});

test("an error page is quoted as one line: an HTML page by its title, else its text; anything long is cut", () => {
  const page = [
    "<!doctype html>",
    "<html><head><title>502 Bad Gateway</title><style>body { color: red }</style></head>",
    "<body>",
    ...Array.from({ length: 300 }, (_, i) => `<p>line ${i} of the gateway's page</p>`),
    "</body></html>",
  ].join("\n");
  expect(oneLine(page)).toBe("an HTML page: 502 Bad Gateway");
  const untitled = "<html><body><h1>Service &amp; API unavailable</h1><script>var x = 1;</script>\n<p>try later</p></body></html>";
  expect(oneLine(untitled)).toBe("an HTML page: Service & API unavailable try later");
  const long = oneLine(`Traceback (most recent call last):\n${'  File "server.py", line 1\n'.repeat(40)}`);
  expect(long).toHaveLength(300);
  expect(long).toEndWith("…");
  expect(long).not.toContain("\n");
  expect(oneLine("model: claude-9")).toBe("model: claude-9");
  for (const empty of ["{}", "{ }", "[]", "null", "", "  \n"]) expect(oneLine(empty)).toBe("no details given (an empty body)");
  // the whole page never reaches the message, and the status still decides the kind
  const failing = classifyFailure({ status: 500, said: page }, { baseUrl: "http://gw/v1" });
  expect(failing).toMatchObject({ kind: "overloaded", message: "the provider is failing (500): an HTML page: 502 Bad Gateway" });
});

test("a prompt a content filter refused (Azure's 400 content_filter, OpenAI's flagged prompt) is a refused prompt, not a plain bad request; other 400s are not", () => {
  const azure = classifyFailure(
    { status: 400, said: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", body: { code: "content_filter" } },
    ctx,
  );
  expect(azure).toMatchObject({ kind: "bad_request", refusedPrompt: true, retryable: false });
  expect(azure.message).toStartWith("the provider's content filter refused the request (400): The response was filtered");
  const byCode = classifyFailure({ status: 400, said: "filtered", body: { code: "content_filter" } }, ctx);
  expect(byCode.refusedPrompt).toBe(true);
  const openai = classifyFailure({ status: 400, said: "Invalid prompt: your prompt was flagged as potentially violating our usage policy." }, ctx);
  expect(openai.refusedPrompt).toBe(true);
  expect(classifyFailure({ status: 400, said: "Invalid value for 'tool_choice'", body: { code: "invalid_value" } }, ctx).refusedPrompt).toBe(false);
  expect(classifyFailure({ status: 500, said: "content_filter backend down" }, ctx).refusedPrompt).toBe(false);
});

// Every shape of error body OpenAI-compatible servers send, through the real openai SDK from a
// loopback server, as the one line the user reads: the server's own words, without the quotes,
// braces or markup of the body they came in.
import { afterAll, expect, test } from "bun:test";
import { userMessage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { createOpenAIProvider } from "../../src/providers/openai.ts";
import { drain } from "../helpers/drain.ts";
import { startReplayServer } from "../helpers/replay-server.ts";

const server = startReplayServer();
afterAll(() => server.stop());

const LM_STUDIO_OVERFLOW =
  "Trying to keep the first 14538 tokens when context the overflows. However, the model is loaded with context length of only 2048 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input";
const NGINX_502 =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/** [server, status, content type, body as sent, the message the user reads] */
const CASES: [string, number, string, string, string][] = [
  // LM Studio sends its error as a bare string (dyad-sh/dyad#925 logged this body)
  [
    "LM Studio: a string error",
    400,
    "application/json",
    JSON.stringify({ error: LM_STUDIO_OVERFLOW }),
    `the request is larger than the model's context window (400): ${LM_STUDIO_OVERFLOW}`,
  ],
  // Ollama: {"error":"model \"x\" not found, try pulling it first"} (its api/types.go StatusError)
  [
    "Ollama: a string error with quotes inside",
    404,
    "application/json",
    JSON.stringify({ error: 'model "qwen9" not found, try pulling it first' }),
    'request rejected (404): model "qwen9" not found, try pulling it first — check the model name and base URL BASE',
  ],
  // OpenAI, llama.cpp, vLLM ≥ 0.10: {"error": {"message", "type", "code"}}
  [
    "OpenAI's shape",
    400,
    "application/json",
    JSON.stringify({ error: { message: "Unrecognized request argument supplied: foo", type: "invalid_request_error", param: null, code: null } }),
    "request rejected (400): Unrecognized request argument supplied: foo",
  ],
  // Mistral, older vLLM: the message at the top
  [
    "a message at the top",
    429,
    "application/json",
    JSON.stringify({ message: "Requests rate limit exceeded" }),
    "rate limited (429): Requests rate limit exceeded",
  ],
  // any FastAPI server's own error (a path it has no route for)
  [
    "FastAPI: a string detail",
    404,
    "application/json",
    JSON.stringify({ detail: "Not Found" }),
    "request rejected (404): Not Found — check the model name and base URL BASE",
  ],
  // FastAPI's request validation (pydantic v2's error list)
  [
    "FastAPI: a validation error list",
    422,
    "application/json",
    JSON.stringify({
      detail: [
        { type: "missing", loc: ["body", "messages"], msg: "Field required", input: { model: "m" } },
        { type: "string_type", loc: ["body", "model"], msg: "Input should be a valid string", input: 3 },
      ],
    }),
    "request rejected (422): body.messages: Field required; body.model: Input should be a valid string",
  ],
  // Cloudflare's API envelope
  [
    "Cloudflare: an errors list",
    400,
    "application/json",
    JSON.stringify({
      errors: [{ message: "AiError: Bad input: must have required property 'messages'", code: 5006 }],
      success: false,
      result: null,
      messages: [],
    }),
    "request rejected (400): AiError: Bad input: must have required property 'messages'",
  ],
  // Gemini's OpenAI-compatible endpoint: Google's error in a one-element array
  [
    "an array",
    400,
    "application/json",
    JSON.stringify([{ error: { code: 400, message: "Invalid JSON payload received.", status: "INVALID_ARGUMENT" } }]),
    "request rejected (400): Invalid JSON payload received.",
  ],
  ["a proxy's HTML page", 502, "text/html", NGINX_502, "the provider is failing (502): an HTML page: 502 Bad Gateway"],
  ["an empty body", 503, "text/plain", "", "the provider is failing (503): no details given (an empty body)"],
  ["an empty JSON object", 500, "application/json", "{}", "the provider is failing (500): no details given (an empty body)"],
  [
    "Go's plain-text 404",
    404,
    "text/plain; charset=utf-8",
    "404 page not found",
    "request rejected (404): 404 page not found — check the model name and base URL BASE",
  ],
];

test.each(CASES)("%s (%i) reads as one clean line", async (_, status, type, body, expected) => {
  server.enqueue({ status, headers: { "content-type": type }, chunks: [new TextEncoder().encode(body)] });
  const baseUrl = `${server.url}/v1`;
  const provider = await createOpenAIProvider({ model: "m", baseUrl });
  const { error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).message).toBe(expected.replace("BASE", baseUrl));
});

// A body whose `error` is only the status's name: the openai SDK keeps only that key, so hey read
// "Bad Request" alone (src/providers/whole-error-body.ts hands the SDK the whole body).
test.each([
  [
    "Fastify's own error (FST_ERR_CTP_EMPTY_JSON_BODY)",
    {
      statusCode: 400,
      code: "FST_ERR_CTP_EMPTY_JSON_BODY",
      error: "Bad Request",
      message: "Body cannot be empty when content-type is set to 'application/json'",
    },
    "request rejected (400): Body cannot be empty when content-type is set to 'application/json'",
  ],
  // NestJS's built-in BadRequestException (docs.nestjs.com/exception-filters), its ValidationPipe's list of messages
  [
    "NestJS's validation error",
    { statusCode: 400, message: ["model must be a string", "messages should not be empty"], error: "Bad Request" },
    "request rejected (400): model must be a string; messages should not be empty",
  ],
])("the openai protocol: %s reads as the server's words, not the status's name", async (_, body, expected) => {
  server.enqueue({ status: 400, headers: { "content-type": "application/json; charset=utf-8" }, chunks: [new TextEncoder().encode(JSON.stringify(body))] });
  const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
  const { error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect((error as ProviderError).message).toBe(expected);
});

test("a string error inside a 200 stream (an error chunk) reads unquoted too", async () => {
  server.enqueue({
    status: 200,
    headers: { "content-type": "text/event-stream" },
    chunks: [new TextEncoder().encode('data: {"error":"Model unloaded."}\n\n')],
  });
  const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
  const { error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect((error as ProviderError).message).toBe("the model failed mid-stream: Model unloaded.");
});

test.each([
  ["LM Studio's string error", JSON.stringify({ error: "Model unloaded." }), "request rejected (400): Model unloaded."],
  [
    "Anthropic's own shape",
    JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "max_tokens: Field required" } }),
    "request rejected (400): max_tokens: Field required",
  ],
  ["FastAPI's detail", JSON.stringify({ detail: "Not Found" }), "request rejected (400): Not Found"],
  // Fastify's own error (its FST_ERR_CTP_EMPTY_JSON_BODY): "error" is only the status's name
  [
    "Fastify's message beside the status's name",
    JSON.stringify({
      statusCode: 400,
      code: "FST_ERR_CTP_EMPTY_JSON_BODY",
      error: "Bad Request",
      message: "Body cannot be empty when content-type is set to 'application/json'",
    }),
    "request rejected (400): Body cannot be empty when content-type is set to 'application/json'",
  ],
])("the anthropic protocol, to a local server's Anthropic endpoint: %s reads as one clean line", async (_, body, expected) => {
  server.enqueue({ status: 400, headers: { "content-type": "application/json" }, chunks: [new TextEncoder().encode(body)] });
  const provider = await createAnthropicProvider({ model: "m", baseUrl: server.url });
  const { error } = await drain(provider.stream({ system: "", messages: [userMessage("hi")], tools: [] }, new AbortController().signal));
  expect((error as ProviderError).message).toBe(expected);
});

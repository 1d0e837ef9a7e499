// The endpoint's model list as each server answers it (src/model-list.ts): the ids, and the
// context window its entry states. Each body is shaped as the source named beside it shows a real
// answer (or, for Together, its OpenAPI spec).
import { afterEach, expect, test } from "bun:test";
import { listedModels, listedWindow, listModels } from "../../src/model-list.ts";
import type { ProviderSettings } from "../../src/config/settings.ts";

const BODIES: [string, unknown, string, number | undefined][] = [
  [
    // modal-labs/modal-examples#843
    "vLLM",
    {
      object: "list",
      data: [{ id: "meta-llama/Meta-Llama-3.1-8B-Instruct", object: "model", owned_by: "vllm", root: "x", parent: null, max_model_len: 8096 }],
    },
    "meta-llama/Meta-Llama-3.1-8B-Instruct",
    8096,
  ],
  [
    // anomalyco/models.dev#2796: the model's own context_length, not the top provider's
    "OpenRouter",
    { data: [{ id: "xiaomi/mimo-v2.5", context_length: 1048576, top_provider: { context_length: 32000, is_moderated: false } }] },
    "xiaomi/mimo-v2.5",
    1048576,
  ],
  [
    // anomalyco/models.dev#1276, sigoden/aichat#1498
    "Groq",
    {
      object: "list",
      data: [{ id: "llama-3.1-8b-instant", object: "model", owned_by: "Meta", active: true, context_window: 131072, max_completion_tokens: 131072 }],
    },
    "llama-3.1-8b-instant",
    131072,
  ],
  [
    // simonw/llm-mistral#23
    "Mistral",
    { object: "list", data: [{ id: "open-mixtral-8x7b", object: "model", capabilities: { completion_chat: true }, max_context_length: 32768, aliases: [] }] },
    "open-mixtral-8x7b",
    32768,
  ],
  [
    // togethercomputer/openapi openapi.yaml: ModelInfoList is a bare array of ModelInfo
    "Together",
    [{ id: "meta-llama/Llama-3.3-70B-Instruct-Turbo", object: "model", created: 1692896905, type: "chat", context_length: 131072 }],
    "meta-llama/Llama-3.3-70B-Instruct-Turbo",
    131072,
  ],
  // @google/genai Model.inputTokenLimit; @anthropic-ai/sdk ModelInfo.max_input_tokens
  ["Gemini", { models: [{ name: "models/gemini-2.5-flash", inputTokenLimit: 1048576, outputTokenLimit: 65536 }] }, "gemini-2.5-flash", 1048576],
  ["Anthropic", { data: [{ id: "claude-sonnet-4-5", type: "model", max_input_tokens: 200000 }], has_more: false }, "claude-sonnet-4-5", 200000],
  // lmstudio-ai/lmstudio-bug-tracker#2139: LM Studio's /v1/models states no window
  ["LM Studio", { data: [{ id: "google/gemma-4-12b-qat", object: "model", owned_by: "organization_owner" }] }, "google/gemma-4-12b-qat", undefined],
  ["a window that is no count", { data: [{ id: "m", context_length: "128k" }] }, "m", undefined],
];

test.each(BODIES)("%s: the model is listed, with the window its entry states", (_, body, id, window) => {
  const entries = listedModels(body);
  expect(entries.map(([name]) => name)).toContain(id);
  expect(listedWindow(entries.find(([name]) => name === id)?.[1])).toBe(window);
});

let server: ReturnType<typeof Bun.serve> | undefined;
afterEach(() => {
  server?.stop(true);
  server = undefined;
});

test("Together's bare array: hey doctor and /model see its models (they saw none: `not in the list of 0 models`)", async () => {
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json(BODIES.find(([name]) => name === "Together")![1]) });
  const settings = {
    name: "together",
    protocol: "openai",
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    apiKey: "k",
    headers: {},
  } as unknown as ProviderSettings;
  const got = await listModels(settings, "meta-llama/Llama-3.3-70B-Instruct-Turbo", fetch);
  expect(got).toEqual({ ok: true, listed: ["meta-llama/Llama-3.3-70B-Instruct-Turbo"], window: 131072 });
});

test.each([
  ["anthropic", "limit", (ids: string[]) => ({ data: ids.map((id) => ({ id, type: "model", max_input_tokens: 200000 })), has_more: false })],
  ["google", "pageSize", (ids: string[]) => ({ models: ids.map((id) => ({ name: `models/${id}`, inputTokenLimit: 1048576 })) })],
] as const)("%s: the model on a later page of the list is found (the list asked in one page, %s)", async (protocol, param, page) => {
  const ids = Array.from({ length: 60 }, (_, i) => `model-${i}`);
  // the first page holds 20 unless the request asks for more, as the vendor's list does
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => Response.json(page(ids.slice(0, Number(new URL(req.url).searchParams.get(param) ?? 20)))),
  });
  const settings = { name: protocol, protocol, baseUrl: `http://127.0.0.1:${server.port}`, apiKey: "k", headers: {} } as unknown as ProviderSettings;
  const got = await listModels(settings, "model-42", fetch);
  expect(got).toMatchObject({ ok: true, window: protocol === "anthropic" ? 200000 : 1048576 });
  expect(got.ok && got.listed).toContain("model-42");
});

test("a base_url whose /models never ends (a download, an event stream) is given up on at 16 MB, not read into memory until the deadline", async () => {
  let sent = 0;
  const mb = new Uint8Array(1024 * 1024).fill(0x20);
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        new ReadableStream({
          pull(c) {
            sent++;
            c.enqueue(mb);
          },
        }),
        { headers: { "content-type": "application/json" } },
      ),
  });
  const settings = { name: "x", protocol: "openai", baseUrl: `http://127.0.0.1:${server.port}/v1`, apiKey: "k", headers: {} } as unknown as ProviderSettings;
  const got = await listModels(settings, "m", fetch, undefined, 60_000);
  expect(got).toEqual({
    ok: false,
    kind: "protocol",
    status: 200,
    message: `GET http://127.0.0.1:${server.port}/v1/models: the answer is over 16 MB, not a model list`,
  });
  expect(sent).toBeLessThan(64); // the rest was never asked for
});

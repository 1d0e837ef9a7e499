// Which local model server answered and what its own API says of the model's context
// (providers/served-context.ts): the bodies are shaped as each server documents them, or as users
// quoted them where the docs leave a field out.
import { expect, test } from "bun:test";
import {
  belowConfiguredNotice,
  contextPaths,
  isLocalHost,
  servedContext,
  serverNamed,
  serverRoot,
  serversToAsk,
  smallContextNotice,
} from "../../src/providers/served-context.ts";

test.each([
  ["fp_ollama", { server: "ollama" }],
  ["b4963-02082f15", { server: "llama.cpp" }], // llama-server's build_info
  ["b9952-2ed3c1abb", { server: "llama.cpp" }],
  ["fp_44709d6fcb", {}], // OpenAI
  ["qwen2.5-7b-instruct", {}],
  [null, {}],
  [undefined, {}],
] as const)("serverNamed(%p)", (fingerprint, named) => {
  expect(serverNamed(fingerprint)).toEqual(named);
});

test.each([
  ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434"],
  ["http://localhost:1234/v1/", "http://localhost:1234"],
  ["https://ollama.example.com/v1", "https://ollama.example.com"], // a remote Ollama behind TLS
  ["http://127.0.0.1:3000/ollama/v1", "http://127.0.0.1:3000/ollama"], // behind a path
  ["http://gpu-box:8080", "http://gpu-box:8080"],
  ["not a url", undefined],
  ["ftp://host/v1", undefined],
])("serverRoot(%p) = %p", (baseUrl, root) => {
  expect(serverRoot(baseUrl)).toBe(root);
});

test.each([
  ["127.0.0.1", true],
  ["localhost", true],
  ["[::1]", true],
  ["192.168.1.20", true],
  ["10.0.0.5", true],
  ["172.20.3.4", true],
  ["172.32.0.1", false],
  ["100.101.102.103", true], // Tailscale
  ["fd7a:115c:a1e0::1", true],
  ["gpu-box", true],
  ["studio.local", true],
  ["box.lan", true],
  ["api.openai.com", false],
  ["8.8.8.8", false],
  ["2606:4700::1111", false],
])("isLocalHost(%p) = %p", (host, local) => {
  expect(isLocalHost(host)).toBe(local);
});

test("who is asked: the server an answer names, wherever it is; else LM Studio, on its port of a local host only", () => {
  expect(serversToAsk("ollama", "https://ollama.example.com")).toEqual(["ollama"]);
  expect(serversToAsk("llama.cpp", "http://203.0.113.7:8080")).toEqual(["llama.cpp"]);
  expect(serversToAsk(undefined, "http://localhost:1234")).toEqual(["lmstudio"]);
  expect(serversToAsk(undefined, "http://192.168.1.20:1234")).toEqual(["lmstudio"]);
  expect(serversToAsk(undefined, "http://127.0.0.1:8000")).toEqual([]); // a vLLM, or any test's mock server
  expect(serversToAsk(undefined, "https://api.example.com:1234")).toEqual([]);
  expect(serversToAsk(undefined, "https://api.openai.com")).toEqual([]);
  expect(contextPaths("llama.cpp", "org/model:Q4_K_M")).toEqual(["/props", "/props?model=org%2Fmodel%3AQ4_K_M"]);
  expect(contextPaths("lmstudio", "m")).toEqual(["/api/v1/models", "/api/v0/models"]);
});

const v1 = (instances: unknown[], key = "qwen/qwen3-8b") => ({
  models: [
    { type: "llm", key, display_name: "Qwen3 8B", loaded_instances: instances, max_context_length: 131072, format: "gguf" },
    { type: "embedding", key: "text-embedding-nomic-embed-text-v1.5", loaded_instances: [], max_context_length: 2048 },
  ],
});
test.each([
  // lmstudio.ai/docs/developer/rest/list (LM Studio 0.4)
  ["LM Studio v1, loaded", "lmstudio", v1([{ id: "qwen/qwen3-8b", config: { context_length: 4096 } }]), "qwen/qwen3-8b", 4096],
  ["LM Studio v1, asked by an instance id", "lmstudio", v1([{ id: "qwen/qwen3-8b:2", config: { context_length: 8192 } }]), "qwen/qwen3-8b:2", 8192],
  [
    "LM Studio v1, two instances: the smaller",
    "lmstudio",
    v1([
      { id: "a", config: { context_length: 8192 } },
      { id: "b", config: { context_length: 4096 } },
    ]),
    "qwen/qwen3-8b",
    4096,
  ],
  ["LM Studio v1, asked without the publisher", "lmstudio", v1([{ id: "qwen/qwen3-8b", config: { context_length: 4096 } }]), "qwen3-8b", 4096],
  ["LM Studio v1, not loaded: its max_context_length is no answer", "lmstudio", v1([]), "qwen/qwen3-8b", undefined],
  ["LM Studio v1, another model", "lmstudio", v1([{ id: "x", config: { context_length: 4096 } }], "other"), "qwen/qwen3-8b", undefined],
  // LM Studio 0.3.x, as zed-industries/zed#25606 shows the answer
  [
    "LM Studio v0, loaded",
    "lmstudio",
    { object: "list", data: [{ id: "gemma-3-4b-it", object: "model", state: "loaded", max_context_length: 131072, loaded_context_length: 4096 }] },
    "gemma-3-4b-it",
    4096,
  ],
  ["LM Studio v0, not loaded", "lmstudio", { data: [{ id: "gemma-3-4b-it", state: "not-loaded", max_context_length: 131072 }] }, "gemma-3-4b-it", undefined],
  // llama.cpp's tools/server/README.md, GET /props
  ["llama-server", "llama.cpp", { default_generation_settings: { id: 0, n_ctx: 65536, params: {} }, total_slots: 4, build_info: "b8681-Debian" }, "any", 65536],
  ["llama-server's router without ?model= (a placeholder)", "llama.cpp", { default_generation_settings: { n_ctx: 0 } }, "any", undefined],
  ["an error body", "llama.cpp", { error: { code: 404, message: "File Not Found", type: "not_found_error" } }, "any", undefined],
  ["Ollama", "ollama", { models: [{ name: "qwen3:latest", model: "qwen3:latest", context_length: 4096 }] }, "qwen3", 4096],
] as const)("servedContext: %s", (_, kind, body, model, tokens) => {
  expect(servedContext(kind, body, model)).toBe(tokens);
});

test("each server's notice says how to raise its own context", () => {
  expect(smallContextNotice(4096, "m", "lms", "lmstudio")).toBe(
    "LM Studio runs m with a context of 4,096 tokens, too small for an agent; hey keeps each request within it. Raise it: load the model with a larger context length (lms load MODEL --context-length 32768, or the model's load settings in LM Studio), or, if the server runs it with more, set context_window in [provider.lms] (context_window tells hey the window, it does not change the server's)",
  );
  expect(smallContextNotice(8192, "m", "local", "llama.cpp")).toContain("llama-server runs m with a context of 8,192 tokens");
  expect(smallContextNotice(8192, "m", "local", "llama.cpp")).toContain("start llama-server with a larger context (-c 32768)");
  expect(smallContextNotice(32768, "m", "local", "llama.cpp")).toBeUndefined();
});

test("a context_window above what the server runs is said with both numbers, as no setting of the server's", () => {
  const line = belowConfiguredNotice(4096, 32768, "qwen3", "ollama", "ollama");
  expect(line).toContain("Ollama runs qwen3 with a context of 4,096 tokens, less than context_window = 32768 in [provider.ollama]");
  expect(line).toContain("context_window tells hey the model's window, it does not change the server's");
  expect(line).toContain("OLLAMA_CONTEXT_LENGTH=32768 ollama serve");
  expect(line).toContain("PARAMETER num_ctx 32768");
  expect(belowConfiguredNotice(8192, 65536, "m", "local", "llama.cpp")).toContain("start llama-server with a larger context (-c 65536)");
  expect(smallContextNotice(4096, "qwen3", "ollama")).toContain("context_window tells hey the window, it does not change the server's");
});

test("a --base-url run, which has no table a key can go in, is told to give the endpoint one, then -m NAME/model", () => {
  for (const line of [smallContextNotice(8192, "qwen3", "cli", "list")!, smallContextNotice(4096, "qwen3", "cli", "llama.cpp")!]) {
    expect(line).not.toContain("[provider.cli]");
    expect(line).toContain("[provider.NAME] with this base_url and context_window = TOKENS, then start hey -m NAME/qwen3 at a terminal once to approve it");
  }
  expect(smallContextNotice(8192, "qwen3", "cli", "list")).toStartWith("the model list of the --base-url endpoint says qwen3 takes 8,192 tokens");
});

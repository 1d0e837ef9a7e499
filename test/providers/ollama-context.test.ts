// What hey reads of a local Ollama's context (providers/ollama-context.ts): which hosts are asked,
// what a GET /api/ps body says (shapes from https://github.com/ollama/ollama/blob/main/docs/api.md,
// "List Running Models", with `context_length` as api/types.go ProcessModelResponse has it since
// ollama 0.9.7), and when the user is told.
import { expect, test } from "bun:test";
import { AGENT_MIN_CONTEXT, loadedContext, ollamaRoot, smallContextNotice } from "../../src/providers/ollama-context.ts";

test.each([
  ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434"],
  ["http://localhost:11434/v1/", "http://localhost:11434"],
  ["http://[::1]:8080/v1", "http://[::1]:8080"],
  ["http://gpu-box.lan:11434/v1", "http://gpu-box.lan:11434"], // Ollama's port on another machine
  ["http://127.0.0.1:3000/ollama/v1", "http://127.0.0.1:3000/ollama"], // behind a path on this machine
  ["https://api.openai.com/v1", undefined], // never asked anything extra
  ["http://10.0.0.5:8000/v1", undefined], // a LAN vLLM on its own port
  ["not a url", undefined],
])("ollamaRoot(%p) = %p", (baseUrl, root) => {
  expect(ollamaRoot(baseUrl)).toBe(root);
});

const ps = (entries: Record<string, unknown>[]) => ({ models: entries });
test.each([
  ["qwen3", ps([{ name: "qwen3:latest", model: "qwen3:latest", size_vram: 1, context_length: 4096 }]), 4096],
  [
    "qwen3:14b",
    ps([
      { name: "llama3.2:latest", context_length: 131072 },
      { name: "qwen3:14b", model: "qwen3:14b", context_length: 8192 },
    ]),
    8192,
  ],
  ["qwen3:14b", ps([{ name: "qwen3:latest", context_length: 4096 }]), undefined], // another tag is another model
  ["qwen3", ps([{ name: "qwen3:latest", model: "qwen3:latest" }]), undefined], // an Ollama older than 0.9.7
  ["qwen3", ps([]), undefined], // not loaded (unloaded since, or another server)
  ["qwen3", { error: "not found" }, undefined],
  ["qwen3", null, undefined],
  ["qwen3", ps([{ name: "qwen3:latest", context_length: "4096" }]), undefined],
])("loadedContext for %p", (model, body, context) => {
  expect(loadedContext(body, model)).toBe(context);
});

test("the user is told of a context below what an agent needs, with how to raise it, and of no other", () => {
  const line = smallContextNotice(4096, "qwen3", "ollama")!;
  expect(line).toContain("Ollama runs qwen3 with a context of 4,096 tokens");
  expect(line).toContain("OLLAMA_CONTEXT_LENGTH=32768 ollama serve");
  expect(line).toContain("context_window in [provider.ollama]");
  expect(line).not.toContain("\n");
  expect(smallContextNotice(AGENT_MIN_CONTEXT, "qwen3", "ollama")).toBeUndefined();
  expect(smallContextNotice(32768, "qwen3", "ollama")).toBeUndefined();
});

// A model server still loading the model, or unable to: llama-server answers 503 "Loading model"
// while a large GGUF loads (its tools/server/README.md), which hey waits for, saying so, past
// [retry] max_retries; Ollama's 500 "model requires more system memory … than is available" is
// final: asked once, with what to change. Through dist/hey against loopback servers.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

let server: ReturnType<typeof Bun.serve> | undefined;
let work: ReturnType<typeof tempDir> | undefined;
afterEach(() => void [server?.stop(true), work?.remove(), (server = work = undefined)]);

/** A chat server whose first `failing` requests get `fail`, the rest an answer; counts the requests. */
function start(failing: number, fail: () => Response) {
  const seen = { requests: 0 };
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      if (new URL(req.url).pathname !== "/v1/chat/completions") return new Response("404 page not found", { status: 404 });
      if (++seen.requests <= failing) return fail();
      const chunks = [chatChunk({ content: "loaded and answering" }), chatChunk({ finish: "stop" })];
      return new Response(sse(chunks.map((c) => ({ ...c, system_fingerprint: "b4963-02082f15" }))), { headers: { "content-type": "text/event-stream" } });
    },
  });
  work = tempDir("hey-loading-");
  const config = join(work.path, "hey.toml");
  writeFileSync(config, "[retry]\nmax_retries = 1\nbase_delay_ms = 100\njitter = false\n");
  return { seen, url: `http://127.0.0.1:${server.port}/v1`, config };
}

test("llama-server still loading the model (503 Loading model): waited for past max_retries, said as loading, then the answer", async () => {
  const loading = () => Response.json({ error: { code: 503, message: "Loading model", type: "unavailable_error" } }, { status: 503 });
  const { seen, url, config } = start(2, loading);
  const run = await runHey(["--base-url", url, "-m", "qwen3", "--config", config, "--output", "json", "-p", "hi"], { cwd: work!.path, timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  expect(seen.requests).toBe(3);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "loaded and answering" });
  const retries = jsonEvents(run.stdout).filter((e) => e.type === "retry");
  expect(retries.map((e) => e.error)).toEqual([0, 1].map(() => "the server is still loading the model (503): Loading model"));
}, 90_000);

test("Ollama's model too large for the memory it has (500): asked once, final, saying to pick a smaller model or context", async () => {
  const memory = () => Response.json({ error: "model requires more system memory (10.2 GiB) than is available (6.0 GiB)" }, { status: 500 });
  const { seen, url, config } = start(99, memory);
  const run = await runHey(["--base-url", url, "-m", "qwen3", "--config", config, "-p", "hi"], { cwd: work!.path, timeoutMs: 60_000 });
  expect(run.code).toBe(1);
  expect(seen.requests).toBe(1);
  expect(run.stderr).toContain("error: the server cannot load the model (500): model requires more system memory (10.2 GiB) than is available (6.0 GiB)");
  expect(run.stderr).toContain("use a smaller model (or a smaller quantization of it) or a smaller context");
  expect(run.stderr).not.toContain("retrying");
}, 90_000);

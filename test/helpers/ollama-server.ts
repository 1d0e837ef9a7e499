// A loopback stand-in for a local Ollama, built from its documentation, not recorded:
// - POST /v1/chat/completions (https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx)
//   runs the model with a context of `context` tokens (body bytes / 4) and, as Ollama's
//   server/prompt.go chatPrompt does, silently drops the oldest messages but the system ones and
//   the last until the prompt fits; usage reports the tokens of what was kept;
// - GET /api/ps (https://github.com/ollama/ollama/blob/main/docs/api.md, "List Running Models")
//   lists the model once a chat has loaded it, with `context_length` (api/types.go
//   ProcessModelResponse, ollama 0.9.7 and later) unless `ps` says "old" (an older Ollama
//   without the field) or "none" (a proxy in front that passes only /v1: 404);
// - GET /api/version answers `{"version": …}` (docs/api.md, "Version").
// The "model" reads src/file1.ts … src/fileN.ts one per turn, then answers; a request without
// tools (a summary) gets a summary.
import { chatChunk, sse } from "./sse.ts";

interface Message {
  role: string;
  content: unknown;
}

export interface OllamaExchange {
  /** tokens of the request as sent */
  tokens: number;
  /** messages Ollama dropped to fit its context: the model never saw them */
  dropped: number;
  tools: boolean;
  body: string;
}

export interface OllamaServer {
  baseUrl: string;
  log: OllamaExchange[];
  /** GET /api/ps requests */
  psRequests: number;
  stop(): void;
}

const tokensOf = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);

/** `fingerprint: false`: answers that do not name Ollama (another server on this machine: vLLM, llama.cpp, LM Studio). */
export function startOllama(opts: { model: string; context: number; reads: number; ps?: "context" | "old" | "none"; fingerprint?: boolean }): OllamaServer {
  const log: OllamaExchange[] = [];
  let loaded = false;
  let step = 0;
  let psRequests = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (req.method === "GET" && path === "/api/ps") {
        psRequests++;
        if (opts.ps === "none") return new Response("404 page not found", { status: 404 });
        const name = opts.model.includes(":") ? opts.model : `${opts.model}:latest`;
        const entry = {
          name,
          model: name,
          size: 5137025024,
          digest: "2ae6f6dd7a3dd734790bbbf58b8909a606e0e7e97e94b7604e0aa7ae4490e6d8",
          details: { parent_model: "", format: "gguf", family: "qwen3", families: ["qwen3"], parameter_size: "8.2B", quantization_level: "Q4_K_M" },
          expires_at: "2026-06-04T14:38:31.83753-07:00",
          size_vram: 5137025024,
          ...(opts.ps === "old" ? {} : { context_length: opts.context }),
        };
        return Response.json({ models: loaded ? [entry] : [] });
      }
      if (req.method === "GET" && path === "/api/version") return Response.json({ version: opts.ps === "old" ? "0.9.0" : "0.12.3" });
      if (req.method !== "POST" || path !== "/v1/chat/completions") return new Response("404 page not found", { status: 404 });
      loaded = true;
      const text = await req.text();
      const body = JSON.parse(text) as { messages: Message[]; tools?: unknown[] };
      const tools = (body.tools?.length ?? 0) > 0;
      // chatPrompt: from the front, drop messages (keeping system ones and the last) until it fits
      let kept = body.messages;
      let dropped = 0;
      while (tokensOf(JSON.stringify({ ...body, messages: kept })) > opts.context) {
        const i = kept.findIndex((m, k) => m.role !== "system" && k < kept.length - 1);
        if (i < 0) break;
        kept = kept.filter((_, k) => k !== i);
        dropped++;
      }
      const prompt = tokensOf(JSON.stringify({ ...body, messages: kept }));
      log.push({ tokens: tokensOf(text), dropped, tools, body: text });
      const usage = chatChunk({ usage: { prompt_tokens: prompt, completion_tokens: 20, total_tokens: prompt + 20 } });
      const read = tools && step < opts.reads ? ++step : undefined;
      const chunks =
        read !== undefined
          ? [
              chatChunk({ toolCall: { index: 0, id: `call_${read}`, name: "read_file", arguments: JSON.stringify({ path: `src/file${read}.ts` }) } }),
              chatChunk({ finish: "tool_calls" }),
              usage,
            ]
          : [chatChunk({ content: tools ? `Read all ${opts.reads} files.` : "Summary: read the files so far." }), chatChunk({ finish: "stop" }), usage];
      // every chunk of Ollama's /v1 stream names it (ollama/ollama openai/openai.go: SystemFingerprint "fp_ollama")
      const named = opts.fingerprint === false ? chunks : chunks.map((c) => ({ ...c, system_fingerprint: "fp_ollama" }));
      return new Response(sse(named), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    log,
    get psRequests() {
      return psRequests;
    },
    stop: () => server.stop(true),
  };
}

// A loopback stand-in for a local Ollama, built from its documentation, not recorded:
// - POST /v1/chat/completions (https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx)
//   runs the model with a context of `context` tokens (body bytes / 4) and, as Ollama's
//   server/prompt.go chatPrompt does, silently drops the oldest messages but the system ones and
//   the last until the prompt fits; usage reports the tokens of what was kept (when even those
//   overflow, the runner's cut to half the context: ollama/ollama#17427);
// - GET /api/ps (https://github.com/ollama/ollama/blob/main/docs/api.md, "List Running Models")
//   lists the model once a chat has loaded it, with `context_length` (api/types.go
//   ProcessModelResponse, ollama 0.9.7 and later) unless `ps` says "old" (an older Ollama
//   without the field) or "none" (a proxy in front that passes only /v1: 404);
// - GET /api/version answers `{"version": …}` (docs/api.md, "Version");
// - POST /api/show (docs/api.md, "Show Model Information") answers the model's `parameters` (its
//   Modelfile's, with `num_ctx` when `modelfileContext` sets one: then it runs with that) and its
//   `model_info` with the context it was trained for (`qwen3.context_length`: 40960).
// `loaded`: the model is loaded before the run (an earlier run, `ollama run`), so /api/ps lists it
// at once. `count: "full"`: a prompt longer than the context reads the whole context (the runner
// keeps numKeep and the end: ollama's runner/ollamarunner NewSequence), not half of it.
// With `as` it stands in for another local server that cuts a long prompt the same way (LM Studio's
// "truncate middle" and "rolling window" overflow policies do): its answers name no server, and it
// answers LM Studio's GET /api/v1/models (lmstudio.ai/docs/developer/rest/list; "lmstudio-v0":
// only the older GET /api/v0/models, with `loaded_context_length` as zed-industries/zed#25606
// shows it); or, as "llama.cpp", its chunks carry llama-server's build as their fingerprint and
// GET /props says `default_generation_settings.n_ctx` (llama.cpp's tools/server/README.md); or, as
// "vllm", it refuses a prompt longer than its context with vLLM's 400 instead of cutting it
// ("This model's maximum context length is … tokens and your request has … input tokens", vLLM 0.9
// and later: src/providers/context-length.ts) and states the context as `max_model_len` in its
// GET /v1/models (an answer as modal-labs/modal-examples#843 quotes it; `listed` states another).
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
  /** what was left overflowed still, and the runner cut inside it to half the context */
  halved: boolean;
  /** refused as longer than the context (a vLLM) */
  refused: boolean;
  tools: boolean;
  body: string;
}

export interface OllamaServer {
  baseUrl: string;
  log: OllamaExchange[];
  /** GET /api/ps requests */
  psRequests: number;
  /** POST /api/show requests */
  shows: number;
  /** every GET, path and query */
  gets: string[];
  /** the Authorization header of each GET, in order ("" for none) */
  getAuth: string[];
  stop(): void;
}

const tokensOf = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);

/** `fingerprint: false`: answers that do not name Ollama (another server on this machine: vLLM, llama.cpp, LM Studio). */
export function startOllama(opts: {
  model: string;
  context: number;
  reads: number;
  ps?: "context" | "old" | "none";
  fingerprint?: boolean;
  as?: "lmstudio" | "lmstudio-v0" | "llama.cpp" | "vllm";
  /** the `max_model_len` a vLLM's model list states, when not `context` */
  listed?: number;
  loaded?: boolean;
  modelfileContext?: number;
  count?: "half" | "full";
  /** what its GET /v1/models lists (else 404) */
  models?: string[];
}): OllamaServer {
  const log: OllamaExchange[] = [];
  let loaded = opts.loaded ?? false;
  let step = 0;
  let psRequests = 0;
  let shows = 0;
  const gets: string[] = [];
  const getAuth: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname;
      if (req.method === "GET") {
        gets.push(`${path}${url.search}`);
        getAuth.push(req.headers.get("authorization") ?? "");
      }
      if (opts.as === "vllm" && req.method === "GET") return vllmModels(path, opts.model, opts.listed ?? opts.context);
      if (opts.as && opts.as !== "vllm" && req.method === "GET") return otherServer(opts.as, path, opts.model, loaded ? opts.context : undefined);
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
      if (req.method === "POST" && path === "/api/show" && !opts.as) {
        shows++;
        const asked = ((await req.json().catch(() => ({}))) as { model?: string }).model ?? "";
        if (asked !== opts.model && asked !== `${opts.model}:latest`) return Response.json({ error: `model '${asked}' not found` }, { status: 404 });
        const num = opts.modelfileContext === undefined ? "" : `num_ctx                        ${opts.modelfileContext}\n`;
        return Response.json({
          modelfile: '# Modelfile generated by "ollama show"\nFROM qwen3\n',
          parameters: `${num}repeat_penalty                 1\nstop                           "<|im_start|>"\ntemperature                    0.6`,
          template: "{{ .Prompt }}",
          details: { parent_model: "", format: "gguf", family: "qwen3", families: ["qwen3"], parameter_size: "8.2B", quantization_level: "Q4_K_M" },
          model_info: { "general.architecture": "qwen3", "qwen3.context_length": 40960, "qwen3.embedding_length": 4096 },
          capabilities: ["completion", "tools", "thinking"],
        });
      }
      if (req.method === "GET" && path === "/v1/models" && opts.models)
        // Ollama's list names each model with its tag (openai/openai.go ListCompletion): qwen3:latest, not qwen3
        return Response.json({ object: "list", data: opts.models.map((id) => ({ id, object: "model", created: 1733000000, owned_by: "library" })) });
      if (req.method === "GET" && path === "/api/version") return Response.json({ version: opts.ps === "old" ? "0.9.0" : "0.12.3" });
      if (req.method !== "POST" || path !== "/v1/chat/completions") return new Response("404 page not found", { status: 404 });
      loaded = true;
      const text = await req.text();
      const body = JSON.parse(text) as { messages: Message[]; tools?: unknown[] };
      const tools = (body.tools?.length ?? 0) > 0;
      if (opts.as === "vllm" && tokensOf(text) > opts.context) {
        log.push({ tokens: tokensOf(text), dropped: 0, halved: false, refused: true, tools, body: text });
        const message = `This model's maximum context length is ${opts.context} tokens and your request has ${tokensOf(text)} input tokens. Please reduce the length of the input messages.`;
        return Response.json({ object: "error", message, type: "BadRequestError", param: null, code: 400 }, { status: 400 });
      }
      // chatPrompt: from the front, drop messages (keeping system ones and the last) until it fits
      let kept = body.messages;
      let dropped = 0;
      while (tokensOf(JSON.stringify({ ...body, messages: kept })) > opts.context) {
        const i = kept.findIndex((m, k) => m.role !== "system" && k < kept.length - 1);
        if (i < 0) break;
        kept = kept.filter((_, k) => k !== i);
        dropped++;
      }
      // what is left still too long (the last message alone overflows): the runner keeps numKeep
      // (4) and half the rest of the context, and reads that (ollama/ollama#17427: 65,536 → 32,770)
      const left = tokensOf(JSON.stringify({ ...body, messages: kept }));
      const halved = left > opts.context;
      const prompt = halved ? (opts.count === "full" ? opts.context : 4 + Math.floor((opts.context - 4) / 2)) : left;
      log.push({ tokens: tokensOf(text), dropped, halved, refused: false, tools, body: text });
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
      const fingerprint = opts.as === "llama.cpp" ? "b4963-02082f15" : opts.as || opts.fingerprint === false ? undefined : "fp_ollama";
      const named = fingerprint === undefined ? chunks : chunks.map((c) => ({ ...c, system_fingerprint: fingerprint }));
      return new Response(sse(named), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    log,
    get psRequests() {
      return psRequests;
    },
    get shows() {
      return shows;
    },
    gets,
    getAuth,
    stop: () => server.stop(true),
  };
}

/** A vLLM's GET /v1/models, stating `maxModelLen`. */
function vllmModels(path: string, model: string, maxModelLen: number): Response {
  if (path !== "/v1/models") return Response.json({ detail: "Not Found" }, { status: 404 });
  return Response.json({
    object: "list",
    data: [{ id: model, object: "model", created: 1723770563, owned_by: "vllm", root: model, parent: null, max_model_len: maxModelLen, permission: [] }],
  });
}

/** The GETs of LM Studio's and llama-server's own APIs; `context` once the model is loaded. */
function otherServer(as: "lmstudio" | "lmstudio-v0" | "llama.cpp", path: string, model: string, context: number | undefined): Response {
  if (as === "llama.cpp" && path === "/props")
    return Response.json({ default_generation_settings: { id: 0, n_ctx: context ?? 4096, params: {} }, total_slots: 1, build_info: "b4963-02082f15" });
  if (as === "lmstudio" && path === "/api/v1/models") {
    const instances = context === undefined ? [] : [{ id: model, config: { context_length: context } }];
    return Response.json({
      models: [{ type: "llm", key: model, display_name: model, loaded_instances: instances, max_context_length: 131072, format: "gguf" }],
    });
  }
  if (as === "lmstudio-v0" && path === "/api/v0/models") {
    const state = context === undefined ? { state: "not-loaded" } : { state: "loaded", loaded_context_length: context };
    return Response.json({ object: "list", data: [{ id: model, object: "model", type: "llm", ...state, max_context_length: 131072 }] });
  }
  return Response.json({ error: "Unexpected endpoint or method." }, { status: 404 });
}

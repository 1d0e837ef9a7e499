// Which local model server answers, and the context it says it runs the model with: Ollama,
// llama.cpp's llama-server and LM Studio each load a model with a context of their own setting,
// often far below what the model takes, and each says it in its own API beside the
// OpenAI-compatible one (ollama-context.ts says why hey asks: a prompt too long is cut or refused).
// Pure: server-window.ts asks.
import { isLoopback } from "../net/proxy.ts";
import { loadedContext } from "./ollama-context.ts";

/**
 * Below this many tokens a context is too small for an agent: hey's system prompt and tools take
 * ~1,200 of them, and a few file reads fill the rest (Ollama's own docs ask at least 64000 of
 * agents and coding tools: https://github.com/ollama/ollama/blob/main/docs/context-length.mdx).
 */
export const AGENT_MIN_CONTEXT = 16_384;
/** The context the notice suggests: room for a working session at a memory cost most machines bear. */
const SUGGESTED_CONTEXT = 32_768;

/** A server that says the context it runs a model with. */
export type ServerKind = "ollama" | "llama.cpp" | "lmstudio";

/** What a server said: the context it runs the model with, and the request that said it ("GET /api/ps"). */
export interface Served {
  tokens: number;
  server: ServerKind;
  via: string;
}

/** How each names itself to the user. */
export const SERVER_NAMES: Record<ServerKind, string> = { ollama: "Ollama", "llama.cpp": "llama-server", lmstudio: "LM Studio" };

/**
 * The server an answer came from, by the `system_fingerprint` of its chunks, as the `server` of
 * its `done` event: "fp_ollama" from Ollama's /v1 (ollama/ollama openai/openai.go, since v0.1.24),
 * llama-server's build "b(build number)-(build commit hash)" (its tools/server/README.md, `build_info`
 * of GET /props, which its chat chunks carry as system_fingerprint: "b4963-02082f15"). LM Studio's
 * answers name no server. `{}` for any other.
 */
export function serverNamed(fingerprint: string | null | undefined): { server?: ServerKind } {
  if (fingerprint === "fp_ollama") return { server: "ollama" };
  if (fingerprint && /^b\d+-[0-9a-f]+$/.test(fingerprint)) return { server: "llama.cpp" };
  return {};
}

/**
 * The root the server's own API hangs from: `baseUrl` without its `/v1` (the OpenAI-compatible
 * path of all three). Undefined for a URL that is not http(s).
 */
export function serverRoot(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "")}`;
}

/**
 * A host on this machine or its network, where a server that names itself in none of its answers
 * (LM Studio) may be asked what it is: loopback, the private IPv4 ranges (RFC 1918), link-local,
 * the shared range Tailscale hands out (100.64.0.0/10), IPv6 unique-local and link-local, and
 * names that are not on the public internet (no dot, `.local`, `.lan`, `.internal`, `.home.arpa`).
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isLoopback(host)) return true;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(":")) return /^f[cd]|^fe[89ab]/.test(host);
  return !host.includes(".") || /\.(local|lan|internal|home\.arpa)$/.test(host);
}

/** LM Studio serves on this port unless told otherwise (its docs' every example: http://localhost:1234/v1). */
const LM_STUDIO_PORT = "1234";

/**
 * The servers to ask, in order, about an answer from `kind` (undefined: one that named no server)
 * from the server at `root`: the one the answer named, wherever it is; else LM Studio, which names
 * itself in none of its answers, when `root` is its port on a host of this machine or its network.
 * Any other server is asked nothing (a public endpoint, a vLLM on its own port).
 */
export function serversToAsk(kind: ServerKind | undefined, root: string): ServerKind[] {
  if (kind) return [kind];
  const url = new URL(root);
  return url.port === LM_STUDIO_PORT && isLocalHost(url.hostname) ? ["lmstudio"] : [];
}

/**
 * The GETs that tell `kind`'s context for `model`, in order (the next is asked when one gets no
 * answer): Ollama's GET /api/ps (ollama-context.ts); llama-server's GET /props, then with
 * `?model=` for its router mode, where a bare /props says `n_ctx: 0` (llama.cpp's
 * tools/server/README.md, "Routing requests"); LM Studio's GET /api/v1/models (0.4 and later:
 * lmstudio.ai/docs/developer/rest/list), else its older GET /api/v0/models (0.3.6 and later).
 */
export function contextPaths(kind: ServerKind, model: string): string[] {
  if (kind === "ollama") return ["/api/ps"];
  if (kind === "llama.cpp") return ["/props", `/props?model=${encodeURIComponent(model)}`];
  return ["/api/v1/models", "/api/v0/models"];
}

/** The context `model` runs with, from the body of one of contextPaths' GETs; undefined when the body does not say. */
export function servedContext(kind: ServerKind, body: unknown, model: string): number | undefined {
  if (kind === "ollama") return loadedContext(body, model);
  if (kind === "llama.cpp") return tokens(field(field(body, "default_generation_settings"), "n_ctx"));
  return lmStudioContext(body, model);
}

/**
 * LM Studio's loaded context of `model` (its key, with or without the publisher before a "/", or
 * the id of one of its loaded instances): v1 `{"models": [{"key", "loaded_instances": [{"id",
 * "config": {"context_length"}}]}]}`; v0 `{"data": [{"id", "state": "loaded", "loaded_context_length"}]}`
 * (the field is in real answers, not in its docs: zed-industries/zed#25606, co-l/openfox#49). The
 * smallest of several instances.
 */
function lmStudioContext(body: unknown, model: string): number | undefined {
  const found: number[] = [];
  const add = (v: unknown) => {
    const n = tokens(v);
    if (n !== undefined) found.push(n);
  };
  const named = (id: unknown) => typeof id === "string" && (id === model || id.endsWith(`/${model}`));
  for (const entry of list(field(body, "models")))
    for (const instance of list(field(entry, "loaded_instances")))
      if (named(field(entry, "key")) || named(field(instance, "id"))) add(field(field(instance, "config"), "context_length"));
  for (const entry of list(field(body, "data")))
    if (named(field(entry, "id")) && field(entry, "state") === "loaded") add(field(entry, "loaded_context_length"));
  return found.length > 0 ? Math.min(...found) : undefined;
}

const field = (v: unknown, key: string): unknown =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const tokens = (v: unknown): number | undefined => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined);

/** Where a window the endpoint's model list states came from, as `/usage` says it. */
export const LISTED_FROM = "the endpoint's model list, GET /models";

/**
 * The one line a user is told when `kind` runs the model with less than AGENT_MIN_CONTEXT (`about`:
 * as its usage shows; `kind` "list": as the endpoint's model list states it); undefined otherwise.
 */
export function smallContextNotice(context: number, model: string, provider: string, kind: ServerKind | "list" = "ollama", about = false): string | undefined {
  if (context >= AGENT_MIN_CONTEXT) return undefined;
  const n = context.toLocaleString("en-US");
  if (kind === "list")
    return `the model list of ${provider === AD_HOC ? "the --base-url endpoint" : `[provider.${provider}]`} says ${model} takes ${n} tokens, too small for an agent; hey keeps each request within it. Raise it where the server allows (vLLM: --max-model-len), or, if the model takes more, ${tellWindow(provider, model)}`;
  const cut = kind === "ollama" ? " (it cuts longer requests from the start without an error)" : "";
  return `${SERVER_NAMES[kind]} runs ${model} with a context of ${about ? "about " : ""}${n} tokens, too small for an agent${cut}; hey keeps each request within it. Raise it: ${raiseContext(provider, kind, model)}`;
}

/**
 * The one line a user is told when the server runs the model with less than the `context_window`
 * configured for it (`configured`): hey keeps to the smaller, and the key is no setting of the server's.
 */
export function belowConfiguredNotice(context: number, configured: number, model: string, provider: string, kind: ServerKind, about = false): string {
  const n = context.toLocaleString("en-US");
  return `${SERVER_NAMES[kind]} runs ${model} with a context of ${about ? "about " : ""}${n} tokens, less than context_window = ${configured} in [provider.${provider}]: context_window tells hey the model's window, it does not change the server's, so hey keeps each request within ${n}. Give the server more: ${configuredRaise(kind, configured)}`;
}

/** How to run the model with the `configured` context_window on `kind`: the server's own settings, Ollama's Modelfile too. */
const configuredRaise = (kind: ServerKind, configured: number) =>
  `${serverRaise(kind, configured)}${kind === "ollama" ? `, or PARAMETER num_ctx ${configured} in the model's Modelfile` : ""}`;

/**
 * The one line a user is told, at once, when Ollama cut a request of `chars` characters (said as KB)
 * to the `context` it runs the model with (ollama-context.ts cutContext): the answer may miss what
 * was dropped. `configured`: the context_window the user set, which the server does not run.
 */
export function cutNotice(context: number, chars: number, model: string, provider: string, configured?: number): string {
  const sent = `${Math.max(1, Math.round(chars / 1024)).toLocaleString("en-US")} KB`;
  const raise =
    configured === undefined
      ? raiseContext(provider, "ollama", model)
      : `${configuredRaise("ollama", configured)} (context_window = ${configured} in [provider.${provider}] tells hey the window, it does not change the server's)`;
  return `Ollama cut hey's request to the ${context.toLocaleString("en-US")} tokens it runs ${model} with (hey sent ${sent}): it dropped the start without an error, hey's instructions and tools among it, so this answer may miss them; hey keeps each request within it from now on, hey -c too. Raise it: ${raise}`;
}

/** How to run the model with `tokens` of context on `kind`. */
function serverRaise(kind: ServerKind, tokens: number): string {
  return {
    ollama: `OLLAMA_CONTEXT_LENGTH=${tokens} ollama serve (or the Ollama app's context slider)`,
    "llama.cpp": `start llama-server with a larger context (-c ${tokens})`,
    lmstudio: `load the model with a larger context length (lms load MODEL --context-length ${tokens}, or the model's load settings in LM Studio)`,
  }[kind];
}

/** The provider of a `--base-url` (or HEY_BASE_URL) run: no `[provider.NAME]` table holds it, so none can take a key for it. */
const AD_HOC = "cli";

/**
 * How to tell hey the window of `model` on the endpoint of `provider`: `context_window` in its
 * table; a `--base-url` run has none, so a table of its own for that endpoint, named with -m.
 */
export function tellWindow(provider: string, model = "MODEL"): string {
  if (provider !== AD_HOC) return `set context_window in [provider.${provider}]`;
  return `give the endpoint a table in your own config file (~/.config/hey/config.toml): [provider.NAME] with this base_url and context_window = TOKENS, then start hey -m NAME/${model} at a terminal once to approve it (a --base-url run has no table of its own)`;
}

/** How to give `model` more context on `kind`, for the provider table named `provider`. */
export function raiseContext(provider: string, kind: ServerKind = "ollama", model?: string): string {
  return `${serverRaise(kind, SUGGESTED_CONTEXT)}, or, if the server runs it with more, ${tellWindow(provider, model)} (context_window tells hey the window, it does not change the server's)`;
}

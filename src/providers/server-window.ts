// A provider that learns the context a local model server runs its model with (served-context.ts
// says where each server says it): after the model's first answer — the request that loaded it —
// one probe, which that answer's end waits for only when it came from Ollama (a server on this
// machine answers at once): an answer it cut is said before the run can end. An endpoint that is
// Ollama by its configuration is asked before the first request too (a model loaded already, a
// Modelfile's num_ctx), within EARLY_TIMEOUT_MS. The agent builds the later requests to what it
// tells, and the user is told once when it is too small for an agent. The server asked is
// the one the answer named (Ollama, llama-server), wherever it runs; an answer that names none is
// asked about only on LM Studio's port of a host of this machine or its network (LM Studio names
// itself nowhere), and any other endpoint is asked nothing. When an Ollama's probe gets nothing
// (an Ollama older than the field, a proxy in front), the usage tells: a count that fills a round
// context while far more was sent (ollama-context.ts cutContext), or prompt tokens that stop
// growing while what hey sends grows (cappedContext); until then the run is as
// it was. After an answer that names no local server (vLLM, a hosted endpoint: OpenRouter, Groq,
// Mistral, Together), once a request follows it, one GET of the endpoint's model list instead, which
// states the model's window in many servers' answers (model-list.ts WINDOW_FIELDS); no
// request waits for it, and a run that ends with its first answer never sends it.
import { identityOf, type ModelRequest, type Provider, type StatedWindow, type StreamEvent } from "../kernel/provider.ts";
import { cappedContext, cutContext, modelfileContext, type Sample } from "./ollama-context.ts";
import {
  belowConfiguredNotice,
  contextPaths,
  cutNotice,
  LISTED_FROM,
  serverRoot,
  serversToAsk,
  servedContext,
  SERVER_NAMES,
  smallContextNotice,
  type Served,
  type ServerKind,
} from "./served-context.ts";

/** A server on this machine answers at once; one that does not within this is not worth waiting for (the next request waits on it). */
const PROBE_TIMEOUT_MS = 2000;
/** The asking before the first request, all of it: a local Ollama answers both in milliseconds, and a start-up waits for no more. */
const EARLY_TIMEOUT_MS = 1000;
/** Ollama's port (its docs' every example, OLLAMA_HOST's default). */
const OLLAMA_PORT = "11434";
/** The servers and models whose small context the user was told of: once a process, not again at each `/reload` or `/model` back. */
const told = new Set<string>();

/** The endpoint of a provider: its `[provider.NAME]` name, its URL, and the `context_window` configured for its model, if any. */
export interface ServerOf {
  name: string;
  baseUrl: string;
  configured: number | undefined;
  /** sent with the probe, as with every model request: a server behind a key wants it for its own API too */
  headers?: Record<string, string>;
  /** the window the endpoint's model list (GET <base>/models) states for the model, if it does (model-list.ts); absent: the list is not asked. Never rejects. */
  listed?: (fetchImpl: typeof fetch) => Promise<number | undefined>;
}

/** An endpoint that is Ollama by its configuration, before any answer names it: the built-in ollama (OLLAMA_HOST), or on Ollama's port. */
function likelyOllama(server: ServerOf, root: string): boolean {
  return server.name === "ollama" || new URL(root).port === OLLAMA_PORT;
}

/**
 * `provider`, which also tells `serverWindow()` the context its server says it runs the model with,
 * or the window its model list states (`server.listed`, asked only when no `context_window` is
 * configured: what the user says of a listed model wins). A `context_window` is no setting of the
 * server's: a local server that runs the model with less (said by its API or shown by Ollama's
 * usage) is said with both numbers, and its window used. `notice` gets the one line about a
 * context too small for an agent; `found` (hey doctor) what the probe found. An answer Ollama cut
 * to its context is said at once, as a `notice` event before its `done`, which carries `cut`.
 */
export function withServerWindow(
  provider: Provider,
  server: ServerOf,
  fetchImpl: typeof fetch,
  notice: (line: string) => void,
  found?: (served: Served) => void,
): Provider {
  const root = serverRoot(server.baseUrl);
  if (root === undefined) return provider;
  const { configured } = server;
  /** before the first request, for an endpoint that is Ollama by its configuration: a model loaded already, or a Modelfile's num_ctx */
  let early: Promise<StatedWindow | undefined> | undefined;
  /** the local servers' answer; null when the first answer named none and none said (the model list may) */
  let probe: Promise<StatedWindow | undefined | null> | undefined;
  /** the model list's GET was asked for: when a request follows an answer that named no local server */
  let listAsked = false;
  /** what the model list stated, once it answered */
  let listed: StatedWindow | undefined;
  const samples: Sample[] = [];
  let capped: number | undefined;
  /** the context an answer showed Ollama cut a request to, and whether the user was told (once) */
  let cut: number | undefined;
  let cutSaid = false;
  /** Says a window once a process: `line` when the user was not told of this server and model yet. */
  const once = (line: string | undefined) => {
    const key = `${root} ${provider.model}`;
    if (line && !told.has(key)) {
      told.add(key);
      notice(line);
    }
  };
  const tell = (window: number, kind: ServerKind | "list", about: boolean) =>
    once(
      configured === undefined || kind === "list"
        ? smallContextNotice(window, provider.model, server.name, kind, about)
        : window < configured
          ? belowConfiguredNotice(window, configured, provider.model, server.name, kind, about)
          : undefined,
    );
  /** `quiet`: after an Ollama answer, said by cutOf, which says a cut instead */
  const stating = (served: Served, quiet = false): StatedWindow => {
    found?.(served);
    if (!quiet) tell(served.tokens, served.server, false);
    return { tokens: served.tokens, from: `${SERVER_NAMES[served.server]}'s ${served.via}` };
  };
  /** After an answer: the probe, once; and, from Ollama, what it read against what was sent, for an Ollama the probe gets nothing from. */
  const answered = (request: ModelRequest, done: Extract<StreamEvent, { type: "done" }>) => {
    const kind = done.server as ServerKind | undefined;
    const ask = () => askServers(root, serversToAsk(kind, root), provider.model, fetchImpl, server.headers).then((s) => s && stating(s, kind === "ollama"));
    probe ??= (early ? early.then((w) => w ?? ask()) : ask()).then((w) => w ?? (kind === undefined ? null : undefined));
    if (done.stop === "tool_calls") listLater(); // a request follows: its GET goes meanwhile
    if (kind !== "ollama") return;
    const tools = JSON.stringify(request.tools).length + request.system.length + (request.note?.length ?? 0);
    samples.push({
      chars: tools + JSON.stringify(request.messages).length,
      kept: tools + JSON.stringify(request.messages.at(-1) ?? "").length,
      input: done.usage.input,
    });
    if (samples.length > 8) samples.splice(1, 1); // the first stays: its ratio is the uncut one
    capped ??= cappedContext(samples);
  };
  /** The context Ollama cut the request just answered to, said at once; undefined when it read it whole. */
  const cutOf = async (done: Extract<StreamEvent, { type: "done" }>): Promise<number | undefined> => {
    const sample = samples.at(-1);
    if (done.server !== "ollama" || !sample) return undefined;
    const stated = await probe;
    const context = cutContext(sample.chars, sample.input, stated?.tokens);
    if (context === undefined) {
      if (stated) tell(stated.tokens, "ollama", false);
      return undefined;
    }
    cut = context;
    return context;
  };
  /** The model list, once, when the first answer named no local server and none of them said: a run that ends with its first answer never asks it. */
  const listLater = () => {
    if (listAsked || !probe || configured !== undefined) return; // what the user says of a listed model wins
    listAsked = true;
    void probe.then(async (stated) => {
      if (stated !== null) return;
      const tokens = await server.listed?.(fetchImpl).catch(() => undefined);
      if (tokens === undefined) return;
      listed = { tokens, from: LISTED_FROM, listed: true };
      tell(tokens, "list", false);
    });
  };
  /** What is known, else what Ollama's usage shows (with a context_window, the caller keeps only less than it). */
  const known = async (): Promise<StatedWindow | undefined> => {
    const stated = (await (probe ?? early)) ?? listed;
    if (stated !== undefined) return stated;
    if (cut !== undefined) return { tokens: cut, from: `Ollama's usage (it cut a request to ${cut} tokens)` };
    if (capped === undefined) return undefined;
    tell(capped, "ollama", true);
    return { tokens: capped, from: "Ollama's usage (its prompt tokens stopped growing)" };
  };
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      for await (const event of provider.stream(request, signal)) {
        if (event.type !== "done") {
          yield event;
          continue;
        }
        answered(request, event);
        const context = await cutOf(event);
        if (context === undefined) {
          yield event;
          continue;
        }
        if (!cutSaid) yield { type: "notice", message: cutNotice(context, samples.at(-1)!.chars, provider.model, server.name, configured) };
        cutSaid = true;
        told.add(`${root} ${provider.model}`); // the cut's notice says how to raise it: the small context's would say it again
        yield { ...event, cut: true };
      }
    },
    /** the local server's word, waited for; else the list's, once it answered (a hosted list can be large: no request waits for it) */
    async serverWindow() {
      if (!probe && likelyOllama(server, root)) early ??= askEarly(root, provider.model, fetchImpl, server.headers).then((s) => s && stating(s));
      listLater(); // a request after an answer is being built (before the first answer there is no probe)
      const stated = await known();
      return configured !== undefined && stated !== undefined && stated.tokens >= configured ? undefined : stated; // the configured one stands
    },
  };
}

/**
 * What an Ollama says before the model's first request, within EARLY_TIMEOUT_MS: the context it
 * runs the model with when it is loaded already (GET /api/ps), else the one its Modelfile sets
 * (POST /api/show, ollama-context.ts modelfileContext); undefined otherwise. Never throws.
 */
async function askEarly(root: string, model: string, fetchImpl: typeof fetch, headers?: Record<string, string>): Promise<Served | undefined> {
  const signal = AbortSignal.timeout(EARLY_TIMEOUT_MS);
  const asked = await askServers(root, ["ollama"], model, fetchImpl, headers, signal);
  if (asked || signal.aborted) return asked;
  try {
    const init = { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ model }), signal };
    const res = await fetchImpl(`${root}/api/show`, init);
    const tokens = res.ok ? modelfileContext(await res.json()) : void (await res.body?.cancel());
    return tokens === undefined ? undefined : { tokens, server: "ollama", via: "POST /api/show, its Modelfile's num_ctx" };
  } catch {
    return undefined; // no Ollama there, or not now: the first answer tells
  }
}

/** The first of `kinds` that says the context `model` runs with, each of its GETs in turn; undefined when none does. Never throws. */
async function askServers(
  root: string,
  kinds: ServerKind[],
  model: string,
  fetchImpl: typeof fetch,
  headers?: Record<string, string>,
  signal?: AbortSignal,
): Promise<Served | undefined> {
  for (const kind of kinds)
    for (const path of contextPaths(kind, model)) {
      try {
        const res = await fetchImpl(`${root}${path}`, { headers: headers ?? {}, signal: signal ?? AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        if (!res.ok) {
          await res.body?.cancel();
          continue;
        }
        const tokens = servedContext(kind, await res.json(), model);
        if (tokens !== undefined) return { tokens, server: kind, via: `GET ${path}` };
      } catch {
        // no answer, or not JSON: the next, else nothing
      }
    }
  return undefined;
}

// A provider that learns the context a local model server runs its model with (served-context.ts
// says where each server says it): after the model's first answer — the request that loaded it —
// one probe, in the background, so no request waits for it; the agent builds the later requests to
// what it tells, and the user is told once when it is too small for an agent. The server asked is
// the one the answer named (Ollama, llama-server), wherever it runs; an answer that names none is
// asked about only on LM Studio's port of a host of this machine or its network (LM Studio names
// itself nowhere), and any other endpoint is asked nothing. When an Ollama's probe gets nothing
// (an Ollama older than the field, a proxy in front), the usage tells: prompt tokens that stop
// growing while what hey sends grows (ollama-context.ts cappedContext); until then the run is as
// it was. After an answer that names no local server (vLLM, a hosted endpoint: OpenRouter, Groq,
// Mistral, Together), once a request follows it, one GET of the endpoint's model list instead, which
// states the model's window in many servers' answers (model-list.ts WINDOW_FIELDS); no
// request waits for it, and a run that ends with its first answer never sends it.
import { identityOf, type ModelRequest, type Provider, type StatedWindow, type StreamEvent } from "../kernel/provider.ts";
import { cappedContext, type Sample } from "./ollama-context.ts";
import {
  contextPaths,
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

/**
 * `provider`, which also tells `serverWindow()` the context its server says it runs the model with,
 * or the window its model list states (`server.listed`), unless a `context_window` is configured
 * for the model (what the user says wins); else `provider` itself. `notice` gets the one line about a context too small for an agent; `found` (hey doctor)
 * what the probe found.
 */
export function withServerWindow(
  provider: Provider,
  server: ServerOf,
  fetchImpl: typeof fetch,
  notice: (line: string) => void,
  found?: (served: Served) => void,
): Provider {
  const root = serverRoot(server.baseUrl);
  if (root === undefined || server.configured !== undefined) return provider;
  /** the local servers' answer; null when the first answer named none and none said (the model list may) */
  let probe: Promise<StatedWindow | undefined | null> | undefined;
  /** the model list's GET was asked for: when a request follows an answer that named no local server */
  let listAsked = false;
  /** what the model list stated, once it answered */
  let listed: StatedWindow | undefined;
  const samples: Sample[] = [];
  let capped: number | undefined;
  const tell = (window: number, kind: ServerKind | "list", about: boolean) => {
    const line = smallContextNotice(window, provider.model, server.name, kind, about);
    const key = `${root} ${provider.model}`;
    if (line && !told.has(key)) {
      told.add(key);
      notice(line);
    }
  };
  /** After an answer: the probe, once; and, from Ollama, what it read against what was sent, for an Ollama the probe gets nothing from. */
  const answered = (request: ModelRequest, done: Extract<StreamEvent, { type: "done" }>) => {
    const kind = done.server as ServerKind | undefined;
    probe ??= askServers(root, serversToAsk(kind, root), provider.model, fetchImpl, server.headers).then((served) => {
      if (!served) return kind === undefined ? null : undefined; // null: the list may say
      found?.(served);
      tell(served.tokens, served.server, false);
      return { tokens: served.tokens, from: `${SERVER_NAMES[served.server]}'s GET ${served.via}` };
    });
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
  /** The model list, once, when the first answer named no local server and none of them said: a run that ends with its first answer never asks it. */
  const listLater = () => {
    if (listAsked || !probe) return;
    listAsked = true;
    void probe.then(async (stated) => {
      if (stated !== null) return;
      const tokens = await server.listed?.(fetchImpl).catch(() => undefined);
      if (tokens === undefined) return;
      listed = { tokens, from: LISTED_FROM, listed: true };
      tell(tokens, "list", false);
    });
  };
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      for await (const event of provider.stream(request, signal)) {
        if (event.type === "done") answered(request, event);
        yield event;
      }
    },
    /** the local server's word, waited for; else the list's, once it answered (a hosted list can be large: no request waits for it) */
    async serverWindow() {
      listLater(); // a request after an answer is being built (before the first answer there is no probe)
      const stated = (await probe) ?? listed;
      if (stated !== undefined || capped === undefined) return stated;
      tell(capped, "ollama", true);
      return { tokens: capped, from: "Ollama's usage (its prompt tokens stopped growing)" };
    },
  };
}

/** The first of `kinds` that says the context `model` runs with, each of its GETs in turn; undefined when none does. Never throws. */
async function askServers(
  root: string,
  kinds: ServerKind[],
  model: string,
  fetchImpl: typeof fetch,
  headers?: Record<string, string>,
): Promise<Served | undefined> {
  for (const kind of kinds)
    for (const path of contextPaths(kind, model)) {
      try {
        const res = await fetchImpl(`${root}${path}`, { headers: headers ?? {}, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        if (!res.ok) {
          await res.body?.cancel();
          continue;
        }
        const tokens = servedContext(kind, await res.json(), model);
        if (tokens !== undefined) return { tokens, server: kind, via: path };
      } catch {
        // no answer, or not JSON: the next, else nothing
      }
    }
  return undefined;
}

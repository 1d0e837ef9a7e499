// A provider that learns the context a local Ollama runs its model with (ollama-context.ts says
// why and where each field is documented): after the model's first answer — the request that
// loaded it — when that answer says it came from Ollama (openai.ts), one GET /api/ps, in the
// background, so no request waits for it; the agent builds the later requests to what it tells,
// and the user is told once when it is too small for an agent. A host that is neither this machine
// nor Ollama's port is never asked, nor is a server whose answers do not name Ollama (vLLM,
// llama.cpp, LM Studio). When the probe gets nothing (an Ollama older than the field, a proxy in
// front), the usage tells: prompt tokens that stop growing while what hey sends grows
// (ollama-context.ts cappedContext); until then the run is as it was.
import type { ModelRequest, Provider } from "../kernel/provider.ts";
import { cappedContext, loadedContext, ollamaRoot, smallContextNotice, type Sample } from "./ollama-context.ts";

/** A loopback server answers /api/ps at once; one that does not within this is not worth waiting for. */
const PROBE_TIMEOUT_MS = 2000;
/** The servers and models whose small context the user was told of: once a process, not again at each `/reload` or `/model` back. */
const told = new Set<string>();

/** The endpoint of a provider: its `[provider.NAME]` name, its URL, and the `context_window` configured for its model, if any. */
export interface ServerOf {
  name: string;
  baseUrl: string;
  configured: number | undefined;
}

/**
 * `provider`, which also tells `serverWindow()` when `server` may be a local Ollama and states no
 * `context_window` for the model (what the user says wins); else `provider` itself. `notice` gets
 * the one line about a context too small for an agent.
 */
export function withServerWindow(provider: Provider, server: ServerOf, fetchImpl: typeof fetch, notice: (line: string) => void): Provider {
  const root = ollamaRoot(server.baseUrl);
  if (root === undefined || server.configured !== undefined) return provider;
  let probe: Promise<number | undefined> | undefined;
  const samples: Sample[] = [];
  let capped: number | undefined;
  const tell = (window: number, about: boolean) => {
    const line = smallContextNotice(window, provider.model, server.name, about);
    const key = `${root} ${provider.model}`;
    if (line && !told.has(key)) {
      told.add(key);
      notice(line);
    }
  };
  /** After an answer from Ollama: the probe, once; and what it read against what was sent, for an Ollama the probe gets nothing from. */
  const answered = (request: ModelRequest, input: number) => {
    probe ??= loadedWindow(root, provider.model, fetchImpl).then((window) => {
      if (window !== undefined) tell(window, false);
      return window;
    });
    samples.push({ chars: request.system.length + JSON.stringify(request.messages).length + JSON.stringify(request.tools).length, input });
    if (samples.length > 8) samples.splice(1, 1); // the first stays: its ratio is the uncut one
    capped ??= cappedContext(samples);
  };
  return {
    protocol: provider.protocol,
    model: provider.model,
    async *stream(request, signal) {
      for await (const event of provider.stream(request, signal)) {
        if (event.type === "done" && event.server === "ollama") answered(request, event.usage.input);
        yield event;
      }
    },
    async serverWindow() {
      const window = await probe;
      if (window !== undefined || capped === undefined) return window;
      tell(capped, true);
      return capped;
    },
  };
}

/** The context `model` is loaded with, from GET ROOT/api/ps; undefined on any failure. Never throws. */
async function loadedWindow(root: string, model: string, fetchImpl: typeof fetch): Promise<number | undefined> {
  try {
    const res = await fetchImpl(`${root}/api/ps`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!res.ok) return undefined;
    return loadedContext(await res.json(), model);
  } catch {
    return undefined;
  }
}

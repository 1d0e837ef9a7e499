// A Provider for one endpoint, by protocol (SPEC §1, §4). Each adapter module — and with it its
// vendor SDK — is imported only here and only when its protocol is used, so start-up never parses
// the others. Used by the composition root (wire.ts) and by embedders (lib.ts).
import type { ProviderOptions } from "./common.ts";
import { ProviderError, type Provider } from "../kernel/provider.ts";
import type { Message } from "../kernel/ir.ts";
import { isUnknownHost } from "../net/errors.ts";
import { isLoopback } from "../net/proxy.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, watchedResponse } from "./stream-guard.ts";
import { noContentError } from "./common.ts";

export type { ProviderOptions };

/**
 * The adapter for `opts.protocol`. A refused connection to this machine fails at once instead of
 * being retried: nothing listens there (Ollama not started, a wrong port). A try that got not a
 * byte of an answer says which endpoint was silent. Throws only what the adapter's factory throws.
 */
export async function createProvider(opts: ProviderOptions): Promise<Provider> {
  const fetchImpl = streamsOnly(typoFailsAtOnce(opts.fetch ?? fetch, opts.baseUrl, opts.baseUrlSetting ?? "base_url"), opts.baseUrl);
  return namedFailures(await adapter({ ...opts, fetch: fetchImpl }), opts.baseUrl, opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
}

/**
 * `base`, except that a host name that does not resolve (ENOTFOUND, EAI_NONAME) before any request
 * of this provider got an answer fails at once, not retried: a name that never resolved is almost
 * always a typo in `setting`. Once an answer came, the name is known to exist and the same failure
 * is a flaky resolver, retried like any network error. A resolver that cannot be asked (EAI_AGAIN)
 * is always retried.
 */
function typoFailsAtOnce(base: typeof fetch, baseUrl: string, setting: string): typeof fetch {
  let answered = false;
  const checked = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    try {
      const response = await base(input, init);
      answered = true;
      return response;
    } catch (e) {
      if (answered || !isUnknownHost(e)) throw e;
      const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname : baseUrl;
      throw new ProviderError("network", `the host ${host} does not resolve (no such host), so hey does not retry: check the host name in ${setting}`, {
        final: true,
        cause: e,
      });
    }
  };
  return Object.assign(checked, { preconnect: base.preconnect }) as typeof fetch;
}

/** Content types that are certainly not an event stream: a login page, a non-streaming JSON answer. */
const NOT_A_STREAM = /text\/html|application\/(json|xml)|text\/xml/i;
/** How much of such a body the error quotes. */
const QUOTED_CHARS = 160;

/**
 * `base`, except that a successful answer to a streaming request (`"stream":true` in the body,
 * Gemini's `alt=sse`) that is plainly not an event stream fails as a `protocol` error quoting its
 * start — a captive portal's page or a proxy's JSON is not a network failure to retry. The SDKs
 * wrap what fetch throws; guardedStream finds it again. A real stream's bytes feed the idle
 * watchdog (watchedResponse), keep-alives included.
 */
function streamsOnly(base: typeof fetch, baseUrl: string): typeof fetch {
  const checked = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await base(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !isStreaming(input, init)) return response;
    if (!NOT_A_STREAM.test(type)) return watchedResponse(response);
    const reader = response.body?.getReader();
    const first = reader ? await reader.read().catch(() => undefined) : undefined;
    await reader?.cancel().catch(() => {});
    const start = first?.value ? new TextDecoder().decode(first.value).replace(/\s+/g, " ").trim().slice(0, QUOTED_CHARS) : "";
    throw new ProviderError(
      "protocol",
      `${baseUrl} answered with ${type.split(";")[0]} instead of a stream of events${start ? `: ${JSON.stringify(start)}` : ""}; check base_url and protocol`,
    );
  };
  return Object.assign(checked, { preconnect: base.preconnect }) as typeof fetch;
}

function isStreaming(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): boolean {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return /[?&]alt=sse\b/.test(url) || (typeof init?.body === "string" && /"stream"\s*:\s*true/.test(init.body));
}

async function adapter(opts: ProviderOptions): Promise<Provider> {
  const { protocol, ...rest } = opts;
  const common = { ...rest, idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS };
  switch (protocol) {
    case "openai": {
      const { createOpenAIProvider } = await import("./openai.ts");
      return createOpenAIProvider(common);
    }
    case "responses": {
      const { createResponsesProvider } = await import("./responses.ts");
      return createResponsesProvider(common);
    }
    case "google": {
      const { createGoogleProvider } = await import("./google.ts");
      return createGoogleProvider(common);
    }
    case "anthropic": {
      const { createAnthropicProvider } = await import("./anthropic.ts");
      return createAnthropicProvider(common);
    }
  }
}

const REFUSED = /ECONNREFUSED|Unable to connect|connection refused/i;

/**
 * `provider`, its network failures said for this endpoint: a silent try (ProviderError.silent) names
 * the base URL and the wait; a refused connection to this machine is final. An answer that ended as
 * it should with nothing in it (no text, thinking or call), or a stream that ended so before its
 * finish (common.ts noContentError), is an empty answer of this endpoint, retried as such.
 */
function namedFailures(provider: Provider, baseUrl: string, idleMs: number): Provider {
  const local = URL.canParse(baseUrl) && isLoopback(new URL(baseUrl).hostname);
  return {
    protocol: provider.protocol,
    model: provider.model,
    async *stream(request, signal) {
      try {
        for await (const event of provider.stream(request, signal)) {
          if (event.type === "done" && event.stop === "stop" && nothingIn(event.message)) throw noContentError();
          yield event;
        }
      } catch (e) {
        if (e instanceof ProviderError && e.kind === "empty_answer") throw noContentError(baseUrl);
        if (!(e instanceof ProviderError) || e.kind !== "network") throw e;
        if (e.silent) throw new ProviderError("network", `no answer from ${baseUrl} in ${idleMs / 1000} s, not a byte`, { silent: true, cause: e });
        if (local && REFUSED.test(e.message))
          throw new ProviderError("network", `cannot connect to ${baseUrl}: connection refused (is the server running?)`, { final: true });
        throw e;
      }
    },
  };
}

/** A message with nothing in it: no tool call, no thinking, no text but "". */
const nothingIn = (m: Message) => !m.toolCalls?.length && m.content.every((p) => p.type === "text" && p.text === "");

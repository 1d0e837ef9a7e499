// The model endpoint of a run (SPEC §16): the proxied fetch every model request and remote MCP
// server goes through, and the provider behind it, loaded as early as possible.
import { hideCredentials } from "./config/guard.ts";
import { builtInUrl, vendorsApi } from "./config/presets.ts";
import { isMissingModel, missingModelMessage, type Served } from "./config/missing-model.ts";
import { ConfigError, configuredWindow, type ProviderSettings, type Settings } from "./config/settings.ts";
import type { Effort } from "./kernel/ir.ts";
import { errorText } from "./kernel/errors.ts";
import { identityOf, ProviderError, type Provider } from "./kernel/provider.ts";
import { trustedCas } from "./net/ca.ts";
import type { DebugLog } from "./net/debug-log.ts";
import { proxiedFetch, proxyNameOf } from "./net/fetch.ts";
import { parseProxyUrl, resolveProxy } from "./net/proxy.ts";
import { createProvider } from "./providers/create.ts";
import { isLocalHost } from "./providers/served-context.ts";
import type { ServerOf } from "./providers/server-window.ts";

type Env = Record<string, string | undefined>;

/** The model endpoint of a run: the proxied fetch every request goes through, and the provider being loaded. */
export interface Started {
  fetch: typeof fetch;
  provider: Promise<Provider>;
}

/**
 * Checks the proxy settings (a bad value is a configuration error now, not a minute of "network"
 * retries later) and starts loading the provider's adapter, whose SDK module takes ~12 ms to
 * evaluate: the caller reads stdin meanwhile. A provider whose base_url is not approved yet, or whose model
 * name is empty, is one that refuses each request (unsentProvider): what needs no model (`hey mcp`, `/usage`, `/model`
 * to another) still runs. Throws ConfigError or NetConfigError.
 */
export function startProvider(settings: Settings, cliProxy: string | undefined, env: Env, debug?: DebugLog): Started {
  const fetchImpl = fetchFor(settings, cliProxy, env, debug);
  const provider = unsendable(settings.provider)
    ? Promise.resolve(unsentProvider(settings.provider, settings.model))
    : providerFor(settings.provider, settings.model, settings.effort, fetchImpl, settings.retry.idleTimeoutMs);
  provider.catch(() => {}); // awaited by assemble; a run that fails before that never awaits it
  return { fetch: fetchImpl, provider };
}

/**
 * The fetch of every model request and remote MCP server: the proxy of `settings` and the CAs of
 * `[network] ca_file` / SSL_CERT_FILE, checked now; every request logged when `debug` is given
 * (`--verbose`). Throws ConfigError or NetConfigError.
 */
export function fetchFor(settings: Settings, cliProxy: string | undefined, env: Env, debug?: DebugLog): typeof fetch {
  // checked even when the model URL is loopback (always direct): a bad value is a mistake wherever it would be used
  if (cliProxy) parseProxyUrl(cliProxy, "--proxy");
  const sources = { cli: cliProxy, config: settings.proxy, configSource: settings.proxySource, env, held: settings.network.heldProxy };
  resolveProxy(new URL(settings.provider.baseUrl), sources);
  const ca = trustedCas(settings.network);
  const pendingCa = settings.network.pendingCa;
  return proxiedFetch(sources, { ...(ca ? { ca } : {}), ...(debug ? { base: debug.wrap(fetch) } : {}), ...(pendingCa ? { pendingCa } : {}) });
}

/** The provider for `settings`, `model` and the stream's idle timeout, through `fetchImpl` (its certificates unchecked when the provider says `insecure`). */
export function providerFor(
  settings: ProviderSettings,
  model: string,
  effort: Effort | undefined,
  fetchImpl: typeof fetch,
  idleTimeoutMs?: number,
): Promise<Provider> {
  const refused = unsendable(settings) ?? (model.trim() ? undefined : `provider ${settings.name}: the model name is empty; pass -m ${settings.name}/MODEL`);
  if (refused) return Promise.reject(new ConfigError(refused));
  // the endpoint's own keys are the adapter's options; the rest are hey's (which models, where it was defined)
  const {
    name,
    models: _models,
    effort: _default,
    preset: _preset,
    urlVar: _var,
    modelVar: _modelVar,
    insecure,
    contextWindow: _window,
    source: _source,
    noModel: _noModel,
    noKey: _noKey,
    ...endpoint
  } = settings;
  const baseUrlSetting = baseUrlSettingOf(settings);
  const fetch = insecure ? unverified(fetchImpl) : fetchImpl;
  const proxy = proxyNameOf(fetchImpl, settings.baseUrl);
  return createProvider({
    ...endpoint,
    name,
    model,
    effort,
    fetch,
    idleTimeoutMs,
    baseUrlSetting,
    ...(name === "cli" && !settings.source ? {} : { protocolSetting: `[provider.${name}]${settings.source ? ` in ${settings.source}` : ""}` }),
    ...keySettingOf(settings),
    ...(builtInUrl(settings) ? { builtInUrl: true } : {}),
    ...(proxy ? { proxy } : {}),
    // a server that does not parse tool calls leaves them in the text; a vendor's own API parses them
    ...(vendorsApi(settings.baseUrl) ? {} : { textCalls: true }),
  });
}

/** Where the provider's base_url was set, as an error message names it. */
export function baseUrlSettingOf(p: ProviderSettings): string {
  if (p.urlVar) return p.urlVar;
  if (p.name === "cli" && !p.source) return "--base-url"; // HEY_BASE_URL's is its urlVar
  return `base_url of [provider.${p.name}]${p.source ? ` in ${p.source}` : ""}`;
}

/** Where a provider with no config file of its own takes a key, for the auth error when none was sent; else the adapter's default. */
function keySettingOf(p: ProviderSettings): { apiKeySetting?: string } {
  if (p.source) return {};
  if (p.name === "cli") return { apiKeySetting: "--api-key or HEY_API_KEY" };
  return p.preset ? { apiKeySetting: `api_key in a [provider.${p.name}] table, --api-key or HEY_API_KEY` } : {};
}

/** Why no request goes to a provider whose base_url the user has not approved (config/guard.ts). */
export function unapprovedEndpoint(p: ProviderSettings): string {
  const url = hideCredentials(p.baseUrl);
  return `[provider.${p.name}] base_url = ${JSON.stringify(url)} in ${p.unapproved} is not approved yet, so hey sends nothing there (${p.apiKey ? "its requests carry the provider's key; " : ""}the agent can write that file): say yes to it at the interactive prompt, which asks at start-up and at /reload, or pick an approved provider with /model (-m on the command line)`;
}

/** Why no request goes out for `p`: its base_url is not approved yet, its model name is empty (ProviderSettings.noModel), a resumed session's provider has no key; undefined: none. */
export const unsendable = (p: ProviderSettings): string | undefined => (p.unapproved ? unapprovedEndpoint(p) : (p.noModel ?? p.noKey));

/** A provider that sends nothing: each request fails at once (not retried), saying why (unsendable). */
export function unsentProvider(settings: ProviderSettings, model: string): Provider {
  return {
    protocol: settings.protocol,
    model,
    name: settings.name,
    // biome-ignore lint/correctness/useYield: it ends before its first event
    async *stream() {
      throw new ProviderError("bad_request", unsendable(settings) ?? unapprovedEndpoint(settings));
    },
  };
}

/**
 * The model ids the endpoint of `s` lists, what `/model NAME` checks a name the configuration does
 * not list against (given up on after 15 s, as by `hey doctor`); undefined when it has no list.
 * Never asks an endpoint not approved: the GET carries the provider's key. Throws ConfigError, or
 * Error saying why the list failed.
 */
export async function endpointModels(s: Settings, fetchImpl: typeof fetch, signal: AbortSignal): Promise<string[] | undefined> {
  if (s.provider.unapproved) throw new ConfigError(unapprovedEndpoint(s.provider));
  const { listModels } = await import("./model-list.ts"); // only when a model is not in the configuration
  const got = await listModels(s.provider, s.model, fetchImpl, signal);
  if (!got.ok) throw new Error(got.message);
  return got.listed;
}

/** `fetchImpl` without TLS certificate verification (a provider's `insecure = true`, warned about on every run). */
function unverified(fetchImpl: typeof fetch): typeof fetch {
  const insecure = (input: string | URL | Request, init?: BunFetchRequestInit) =>
    fetchImpl(input, { ...init, tls: { ...init?.tls, rejectUnauthorized: false } });
  return Object.assign(insecure, { preconnect: fetchImpl.preconnect });
}

/**
 * The endpoint of `settings` as providers/server-window.ts asks about it: a local server's real
 * context, else the window its model list states, is learned unless one is configured. What a list
 * said is kept a week in `cacheDir` (fs/listed-windows.ts): a hosted list can be megabytes.
 */
export const serverOf = (settings: Settings, cacheDir: string): ServerOf => ({
  name: settings.provider.name,
  baseUrl: settings.provider.baseUrl,
  configured: configuredWindow(settings),
  headers: probeHeaders(settings.provider),
  async listed(fetchImpl) {
    // after the first answer, never on the way to it
    const [{ listModels }, cache] = await Promise.all([import("./model-list.ts"), import("./fs/listed-windows.ts")]);
    // a server on this machine or its network (a vLLM on the box under the desk) answers at once, and may run the model
    // with another window after a restart: asked each run
    const kept = !onThisNetwork(settings.provider.baseUrl);
    const key = cache.listedKey(settings.provider.protocol, settings.provider.baseUrl, settings.model);
    const known = kept ? cache.cachedWindow(cacheDir, key, Date.now()) : undefined;
    if (known) return known.tokens;
    const got = await listModels(settings.provider, settings.model, fetchImpl);
    if (!got.ok) return undefined; // not remembered: a list that failed is asked again next run
    if (kept) await cache.rememberWindow(cacheDir, key, got.window, Date.now());
    return got.window;
  },
});

function onThisNetwork(baseUrl: string): boolean {
  try {
    return isLocalHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * What the probe of providers/server-window.ts carries: the key and headers the model requests
 * carry, to the same server (a local server behind a key wants it for its own API too).
 */
export function probeHeaders(p: ProviderSettings): Record<string, string> {
  const bearer: Record<string, string> = p.apiKey && (p.protocol === "openai" || p.protocol === "responses") ? { authorization: `Bearer ${p.apiKey}` } : {};
  return { ...bearer, ...p.headers };
}

/** How long the list may take before the error goes out without it: the user is waiting on a failure. */
const LIST_WAIT_MS = 10_000;

/**
 * `provider` with its 404 for a missing model told with the endpoint's models (asked for then, as
 * `/model NAME` and `hey doctor` ask) and, for a model hey chose itself, that it did
 * (config/missing-model.ts); every other event and error passes as it is.
 */
export function listingModels(provider: Provider, settings: Settings, fetchImpl: typeof fetch, userFile?: string): Provider {
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      try {
        yield* provider.stream(request, signal);
      } catch (e) {
        if (!(e instanceof ProviderError) || e.kind !== "bad_request" || signal.aborted || !isMissingModel(e.message)) throw e;
        const served = await servedBy(settings, fetchImpl, signal);
        if (signal.aborted) throw e;
        const status = e.status === undefined ? {} : { status: e.status };
        throw new ProviderError("bad_request", missingModelMessage(e.message, settings, served, userFile), { ...status, missingModel: true });
      }
    },
    ...(provider.serverWindow ? { serverWindow: () => provider.serverWindow!() } : {}),
  };
}

/** The endpoint's models, or why they could not be read. Never throws. */
async function servedBy(settings: Settings, fetchImpl: typeof fetch, signal: AbortSignal): Promise<Served> {
  try {
    const listed = await endpointModels(settings, fetchImpl, AbortSignal.any([signal, AbortSignal.timeout(LIST_WAIT_MS)]));
    return listed === undefined ? {} : { listed };
  } catch (e) {
    return { why: errorText(e) };
  }
}

// Prompt caches and the context passes (issue 23). Providers bill a prompt prefix they have cached
// at about a tenth of the price, so a pass that rewrites an earlier message (dedup, error purge,
// handles) costs a cache miss for everything after it. These pure functions tell when the cache is
// broken anyway (rewrites then cost nothing extra) and when a rewrite pays for itself. Pure.
import type { Message, Protocol } from "../kernel/ir.ts";
import type { Provider } from "../kernel/provider.ts";
import { ANTHROPIC_CACHE_MS, DEFAULT_CACHE_MS } from "../providers/cache-lifetime.ts";
import { estimateTokens } from "./passes.ts";
import type { ContextView } from "./view.ts";

/**
 * How long `provider` keeps a prefix it cached, in milliseconds: its endpoint's (Provider.cacheLifetimeMs,
 * providers/cache-lifetime.ts), else its protocol's — an embedder's provider may not say.
 */
export const cacheLifetime = (provider: Pick<Provider, "protocol" | "cacheLifetimeMs">): number =>
  provider.cacheLifetimeMs ?? (provider.protocol === "anthropic" ? ANTHROPIC_CACHE_MS : DEFAULT_CACHE_MS);
/** Later requests a rewrite is expected to save on: about the length of one agent run. */
export const REWRITE_HORIZON = 10;

/** The price of a cached token read, and of a token the cache must take in again, relative to an uncached one. */
export interface CachePrices {
  read: number;
  miss: number;
}

/**
 * Anthropic bills reads 0.1× and writes 1.25× (every agent request writes its new tail); OpenAI,
 * DeepSeek and Gemini bill reads at about 0.1× and writes at the normal price. `cached` false: the
 * endpoint has shown it keeps no cache (uncachedEndpoint), so every token costs the same and a
 * rewrite that saves any pays at once.
 */
export function cachePrices(protocol: Protocol, cached = true): CachePrices {
  if (!cached) return { read: 1, miss: 1 };
  return protocol === "anthropic" ? { read: 0.1, miss: 1.25 } : { read: 0.1, miss: 1 };
}

/**
 * The shortest repeated prefix every cache the providers run keeps: Anthropic caches from 1,024
 * tokens (4,096 on its Opus 4.5 and Haiku 4.5), OpenAI and DeepSeek from 1,024, Gemini's implicit
 * cache from 1,024 to 4,096 by model. A request that repeats this much of the one before, within the
 * cache's lifetime, is read from the cache wherever there is one.
 */
export const CACHEABLE_TOKENS = 4096;
/** Such requests in a row whose usage reported no cached token, after which the endpoint is taken to keep no cache (r6 #4). */
export const UNCACHED_IN_A_ROW = 2;

/**
 * Learns from a request's usage (`cacheRead`: its cached tokens) whether the endpoint caches:
 * `uncached` counts the requests in a row that repeated at least CACHEABLE_TOKENS of the one
 * before (`sent.repeats`) and were read from no cache; a cached token sets it back to 0.
 */
export function learnCache(state: { uncached?: number; sent?: { repeats?: number } | undefined }, cacheRead: number): void {
  if (cacheRead > 0) state.uncached = 0;
  else if ((state.sent?.repeats ?? 0) >= CACHEABLE_TOKENS) state.uncached = (state.uncached ?? 0) + 1;
}

/**
 * Whether the endpoint has shown it keeps no prompt cache: UNCACHED_IN_A_ROW requests in a row with a
 * long repeated prefix reported 0 cached tokens (many OpenAI-compatible hosts, local servers). Holding
 * a rewrite back then saves nothing, and the range a compress dropped would be sent at full price.
 */
export const uncachedEndpoint = (state: { uncached?: number }): boolean => (state.uncached ?? 0) >= UNCACHED_IN_A_ROW;

/**
 * Whether a rewrite that takes `saved` tokens out of every later request, and makes this request
 * pay for `rebilled` tokens the cache held (from the first rewritten message to the end of the
 * previous request), pays for itself within `horizon` requests: the later ones it is expected to
 * save on and, for one held back already, the requests it was held on (each paid `saved` at the
 * read price), so the test can pass as what holding cost adds up (compaction.ts chooseView).
 */
export function rewritePays(saved: number, rebilled: number, prices: CachePrices, horizon = REWRITE_HORIZON): boolean {
  if (saved <= 0) return false;
  return saved * prices.read * horizon > rebilled * (prices.miss - prices.read);
}

/**
 * How many of the first `count` messages of `before` `after` repeats exactly (same id and content),
 * from the start. Cheap when the messages are the same objects, as unchanged ones are.
 */
export function sharedPrefix(before: readonly Message[], after: readonly Message[], count = before.length): number {
  const n = Math.min(count, before.length, after.length);
  for (let i = 0; i < n; i++) {
    const a = before[i]!;
    const b = after[i]!;
    if (a !== b && (a.id !== b.id || JSON.stringify(a) !== JSON.stringify(b))) return i;
  }
  return n;
}

/**
 * The id of the last message `messages` repeats of the previous request of this model (`sent`, its
 * first `count` messages, with the system prompt and tools `fixed`): where the prefix its cache
 * holds ends (ModelRequest.unchangedThrough). Set on a clean extension too: after a return from
 * another model (a fallback, `/model` and back) that spot can lie far more than the ~20 blocks
 * Anthropic looks back from the marks on the tail (x150 #1). Undefined when it repeats none (a
 * summary, a trim from the start, another system prompt).
 */
export function unchangedThrough(
  sent: { messages: readonly Message[]; count: number; fixed: string } | undefined,
  messages: readonly Message[],
  fixed: string,
) {
  if (sent?.fixed !== fixed) return undefined;
  const shared = sharedPrefix(sent.messages, messages, sent.count);
  return shared > 0 ? messages[shared - 1]!.id : undefined;
}

/**
 * Whether the next request cannot repeat the tail of `view` (ModelRequest.onceTail): the view is
 * over the budget, or its newest results were cut to fit it (a read larger than the window). The
 * next request adds to a context already full, so it cuts those results or summarizes, and a cache
 * write of them (1.25× on Anthropic) would be read by none (x134: at a 16k window caching cost 114 %
 * of sending uncached).
 */
export function fullAt(view: ContextView, budgetTokens: number): boolean {
  if (view.estimate > budgetTokens) return true;
  const newest = view.messages.slice(view.messages.findLastIndex((m) => m.role === "assistant") + 1);
  return newest.some((m) => m.role === "tool" && view.hold.cut.has(m.id));
}

/**
 * Whether the rewrites held back (`saved` tokens a request, `rebilled` the miss) pay now, on an endpoint
 * of `protocol` (`state`: what was learned of its cache, and the requests they were held on): no cache,
 * they pay at once; else they pay within the horizon, the requests held on so far counted in it, as
 * what holding cost is, like the miss, in tokens at the read price.
 */
export function heldRewritePays(saved: number, rebilled: number, state: { uncached?: number; heldFor?: number }, protocol: Protocol): boolean {
  return rewritePays(saved, rebilled, cachePrices(protocol, !uncachedEndpoint(state)), REWRITE_HORIZON + (state.heldFor ?? 0));
}

/** CompactionState.heldFor after a request built with `upTo` of `length` messages: one more when it held rewrites back, else 0. */
export const heldAfter = (state: { heldFor?: number }, upTo: number, length: number): number => (upTo < length ? (state.heldFor ?? 0) + 1 : 0);

/** The tokens of the system prompt and tools (`fixed`) and of `messages` through the one `through` names: the prefix a request repeated. */
export const repeatedTokens = (messages: readonly Message[], through: string, fixed: string, tokensPerChar: number): number =>
  Math.ceil(fixed.length * tokensPerChar) + estimateTokens(messages.slice(0, messages.findIndex((m) => m.id === through) + 1), tokensPerChar);

// Prompt caches and the context passes (issue 23). Providers bill a prompt prefix they have cached
// at about a tenth of the price, so a pass that rewrites an earlier message (dedup, error purge,
// handles) costs a cache miss for everything after it. These pure functions tell when the cache is
// broken anyway (rewrites then cost nothing extra) and when a rewrite pays for itself. Pure.
import type { Message, Protocol } from "../kernel/ir.ts";
import type { Provider } from "../kernel/provider.ts";
import { ANTHROPIC_CACHE_MS, DEFAULT_CACHE_MS } from "../providers/cache-lifetime.ts";
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
 * DeepSeek and Gemini bill reads at about 0.1× and writes at the normal price.
 */
export function cachePrices(protocol: Protocol): CachePrices {
  return protocol === "anthropic" ? { read: 0.1, miss: 1.25 } : { read: 0.1, miss: 1 };
}

/**
 * Whether a rewrite that takes `saved` tokens out of every later request, and makes this request
 * pay for `rebilled` tokens the cache held (from the first rewritten message to the end of the
 * previous request), pays for itself within `horizon` later requests.
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

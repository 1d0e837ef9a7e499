// A request waits for the session file's background fsync a step's sync was queued behind
// (background-sync.ts): never more than one step is left to a power cut. Every agent's requests go
// through it (agent.ts), the CLI's and an embedder's alike: the ordering has this one home. Pure.
import { identityOf, type Provider } from "../kernel/provider.ts";

/** The background fsyncs a later step's sync waits behind: the next request goes out once they ended (background-sync.ts fills it). */
export const ahead = new Set<Promise<void>>();

/** each provider's wrapper, and the wrappers themselves: one provider is always one wrapper, so an agent compares providers as before */
const wrappers = new WeakMap<Provider, Provider>();
const wrapped = new WeakSet<Provider>();

/**
 * `provider`, whose requests wait (without blocking hey's thread) for a background fsync a step's
 * sync was queued behind, or until `signal` aborts. The same wrapper for the same provider, and a
 * wrapper given again is returned as it is.
 */
export function syncedFirst(provider: Provider): Provider {
  if (wrapped.has(provider)) return provider;
  const known = wrappers.get(provider);
  if (known) return known;
  const synced: Provider = {
    ...identityOf(provider),
    async *stream(request, signal) {
      if (ahead.size > 0 && !signal.aborted) {
        let stop = () => {};
        const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", (stop = () => resolve()), { once: true }));
        await Promise.race([Promise.all(ahead), aborted]);
        signal.removeEventListener("abort", stop);
      }
      yield* provider.stream(request, signal);
    },
    ...(provider.serverWindow ? { serverWindow: () => provider.serverWindow!() } : {}),
  };
  wrappers.set(provider, synced);
  wrapped.add(synced);
  return synced;
}

// The provider each model a run switched away from was used through, with what its refusals taught
// it (an effort the model does not take, no thinking, a lower output limit…): a `/model` back to the
// model with the same settings goes on with that provider, so no request is refused twice for one
// thing. Pure.
import type { Settings } from "./config/settings.ts";
import type { Provider } from "./kernel/provider.ts";

/**
 * What a provider was made from: a change of any of it makes a new one (/reload's new key or
 * base_url). Not the effort: each request carries the one in force (/effort's, carried through
 * `/model`), and the provider's own stands in only where none is, the same on every return.
 */
const madeFrom = (s: Settings) => JSON.stringify([s.provider, s.model, s.retry.idleTimeoutMs]);

export function modelsLeft() {
  const left = new Map<string, { fetch: typeof fetch; provider: Provider }>();
  return {
    /** keeps `was`, the provider of `from`, and gives the one `to` was left with through the same fetch; undefined: none yet */
    back(from: Settings, was: Provider, to: Settings, fetchImpl: typeof fetch): Provider | undefined {
      left.set(madeFrom(from), { fetch: fetchImpl, provider: was });
      const kept = left.get(madeFrom(to));
      return kept?.fetch === fetchImpl ? kept.provider : undefined;
    },
  };
}

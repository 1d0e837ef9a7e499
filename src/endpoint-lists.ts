// The models each provider's endpoint lists, for `/model` and Tab: a provider with a key and no
// `models = [...]` in the configuration (a gateway, a proxy, a local server) is asked the first time
// `/model` or Tab needs it, in the background, so nothing waits on the network; its answer is kept
// for the run. Pure: the asking is given.
import type { ProviderSettings } from "./config/settings.ts";

export interface EndpointLists {
  /** the models `p`'s endpoint listed, once it answered; undefined while asked, or when it has no list it could give. The first call asks. */
  of(p: ProviderSettings): readonly string[] | undefined;
}

/** `list`: GET the endpoint's model list (endpoint.ts endpointModels); rejects when it cannot be read. */
export function endpointLists(list: (p: ProviderSettings) => Promise<string[] | undefined>): EndpointLists {
  const known = new Map<string, readonly string[] | undefined>(); // by provider and base_url: a /reload may move it
  const asked = new Set<string>();
  return {
    of(p) {
      const key = `${p.name} ${p.baseUrl}`;
      if (!asked.has(key)) {
        asked.add(key);
        list(p).then(
          (models) => known.set(key, models),
          () => known.set(key, undefined), // unreadable (a 502, a timeout): `/model NAME` still switches, unchecked
        );
      }
      return known.get(key);
    },
  };
}

// Whose setup the help after a failed request describes: the model answering when it failed,
// which a fallback replaces for the rest of a run, not the model the run began with. Pure.
import type { ProviderSettings, Settings } from "../config/settings.ts";

/** The provider and model of `model` (the agent's, `-m` words) among the run's `settings`; the run's own provider when none is of its name. */
export function answering(
  settings: Pick<Settings, "providers" | "provider">,
  model: { provider: string; model: string },
): { provider: ProviderSettings; model: string } {
  return { provider: settings.providers.find((p) => p.name === model.provider) ?? settings.provider, model: model.model };
}

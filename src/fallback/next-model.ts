// The model a run goes on with when its own gave up on a request (AgentParts.fallback): the first
// of the configured fallbacks this run has not used, resolved as `-m` resolves it next to the
// model in use (a bare name goes to that model's provider unless a list says otherwise), with its
// provider made. Every dependency is passed in (wire.ts).
import type { AgentParts, AgentSettings } from "../agent-parts.ts";
import type { LoadedConfig } from "../config/load.ts";
import type { Settings } from "../config/settings.ts";
import { errorText } from "../kernel/errors.ts";
import type { Effort } from "../kernel/ir.ts";
import type { Provider } from "../kernel/provider.ts";
import { fallbackReason } from "./reasons.ts";

export interface NextModelDeps {
  /** the configuration in use (`/model` and `/reload` change it): the fallbacks, the model they are resolved next to */
  config(): Pick<LoadedConfig, "settings" | "flags" | "resolve">;
  /** the effort in force (an `/effort` since start included), which a fallback goes on with as `/model` does */
  effort(): Effort | undefined;
  /** the provider of `s`; rejects (ConfigError) when none can be made, as for a base_url not approved */
  providerFor(s: Settings): Promise<Provider>;
  agentSettings(s: Settings): AgentSettings;
  /** a fallback passed over, and why */
  warn(message: string): void;
}

export function nextModel(deps: NextModelDeps): NonNullable<AgentParts["fallback"]> {
  return async (error, tried, signal) => {
    const why = fallbackReason(error);
    const config = deps.config();
    const { fallbacks, provider, model } = config.settings;
    if (why === undefined || !fallbacks) return undefined;
    const effort = deps.effort();
    const session = { provider: provider.name, model, current: true, ...(effort === undefined ? {} : { effort }) };
    for (const name of fallbacks.models) {
      const modelLabel = `${fallbacks.from} ${JSON.stringify(name)}`;
      let key = name; // as `tried` holds it: `provider/model` once resolved
      if (tried.has(key)) continue;
      try {
        // --api-key and HEY_API_KEY were given for the model in use: a fallback on another provider goes with that provider's own key
        const s = config.resolve({ ...config.flags, model: name, modelLabel, session, keyFor: provider.name, switching: undefined }); // not /model's
        key = `${s.provider.name}/${s.model}`;
        if (tried.has(key)) continue;
        const made = await deps.providerFor(s);
        if (signal.aborted) return undefined;
        return { provider: made, settings: deps.agentSettings(s), why };
      } catch (e) {
        if (signal.aborted) return undefined;
        tried.add(key); // passed over for the rest of the run, said once
        deps.warn(`${errorText(e)} — that fallback is passed over`);
      }
    }
    return undefined;
  };
}

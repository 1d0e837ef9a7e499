// The fallback models (`[default] fallback_models`, HEY_FALLBACK_MODELS, --fallback-model): where
// they were set, and each checked as `-m` checks a model, so a provider that does not exist stops hey
// at start-up (and `/reload`) naming the setting and the name, and a key that is missing is warned
// of then, not first told by a 401 the moment the model fails and the fallback is needed. Pure.
import { chooseProvider, type ProviderInput } from "./providers.ts";
import { ConfigError, type Settings } from "./settings.ts";

/**
 * The fallbacks `input` sets, checked; undefined when none is. `fromVariable`: HEY_FALLBACK_MODELS
 * set them (a flag above it would say so in `input.flags`). `inUse`: the provider of the model in
 * use, which --api-key and HEY_API_KEY are for (a fallback on another goes with its own key). What
 * checking a name warns of (a bare name that goes to a hosted provider, one no list holds) is added
 * to `warnings`, under its setting's name, and so is what its provider's setup warns of (a key
 * variable with no value) when that provider is not the one in use, whose warnings are said already.
 * Throws ConfigError.
 */
export function fallbackModels(input: ProviderInput, fromVariable: boolean, warnings: string[], inUse: string): Settings["fallbacks"] {
  const models = input.file.default?.fallback_models;
  if (!models?.length) return undefined;
  const at = input.lineOf ?? input.sourceOf;
  const from = input.flags.fallbackModels?.length
    ? "--fallback-model"
    : fromVariable
      ? "HEY_FALLBACK_MODELS"
      : `${at(["default", "fallback_models"])}: [default] fallback_models`;
  const told = new Set([inUse]); // the providers whose setup was warned of: once each
  for (const model of models) {
    if (model.trim() === "") throw new ConfigError(`${from}: an empty model name in ${JSON.stringify(models.join(","))}; name each model as -m does`);
    const label = `${from} ${JSON.stringify(model)}`;
    try {
      const choice = chooseProvider({ ...input, flags: { ...input.flags, model, modelLabel: label, keyFor: inUse } });
      const setup = told.has(choice.provider.name) ? [] : choice.warnings.filter((w) => !w.startsWith(label)).map((w) => `${label}: ${w}`);
      told.add(choice.provider.name);
      warnings.push(...choice.warnings.filter((w) => w.startsWith(label)), ...setup);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      throw new ConfigError(e.message.startsWith(label) ? e.message : `${label}: ${e.message}`);
    }
  }
  return { models, from };
}

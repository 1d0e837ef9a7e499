// The fallback models (`[default] fallback_models`, HEY_FALLBACK_MODELS, --fallback-model): where
// they were set, and each checked as `-m` checks a model, so a provider that does not exist or a
// key that is missing stops hey at start-up (and `/reload`) naming the setting and the name, not
// the moment the model fails and the fallback is needed. Pure.
import { chooseProvider, type ProviderInput } from "./providers.ts";
import { ConfigError, type Settings } from "./settings.ts";

/**
 * The fallbacks `input` sets, checked; undefined when none is. `fromVariable`: HEY_FALLBACK_MODELS
 * set them (a flag above it would say so in `input.flags`). What checking a name warns of (a
 * bare name that goes to a hosted provider, one no list holds) is added to `warnings`, under its
 * setting's name. Throws ConfigError.
 */
export function fallbackModels(input: ProviderInput, fromVariable: boolean, warnings: string[]): Settings["fallbacks"] {
  const models = input.file.default?.fallback_models;
  if (!models?.length) return undefined;
  const at = input.lineOf ?? input.sourceOf;
  const from = input.flags.fallbackModels?.length
    ? "--fallback-model"
    : fromVariable
      ? "HEY_FALLBACK_MODELS"
      : `${at(["default", "fallback_models"])}: [default] fallback_models`;
  for (const model of models) {
    if (model.trim() === "") throw new ConfigError(`${from}: an empty model name in ${JSON.stringify(models.join(","))}; name each model as -m does`);
    const label = `${from} ${JSON.stringify(model)}`;
    try {
      const choice = chooseProvider({ ...input, flags: { ...input.flags, model, modelLabel: label } });
      warnings.push(...choice.warnings.filter((w) => w.startsWith(label)));
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      throw new ConfigError(e.message.startsWith(label) ? e.message : `${label}: ${e.message}`);
    }
  }
  return { models, from };
}

// `/model NAME` checks the name before switching (issue 28): a model the provider's `models` list
// holds, or one the endpoint's model list names, is accepted; anything else is refused at once —
// not accepted silently to fail on the next message. Pure: the caller asks the endpoint.
import { closest } from "./suggest.ts";

/** How many of the endpoint's models a refusal names. */
const NAMED = 8;

/**
 * Why `model` is refused for `provider`, or undefined when it is known. `listed`: the endpoint's
 * models, undefined when it has no list or it could not be read (`why`).
 */
export function unknownModel(
  model: string,
  provider: { name: string; models: readonly string[] },
  listed: readonly string[] | undefined,
  why?: string,
): string | undefined {
  if (provider.models.includes(model) || listed?.includes(model)) return undefined;
  const known = [...new Set([...provider.models, ...(listed ?? [])])];
  const near = closest(model, known);
  const configured = provider.models.length > 0 ? `its models are ${provider.models.join(", ")}` : "it lists no models";
  const endpoint =
    listed === undefined
      ? why
        ? `; the endpoint's model list could not be read (${why})`
        : "; the endpoint has no model list"
      : `; the endpoint lists ${listed.length === 0 ? "none" : `${listed.slice(0, NAMED).join(", ")}${listed.length > NAMED ? `, … (${listed.length} in all)` : ""}`}`;
  return `provider ${provider.name} has no model "${model}": ${configured}${endpoint}${near ? `; did you mean ${near}?` : ""} (a model missing from both can be added to the provider's models = [...])`;
}

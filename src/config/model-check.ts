// `/model NAME` checks the name before switching (issue 28): a model the provider's `models` list
// holds, or one the endpoint's model list names, is accepted; anything else is refused at once —
// not accepted silently to fail on the next message — unless the list could not be read, or a
// variable moved a built-in provider (OPENAI_BASE_URL) to an endpoint with no list (a warning then,
// and the switch goes ahead as -m's does). At start (providers.ts), a model named by -m,
// HEY_MODEL or [default] model that is a near miss of the configured list is warned about. Pure:
// the caller asks the endpoint.
import { editDistance } from "../kernel/spelling.ts";
import { listedAs } from "../providers/ollama-context.ts";
import { isGateway } from "./presets.ts";
import { ConfigError, type ProviderSettings } from "./settings.ts";
import { closest } from "./suggest.ts";

/** How many of the endpoint's models a refusal names. */
const NAMED = 8;

/** What `/model` checks a name against: the provider (a gateway's one built-in model is no list of what is served there) and the models it is known to serve. */
export type Checked = { name: string; models: readonly string[] } & Partial<Pick<ProviderSettings, "preset" | "urlVar" | "apiKeyVar">>;

/**
 * The warning of a switch to `model` (not among those this run used) that goes ahead unchecked,
 * or undefined when it is known; throws ConfigError when it is refused. `listed`: the endpoint's
 * models, undefined when it has none. A list that could not be read (`why`) refuses nothing, as
 * `-m` does; nor does a gateway's (OPENAI_BASE_URL…) missing list: hey knows no model served there.
 */
export function checkModel(model: string, provider: Checked, listed: readonly string[] | undefined, why?: string): string | undefined {
  if (why !== undefined) return unreadableList(model, provider, why);
  if (listed === undefined && isGateway(provider))
    return `warning: ${provider.name}/${model} is not checked: ${provider.urlVar} points ${provider.name} at an endpoint with no model list`;
  const refused = unknownModel(model, provider, listed);
  if (refused) throw new ConfigError(refused);
  return undefined;
}

/** Why `model` is refused for `provider`, or undefined when it is known. `listed`: the endpoint's models, undefined when it has none. */
export function unknownModel(model: string, provider: Checked, listed: readonly string[] | undefined): string | undefined {
  const own = isGateway(provider) ? [] : provider.models; // a gateway's: only what its list says
  if (listedAs(provider.models, model) || (listed && listedAs(listed, model))) return undefined; // qwen3 is Ollama's qwen3:latest
  const known = [...new Set([...own, ...(listed ?? [])])];
  const near = closest(model, known);
  const configured = isGateway(provider)
    ? `${provider.urlVar} points it at another endpoint`
    : provider.models.length > 0
      ? `its models are ${provider.models.join(", ")}`
      : "it lists no models";
  const endpoint =
    listed === undefined
      ? "; the endpoint has no model list"
      : `; the endpoint lists ${listed.length === 0 ? "none" : `${listed.slice(0, NAMED).join(", ")}${listed.length > NAMED ? `, … (${listed.length} in all)` : ""}`}`;
  return `provider ${provider.name} has no model "${model}": ${configured}${endpoint}${near ? `; did you mean ${near}?` : ""} (a model missing from both can be added to the provider's models = [...])`;
}

/** The one-line warning of a switch to `model`, not in `provider`'s models, whose endpoint's model list could not be read (`why`). */
const unreadableList = (model: string, provider: { name: string }, why: string) =>
  `warning: ${provider.name}/${model} is not checked: the endpoint's model list could not be read (${why})`;

/** The digits of a model name in order: its version and size (`claude-opus-4-5`: 45, `qwen3:8b`: 38). */
const digits = (name: string) => name.replace(/\D/g, "");

/**
 * The model of `listed` that `model` (not in it) is probably a misspelling of: one or two edits
 * away with the same digits (`claude-sonnet-4.5`, `Claude-Sonnet-4-5`, `qwen3-8b`); undefined when
 * none is — a far name, or one whose version differs (`claude-opus-4-1`, `gpt-5` beside `gpt-5.5`),
 * is likely a real model that a partial list leaves out.
 */
export function nearMiss(model: string, listed: readonly string[]): string | undefined {
  if (listedAs(listed, model)) return undefined;
  const near = closest(
    model,
    // a name that only adds to a listed one is a model of its own (gpt-4o beside gpt-4, …-latest)
    listed.filter((m) => digits(m) === digits(model) && !model.startsWith(m) && !m.startsWith(model)),
  );
  return near !== undefined && editDistance(near, model) <= 2 ? near : undefined;
}

/** Names as a sentence lists them: "a", "a and b", "a, b and c"; `last` joins the last two. */
const listed = (names: readonly string[], last = "and") => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} ${last} ${names.at(-1)}`);

/**
 * What to say when a bare `model` (no provider before it) is listed by several providers and
 * `chosen` is used: the choice and how to write the others. Undefined when fewer than two list it.
 */
export function sharedName(model: string, providers: readonly { name: string; models: readonly string[] }[], chosen: string): string | undefined {
  const holders = providers.filter((p) => p.models.includes(model)).map((p) => p.name);
  if (holders.length < 2 || model.includes("/")) return undefined;
  const others = holders.filter((n) => n !== chosen).map((n) => `${n}/${model}`);
  return `${model} is listed by ${listed(holders)}; using ${chosen}/${model} (write ${listed(others, "or")} for ${others.length > 1 ? "another" : "the other"})`;
}

// What `/model` lists and says (the models of the providers usable now, those an endpoint lists for
// a provider with none configured) and what Tab completes after `/model`. Pure.
import type { Agent } from "../agent.ts";
import { isUsable } from "../config/presets.ts";
import type { ProviderSettings } from "../config/settings.ts";

/** The models the endpoint of a provider with none configured lists, once known (endpoint-lists.ts). */
export type ListedModels = (p: ProviderSettings) => readonly string[] | undefined;

/** The models of the providers that can be used now (a key present, or a keyless local server; a base_url approved): configured, else those its endpoint lists. */
export function usableModels(providers: readonly ProviderSettings[], listed?: ListedModels): string[] {
  const models = (p: ProviderSettings) => (p.models.length > 0 ? p.models : (listed?.(p) ?? []));
  return usableProviders(providers).flatMap((p) => models(p).map((m) => `${p.name}/${m}`));
}
const usableProviders = (providers: readonly ProviderSettings[]) => providers.filter((p) => isUsable(p) && !p.unapproved);

/** What `/model` says of a provider switched to without a key (its first request would be refused), with how to go back to `was`. */
export function noKeyWarning(providers: readonly ProviderSettings[], name: string, was: string): string | undefined {
  const p = providers.find((x) => x.name === name);
  if (!p || isUsable(p)) return undefined;
  const where = /^[A-Z_][A-Z0-9_]*$/.test(p.apiKeyVar ?? "") ? `${p.apiKeyVar} is not set` : `${p.apiKeyVar} has no value`;
  return `warning: ${name} has no API key (${where}), so its requests will be refused — set it and start hey again, or /model ${was} to go back`;
}

/**
 * What `/model`'s line adds when the switch leaves or comes back to the `--base-url` endpoint (provider
 * `cli`): at a gateway `openai/gpt-5.5` reads as the gateway's own name for a model, so where it now goes is said.
 */
export function endpointMove(providers: readonly ProviderSettings[], wasModel: string, nowModel: string): string {
  const [was, now] = [wasModel, nowModel].map((m) => m.split("/", 1)[0]);
  const endpoint = providers.find((p) => p.name === "cli");
  if (was === now || !endpoint || (was !== "cli" && now !== "cli")) return "";
  const flag = endpoint.urlVar ?? "--base-url";
  if (now === "cli") return ` (back at the ${flag} endpoint, ${endpoint.baseUrl})`;
  return ` (sent to provider ${now} at ${providers.find((p) => p.name === now)?.baseUrl}, not the ${flag} endpoint)`;
}

/** The model in use, as `-m` names it. */
export const modelName = (agent: Agent) => `${agent.settings.model.provider}/${agent.settings.model.model}`;

/**
 * `/model ARG` refused (an unknown model or provider, an endpoint not approved): the reason in the
 * command's words (the model is resolved as -m would resolve it), and the model that stays in use.
 */
export const refusedSwitch = (message: string, arg: string, still: string) =>
  `${message.replaceAll(`-m ${arg}`, `/model ${arg}`).replace(/ -m ([^\s)]+)\)/g, " /model $1)")}; still ${still}`;

/** `/model`: the usable models, the current one marked; how to switch; the fallbacks; what is missing a key or an approval. */
export function modelList(
  agent: Agent,
  providers: readonly ProviderSettings[],
  oneShot: boolean,
  listed?: ListedModels,
  fallbacks: readonly string[] = [],
): string {
  const current = modelName(agent);
  const models = usableModels(providers, listed);
  const lines = (models.includes(current) ? models : [current, ...models]).map((m) => (m === current ? `* ${m}` : `  ${m}`));
  // a gateway with a key and no `models` whose list is not known (yet, or unreadable): named, with how to name its model
  const open = usableProviders(providers).filter((p) => !models.some((m) => m.startsWith(`${p.name}/`)));
  lines.push(...open.map((p) => `  ${p.name}/… (no models configured: /model ${p.name}/MODEL takes any model its endpoint serves)`));
  const locked = providers.filter((p) => !isUsable(p)).map((p) => `${p.name} (${p.apiKeyVar})`);
  // a provider whose base_url the user has not said yes to gets no request: not offered, but named, with how to approve it
  const unapproved = providers.filter((p) => isUsable(p) && p.unapproved).map((p) => p.name);
  return [
    ...lines,
    "switch with /model PROVIDER/MODEL",
    // the model in use is what every prompt starts on; these answer for it only for the rest of a prompt it gives up on
    ...(fallbacks.length ? [`fallbacks: ${fallbacks.join(", ")} (in order, for the rest of a prompt the model gives up on)`] : []),
    ...(locked.length ? [`without a key: ${locked.join(", ")}`] : []),
    ...(unapproved.length
      ? [`base_url not approved yet: ${unapproved.join(", ")} (${oneShot ? "the interactive prompt asks: start `hey` at a terminal" : "/reload asks"})`]
      : []),
  ].join("\n");
}

// The built-in providers (SPEC §3): each vendor's address, model and key variables, the variable
// that moves its address as the vendor's own SDK reads it (OPENAI_BASE_URL, ANTHROPIC_BASE_URL,
// GOOGLE_GEMINI_BASE_URL, OLLAMA_HOST), and which of them serves a model by its name. Pure.
import type { Protocol } from "../kernel/ir.ts";
import { OLLAMA_MODEL, OLLAMA_URL, ollamaUrl } from "./ollama-host.ts";
import type { ProviderSettings } from "./settings.ts";
import { VAR } from "./schema.ts";
import { credentialName } from "../net/credential-names.ts";
import { isNearby } from "../net/proxy.ts";
import { didYouMean, providerWord } from "./suggest.ts";

type Env = Record<string, string | undefined>;

export interface Preset {
  name: string;
  /** what it speaks at an address a variable or a table moved it to (a gateway, a local server) */
  protocol: Protocol;
  /** what it speaks at its vendor's own address, when that is another protocol (protocolAt) */
  ownProtocol?: Protocol;
  baseUrl: string;
  model: string;
  /** the variables that hold its key, first found wins */
  keyVars: string[];
  /** the variable the vendor's SDK reads its address from, which moves hey's too */
  urlVar?: string;
  /** the variable the vendor's own agent reads its model from (Claude Code's ANTHROPIC_MODEL), which is hey's default model too */
  modelVar?: string;
}

/**
 * With no provider in any file, all of these; the first one whose key is set is the default, else
 * the first its address variable moved (isGateway), else ollama. When files define providers,
 * those whose key variable is set, or whose address variable moved them, stay available too.
 */
export const PRESETS: Preset[] = [
  {
    name: "openai",
    // OpenAI's API takes reasoning effort with tools only over Responses (chat completions refuses the two together),
    // and only Responses gives the model's reasoning back to replay; gateways and local servers speak chat completions
    protocol: "openai",
    ownProtocol: "responses",
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-5.5",
    keyVars: ["OPENAI_API_KEY"],
    urlVar: "OPENAI_BASE_URL",
  },
  {
    name: "anthropic",
    protocol: "anthropic",
    baseUrl: "https://api.anthropic.com/v1",
    model: "claude-sonnet-4-5",
    // Claude Code's ANTHROPIC_AUTH_TOKEN (a gateway's token, sent as a Bearer: the adapter sends both headers), second as in the SDK
    keyVars: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"],
    urlVar: "ANTHROPIC_BASE_URL",
    modelVar: "ANTHROPIC_MODEL",
  },
  {
    name: "google",
    protocol: "google",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    model: "gemini-3.5-flash",
    keyVars: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
    urlVar: "GOOGLE_GEMINI_BASE_URL",
  },
  { name: "deepseek", protocol: "openai", baseUrl: "https://api.deepseek.com/v1", model: "deepseek-chat", keyVars: ["DEEPSEEK_API_KEY"] },
  { name: "ollama", protocol: "openai", baseUrl: OLLAMA_URL, model: OLLAMA_MODEL, keyVars: [], urlVar: "OLLAMA_HOST" },
];

/** Environment values count only when non-empty: `HEY_MODEL=` is the same as no HEY_MODEL. */
export const envValue = (env: Env, name: string): string | undefined => env[name] || undefined;

/**
 * hey's address of built-in provider `p`, and the variable it came from when one moved it: the
 * vendor's SDK variable (OPENAI_BASE_URL…) taken as its SDK takes it, OLLAMA_HOST as Ollama's client
 * reads it. A bad value is kept as written: it is an error only when the run uses that provider (checkAddress).
 */
export function builtInAddress(p: Preset, env: Env): { baseUrl: string; urlVar?: string } {
  const value = p.urlVar ? envValue(env, p.urlVar)?.trim() : undefined;
  if (!value || !p.urlVar || vendorsOwn(p, value)) return { baseUrl: p.baseUrl };
  if (p.name !== "ollama") return { baseUrl: value, urlVar: p.urlVar };
  try {
    return { baseUrl: ollamaUrl(env), urlVar: p.urlVar };
  } catch {
    return { baseUrl: value, urlVar: p.urlVar };
  }
}

/**
 * A built-in provider's model when none is named: the one its `modelVar` holds (a gateway serving
 * only the model Claude Code's ANTHROPIC_MODEL names answers any other with a 404), and that
 * variable; else hey's. Claude Code's own aliases (`opus`, `sonnet[1m]`) are Claude Code's to
 * resolve, not an API's: such a value keeps hey's model, and `alias` says so (aliasNote).
 */
export function builtInModel(p: Preset, env: Env): { models: string[]; modelVar?: string; alias?: string } {
  const value = p.modelVar ? envValue(env, p.modelVar)?.trim() : undefined;
  if (!value || !p.modelVar) return { models: [p.model] };
  return CLAUDE_CODE_ALIAS.test(value) ? { models: [p.model], alias: value } : { models: [value], modelVar: p.modelVar };
}

/** Claude Code's names for a model it picks itself, with its `[1m]` suffix for the long context window. */
const CLAUDE_CODE_ALIAS = /^(default|sonnet|opus|haiku|opusplan)(\[1m\])?$/i;

/** The warning for a `modelVar` holding an alias only Claude Code resolves, when `p`'s model is the one used. */
export function aliasNote(p: Preset, env: Env): string | undefined {
  const { alias, models } = builtInModel(p, env);
  return alias
    ? `${p.modelVar}=${alias} is Claude Code's alias, which the API does not serve: using ${p.name}/${models[0]} (-m ${p.name}/MODEL names another)`
    : undefined;
}

/**
 * Whether `url` is the vendor's own address of `p` (`OPENAI_BASE_URL=https://api.openai.com/v1`, common
 * in dotfiles; ANTHROPIC_BASE_URL's `https://api.anthropic.com`, without the version its SDK adds):
 * the same as no variable, so no gateway — its model names go to their vendors as they would without it.
 */
function vendorsOwn(p: Preset, url: string): boolean {
  if (p.name === "ollama" || !URL.canParse(url)) return false;
  const at = (u: string) => {
    const { protocol, host, pathname } = new URL(u);
    return `${protocol}//${host}${pathname.replace(/\/+$/, "")}`;
  };
  const own = at(p.baseUrl);
  return [own, own.replace(/\/v\d\w*$/, "")].includes(at(url));
}

/**
 * The protocol built-in provider `p` speaks at `baseUrl`: its `ownProtocol` at its vendor's own
 * address (`OPENAI_BASE_URL=https://api.openai.com/v1` included), else its `protocol` — an
 * OPENAI_BASE_URL at LiteLLM, vLLM or Azure keeps chat completions unless a table says otherwise.
 */
export function protocolAt(p: Preset, baseUrl: string): Protocol {
  return p.ownProtocol && (baseUrl === p.baseUrl || vendorsOwn(p, baseUrl)) ? p.ownProtocol : p.protocol;
}

/**
 * Whether `p` is a vendor's built-in provider whose variable moved its address (OPENAI_BASE_URL at
 * a gateway, or a local vLLM, LM Studio or llama.cpp server, which need no key): used with its key
 * or without one, it is offered as one that needs none (OLLAMA_HOST moves Ollama, no vendor's).
 */
export const isGateway = (p: Pick<ProviderSettings, "preset" | "urlVar" | "apiKeyVar">): boolean => Boolean(p.preset && p.urlVar && p.apiKeyVar !== undefined);

/** Whether a provider can be used as it is: it has a key, or it was configured without one (a local server, a vendor's variable moved). */
export function isUsable(p: ProviderSettings): boolean {
  return p.apiKey !== undefined || p.apiKeyVar === undefined || isGateway(p);
}

/** Throws the ConfigError of a bad address that a variable gave the provider this run uses (`check` is checkUrl). */
export function checkAddress(p: ProviderSettings, env: Env, check: (url: string, label: string) => void): void {
  if (p.urlVar === "OLLAMA_HOST") ollamaUrl(env);
  else if (p.urlVar) check(p.baseUrl, p.urlVar);
}

/**
 * All the built-in providers, with the keys and addresses `env` gives them; `first`: the first with
 * a key, else the first a variable moved (a keyless local server: OPENAI_BASE_URL set is what the
 * user asked for, over an Ollama nobody named), else ollama.
 */
export function presets(env: Env): { providers: ProviderSettings[]; first: string } {
  const providers = PRESETS.map((p): ProviderSettings => {
    const { apiKey, apiKeyVar } = keyOf(p, env);
    const { name } = p;
    const { models, modelVar } = builtInModel(p, env);
    const address = builtInAddress(p, env);
    return {
      name,
      protocol: protocolAt(p, address.baseUrl),
      ...address,
      apiKey,
      apiKeyVar,
      models,
      ...(modelVar ? { modelVar } : {}),
      legacyThinking: false,
      headers: {},
      preset: true,
    };
  });
  return { providers, first: (providers.find((p) => p.apiKey) ?? providers.find(isGateway))?.name ?? "ollama" };
}

/**
 * The key a built-in provider (or its `[provider.NAME]` table without api_key) takes from `env`:
 * the first of its variables with a value, and that variable's name, else its first variable's.
 * A variable of whitespace alone is no key (`OPENAI_API_KEY=' '` would send `Bearer ` and earn a 401). Pure.
 */
export function keyOf(p: Preset, env: Env): { apiKey: string | undefined; apiKeyVar: string | undefined } {
  const apiKeyVar = p.keyVars.find((v) => env[v]?.trim()) ?? p.keyVars[0];
  return { apiKey: apiKeyVar && env[apiKeyVar]?.trim() ? env[apiKeyVar] : undefined, apiKeyVar };
}

/**
 * Why the run would go without the key the user meant to give, or undefined: the built-in provider
 * in use (or its table without an api_key of its own) has none while its key variable is set
 * blank (`ANTHROPIC_API_KEY=`, what GitHub Actions gives for a secret a fork's pull request cannot
 * read, or a misspelt secret's name); or, `fellBack` (nothing named a provider) to the local Ollama
 * for want of a key, while some vendor's variable is set blank. `fatal`: the request would surely
 * fail (a vendor's own API wants its key); otherwise the run goes on and this is a warning, as a
 * blank variable is common where the key is not meant to be used (a compose file's
 * `OPENAI_API_KEY=${OPENAI_API_KEY}`, a .env template, `export OPENAI_API_KEY=` to switch it off).
 * A gateway (its address variable moved) may take no key. Pure.
 */
export function blankKeyProblem(p: ProviderSettings, env: Env, fellBack: boolean): { message: string; fatal: boolean } | undefined {
  const builtIn = PRESETS.find((x) => x.name === p.name);
  if (p.apiKey || !builtIn || isGateway(p)) return undefined;
  const toOllama = fellBack && p.name === "ollama" && !p.urlVar; // OLLAMA_HOST set: Ollama is what the user asked for
  const blank = PRESETS.filter((x) => toOllama || x.name === p.name)
    .flatMap((x) => x.keyVars)
    .filter((v) => env[v] !== undefined && env[v]!.trim() === "");
  if (blank.length === 0) return undefined;
  const said = `${blank.join(" and ")} ${blank.length > 1 ? "are" : "is"} set but empty`;
  if (toOllama)
    return {
      message: `${said}, so hey uses the local Ollama; give the variable its key to use that vendor (unset it to silence this)`,
      fatal: false,
    };
  const fatal = vendorsApi(p.baseUrl); // a local server a table points at may take no key
  return {
    message: `${said}${fatal ? " (a CI secret that is not available to this job?)" : ""}, so provider ${p.name} sends no API key; give the variable its key, or pass --api-key`,
    fatal,
  };
}

/**
 * Why nothing is sent for a resumed session whose provider (`p`, its model `used`) has no key now:
 * the request would only be refused, after carrying the whole history; with a provider that has one, named;
 * `flag`: the flag or variable that chose it on resuming (`-m gpt-5.5`), when one did.
 */
export function noKeyRefusal(p: ProviderSettings, used: string, providers: readonly ProviderSettings[], flag?: string): string {
  // one with a key, or a table of one's own that needs none (a local server); never another keyless vendor
  const other = providers.find((x) => x !== p && x.models.length > 0 && (x.apiKey !== undefined || (!x.preset && !keylessAtVendor(x))));
  // at a vendor's API its own variable; elsewhere the one the table writes its key from (a gateway's header)
  const named = vendorsApi(p.baseUrl) ? (p.apiKeyVar ?? p.keyNamed) : (p.keyNamed ?? p.apiKeyVar);
  const key = named ?? `api_key in [provider.${p.name}]`; // a table of one's own at a vendor's address, with no api_key
  const set = named === undefined ? `[provider.${p.name}] has no api_key` : /^[A-Z_][A-Z0-9_]*$/.test(key) ? `${key} is not set` : `${key} has no value`;
  const instead = other ? `continue it with a model whose key is set: hey -c -m ${other.name}/${other.models[0]} (/model at the prompt), or ` : "";
  const what = flag ? `${flag} sends this session to ${used}` : `this session last used ${used}`; // -c -m NAME: the flag chose it
  return `${what}, and ${set}, so hey sends it nothing (the request would be refused); ${instead}set ${key} (or pass --api-key)`;
}

/**
 * The variable, with no default, that the table itself writes its key from: its api_key
 * (`"${OPENROUTER_API_KEY}"`, `"sk-${K}"`) or a header that carries a key (credentialName:
 * `Authorization = "Bearer ${GW_TOKEN}"`, Azure's `api-key`, `Ocp-Apim-Subscription-Key`).
 * Such a table says its server wants a key; `${KEY:-}` or `""` say it may take none, and
 * `${KEY:-sk-x}` always gives one. Undefined when it writes none. Pure.
 */
export function keyNamed(rawKey: string | undefined, rawHeaders: Record<string, string> | undefined): string | undefined {
  const written = [rawKey ?? "", ...Object.entries(rawHeaders ?? {}).flatMap(([name, value]) => (credentialName(name) ? [value] : []))];
  return written.flatMap((v) => [...v.matchAll(VAR)]).find((m) => m[2] === undefined)?.[1];
}

/**
 * Whether each request to `p` would surely be refused for want of a key: it carries none, neither
 * its own nor in a header that carries one (a header whose variable has no value is sent empty, or
 * as a bare "Bearer"), and goes where one is wanted: a vendor's own API always, an optional
 * `${KEY:-}` or a built-in provider's variable notwithstanding; another hosted API (neither on
 * this machine nor on its network) where the table writes its key from a variable with no default
 * (keyNamed). A table with no key of its own away from a vendor's API (a keyless gateway, LiteLLM,
 * `[provider.openai] base_url = "https://llm.corp.example/v1"`) is sent to, as a first run is. Pure.
 */
export function keylessAtVendor(p: ProviderSettings): boolean {
  const keyHeader = Object.entries(p.headers).some(([name, value]) => credentialName(name) && !/^(bearer|basic)?$/i.test(value.trim()));
  if (p.apiKey !== undefined || keyHeader || !URL.canParse(p.baseUrl)) return false;
  return vendorsApi(p.baseUrl) || (p.keyNamed !== undefined && !isNearby(new URL(p.baseUrl).hostname));
}

/**
 * Why no key is sent although one was given, empty: `--api-key ''`, or HEY_API_KEY or a variable the
 * provider's key comes from (`vars`) set to nothing or whitespace (`OPENAI_API_KEY=`, a CI secret this
 * job cannot read), as an auth error says it (ProviderSettings.apiKeyEmpty); undefined when none was. Pure.
 */
export function emptyKeySaid(vars: readonly string[], env: Env, flags: { apiKey?: string }): string | undefined {
  const flag = flags.apiKey !== undefined && !flags.apiKey.trim() ? ["--api-key was given empty"] : [];
  const blank = [...new Set(["HEY_API_KEY", ...vars])].filter((v) => env[v] !== undefined && env[v]!.trim() === "");
  const verb = blank.length > 1 ? "are" : "is";
  const said = blank.length ? [`${blank.join(" and ")} ${verb} set but empty (a CI secret that is not available to this job?)`] : [];
  return [...flag, ...said].join(", and ") || undefined;
}

/** The hosts of the vendors' own APIs: the built-in providers that take a key (api.openai.com, api.deepseek.com…). */
const VENDOR_HOSTS = PRESETS.filter((p) => p.keyVars.length > 0).map((p) => new URL(p.baseUrl).hostname);

/** Whether `baseUrl` is a vendor's own API, whose servers parse tool calls: a call in an answer's text there is text. */
export const vendorsApi = (baseUrl: string): boolean => URL.canParse(baseUrl) && VENDOR_HOSTS.includes(new URL(baseUrl).hostname.replace(/\.$/, "")); // `api.openai.com.` is the same host

/** Whether `p` uses hey's own address for its name (a built-in provider, or its table without a base_url): no one wrote it. */
export const builtInUrl = (p: Pick<ProviderSettings, "name" | "baseUrl">): boolean => PRESETS.some((x) => x.name === p.name && x.baseUrl === p.baseUrl);

/** Why a built-in provider is not among the known ones (its key is not set); "" for another name. */
export function presetHint(name: string): string {
  const preset = PRESETS.find((p) => p.name === name);
  if (!preset) return "";
  if (preset.keyVars.length === 0) return ` (${name} is built in, but a config with providers lists only its own: add [provider.${name}])`;
  return ` (${name} is built in and offered when ${preset.keyVars.join(" or ")} is set)`;
}

/**
 * What follows "unknown provider NAME": the provider meant when NAME is a vendor's product
 * (`gemini`: google, `claude`: anthropic), with when a built-in one is offered if `known` lacks
 * it; else why a built-in NAME is missing, else a known name close to NAME; "" when none is.
 */
export function unknownProviderHint(name: string, known: readonly string[]): string {
  const meant = providerWord(name);
  if (meant) return `; did you mean ${meant}?${known.includes(meant) ? "" : presetHint(meant)}`;
  return presetHint(name) || didYouMean(name, known);
}

/**
 * Model names each built-in provider serves, by how they start. Ollama's: NAME:TAG (`qwen3:14b`;
 * OpenAI's fine-tunes are `ft:…`), and the untagged names of the open-weight families Ollama's
 * library holds (`llama3.2`, `mistral`, `gemma3`, `phi4`, `qwen2.5-coder`, `deepseek-r1`, `gpt-oss`…),
 * which no built-in vendor's API serves under those names: checked first, so a local model never
 * goes to a cloud vendor for want of a tag. Google serves Gemma as `gemma-3-27b-it`, DeepSeek its
 * models as `deepseek-chat` and `deepseek-reasoner`.
 */
const FAMILIES: [RegExp, string][] = [
  [/^(?!ft:)[\w.-]+:[\w.-]+$/, "ollama"],
  [
    /^(gpt-oss|(code|tiny)?llama|llava|mistral|mixtral|codestral|devstral|magistral|(code)?gemma(\d|$)|phi|qwen|qwq|deepseek-(r1|coder|llm|v\d)|starcoder|granite|olmo|smollm|nomic-embed|mxbai-embed)/,
    "ollama",
  ],
  [/^claude-/, "anthropic"],
  [/^(gemini-|gemma-)/, "google"],
  [/^(gpt-|chatgpt-|codex-|o\d)/, "openai"],
  [/^deepseek-/, "deepseek"],
];

/** The built-in provider whose vendor names models like `model` (`claude-opus-4-5`: anthropic, `llama3.2`: ollama); undefined for none. */
export const familyOf = (model: string): string | undefined => FAMILIES.find(([re]) => re.test(model))?.[1];

// Which providers exist and which one, with which model, this run uses (SPEC §2, §3): the
// `[provider.NAME]` tables or else the zero-config presets, the ad-hoc provider of `--base-url` /
// `HEY_BASE_URL`, and the choice -m > HEY_MODEL/HEY_PROVIDER > a resumed session's model > [default] >
// first provider. Pure.
import type { Protocol } from "../kernel/ir.ts";
import type { Compat } from "../providers/common.ts";
import { endpointRoot } from "./endpoint-root.ts";
import { nearMiss, sharedName } from "./model-check.ts";
import { OLLAMA_MODEL, OLLAMA_URL, ollamaUrl } from "./ollama-host.ts";
import { checkValue, type ConfigFile, type FileProvider, where, WHOLE_VAR } from "./schema.ts";
import { didYouMean, providerWord } from "./suggest.ts";
import { ConfigError, UnknownProviderError, type ConfigFlags, type ProviderSettings } from "./settings.ts";

type Env = Record<string, string | undefined>;

/** What provider selection needs from the merged files. */
export interface ProviderInput {
  /** merged and `${VAR}`-expanded */
  file: ConfigFile;
  /** merged, before expansion: tells `api_key = "${VAR}"` from a literal key */
  raw: ConfigFile;
  /** the file that last set a key (or the table holding it) */
  sourceOf: (path: string[]) => string;
  /** `FILE:LINE` of the key at `path` (`FILE` when the line cannot be told) */
  lineOf?: (path: string[]) => string;
  /** the variables that had no value while expanding the key at `path` */
  missing: (path: string[]) => string[];
  env: Env;
  flags: ConfigFlags;
}

export interface ProviderChoice {
  providers: ProviderSettings[];
  provider: ProviderSettings;
  model: string;
  /** an api_key variable without a value (`/reload` refuses it) */
  warnings: string[];
  /** a resumed session's model that this run cannot use */
  notice?: string;
}

interface Preset {
  name: string;
  protocol: Protocol;
  baseUrl: string;
  model: string;
  /** the variables that hold its key, first found wins */
  keyVars: string[];
}

/**
 * hey's own address of built-in provider `p` (OLLAMA_HOST moves Ollama's), and the variable it
 * came from. A bad OLLAMA_HOST is kept as written: it is an error only when the run uses Ollama.
 */
function builtInAddress(p: Preset, env: Env): { baseUrl: string; urlVar?: string } {
  const value = p.name === "ollama" ? envValue(env, "OLLAMA_HOST")?.trim() : undefined;
  if (!value) return { baseUrl: p.baseUrl };
  try {
    return { baseUrl: ollamaUrl(env), urlVar: "OLLAMA_HOST" };
  } catch {
    return { baseUrl: value, urlVar: "OLLAMA_HOST" };
  }
}

/**
 * With no provider in any file, all of these; the first one whose key is set is the default, else
 * ollama. When files define providers, those whose key variable is set stay available too.
 */
const PRESETS: Preset[] = [
  { name: "openai", protocol: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-5.5", keyVars: ["OPENAI_API_KEY"] },
  {
    name: "anthropic",
    protocol: "anthropic",
    baseUrl: "https://api.anthropic.com/v1",
    model: "claude-sonnet-4-5",
    keyVars: ["ANTHROPIC_API_KEY"],
  },
  {
    name: "google",
    protocol: "google",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    model: "gemini-3-flash-preview",
    keyVars: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  },
  { name: "deepseek", protocol: "openai", baseUrl: "https://api.deepseek.com/v1", model: "deepseek-chat", keyVars: ["DEEPSEEK_API_KEY"] },
  { name: "ollama", protocol: "openai", baseUrl: OLLAMA_URL, model: OLLAMA_MODEL, keyVars: [] },
];

const fail = (message: string): never => {
  throw new ConfigError(message);
};

/** Environment values count only when non-empty: `HEY_MODEL=` is the same as no HEY_MODEL. */
export const envValue = (env: Env, name: string): string | undefined => env[name] || undefined;

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

function presets(env: Env): { providers: ProviderSettings[]; first: string } {
  const providers = PRESETS.map((p): ProviderSettings => {
    const apiKeyVar = p.keyVars.find((v) => env[v]) ?? p.keyVars[0];
    const apiKey = apiKeyVar ? envValue(env, apiKeyVar) : undefined;
    const { name, protocol } = p;
    return { name, protocol, ...builtInAddress(p, env), apiKey, apiKeyVar, models: [p.model], legacyThinking: false, headers: {}, preset: true };
  });
  return { providers, first: providers.find((p) => p.apiKey)?.name ?? "ollama" };
}

export function checkUrl(url: string, label: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {}
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") fail(`${label} must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
}

function fromFile(name: string, p: FileProvider, input: ProviderInput): ProviderSettings {
  const path = ["provider", name];
  const keyPath = [...path, "api_key"];
  const at = input.lineOf ?? input.sourceOf; // FILE:LINE where it can be told
  // `[provider.anthropic]` without base_url: the built-in provider, changed by what the table sets (models, effort…)
  const builtIn = p.base_url === undefined ? PRESETS.find((x) => x.name === name) : undefined;
  if (p.base_url === undefined && !builtIn) {
    const example = PRESETS.find((x) => x.protocol === (p.protocol ?? "openai"))?.baseUrl ?? "https://api.openai.com/v1";
    fail(`${at(path)}: ${where(path)} base_url is missing (the API root, e.g. "${example}")`);
  }
  const address = p.base_url === undefined ? builtInAddress(builtIn!, input.env) : { baseUrl: p.base_url };
  const { baseUrl } = address;
  // a URL built from an unset variable is only an error if this run uses the provider (chooseProvider)
  if (!input.missing([...path, "base_url"]).length) checkUrl(baseUrl, `${at([...path, "base_url"])}: ${where([...path, "base_url"])}`);
  const rawKey = input.raw.provider?.[name]?.api_key;
  let apiKeyVar = rawKey === undefined ? undefined : (WHOLE_VAR.exec(rawKey)?.[1] ?? `api_key in ${input.sourceOf(keyPath)} ${where(path)}`);
  // any variable of the key without a value means no key at all: half a key only earns a 401
  let apiKey = input.missing(keyPath).length ? undefined : p.api_key || undefined;
  if (builtIn && rawKey === undefined) {
    apiKeyVar = builtIn.keyVars.find((v) => input.env[v]) ?? builtIn.keyVars[0];
    apiKey = apiKeyVar ? envValue(input.env, apiKeyVar) : undefined;
  }
  return {
    name,
    protocol: p.protocol ?? builtIn?.protocol ?? "openai",
    ...address,
    apiKey,
    apiKeyVar,
    models: p.models ?? (builtIn ? [builtIn.model] : []),
    effort: p.effort,
    maxTokens: p.max_tokens,
    legacyThinking: p.legacy_thinking ?? false,
    headers: p.headers ?? {},
    apiVersion: p.api_version || undefined,
    ...(p.context_window !== undefined ? { contextWindow: p.context_window } : {}),
    ...(p.insecure ? { insecure: true } : {}),
    ...compatOf(p, (key) => `${at([...path, key])}: ${where([...path, key])}`),
    source: input.sourceOf([...path, "base_url"]),
  };
}

/** The compatibility flags of a provider table, checked; `{}` when it sets none. */
function compatOf(p: FileProvider, label: (key: string) => string): { compat?: Compat } {
  const oneOf = <T extends string>(key: "max_tokens_field" | "system_role", allowed: readonly T[]): T | undefined => {
    const v = p[key];
    if (v === undefined || (allowed as readonly string[]).includes(v)) return v as T | undefined;
    return fail(`${label(key)} must be ${allowed.map((a) => JSON.stringify(a)).join(" or ")}, got ${JSON.stringify(v)}`);
  };
  const compat: Compat = {};
  const maxTokensField = oneOf("max_tokens_field", ["max_tokens", "max_completion_tokens"] as const);
  const systemRole = oneOf("system_role", ["system", "developer"] as const);
  if (maxTokensField) compat.maxTokensField = maxTokensField;
  if (systemRole) compat.systemRole = systemRole;
  if (p.reasoning_replay !== undefined) compat.reasoningReplay = p.reasoning_replay;
  if (p.parallel_tool_calls !== undefined) compat.parallelToolCalls = p.parallel_tool_calls;
  if (p.prompt_cache_key !== undefined) compat.promptCacheKey = p.prompt_cache_key;
  return Object.keys(compat).length > 0 ? { compat } : {};
}

/**
 * Picks the providers, the one in use and its model. Throws ConfigError for an unknown provider
 * name, a provider with no model to use, an ad-hoc provider without a model, a bad base URL or
 * protocol.
 */
export function chooseProvider(input: ProviderInput): ProviderChoice {
  const { file, env, flags } = input;
  const names = Object.keys(file.provider ?? {});
  const keyed = presets(env).providers.filter((p) => p.apiKey && !names.includes(p.name));
  const listed = names.length ? { providers: [...names.map((n) => fromFile(n, file.provider![n]!, input)), ...keyed], first: names[0]! } : presets(env);

  const heyProtocol = envValue(env, "HEY_PROTOCOL");
  for (const [value, label] of [
    [flags.protocol, "--protocol"],
    [heyProtocol, "HEY_PROTOCOL"],
  ] as const) {
    const bad = value === undefined ? undefined : checkValue("protocol", value, label);
    if (bad) fail(bad);
  }

  const baseUrl = flags.baseUrl || envValue(env, "HEY_BASE_URL");
  if (baseUrl) return adHoc(baseUrl, heyProtocol, listed.providers, input);
  if (flags.protocol) fail("--protocol needs --base-url URL");
  if (heyProtocol) fail("HEY_PROTOCOL needs HEY_BASE_URL");

  const { providers, first } = listed;
  const byName = (name: string) => providers.find((p) => p.name === name);
  const names_ = providers.map((p) => p.name);
  const unknown = (name: string, label: string, more = ""): never => {
    throw new UnknownProviderError(
      `${label}: unknown provider ${JSON.stringify(name)}${unknownProviderHint(name, names_)}; known providers: ${names_.join(", ")}${more}`,
      name,
    );
  };
  const known = (name: string, label: string): string => byName(name)?.name ?? unknown(name, label);

  /** `-m` syntax: "provider/model", else a model some `models` list holds, else a provider name, else a model of `fallback`. */
  const parse = (spec: string, label: string, fallback: string): { provider: string; model?: string; note?: string | undefined } => {
    const slash = spec.indexOf("/");
    if (slash > 0) {
      const name = spec.slice(0, slash);
      const model = spec.slice(slash + 1);
      if (byName(name)) return { provider: name, model: model || undefined };
      if (!model) known(name, label);
      const holder = providers.find((p) => p.models.includes(spec));
      if (holder) return { provider: holder.name, model: spec };
      // not a model any provider lists: "PROVIDER/MODEL" with a provider that does not exist
      unknown(name, label, ` (a model whose name has a slash goes after its provider: -m ${fallback}/${spec})`);
    }
    // another agent's PROVIDER:MODEL (opencode's, LiteLLM's `openai:gpt-5`); an Ollama NAME:TAG names no provider before its colon
    const colon = /^([\w.-]+):(.+)$/.exec(spec);
    if (colon && byName(colon[1]!) && !providers.some((p) => p.models.includes(spec)))
      return { provider: colon[1]!, model: colon[2]!, note: `${label}: hey writes PROVIDER/MODEL; using ${colon[1]}/${colon[2]}` };
    const holder = [byName(fallback), ...providers].find((p) => p?.models.includes(spec));
    if (holder) return { provider: holder.name, model: spec, note: sharedName(spec, providers, holder.name) };
    if (byName(spec)) return { provider: spec };
    return { provider: vendorOf(spec, providers, byName(fallback)) ?? fallback, model: spec };
  };

  // `named`: where the model was named, when it was (-m, HEY_MODEL, [default] model)
  let choice: { provider: string; model?: string; named?: string; note?: string | undefined } = { provider: first };
  const d = file.default;
  const defaultLabel = (key: string) => `${(input.lineOf ?? input.sourceOf)(["default", key])}: [default] ${key}`;
  if (d?.provider !== undefined) choice = { provider: known(d.provider, defaultLabel("provider")), model: d.model || undefined, named: defaultLabel("model") };
  else if (d?.model) choice = { ...parse(d.model, defaultLabel("model"), first), named: defaultLabel("model") };
  let notice: string | undefined;
  if (flags.session && byName(flags.session.provider)) choice = { ...flags.session };
  else if (flags.session && !flags.model && !envValue(env, "HEY_MODEL") && !envValue(env, "HEY_PROVIDER")) {
    // say so rather than quietly talk to another model than the session did
    const { provider: p, model: m } = flags.session;
    const using = choice.model ?? byName(choice.provider)?.models[0];
    notice =
      `the session used ${p}/${m}, which is not configured in this run; using ${choice.provider}${using ? `/${using}` : ""}` +
      (p === "cli" ? ` — pass --base-url URL -m ${m} to continue with it` : ` — pass -m PROVIDER/MODEL to choose`);
  }

  const heyProvider = envValue(env, "HEY_PROVIDER");
  const inUse = flags.session?.current && choice.provider === flags.session.provider; // /model's: a switch HEY_PROVIDER does not undo
  if (heyProvider && heyProvider !== choice.provider && !inUse) choice = { provider: known(heyProvider, "HEY_PROVIDER") };

  const spec = flags.model || envValue(env, "HEY_MODEL");
  if (spec) {
    const label = flags.model ? `-m ${spec}` : `HEY_MODEL=${spec}`;
    choice = { ...parse(spec, label, choice.provider), named: label };
  }

  const provider = byName(choice.provider)!;
  const path = ["provider", provider.name];
  const at = input.lineOf ?? input.sourceOf; // FILE:LINE where it can be told
  const model =
    choice.model ?? provider.models[0] ?? fail(`${at(path)}: ${where(path)} lists no models; pass -m ${provider.name}/MODEL or add models = ["MODEL"]`);

  if (provider.urlVar) ollamaUrl(env); // a bad OLLAMA_HOST fails here, where Ollama is the one used
  const urlVars = provider.preset ? [] : input.missing([...path, "base_url"]);
  if (urlVars.length)
    fail(
      `${at([...path, "base_url"])}: ${where(path)} base_url needs ${urlVars.map((v) => `\${${v}}`).join(", ")}, which ${urlVars.length > 1 ? "have" : "has"} no value`,
    );

  const warnings: string[] = [];
  const key = flags.apiKey ? { apiKey: flags.apiKey, apiKeyVar: "--api-key" } : keyFromEnv(env);
  const missing = provider.preset ? [] : input.missing([...path, "api_key"]);
  if (!key && missing.length)
    warnings.push(
      `${at([...path, "api_key"])}: ${where(path)} api_key: ${missing.map((v) => `\${${v}}`).join(", ")} ` +
        `${missing.length > 1 ? "have" : "has"} no value, so provider ${provider.name} sends no API key`,
    );
  // `[provider.anthropic]` without base_url nor api_key takes the built-in key variable: unset, the first sign would be a 401
  const table = file.provider?.[provider.name];
  if (!key && table && table.base_url === undefined && input.raw.provider?.[provider.name]?.api_key === undefined && !provider.apiKey) {
    const vars = PRESETS.find((x) => x.name === provider.name)?.keyVars ?? [];
    if (vars.length)
      warnings.push(
        `${at(path)}: ${where(path)} has no api_key and ${vars.length > 1 ? `neither ${vars.join(" nor ")} has a value` : `${vars[0]} has no value`}, ` +
          `so provider ${provider.name} sends no API key (set ${vars[0]}, or api_key = "\${VAR}" in the table)`,
      );
  }
  const shellVar = provider.preset || key ? undefined : SHELL_VAR.exec(input.raw.provider?.[provider.name]?.api_key ?? "")?.[1];
  if (shellVar)
    warnings.push(`${at([...path, "api_key"])}: ${where(path)} api_key "$${shellVar}" is sent as written: hey reads a variable written "\${${shellVar}}"`);
  // a configured list only (a built-in one names one model): one misspelt letter is otherwise first told by the vendor's 404
  const near = choice.model && choice.named && file.provider?.[provider.name]?.models ? nearMiss(choice.model, provider.models) : undefined;
  if (near)
    warnings.push(
      `${choice.named}: ${where(path)} models (${at([...path, "models"])}) has no "${choice.model}"; did you mean ${near}? (a model not listed is sent as written)`,
    );
  // a name no provider lists where lists are kept: said, not refused (an endpoint serves models its list leaves out)
  else if (
    choice.model &&
    spec === choice.model && // not PROVIDER/MODEL nor PROVIDER:MODEL
    !providers.some((p) => p.models.includes(choice.model!)) &&
    names.some((n) => file.provider![n]!.models)
  )
    warnings.push(`${choice.named}: no provider lists "${model}"; it goes to ${provider.name}, whose models are ${provider.models.join(", ") || "not listed"}`);
  if (spec && choice.note) warnings.push(choice.note); // -m NAME that several providers list, or written PROVIDER:MODEL
  const rooted = endpointRoot(provider.baseUrl, provider.protocol);
  if (rooted) warnings.push(`${at([...path, "base_url"])}: ${where(path)} base_url ${pasted(rooted)}`);
  const chosen = { ...provider, ...(rooted ? { baseUrl: rooted.root } : {}), ...key };
  return { providers: providers.map((p) => (p === provider ? chosen : p)), provider: chosen, model, warnings, ...(notice ? { notice } : {}) };
}

/** Whether a provider can be used as it is: it has a key, or it was configured without one (a local server). */
export function isUsable(p: ProviderSettings): boolean {
  return p.apiKey !== undefined || p.apiKeyVar === undefined;
}

/** Model names each vendor's built-in provider serves, by how they start. */
const FAMILIES: [RegExp, string][] = [
  // Ollama's names: NAME:TAG (`qwen3:14b`, `deepseek-r1:7b`; OpenAI's fine-tunes are `ft:…`) and the
  // open-weight gpt-oss, which OpenAI's API does not serve; checked first
  [/^(?!ft:)[\w.-]+:[\w.-]+$|^gpt-oss(?![\w.])/, "ollama"],
  [/^claude-/, "anthropic"],
  [/^gemini-/, "google"],
  [/^(gpt-|chatgpt-|codex-|o\d)/, "openai"],
  [/^deepseek-/, "deepseek"],
];

/**
 * With only built-in vendors' providers (keys in the environment, no provider of one's own nor a
 * local one in use), the one whose vendor names models like `model` (`claude-opus-4-5`:
 * anthropic), when its key is set; undefined otherwise — a provider of one's own (a gateway) serves whatever it is asked for.
 */
function vendorOf(model: string, providers: ProviderSettings[], fallback: ProviderSettings | undefined): string | undefined {
  // a local model server (Ollama: no key) is chosen for being local: its models are never sent to a cloud vendor
  if (!fallback?.preset || fallback.apiKeyVar === undefined) return undefined;
  const name = FAMILIES.find(([re]) => re.test(model))?.[1];
  const vendor = providers.find((p) => p.name === name && p.preset && (p.apiKey || p.apiKeyVar === undefined)); // keyless: the local Ollama
  return vendor?.name;
}

/** What to say of a base URL given with its endpoint path (endpoint-root.ts). */
const pasted = ({ root, cut }: { root: string; cut: string }) => `ends with ${cut}, a path the API client adds itself: hey uses ${root}, the API root`;

/** `api_key = "$OPENAI_API_KEY"`: a shell's spelling of a variable, which TOML keeps as it is */
const SHELL_VAR = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;

const keyFromEnv = (env: Env) => {
  const apiKey = envValue(env, "HEY_API_KEY");
  return apiKey ? { apiKey, apiKeyVar: "HEY_API_KEY" } : undefined;
};

/** The provider named `cli` that `--base-url` / `HEY_BASE_URL` define; flags win over HEY_* field by field. */
function adHoc(baseUrl: string, heyProtocol: string | undefined, others: ProviderSettings[], input: ProviderInput): ProviderChoice {
  const { flags, env } = input;
  const fromFlag = Boolean(flags.baseUrl);
  checkUrl(baseUrl, fromFlag ? "--base-url" : "HEY_BASE_URL");
  const model = flags.model || envValue(env, "HEY_MODEL") || fail(fromFlag ? "--base-url needs -m MODEL" : "HEY_BASE_URL needs HEY_MODEL or -m MODEL");
  const key = flags.apiKey ? { apiKey: flags.apiKey, apiKeyVar: "--api-key" } : keyFromEnv(env);
  const protocol = flags.protocol ?? (heyProtocol as Protocol | undefined) ?? "openai";
  const rooted = endpointRoot(baseUrl, protocol);
  const cli: ProviderSettings = { name: "cli", protocol, baseUrl: rooted?.root ?? baseUrl, ...key, models: [model], legacyThinking: false, headers: {} };
  const warnings = rooted ? [`${fromFlag ? "--base-url" : "HEY_BASE_URL"} ${pasted(rooted)}`] : [];
  return { providers: [cli, ...others.filter((p) => p.name !== "cli")], provider: cli, model, warnings };
}

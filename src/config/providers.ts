// Which providers exist and which one, with which model, this run uses (SPEC §2, §3): the
// `[provider.NAME]` tables or else the built-in ones of presets.ts, the ad-hoc provider of `--base-url` /
// `HEY_BASE_URL`, and the choice -m > HEY_MODEL/HEY_PROVIDER > a resumed session's model > [default] >
// first provider. Pure.
import type { Protocol } from "../kernel/ir.ts";
import { endpointRoot } from "./endpoint-root.ts";
import { compatOf } from "./provider-compat.ts";
import { nearMiss, sharedName } from "./model-check.ts";
import {
  aliasNote,
  blankKeyProblem,
  emptyKeySaid,
  builtInAddress,
  builtInModel,
  checkAddress,
  envValue,
  familyOf,
  isGateway,
  isUsable,
  keylessAtVendor,
  keyNamed,
  noKeyRefusal,
  keyOf,
  PRESETS,
  presets,
  protocolAt,
  unknownProviderHint,
} from "./presets.ts";
import { keptOnSession, movedBy, movedNotice, namesSessionModel, staysWithSession } from "./resumed-provider.ts";
import { checkValue, type ConfigFile, type FileProvider, varsIn, where, WHOLE_VAR } from "./schema.ts";
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
  /** the variables left out (empty) as not approved yet, where they stand (config/guard.ts Guarded.vars: `[provider.x] models ${M}`) */
  withheld?: readonly string[];
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
  /** `model` is hey's own default for the built-in provider: no -m, HEY_MODEL, [default] model, models list, model variable nor session named it */
  defaultModel?: true;
}

const fail = (message: string): never => {
  throw new ConfigError(message);
};

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
  // `[provider.anthropic]`: the built-in provider, changed by what the table sets (base_url moves only its address;
  // its protocol and key variable stay, as the approval of that base_url says: "its requests and key would go there")
  const builtIn = PRESETS.find((x) => x.name === name);
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
  let apiKey = input.missing(keyPath).length || !p.api_key?.trim() ? undefined : p.api_key; // whitespace alone is none, as keyOf reads
  const named = keyNamed(rawKey, input.raw.provider?.[name]?.headers); // the table's own, never the preset's variable
  if (builtIn && rawKey === undefined) {
    ({ apiKey, apiKeyVar } = keyOf(builtIn, input.env));
  }
  return {
    name,
    protocol: p.protocol ?? (builtIn ? protocolAt(builtIn, baseUrl) : "openai"),
    ...address,
    apiKey,
    apiKeyVar,
    ...(named !== undefined && { keyNamed: named }),
    ...(p.models ? { models: p.models } : builtIn ? builtInModel(builtIn, input.env) : { models: [] }),
    effort: p.effort,
    maxTokens: p.max_tokens,
    legacyThinking: p.legacy_thinking ?? false,
    headers: p.headers ?? {},
    apiVersion: p.api_version || undefined,
    ...(p.context_window !== undefined ? { contextWindow: p.context_window } : {}),
    ...(p.insecure ? { insecure: true } : {}),
    ...compatOf(p),
    source: input.sourceOf([...path, "base_url"]),
  };
}

/**
 * Why the model name the key at `path` gives is empty, and what to do: a request without one is
 * refused by any endpoint, far from the cause (ProviderSettings.noModel).
 */
function emptyModel(input: ProviderInput, path: string[] | string, provider: string): string {
  // named outside the files (-m, HEY_MODEL, the resumed session's): no line of a file to blame
  if (typeof path === "string") return `${path}: the model name is empty, and hey sends no request without one: pass -m ${provider}/MODEL`;
  const unset = input.missing(path).map((v) => `\${${v}} is not set`);
  const unapproved = (input.withheld ?? [])
    .filter((v) => v.startsWith(`${where(path)} \${`))
    .map((v) => `${v.slice(where(path).length + 1)} is not approved yet`);
  const why = [...unset, ...unapproved].join(", ") || "it is written empty";
  const fix = unapproved.length ? "say yes to the change at the interactive prompt (start hey at a terminal), or pass" : "pass";
  return `${(input.lineOf ?? input.sourceOf)(path)}: ${where(path)}: the model name is empty (${why}), and hey sends no request without one: ${fix} -m ${provider}/MODEL`;
}

/**
 * Picks the providers, the one in use and its model. Throws ConfigError for an unknown provider
 * name, a provider with no model to use, an ad-hoc provider without a model, a bad base URL or
 * protocol.
 */
export function chooseProvider(input: ProviderInput): ProviderChoice {
  const { file, env, flags } = input;
  const names = Object.keys(file.provider ?? {});
  const keyed = presets(env).providers.filter((p) => (p.apiKey || isGateway(p)) && !names.includes(p.name));
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
  // a built-in vendor's session with no key now, left out of a config's list: refused below as with no config unless -m or HEY_* names another provider
  const keyless = presets(env).providers.find((p) => p.name === flags.session?.provider && keylessAtVendor(p) && !byName(p.name));
  if (keyless && !flags.model && staysWithSession(flags.session!, env)) providers.push(keyless);
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
    const vendor = vendorOf(spec, providers, byName(fallback));
    if (!vendor && !familyOf(spec) && hosted(byName(fallback))) unrouted = spec;
    return { provider: vendor ?? fallback, model: spec };
  };

  let unrouted: string | undefined; // a bare name of no vendor's family that went to the default vendor
  // `named`: where the model was named, when it was (-m, HEY_MODEL, [default] model); `key`, when that was a file's key
  let choice: { provider: string; model?: string; named?: string; key?: string[]; note?: string | undefined } = { provider: first };
  const d = file.default;
  const defaultLabel = (key: string) => `${(input.lineOf ?? input.sourceOf)(["default", key])}: [default] ${key}`;
  const fromDefault = { named: defaultLabel("model"), key: ["default", "model"] };
  if (d?.provider !== undefined) choice = { provider: known(d.provider, defaultLabel("provider")), model: d.model || undefined, ...fromDefault };
  else if (d?.model) choice = { ...parse(d.model, defaultLabel("model"), first), ...fromDefault };
  if (flags.session && byName(flags.session.provider)) choice = { ...flags.session };
  const resumedChoice = flags.session && byName(flags.session.provider) ? choice : undefined; // still it below: nothing named another

  const heyProvider = envValue(env, "HEY_PROVIDER");
  const inUse = flags.session?.current && choice.provider === flags.session.provider; // /model's: a switch HEY_PROVIDER does not undo
  if (heyProvider && heyProvider !== choice.provider && !inUse) choice = { provider: known(heyProvider, "HEY_PROVIDER") };

  const spec = flags.model || envValue(env, "HEY_MODEL");
  if (spec) {
    const label = flags.model ? (flags.modelLabel ?? `-m ${spec}`) : `HEY_MODEL=${spec}`;
    // HEY_MODEL naming the session's own model keeps it on its provider, though a gateway lists that name too; so does one of its vendor's
    const own = !flags.model && resumedChoice && choice.provider === resumedChoice.provider && namesSessionModel(spec, flags.session!);
    const kept = !flags.model && resumedChoice && !flags.session!.current ? keptOnSession(flags.session!, env, spec) : undefined;
    choice = { ...(own ? resumedChoice : (kept ?? parse(spec, label, choice.provider))), named: label };
    // -c, --resume, /resume: left on its provider, a session keeps its model, key or not (only -m and /model change it); a refusal names HEY_MODEL only where it named that model
    const stayed = resumedChoice?.provider === choice.provider && !flags.model && !flags.session!.current ? byName(choice.provider) : undefined;
    if (stayed && (choice.model !== resumedChoice!.model || !keylessAtVendor(stayed) || keyGiven(flags, env, stayed.name))) choice = resumedChoice!;
  }

  const provider = byName(choice.provider)!;
  const path = ["provider", provider.name];
  const at = input.lineOf ?? input.sourceOf; // FILE:LINE where it can be told
  const model =
    choice.model ?? provider.models[0] ?? fail(`${at(path)}: ${where(path)} lists no models; pass -m ${provider.name}/MODEL or add models = ["MODEL"]`);

  checkAddress(provider, env, checkUrl); // a bad OLLAMA_HOST or OPENAI_BASE_URL fails here, where its provider is the one used
  const urlVars = provider.preset ? [] : input.missing([...path, "base_url"]);
  if (urlVars.length)
    fail(
      `${at([...path, "base_url"])}: ${where(path)} base_url needs ${urlVars.map((v) => `\${${v}}`).join(", ")}, which ${urlVars.length > 1 ? "have" : "has"} no value`,
    );

  const warnings: string[] = [];
  const key = keyGiven(flags, env, provider.name);
  const fellBack = first === "ollama" && !spec && !heyProvider && !flags.session && !d; // nothing named a provider
  const ownKey = input.raw.provider?.[provider.name]?.api_key !== undefined; // its ${VAR} without a value is said below
  const blank = key || ownKey ? undefined : blankKeyProblem(provider, env, fellBack && choice.provider === "ollama");
  if (blank?.fatal) fail(blank.message); // stopped before a request that could only fail, and for another reason than the real one
  if (blank) warnings.push(blank.message);
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
  // a local model's name hey does not know the family of would leave the machine unsaid
  if (spec && unrouted === choice.model && choice.named && provider.preset)
    warnings.push(
      `${choice.named}: "${unrouted}" is no model hey knows the vendor of, so it goes to ${provider.name} (${provider.baseUrl}); ` +
        `-m ollama/${unrouted} keeps it on the local Ollama, -m ${provider.name}/${unrouted} says it is ${provider.name}'s`,
    );
  const rooted = endpointRoot(provider.baseUrl, provider.protocol);
  if (rooted) warnings.push(`${provider.urlVar ?? `${at([...path, "base_url"])}: ${where(path)} base_url`} ${pasted(rooted)}`);
  // ANTHROPIC_MODEL is said as where the model came from only while it is the model used (not under -m or a resumed session's)
  const { modelVar: _modelVar, ...named } = provider;
  const builtIn = choice.model === undefined && !file.provider?.[provider.name]?.models ? PRESETS.find((x) => x.name === provider.name) : undefined;
  const alias = builtIn && aliasNote(builtIn, env);
  if (alias) warnings.push(alias);
  const noModel = model.trim()
    ? undefined
    : emptyModel(input, choice.model === undefined ? [...path, "models"] : (choice.key ?? choice.named ?? "the resumed session's model"), provider.name);
  // a fallback on another provider than the key's: neither an empty --api-key nor HEY_API_KEY is why it sends none
  const given = flags.keyFor === undefined || flags.keyFor === provider.name;
  const vars = keyVarsOf(provider.name, input);
  const empty = key || provider.apiKey ? undefined : given ? emptyKeySaid(vars, env, flags) : emptyKeySaid(vars, { ...env, HEY_API_KEY: undefined }, {});
  // the resumed session's provider has no key now (x117: the whole history went out unauthenticated, then a 401), where one
  // is wanted (presets.ts keylessAtVendor: a vendor's own API, or a hosted one whose table names a key)
  // -c -m NAME (or HEY_MODEL) on another keyless vendor would upload the same history unauthenticated: refused too, naming the flag
  const resuming =
    flags.session && !flags.session.current && choice !== resumedChoice ? (choice.named ?? (heyProvider && `HEY_PROVIDER=${heyProvider}`)) : undefined;
  const refused = (choice === resumedChoice || resuming) && !key && keylessAtVendor(provider);
  const noKey = refused ? noKeyRefusal(provider, `${provider.name}/${model}`, providers, resuming) : undefined;
  if (noKey) warnings.push(noKey); // at the prompt, said before the first message rather than after it
  // a resumed session sent to another provider is said (a refusal above says it already), offering -m back only where that would be sent
  const by = movedBy(flags.session, env, provider.name);
  const away = flags.session && !flags.session.current && !flags.model && provider.name !== flags.session.provider && !(by && noKey);
  const back = byName(flags.session?.provider ?? "");
  const gone = !back || (keylessAtVendor(back) && !keyGiven(flags, env, back.name)); // not in this run, or a vendor's API with no key
  const notice = away ? movedNotice(flags.session!, `${provider.name}/${model}`, by, gone && { keyVar: (back ?? keyless)?.apiKeyVar }) : undefined;
  const chosen = {
    ...(choice.model === undefined ? provider : named),
    ...(noKey ? { noKey } : {}),
    ...(notice ? { moved: notice } : {}),
    ...(rooted ? { baseUrl: rooted.root } : {}),
    ...key,
    ...(noModel ? { noModel } : {}),
    ...(empty ? { apiKeyEmpty: empty } : {}),
  };
  const heys = builtIn && !provider.modelVar ? { defaultModel: true as const } : {}; // a 404 for it says so (missing-model.ts)
  return { providers: providers.map((p) => (p === provider ? chosen : p)), provider: chosen, model, warnings, ...(notice ? { notice } : {}), ...heys };
}

/**
 * With only built-in vendors' providers (keys in the environment, no provider of one's own nor a
 * local one in use), the one whose vendor names models like `model` (`claude-opus-4-5`:
 * anthropic), when its key is set; undefined otherwise — a provider of one's own (a gateway) serves whatever it is asked for.
 */
function vendorOf(model: string, providers: ProviderSettings[], fallback: ProviderSettings | undefined): string | undefined {
  // a local model server (Ollama: no key) is chosen for being local: its models are never sent to a cloud vendor
  if (!fallback?.preset || fallback.apiKeyVar === undefined) return undefined;
  const name = familyOf(model);
  // a vendor's address moved by its variable (OPENAI_BASE_URL: a gateway) serves the open models itself (Groq's llama-3.3-70b-versatile)
  if (name === "ollama" && fallback.urlVar) return undefined;
  const vendor = providers.find((p) => p.name === name && p.preset && isUsable(p)); // keyless: the local Ollama, or a vendor's variable moved
  return vendor?.name;
}

/** Whether `p` is a cloud vendor's built-in provider at the vendor's own address. */
const hosted = (p: ProviderSettings | undefined): boolean => Boolean(p?.preset && p.apiKeyVar !== undefined && !p.urlVar);

/** What to say of a base URL given with its endpoint path (endpoint-root.ts). */
const pasted = ({ root, cut }: { root: string; cut: string }) => `ends with ${cut}, a path the API client adds itself: hey uses ${root}, the API root`;

/** The variables provider `name`'s key comes from: those its table's api_key names, else a built-in provider's own. */
function keyVarsOf(name: string, input: ProviderInput): string[] {
  const raw = input.raw.provider?.[name]?.api_key;
  return raw === undefined ? (PRESETS.find((x) => x.name === name)?.keyVars ?? []) : varsIn(raw).map((v) => v.name);
}

/** `api_key = "$OPENAI_API_KEY"`: a shell's spelling of a variable, which TOML keeps as it is */
const SHELL_VAR = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * The key `--api-key` or HEY_API_KEY gives provider `name`: every one, unless `keyFor` names the one
 * they were given for; one of whitespace alone is none, as keyOf reads a vendor's variable.
 */
const keyGiven = (flags: Pick<ConfigFlags, "apiKey" | "keyFor">, env: Env, name: string) => {
  if (flags.keyFor !== undefined && flags.keyFor !== name) return undefined;
  if (flags.apiKey?.trim()) return { apiKey: flags.apiKey, apiKeyVar: "--api-key" };
  const apiKey = envValue(env, "HEY_API_KEY");
  return apiKey?.trim() ? { apiKey, apiKeyVar: "HEY_API_KEY" } : undefined;
};

/** The provider named `cli` that `--base-url` / `HEY_BASE_URL` define; flags win over HEY_* field by field. */
function adHoc(baseUrl: string, heyProtocol: string | undefined, others: ProviderSettings[], input: ProviderInput): ProviderChoice {
  const { flags, env } = input;
  const fromFlag = Boolean(flags.baseUrl);
  checkUrl(baseUrl, fromFlag ? "--base-url" : "HEY_BASE_URL");
  const spec = flags.model || envValue(env, "HEY_MODEL") || fail(fromFlag ? "--base-url needs -m MODEL" : "HEY_BASE_URL needs HEY_MODEL or -m MODEL");
  // `/model` lists the endpoint's models as cli/NAME and another usable provider's as NAME/MODEL: each switches as written
  // (any other name, `-m anthropic/claude-sonnet-4.5` at a gateway included, or a fallback's, is a model of the endpoint as written);
  // one whose base_url is not approved yet too: marked after this (resolve.ts), the switch is refused saying how to approve it
  const [, name, rest] = /^([^/]+)\/(.+)$/.exec(spec) ?? [];
  const listed = (p: ProviderSettings) => p.name === name && p.name !== "cli" && isUsable(p) && p.models.includes(rest!);
  const other = flags.switching ? others.find(listed) : undefined;
  const model = other ? flags.switching?.endpointModel : name === "cli" ? rest! : spec; // the endpoint's, for /model to list beside the other's
  const key = keyGiven(flags, env, "cli");
  const empty = key ? undefined : emptyKeySaid([], env, flags);
  const protocol = flags.protocol ?? (heyProtocol as Protocol | undefined) ?? "openai";
  const rooted = endpointRoot(baseUrl, protocol);
  const from = fromFlag ? {} : { urlVar: "HEY_BASE_URL" }; // named where the address is (banner, doctor, its errors)
  const cli: ProviderSettings = {
    name: "cli",
    protocol,
    baseUrl: rooted?.root ?? baseUrl,
    ...from,
    ...key,
    ...(empty ? { apiKeyEmpty: empty } : {}),
    models: model ? [model] : [],
    legacyThinking: false,
    headers: {},
  };
  const warnings = rooted ? [`${fromFlag ? "--base-url" : "HEY_BASE_URL"} ${pasted(rooted)}`] : [];
  return { providers: [cli, ...others.filter((p) => p.name !== "cli")], provider: other ?? cli, model: other ? rest! : model!, warnings };
}

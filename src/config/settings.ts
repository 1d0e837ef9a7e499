// What configuration resolves to (SPEC §3): the settings hey runs with, the inputs of resolution
// and its one error type. Types only (and the error class), so every part of config/ and every
// consumer can name them without importing the resolver.
import type { Effort, Protocol } from "../kernel/ir.ts";
import type { Compat } from "../providers/common.ts";
import type { Guarded, LayerRole } from "./guard.ts";
import type { Resolved, SECTIONS } from "./keys.ts";

/**
 * A configuration mistake the user has to fix. `message` is the complete text to show (it names
 * the file or variable and the key); exiting with code 2 is the caller's job.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
  /** the same files' warnings (unknown keys…), shown before the errors so one run tells everything */
  constructor(
    message: string,
    readonly warnings: readonly string[] = [],
  ) {
    super(message);
  }

  /** The same error, with `warnings` (what resolving found before it). */
  withWarnings(warnings: readonly string[]): ConfigError {
    return new ConfigError(this.message, warnings);
  }
}

/**
 * A ConfigError for a provider name no loaded file defines (`-m proj/x`, `[defaults] provider`):
 * `provider` is that name, for a caller that knows of a file left unloaded (trust/start.ts).
 */
export class UnknownProviderError extends ConfigError {
  constructor(
    message: string,
    readonly provider: string,
    warnings: readonly string[] = [],
  ) {
    super(message, warnings);
  }

  override withWarnings(warnings: readonly string[]): UnknownProviderError {
    return new UnknownProviderError(this.message, this.provider, warnings);
  }
}

/** A config file's path (as Places names it) and the text a write would give it (config/write-check.ts); no text: as on disk. */
export type Written = { path: string; text?: string };

/** One parsed config file. `source` is its path, used in every message about it. */
export interface ConfigLayer {
  source: string;
  data: Record<string, unknown>;
  /** the project's `.hey/config.toml`: some keys (a provider's `insecure`) are refused there */
  project?: boolean;
  /** the file's text, when it came from a file: messages about a key name its line */
  text?: string;
  /** for a file that is not TOML (`.mcp.json`): the line of a key, by its path as hey writes it (`["mcp", NAME, KEY]`) */
  locate?: (path: readonly string[]) => number | undefined;
  /** servers read from another agent's format (`.mcp.json`): name → where, for `/mcp` */
  origins?: Record<string, string>;
  /**
   * What the user approved of this file's guarded keys (config/guard.ts): anything wider is left
   * out and reported as a widening; "current": all of it, as written now (approved at a prompt, or
   * adopted on hey's first run). No guard: the file is used as it is and not recorded (--approve).
   */
  guard?: { approved: Guarded | undefined | "current"; role: LayerRole };
  /** the file is not there (config/vanished.ts): it holds nothing, and the lists approved of it apply until the user says yes */
  gone?: true;
}

/**
 * The flags that take part in configuration, already parsed by the CLI (values are still checked
 * by the resolver). `--proxy` is not one: net/proxy.ts weighs it against `Settings.proxy`.
 */
export interface ConfigFlags {
  model?: string;
  baseUrl?: string;
  protocol?: Protocol;
  apiKey?: string;
  /**
   * the provider `apiKey` and HEY_API_KEY are given for (the model in use's, when a fallback model is
   * resolved): any other provider goes with its own key, as it would under `-m` without them, so the
   * key never reaches another vendor; undefined: whichever provider is chosen
   */
  keyFor?: string;
  effort?: Effort;
  maxTurns?: number;
  maxRunTokens?: number;
  /** `--fallback-model`, each use and each comma-separated name of it, in order */
  fallbackModels?: string[];
  /** where `model` was named, for messages, when not by `-m` (a fallback model: `--fallback-model NAME`) */
  modelLabel?: string;
  /**
   * The model a resumed session last used: one more layer of the choice, above `[default]` and
   * HEY_MODEL naming a model of its provider (where that provider can be sent to), below -m and a
   * HEY_PROVIDER / HEY_MODEL naming another provider; ignored when no provider of that name is configured.
   * `current`: it is the model in use, which `/model NAME` changes (runtime.ts): its provider is
   * kept over HEY_PROVIDER, which chose only the run's first one. `effort`: the effort it last
   * sent, below -t / HEY_EFFORT and above the provider's `effort`.
   */
  session?: { provider: string; model: string; current?: boolean; effort?: Effort };
  /**
   * `/model NAME` at the prompt (runtime.ts), not a fallback: under `--base-url` only such a switch may
   * name another provider's listed model; `endpointModel` is the endpoint's, kept listed to come back to.
   */
  switching?: { endpointModel?: string | undefined };
}

export interface ProviderSettings {
  name: string;
  protocol: Protocol;
  /** the API root as the vendor documents it, version segment included */
  baseUrl: string;
  /** undefined = no authentication (local servers) */
  apiKey?: string;
  /** what an auth error tells the user to fix: "OPENAI_API_KEY", "--api-key", "HEY_API_KEY" or "api_key in <path> [provider.NAME]" */
  apiKeyVar?: string;
  /** the variable with no default the table writes its key from, in api_key or a key header (presets.ts keyNamed): its server wants a key, so a resumed session with none gets nothing */
  keyNamed?: string;
  /** why no key is sent though one was given, empty (`OPENAI_API_KEY is set but empty`: presets.ts emptyKeySaid); an auth error says it */
  apiKeyEmpty?: string;
  models: string[];
  /** the provider's default effort */
  effort?: Effort;
  maxTokens?: number;
  legacyThinking: boolean;
  headers: Record<string, string>;
  apiVersion?: string;
  /** true when it came from the zero-config presets (no config file named it) */
  preset?: boolean;
  /** the environment variable hey's own address of a built-in provider came from (OLLAMA_HOST), or HEY_BASE_URL the `cli` provider's */
  urlVar?: string;
  /** the environment variable its default model came from (ANTHROPIC_MODEL); on the chosen provider only while that model is the one used */
  modelVar?: string;
  /** TLS certificates of this endpoint are not verified (`insecure = true`; never from a project's config) */
  insecure?: boolean;
  /** `context_window`: the models' window in tokens, for every model or by model name */
  contextWindow?: number | Record<string, number>;
  /** compatibility flags (max_tokens_field, system_role, reasoning_replay, parallel_tool_calls), when any is set */
  compat?: Compat;
  /** the config file that defined this provider (its base_url); undefined for presets and --base-url */
  source?: string;
  /**
   * the config file whose base_url for this provider the user has not approved (config/guard.ts):
   * no request goes there — with its key — until they say yes at the interactive prompt
   */
  unapproved?: string;
  /** why the model in use has an empty name (a variable in it not set, or not approved yet): no request is sent for it (endpoint.ts providerFor) */
  noModel?: string;
  /** why the resumed session's provider gets no request: it has no key now (providers.ts noKeyRefusal) */
  noKey?: string;
  /** the resumed session's provider is not in this run's configuration, so this one goes on with it: said on stderr and as a JSON `notice` */
  moved?: string;
}

/** One MCP server: exactly one of `command` (stdio) and `url` (HTTP) is set. */
export interface McpServerSettings {
  name: string;
  /** where it is defined, for messages: `/home/me/.config/hey/config.toml: [mcp.fs]` */
  at: string;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  enabled: boolean;
  timeoutMs: number;
  /** `max_timeout_ms`: a call that reports progress may run this long in all (mcp/progress.ts: undefined is its default) */
  maxTimeoutMs?: number;
  /** `tools` (or `enabled_tools`): only these of its tools are offered; undefined: all */
  tools?: string[];
  /** `exclude_tools` (or `disabled_tools`): never offered */
  excludeTools?: string[];
  /** `defer = false`: its tools' schemas go in every request even while the others wait behind find_tools (mcp/deferred.ts) */
  defer?: boolean;
  /** `client_id` / `client_secret`: a client registered by hand for OAuth sign-in (remote servers) */
  oauthClient?: { id: string; secret?: string };
  /** where a server written in another agent's format came from (`mcpServers.fs in /p/.mcp.json`); `/mcp` shows the conversion */
  origin?: string;
}

export interface Settings {
  provider: ProviderSettings;
  model: string;
  /** `model` is hey's own default for the provider's key (the preset's): nothing the user set named it */
  defaultModel?: true;
  /** every provider the run can switch to (`/model`), the chosen one included */
  providers: ProviderSettings[];
  /**
   * the models a request the model gives up on goes on with, in order (`[default] fallback_models`,
   * HEY_FALLBACK_MODELS, --fallback-model), as `-m` names them, each checked as `-m` is; `from`:
   * where they were set, for messages
   */
  fallbacks?: { models: string[]; from: string };
  /** the effective effort: -t / HEY_EFFORT, else the chosen provider's `effort` */
  effort?: Effort;
  /** HEY_PROXY or [proxy] url (the --proxy flag is resolved separately, by net/proxy.ts) */
  proxy?: string;
  /** where `proxy` came from, for messages: "HEY_PROXY" or "[proxy] url in PATH" */
  proxySource?: string;
  /** where `[tools] bash_filter` was set, for the line saying it cannot run: "HEY_BASH_FILTER" or "FILE:LINE" */
  bashFilterSource?: string;
  /**
   * `[network] ca_file` as an absolute path, and where it was set (for messages); `pendingCa`: a
   * ca_file left out for want of approval (`[network] ca_file = "…" in FILE`), named by a TLS error;
   * `heldProxy`: a `[proxy] url` left out for want of approval, none standing in its place
   * (`[proxy] url = "http://***@host:port" in FILE:LINE`): the requests it would route are refused
   * (net/proxy.ts ProxySources.held), not sent directly or through another proxy
   */
  network: { caFile?: string; caFileSource?: string; pendingCa?: string; heldProxy?: string };
  // the plain tables, as config/keys.ts declares them (camelCase names; its docs say what each key does)
  agent: Resolved<typeof SECTIONS.agent>;
  retry: Resolved<typeof SECTIONS.retry>;
  compaction: Resolved<typeof SECTIONS.compaction>;
  /**
   * `allow`/`deny` as the user's files set them, a trusted project's deny entries added; `narrow`:
   * the allow lists of trusted projects, each of which a call must match too (a project's config
   * may narrow the user's lists, never widen them). `file`: the file that sets the user's allow list;
   * `waiting`: each file's allow entries that wait for the user's approval (config/guard.ts pendingAllows);
   * `entryNotes`: one line for each entry that does less than it seems to: a `read_file: GLOB` deny
   * entry whose files grep or edit may still show (permission/file-paths.ts readOnlyDenies), an allow
   * entry whose last word ends in a `$` not its own (permission/entries.ts gluedMark): said once until they
   * change, and by `hey doctor`. `denyAt`: where each deny entry is written (`FILE:LINE`), named when it refuses a call.
   */
  permission: Resolved<typeof SECTIONS.permission> & {
    narrow: { source: string; allow: string[] }[];
    file?: string;
    denyAt?: Record<string, string>;
    waiting?: Record<string, string[]>;
    entryNotes?: string[];
  };
  tools: Resolved<typeof SECTIONS.tools>;
  mcp: Resolved<typeof SECTIONS.mcp> & { servers: McpServerSettings[] };
  input: Resolved<typeof SECTIONS.input>;
  /** the variables the configuration gives hey as secrets (`api_key = "${KEY}"`, `Authorization = "Bearer ${TOKEN}"`, an MCP url's `?api_key=${K}`, `"--api-key", "${K}"`…: secrets.ts secretVariables), which the model's commands do not see and whose values are redacted */
  secretVars?: string[];
  /** MCP servers as the files write them that this run leaves out or runs as approved before a change, waiting for the user's yes: their secrets are secrets all the same (secrets.ts withWrittenSecrets) */
  heldServers?: McpServerSettings[];
}

/** The context window the configuration states for the model in use (`[provider.X] context_window`), if any. */
export function configuredWindow(settings: Pick<Settings, "provider" | "model">): number | undefined {
  const w = settings.provider.contextWindow;
  return typeof w === "number" ? w : w?.[settings.model];
}

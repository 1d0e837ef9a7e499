// Every key a config file may hold (SPEC §3), once: its kind, its range, its default, the HEY_*
// variable or flag that overrides it, and one line for the reference. Checking a file
// (schema.ts), the defaults of the settings (resolve.ts), the settings' types (settings.ts) and
// the configuration reference (reference.ts, written into README.md) are derived from this table;
// a new key is a row here and the code that reads it. Pure.
import type { Effort, Protocol } from "../kernel/ir.ts";
import { DEFAULT_IDLE_TIMEOUT_MS } from "../providers/stream-guard.ts";

/** What a key holds: one accept rule and one phrase for messages per kind (schema.ts). */
export type Kind =
  | "string"
  | "command"
  | "boolean"
  | "positive"
  | "count"
  | "fraction"
  | "effort"
  | "protocol"
  | "defer"
  | "tokensField"
  | "systemRole"
  | "strings"
  | "stringTable"
  | "window";

/** When MCP tools wait behind find_tools (`[mcp] defer_tools`, mcp/deferred.ts). */
export const DEFER_MODES = ["auto", "always", "never"] as const;
export type DeferMode = (typeof DEFER_MODES)[number];

/** The compatibility flags' values (`hey doctor --write` writes them; providers.ts passes them on). */
export const TOKENS_FIELDS = ["max_tokens", "max_completion_tokens"] as const;
export const SYSTEM_ROLES = ["system", "developer"] as const;

export interface Key {
  kind: Kind;
  /** the value when no file sets it; none: the key is unset (undefined) until a file sets it */
  default?: unknown;
  /** [min, max] of a number: a value outside is a configuration error, like a wrong type */
  range?: readonly [min: number, max: number];
  /** the HEY_* variable that sets it: above every file, below the flags */
  env?: string;
  /** the flag that sets it, above everything (its value is the CLI's `ConfigFlags` field of the key's camelCase name) */
  flag?: string;
  /** one line for the reference; backticks are code */
  doc: string;
}

type Table = Record<string, Key>;

/** Times are capped at a day (timers overflow at 24.8 days) or an hour (retry waits): a typo such as 3000000000 would time every command out at once. */
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The plain tables: one value per key. */
export const SECTIONS = {
  default: {
    provider: { kind: "string", doc: "the provider that runs when `-m` does not say (HEY_PROVIDER overrides it)" },
    model: { kind: "string", doc: "its model (HEY_MODEL overrides it); default: the provider's first" },
    fallback_models: {
      kind: "strings",
      env: "HEY_FALLBACK_MODELS",
      flag: "--fallback-model",
      doc: 'models to go on with, in order, when the model gives up on a request another model could answer (rate limits, overloads, 5xx and network errors after their retries, a stuck endpoint, a missing model), each written as `-m` takes it, e.g. `["openrouter/deepseek/deepseek-chat-v3.1:free", "ollama/qwen3"]`; the variable takes them comma-separated (see *Fallback models* in [Networks](#networks))',
    },
  },
  proxy: {
    url: {
      kind: "string",
      env: "HEY_PROXY",
      doc: "proxy for model requests and remote MCP servers: `http://`, `https://`, `socks5://`, `socks5h://` (see [Networks](#networks)); `--proxy` overrides it",
    },
  },
  network: {
    ca_file: {
      kind: "string",
      doc: "PEM file of extra CAs to trust (several certificates allowed; relative to the config file; refused in a project's config)",
    },
  },
  agent: {
    max_turns: {
      kind: "positive",
      default: 20,
      range: [1, 10_000],
      env: "HEY_MAX_TURNS",
      flag: "--max-turns",
      doc: "model requests that offer tools in one run; then one more asks for a hand-off",
    },
    budget_tokens: {
      kind: "positive",
      default: 40_000,
      range: [1_000, 10_000_000],
      env: "HEY_BUDGET_TOKENS",
      doc: "the context budget each request is pruned, then summarized, to stay within",
    },
    parallel_tools: {
      kind: "boolean",
      default: true,
      doc: "the calls of one turn run at once (at most 8 at a time), results in call order; a command that may change anything, or an MCP tool its server does not mark read-only, runs alone, and calls on one file, and a command and the file calls before or after it, keep call order",
    },
    max_run_tokens: { kind: "positive", flag: "--max-run-tokens", doc: "input + output tokens a run may use before it hands off; unset: no cap" },
  },
  retry: {
    enabled: {
      kind: "boolean",
      default: true,
      doc: "retry rate limits, overloads and network errors; an answer that is not the protocol (an HTML page, JSON that is neither an error nor a whole answer instead of a stream, a stream of another protocol's events) is a `protocol` error, never retried",
    },
    max_retries: { kind: "count", default: 5, range: [0, 100], env: "HEY_MAX_RETRIES", doc: "retries of one request" },
    base_delay_ms: {
      kind: "count",
      default: 2_000,
      range: [0, HOUR_MS],
      doc: "the first wait, doubled for each retry; retry n waits at least 0.5 s × 2ⁿ⁻¹ whatever `Retry-After` says",
    },
    max_delay_ms: {
      kind: "count",
      default: 60_000,
      range: [0, HOUR_MS],
      doc: "the longest wait; a server asking for longer fails at once, saying when it allows the next try (raise this to wait for it)",
    },
    jitter: { kind: "boolean", default: true, doc: "waits are randomized (never below what the server asked)" },
    respect_retry_after: {
      kind: "boolean",
      default: true,
      doc: 'wait what `Retry-After` (or `retry-after-ms`, `X-RateLimit-Reset`, or the error\'s own words: "Please wait 46 seconds") says',
    },
    idle_timeout_ms: {
      kind: "positive",
      default: DEFAULT_IDLE_TIMEOUT_MS,
      range: [100, HOUR_MS],
      doc: "a model stream silent this long (before its first byte or between chunks; keep-alives count as data, for 5 times this at most without an event) is a network error, retried within `max_retries` — but a server that sends no event of its answer (not a byte, or keep-alives only) twice in a row is given up on, and so is a model silent this long after its reasoning twice in a row (reasoning models that stream nothing while they think, or pause before they answer, may need more)",
    },
  },
  compaction: {
    dedup: {
      kind: "boolean",
      default: true,
      doc: "repeated identical tool calls keep only their latest output (a copy in one reply, which did not run, never counts as the latest)",
    },
    purge_errors_after: { kind: "count", default: 4, range: [0, 1_000], doc: "failed calls lose their arguments after this many turns (0: never)" },
    nudge_threshold: {
      kind: "fraction",
      default: 0.7,
      doc: "the share of the budget past which the model is nudged to `compress`, once hey's own summary of older work has failed",
    },
    compress_tool: { kind: "boolean", default: true, doc: "offer the `compress` tool; tool results end with the `[#handle]` it names them by" },
  },
  permission: {
    allow: {
      kind: "strings",
      default: [],
      doc: 'with a list, a call runs only if it matches an entry, e.g. `["bash: git *", "read_file"]`; a bash pattern matches leading words, one ending in the word `$` that command exactly (`"bash: npm run build $"`); a file tool\'s path pattern (`"read_file: src/**"`, `"grep: src/**"`) allows it only there, matched against the file the call opens (`~`, `..` and links resolved; a relative pattern under the working directory, in a project\'s `.hey/config.toml` under the project folder) (see [Permissions](#permissions))',
    },
    deny: {
      kind: "strings",
      default: [],
      doc: 'calls refused whatever `allow` says; deny always wins. `"read_file: ~/.ssh/**"` refuses those files, through a link or `..` too; a path entry matches the name a call uses as well as where its links lead (`"read_file: **/.env"` refuses a link `.env -> .env.local`); each judges its own tool, so keep files from grep and edit with `"grep: ~/.ssh/**", "edit: ~/.ssh/**"` too',
    },
  },
  tools: {
    shell: {
      kind: "command",
      env: "HEY_SHELL",
      doc: "the shell bash runs; default `sh` (Windows: `sh` or `bash` on PATH, else Git Bash next to `git`, else PowerShell; see [Windows](#windows))",
    },
    bash_filter: {
      kind: "command",
      default: "builtin",
      env: "HEY_BASH_FILTER",
      doc: "`builtin` (long output cut to its errors, summary and ends), `none`, or a command the output is piped through; one that cannot run is said at start (its program missing) or at its first exit 126/127/9009, shell syntax error or timeout, or after 3 failed commands in a row, and by `hey doctor`, and the built-in filter is used; a failure between successes falls back for that command only, said once at the third",
    },
    bash_timeout_ms: {
      kind: "positive",
      default: 120_000,
      range: [100, DAY_MS],
      env: "HEY_BASH_TIMEOUT_MS",
      doc: "a command's time limit; a call's `timeout_ms` may ask for 1 s up to 10 minutes (or this, when longer); a call asking for less (`60` meant as a minute) is refused before it runs, saying the unit",
    },
    rg: {
      kind: "command",
      doc: "the ripgrep grep runs (a path or a command); default `rg` on PATH, else the one inside hey; one that cannot be run is said at start and by `hey doctor`, and the default is used",
    },
    keep_env: {
      kind: "strings",
      default: [],
      doc: 'secret variables (API keys, header tokens…) the model\'s commands may still see, e.g. `["OPENAI_API_KEY"]` (see [Secrets](#secrets))',
    },
    redact_secrets: {
      kind: "boolean",
      default: true,
      doc: "values shaped like credentials in tool results, `@` files and the system prompt's AGENTS.md/CLAUDE.md text become `[secret: NAME]` before the model, the session file and the terminal see them (see [Secrets](#secrets))",
    },
  },
  input: {
    max_bytes: {
      kind: "positive",
      default: 256 * 1024,
      range: [1_024, 100 * 1024 * 1024],
      doc: "the most of stdin and of each `@file` that goes into a prompt (256 KiB, ~64k tokens); the rest is cut, and said so",
    },
  },
  mcp: {
    startup_wait_ms: {
      kind: "count",
      default: 3_000,
      range: [0, 600_000],
      doc: "how long the first request may wait for servers with no cached tool list (not for one whose last start failed); one not ready by then (or at a first request that comes later) is said, and its tools join a later request (in `hey -p` often none: raise it for a server that starts slowly)",
    },
    defer_tools: {
      kind: "defer",
      default: "auto",
      doc: "`auto`: once the MCP tools offered take more than 10 % of the context budget, requests carry only those the model loaded and `find_tools`, which names the others and loads them (see [MCP servers](#mcp-servers)); `always`; `never`: every tool's schema in every request",
    },
  },
} as const satisfies Record<string, Table>;

/** The keys of each `[provider.NAME]` table. */
export const PROVIDER_KEYS = {
  protocol: {
    kind: "protocol",
    default: "openai",
    doc: "`openai` (chat completions), `responses`, `anthropic`, `google` (default: the built-in provider's of a table named after one — `responses` for `openai` at api.openai.com, chat completions at any other `base_url` — else `openai`)",
  },
  base_url: {
    kind: "string",
    doc: "the API root as the vendor documents it, version included (`https://api.openai.com/v1`); in a table named after a built-in provider (`openai`, `anthropic`, `google`, `deepseek`, `ollama`) it moves only that provider's address: its protocol (but `openai`'s, Responses at api.openai.com, which is chat completions anywhere else), key variable and model stay unless the table's keys change them; left out there, the built-in address (or `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GOOGLE_GEMINI_BASE_URL`, `OLLAMA_HOST`)",
  },
  api_key: {
    kind: "string",
    doc: 'usually `"${VAR}"`; omitted: the key variable of the built-in provider the table is named after, else no authentication; unset: no authentication',
  },
  models: {
    kind: "strings",
    default: [],
    doc: "model names; `-m NAME` finds its provider here (listed by several: the first, with a line naming the others; listed by none while some provider has a list: a line says so, and it goes as written); the first is the default",
  },
  effort: { kind: "effort", doc: "default reasoning effort: `off minimal low medium high xhigh max`" },
  max_tokens: {
    kind: "positive",
    range: [1, 10_000_000],
    doc: "output token limit; sent only when set, except to anthropic, which needs one: 32000 unless set (lowered to the limit the endpoint states if it refuses that)",
  },
  legacy_thinking: {
    kind: "boolean",
    default: false,
    doc: "Anthropic: `budget_tokens` thinking instead of adaptive (a model that refuses the one it is sent gets the other: Claude 4.5 and earlier take only budget thinking, 4.7 and later only adaptive)",
  },
  headers: { kind: "stringTable", default: {}, doc: 'extra HTTP headers, e.g. `{ "X-Team" = "core" }`' },
  api_version: { kind: "string", doc: "Gemini API version (default `v1beta`)" },
  insecure: { kind: "boolean", doc: "`true`: do not verify this endpoint's TLS certificate (warned about on every run; refused in a project's config)" },
  context_window: {
    kind: "window",
    doc: "the model's context window in tokens, `32768`, or by model: `{ \"qwen3:8b\" = 16384 }`; requests are built to 80 % of it when `budget_tokens` is larger (without it hey learns the window from the model's first context-length error, asks a local Ollama, llama-server or LM Studio what it runs the model with, or reads it from the endpoint's model list); with it the list is not asked, but a local server still is: it tells hey the window and does not change the server's (Ollama's is OLLAMA_CONTEXT_LENGTH or a Modelfile's num_ctx), so a server that runs the model with less is said and its window used",
  },
  // compatibility flags, written by `hey doctor --write`
  max_tokens_field: {
    kind: "tokensField",
    doc: "which field carries the output limit (compatibility flag, see [hey doctor](#hey-doctor))",
  },
  system_role: { kind: "systemRole", doc: "the role of the system prompt (compatibility flag)" },
  reasoning_replay: {
    kind: "boolean",
    doc: "chat completions: by default the reasoning that went out once — the current user turn's, and each tool-call turn's, sent with its results — goes back in every later request, in the field it came in, so a new prompt extends the cached prefix instead of re-billing the previous turn (a final answer's reasoning never went out and stays out); `true` also sends a tool-call turn another model made with `reasoning_content: \"\"`, as DeepSeek and Kimi refuse one without (their default); `false` sends none; Responses: every turn's reasoning items go back (the default), `false` sends none (for a Responses-compatible server that refuses them)",
  },
  parallel_tool_calls: { kind: "boolean", doc: "`false` sends `parallel_tool_calls: false` (one call per turn)" },
  pdfs: {
    kind: "boolean",
    doc: "chat completions: `true` sends PDFs as `file` parts, as to api.openai.com and OpenRouter (a LiteLLM, Azure OpenAI or company proxy in front of a model that reads them); `false` sends each as a line saying how to read its text (default: `true` on those two hosts only)",
  },
  cache_control: {
    kind: "boolean",
    doc: "chat completions: `true` marks Anthropic's prompt-cache breakpoints (`cache_control` on the system prompt and the last turns), for a gateway in front of Claude that passes them on, whose cache hey then takes to live Anthropic's 5 minutes; `false` sends none (default: `true` on openrouter.ai for `anthropic/…` models only; an endpoint that refuses them gets the request again without them)",
  },
  prompt_cache_key: {
    kind: "boolean",
    doc: 'send OpenAI\'s `prompt_cache_key` (default: on api.openai.com and with `protocol = "responses"`; an endpoint that refuses it gets the request again without it)',
  },
} as const satisfies Table;

/** The keys of each `[mcp.NAME]` table (or each entry of `[mcp] servers = [{ name, … }]`). */
export const MCP_SERVER_KEYS = {
  command: { kind: "string", doc: "a local server: the command (it talks over stdin/stdout)" },
  args: { kind: "strings", default: [], doc: "its arguments" },
  env: { kind: "stringTable", default: {}, doc: "its environment, on top of a short allow-list (never your API keys)" },
  cwd: { kind: "string", doc: "its working directory (a project's server: the project root, and a relative `cwd` starts there; else where hey starts)" },
  url: { kind: "string", doc: "a remote server: Streamable HTTP, or legacy SSE when the server wants it" },
  headers: { kind: "stringTable", default: {}, doc: 'HTTP headers of a remote server, e.g. `{ Authorization = "Bearer ${TOKEN}" }`' },
  enabled: { kind: "boolean", default: true, doc: "`false` keeps the table without starting the server" },
  timeout_ms: { kind: "positive", default: 60_000, range: [100, DAY_MS], doc: "per call, and for start-up" },
  max_timeout_ms: {
    kind: "positive",
    default: 600_000,
    range: [100, DAY_MS],
    doc: "a call whose server reports progress gets `timeout_ms` more after each report, up to this in all (never less than `timeout_ms`)",
  },
  tools: { kind: "strings", doc: "offer only these of its tools (`*` matches anything; default: all)" },
  enabled_tools: { kind: "strings", doc: "Codex's spelling of `tools`" },
  exclude_tools: { kind: "strings", doc: "never offer these (applied after `tools`)" },
  disabled_tools: { kind: "strings", doc: "Codex's spelling of `exclude_tools`" },
  client_id: {
    kind: "string",
    doc: "an OAuth app registered by hand, for servers that do not let hey register itself (see [Signing in](#signing-in-to-a-hosted-server))",
  },
  client_secret: { kind: "string", doc: "that app's secret, if it has one" },
  defer: { kind: "boolean", doc: "`false`: its tools' schemas go in every request even while `[mcp] defer_tools` leaves the others to `find_tools`" },
} as const satisfies Table;

// ---- the types the table implies ----

/** The value a kind holds. */
export type ValueOf<K extends Kind> = K extends "string" | "command"
  ? string
  : K extends "boolean"
    ? boolean
    : K extends "positive" | "count" | "fraction"
      ? number
      : K extends "effort"
        ? Effort
        : K extends "protocol"
          ? Protocol
          : K extends "defer"
            ? DeferMode
            : K extends "tokensField"
              ? (typeof TOKENS_FIELDS)[number]
              : K extends "systemRole"
                ? (typeof SYSTEM_ROLES)[number]
                : K extends "strings"
                  ? string[]
                  : K extends "stringTable"
                    ? Record<string, string>
                    : number | Record<string, number>;

/** `budget_tokens` → `budgetTokens`. */
export type Camel<S extends string> = S extends `${infer A}_${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;

/** A table as a file writes it, once checked: every key optional. */
export type FileTable<T extends Table> = { -readonly [K in keyof T]?: ValueOf<T[K]["kind"]> };

/** The keys of a table that have a default. */
type Defaulted<T extends Table> = { [K in keyof T]: T[K] extends { default: unknown } ? K : never }[keyof T];

/** A table as the settings hold it: camelCase names, a key with a default always set, one without it optional. */
export type Resolved<T extends Table> = { -readonly [K in Defaulted<T> & string as Camel<K>]: ValueOf<T[K]["kind"]> } & {
  -readonly [K in Exclude<keyof T, Defaulted<T>> & string as Camel<K>]?: ValueOf<T[K]["kind"]>;
};

/** What a HEY_* variable's text sets a key of `kind` to: a number for a count, a comma-separated list for strings (`HEY_FALLBACK_MODELS=a,b`), else the text, checked by the caller. */
export function variableValue(kind: Kind, text: string): unknown {
  if (kind === "strings") return text.split(",").map((item) => item.trim());
  return (kind === "positive" || kind === "count") && /^\d+$/.test(text) ? Number(text) : text;
}

export const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A checked table's values with the table's defaults for what it does not set, under camelCase
 * names. An empty string counts as unset for a key without a default (`shell = ""`).
 */
export function resolveTable<T extends Table>(table: T, file: Record<string, unknown> | undefined): Resolved<T> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const value = file?.[key];
    const unset = value === undefined || (value === "" && !("default" in spec));
    if (!unset) out[camel(key)] = value;
    else if ("default" in spec) out[camel(key)] = structuredClone(spec.default);
  }
  return out as Resolved<T>;
}

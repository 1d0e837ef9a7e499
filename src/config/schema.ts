// The check of one config file against the key table (config/keys.ts, SPEC §3). Pure.
// A checked layer holds only known keys of the right type; unknown keys become warnings, wrong
// types and numbers out of range errors (all of them, each with its line) — and so do unknown keys
// in [permission] and near-misses of its name, which would otherwise leave no rules at all.
// Merging, `${VAR}` expansion and defaults belong to config/resolve.ts.
import { EFFORTS, PROTOCOLS } from "../kernel/ir.ts";
import { DEFER_MODES, MCP_SERVER_KEYS, SYSTEM_ROLES, TOKENS_FIELDS, PROVIDER_KEYS, SECTIONS, type FileTable, type Key, type Kind } from "./keys.ts";
import { dottedName, fromCodex } from "./mcp-formats.ts";
import { editDistance } from "../kernel/spelling.ts";
import { didYouMean, protocolHint } from "./suggest.ts";
import { isTable, type Table } from "./table.ts";

export type { Kind };

/** A provider table as written in a file (after checking). */
export type FileProvider = FileTable<typeof PROVIDER_KEYS>;

/** An MCP server as written in a file; the array form `[mcp] servers` is folded into `servers` by name. */
export type FileMcpServer = FileTable<typeof MCP_SERVER_KEYS>;

/** The shape a checked (and merged) layer is guaranteed to have. */
export type ConfigFile = { [S in Exclude<keyof typeof SECTIONS, "mcp">]?: FileTable<(typeof SECTIONS)[S]> } & {
  provider?: Record<string, FileProvider>;
  mcp?: FileTable<(typeof SECTIONS)["mcp"]> & { servers?: Record<string, FileMcpServer> };
};

/** The key at `path` in the table (`provider.NAME.KEY`, `mcp.servers.NAME.KEY`, `SECTION.KEY`), if there is one. */
export function keyAt(path: readonly string[]): Key | undefined {
  const [top, second, third, fourth] = path;
  const get = (table: Record<string, Key>, key: string | undefined) => (key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined);
  if (top === "provider") return path.length === 3 ? get(PROVIDER_KEYS, third) : undefined;
  if (top === "mcp" && second === "servers") return path.length === 4 ? get(MCP_SERVER_KEYS, fourth) : undefined;
  const section = top !== undefined && Object.hasOwn(SECTIONS, top) ? (SECTIONS as Record<string, Record<string, Key>>)[top] : undefined;
  return section && path.length === 2 ? get(section, second) : undefined;
}

/** "X must be between MIN and MAX, got V" when `path` has a range and `v` is outside it; else undefined. */
export function checkRange(path: readonly string[], v: unknown, label: string): string | undefined {
  const range = keyAt(path)?.range;
  if (!range || typeof v !== "number" || (v >= range[0] && v <= range[1])) return undefined;
  return `${label} must be between ${range[0]} and ${range[1]}, got ${v}`;
}

/**
 * The 1-based line of the file `text` that sets the key at `path` (`[tools]` then
 * `bash_timeout_ms = …`, or `tools.bash_timeout_ms = …`, or a `[provider.x]` key), or the header
 * of the table at `path` (`[mcp.fs]`); undefined when
 * it cannot be told (a key inside an inline table or array). A heuristic over lines: good enough
 * to point at, never used to decide anything.
 */
export function keyLine(text: string, path: readonly string[]): number | undefined {
  const split = (dotted: string) => dotted.split(".").map((k) => k.trim().replace(/^["']|["']$/g, ""));
  const want = path.join("\u0000");
  let table: string[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?/.exec(line);
    if (header) {
      table = split(header[1]!);
      // a table written only through its subtables (`[provder.x]`) is where the first of them is
      if (table.slice(0, path.length).join("\u0000") === want) return i + 1;
    } else {
      const assign = /^((?:"[^"]*"|'[^']*'|[A-Za-z0-9_.\s-])+?)\s*=/.exec(line);
      if (assign && [...table, ...split(assign[1]!)].join("\u0000") === want) return i + 1;
    }
  }
  return undefined;
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

/** A context window hey can work in, in tokens: no model has less than this or more than that. */
export const WINDOW_RANGE = [1_024, 100_000_000] as const;

const SCALARS: Record<Exclude<Kind, "strings" | "stringTable" | "window">, [accepts: (v: unknown) => boolean, phrase: string]> = {
  string: [(v) => typeof v === "string", "a string"],
  // an empty one would run `sh -c ""`: a filter that prints nothing, a shell or ripgrep that is no program
  command: [(v) => typeof v === "string" && v.trim() !== "", "a command (not empty)"],
  boolean: [(v) => typeof v === "boolean", "true or false"],
  positive: [(v) => isInt(v) && v > 0, "a positive integer"],
  count: [(v) => isInt(v) && v >= 0, "a non-negative integer"],
  fraction: [(v) => typeof v === "number" && v > 0 && v <= 1, "a number greater than 0 and at most 1"],
  effort: [(v) => (EFFORTS as readonly unknown[]).includes(v), `one of ${EFFORTS.join(", ")}`],
  protocol: [(v) => (PROTOCOLS as readonly unknown[]).includes(v), `one of ${PROTOCOLS.join(", ")}`],
  defer: [(v) => (DEFER_MODES as readonly unknown[]).includes(v), `one of ${DEFER_MODES.join(", ")}`],
  tokensField: [(v) => (TOKENS_FIELDS as readonly unknown[]).includes(v), `one of ${TOKENS_FIELDS.join(", ")}`],
  systemRole: [(v) => (SYSTEM_ROLES as readonly unknown[]).includes(v), `one of ${SYSTEM_ROLES.join(", ")}`],
};

/** How a message (and the reference) names what a kind holds. */
export function kindPhrase(kind: Kind): string {
  if (kind === "strings") return "an array of strings";
  if (kind === "stringTable") return "a table of strings";
  if (kind === "window") return `a number of tokens between ${WINDOW_RANGE[0]} and ${WINDOW_RANGE[1]}, or a table of them by model`;
  return SCALARS[kind][1];
}

/** A value as a message shows it: strings quoted, containers and dates by what they are. */
function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return "an array";
  if (isTable(v)) return "a table";
  if (typeof v === "object" && v !== null) return "a date/time";
  return String(v);
}

const mustBe = (where: string, expected: string, got: unknown) => `${where} must be ${expected}, got ${show(got)}`;

/** A key as TOML would need it written: bare when it can be, quoted otherwise. */
const bare = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/**
 * How messages name a key: `[agent] max_turns`, `[provider.openai] api_key`,
 * `[mcp.github] headers.Authorization` (MCP servers live under `mcp.servers` once checked).
 */
export function where(path: readonly string[]): string {
  const depth = path[0] === "provider" ? 2 : path[0] === "mcp" && path[1] === "servers" && path.length > 2 ? 3 : 1;
  const header = path.slice(0, depth).filter((_, i) => !(depth === 3 && i === 1));
  const rest = path.slice(depth);
  return `[${header.map(bare).join(".")}]${rest.length ? " " + rest.map(bare).join(".") : ""}`;
}

/**
 * Checks one value against its kind; returns the full "X must be Y, got Z" message (without a
 * file name) when it does not fit, else undefined. `label` names the key, variable or flag.
 */
export function checkValue(kind: Kind, v: unknown, label: string): string | undefined {
  if (kind === "strings") {
    if (!Array.isArray(v)) return mustBe(label, "an array of strings", v);
    const i = v.findIndex((x) => typeof x !== "string");
    return i < 0 ? undefined : mustBe(`${label}[${i}]`, "a string", v[i]);
  }
  if (kind === "stringTable") {
    if (!isTable(v)) return mustBe(label, "a table of strings", v);
    const bad = Object.entries(v).find(([, x]) => typeof x !== "string");
    return bad ? mustBe(`${label}.${bare(bad[0])}`, "a string", bad[1]) : undefined;
  }
  if (kind === "window") {
    const bad = (x: unknown) => !isInt(x) || x < WINDOW_RANGE[0] || x > WINDOW_RANGE[1];
    const phrase = `a number of tokens between ${WINDOW_RANGE[0]} and ${WINDOW_RANGE[1]}`;
    if (!isTable(v)) return bad(v) ? mustBe(label, `${phrase}, or a table of them by model`, v) : undefined;
    const wrong = Object.entries(v).find(([, x]) => bad(x));
    return wrong ? mustBe(`${label}.${bare(wrong[0])}`, phrase, wrong[1]) : undefined;
  }
  const [accepts, phrase] = SCALARS[kind];
  return accepts(v) ? undefined : mustBe(label, phrase, v) + (kind === "protocol" ? protocolHint(v) : "");
}

/** Where a key is written in a file: its 1-based line, given the key's path as written (`["mcp", "fs", "args"]`). */
export type Locate = (path: readonly string[]) => number | undefined;

/** What checkLayer makes of a file. */
export interface CheckedLayer {
  data: Table;
  warnings: string[];
  errors: string[];
  /** servers written in another agent's spelling (Codex's `[mcp_servers.NAME]`): name → where, for `/mcp` */
  origins: Record<string, string>;
}

/**
 * Checks one parsed file. Returns a copy holding only known keys, with `[mcp] servers = [...]`
 * and Codex's `[mcp_servers.NAME]` folded into `mcp.servers.NAME`, one warning per unknown key and
 * one error per wrong type or number out of range — every one of them, not only the first. Each
 * message starts with `source` (and `:LINE` when `text` — the TOML, or a Locate for another
 * format — shows where the key is); a key with an error is left out of `data`.
 */
export function checkLayer(source: string, data: Table, text?: string | Locate): CheckedLayer {
  const warnings: string[] = [];
  const errors: string[] = [];
  const origins: Record<string, string> = {};
  const locate: Locate | undefined = typeof text === "string" ? (path) => keyLine(text, path) : text;
  const at = (path?: readonly string[]) => {
    // an MCP server checked as mcp.servers.NAME is written [mcp.NAME] (or Codex's [mcp_servers.NAME])
    const name = path?.[0] === "mcp" && path[1] === "servers" ? path[2] : undefined;
    const written = name !== undefined ? [origins[name] ? "mcp_servers" : "mcp", ...path!.slice(2)] : path;
    const line = locate && written ? locate(written) : undefined;
    return `${source}${line ? `:${line}` : ""}`;
  };
  /** Records an error; the caller leaves the key out. */
  const fail = (message: string, path?: string[]): Table => {
    errors.push(`${at(path)}: ${message}`);
    return {};
  };
  const unknown = (what: string, path: string[], hint = "") => warnings.push(`${at(path)}: unknown ${what} (ignored)${hint}`);

  const section = (value: unknown, keys: Record<string, Key>, path: string[]): Table => {
    if (!isTable(value)) return fail(mustBe(where(path), "a table", value), path);
    const out: Table = {};
    for (const [key, v] of Object.entries(value)) {
      const kind = Object.hasOwn(keys, key) ? keys[key]!.kind : undefined;
      if (!kind) {
        // a misspelled permission key would leave the rules silently out (SPEC §24)
        if (path[0] === "permission") fail(`unknown key ${where([...path, key])}${suggest(key, Object.keys(keys))}${key === "ask" ? ASK : ""}`, [...path, key]);
        // skipping certificate checks for every endpoint at once is not offered (SPEC §24)
        else if (path[0] === "network" && key === "insecure")
          fail("[network] insecure is not a setting: certificate checks can be skipped per provider only, with [provider.NAME] insecure = true", [
            ...path,
            key,
          ]);
        else unknown(`key ${where([...path, key])}`, [...path, key], didYouMean(key, Object.keys(keys)));
        continue;
      }
      const bad = checkValue(kind, v, where([...path, key])) ?? checkRange([...path, key], v, where([...path, key]));
      if (bad) fail(bad, [...path, key]);
      else out[key] = v;
    }
    return out;
  };

  const providers = (value: unknown): Table => {
    // `provider = "openai"` at the top: the choice of one is [default] provider
    if (!isTable(value))
      return fail(mustBe("provider", "a table", value) + (typeof value === "string" ? "; the one to use is [default] provider" : ""), ["provider"]);
    const out: Table = {};
    for (const [name, v] of Object.entries(value)) {
      // `-m provider/model` splits at the first "/", so a name containing one could never be chosen
      if (!name || name.includes("/")) fail(`[provider.${bare(name)}]: a provider name must be non-empty and contain no "/"`, ["provider", name]);
      else out[name] = section(v, PROVIDER_KEYS, ["provider", name]);
    }
    return out;
  };

  const mcp = (value: unknown): Table => {
    if (!isTable(value)) return fail(mustBe("mcp", "a table", value), ["mcp"]);
    const out: Table = {};
    const servers: Table = {};
    const add = (name: string, v: unknown) => {
      const dotted = dottedName(origins[name] ? "mcp_servers" : "mcp", name, v); // `[mcp.my.server]`: a table in [mcp.my]
      if (Object.hasOwn(servers, name)) fail(`MCP server ${JSON.stringify(name)} is defined twice`, ["mcp", "servers", name]);
      else if (dotted) fail(dotted.message, ["mcp", "servers", name, dotted.key]);
      else servers[name] = section(v, MCP_SERVER_KEYS, ["mcp", "servers", name]);
    };
    for (const [key, v] of Object.entries(value)) {
      if (Object.hasOwn(SECTIONS.mcp, key)) {
        const label = `[mcp] ${key}`;
        const bad = checkValue(SECTIONS.mcp[key as keyof typeof SECTIONS.mcp].kind, v, label) ?? checkRange(["mcp", key], v, label);
        if (bad) fail(bad, ["mcp", key]);
        else out[key] = v;
      } else if (key === "servers") {
        if (!Array.isArray(v)) {
          fail(mustBe("[mcp] servers", "an array of tables", v), ["mcp", key]);
          continue;
        }
        for (const [i, entry] of (v as unknown[]).entries()) {
          if (!isTable(entry)) {
            fail(mustBe(`[mcp] servers[${i}]`, "a table", entry), ["mcp", key]);
            continue;
          }
          const { name, ...rest } = entry;
          // an entry is one server, named by its `name` (what [mcp.NAME] says in hey's own spelling)
          if (name === undefined) fail(`[mcp] servers[${i}] needs name = "NAME", the server's name: { name = "fs", command = "npx", … }`, ["mcp", key]);
          else if (typeof name !== "string" || !name) fail(mustBe(`[mcp] servers[${i}] name`, "a non-empty string", name), ["mcp", key]);
          else add(name, rest);
        }
      } else if (isTable(v)) add(key, v);
      else unknown(`key [mcp] ${bare(key)}`, ["mcp", key], didYouMean(key, [...Object.keys(SECTIONS.mcp), "servers"]));
    }
    if (Object.keys(servers).length) out.servers = servers;
    return out;
  };

  /** Codex's `[mcp_servers.NAME]`: each read as the `[mcp.NAME]` it means (config/mcp-formats.ts). */
  const codex = (value: unknown) => {
    if (!isTable(value)) return void fail(mustBe("mcp_servers", "a table", value), ["mcp_servers"]);
    const servers = ((out.mcp ??= {}) as Table).servers as Table | undefined;
    const into: Table = servers ?? {};
    for (const [name, v] of Object.entries(value)) {
      if (!isTable(v)) {
        fail(mustBe(`[mcp_servers.${bare(name)}]`, "a table", v), ["mcp_servers", name]);
        continue;
      }
      const line = (key?: string) => {
        const n = locate?.(["mcp_servers", name, ...(key ? [key] : [])]);
        return `${source}${n ? `:${n}` : ""}`;
      };
      const converted = fromCodex(name, v, (key) => `${line(key)}: [mcp_servers.${bare(name)}]${key ? ` ${bare(key)}` : ""}`);
      warnings.push(...converted.warnings);
      errors.push(...converted.errors);
      if (Object.hasOwn(into, name))
        fail(`MCP server ${JSON.stringify(name)} is defined twice ([mcp.${bare(name)}] and [mcp_servers.${bare(name)}])`, ["mcp_servers", name]);
      else {
        origins[name] = `[mcp_servers.${bare(name)}] (Codex's spelling) in ${source}`;
        into[name] = section(converted.table, MCP_SERVER_KEYS, ["mcp", "servers", name]);
      }
    }
    if (Object.keys(into).length) (out.mcp as Table).servers = into;
  };

  const out: Table = {};
  let codexServers: unknown;
  const tables = [...Object.keys(SECTIONS), "provider", "mcp_servers"];
  for (const [name, value] of Object.entries(data)) {
    const keys = name !== "mcp" && Object.hasOwn(SECTIONS, name) ? (SECTIONS as Record<string, Record<string, Key>>)[name] : undefined;
    if (keys) out[name] = section(value, keys, [name]);
    else if (name === "provider") out.provider = providers(value);
    else if (name === "mcp") out.mcp = mcp(value);
    else if (name === "mcp_servers") codexServers = value;
    else if (isTable(value) && nearMiss(name, "permission")) fail(`unknown table [${bare(name)}]; permission rules belong in [permission]`, [name]);
    else if (name === "allow" || name === "deny") fail(`${name} must be inside [permission]`, [name]);
    else if (isTable(value)) unknown(`table [${bare(name)}]`, [name], OTHER_AGENTS[name] ?? didYouMean(name, tables));
    else unknown(`key ${bare(name)}`, [name], placeOf(name));
  }
  if (codexServers !== undefined) codex(codexServers); // after [mcp]: a name both spell is defined twice
  return { data: out, warnings, errors, origins };
}

/** Where a top-level key of Codex's config.toml goes in hey's (hey reads its `[mcp_servers]` as they are). */
const OTHER_AGENTS: Record<string, string> = {
  model_provider: "; hey's is [default] provider",
  model_reasoning_effort: "; hey's is [provider.NAME] effort (or -t)",
  model_providers: '; hey\'s is [provider.NAME], with protocol, base_url, api_key = "${VAR}" and models',
  approval_policy: "; hey asks nothing: [permission] allow and deny lists say what runs",
  sandbox_mode: "; hey asks nothing: [permission] allow and deny lists say what runs",
};

/** Claude Code's `ask` list: what hey does with what it would ask about. */
const ASK = "; hey asks about no call: leave those out of allow (refused) or put them in deny";

/** `; did you mean [agent] max_turns?` for a key written outside its table (`max_turns = 5` at the top), or another agent's spelling. */
function placeOf(key: string): string {
  const table = Object.entries(SECTIONS).find(([name, keys]) => name !== "mcp" && Object.hasOwn(keys, key))?.[0];
  if (table) return `; did you mean [${table}] ${key}?`;
  return Object.hasOwn(PROVIDER_KEYS, key) ? `; it belongs in a [provider.NAME] table` : (OTHER_AGENTS[key] ?? "");
}

/** `name` looks like a misspelling of `target`: equal ignoring case, or at most two edits away. */
function nearMiss(name: string, target: string): boolean {
  return editDistance(name, target) <= 2;
}

const suggest = (key: string, known: string[]) => {
  const close = known.find((k) => nearMiss(key, k));
  return close ? `; did you mean ${close}?` : ` (known: ${known.join(", ")})`;
};

/**
 * `${NAME}` inside a string value, or `${NAME:-default}`: `default` when NAME is unset or empty, as
 * in a shell — and in the `.mcp.json` files Claude Code reads, which hey reads too. There is
 * deliberately no escape (`$${` or `\${`): no value hey reads needs a literal `${`, and one rule is
 * easier to predict than two.
 */
export const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
/** A value that is exactly one `${NAME}`, e.g. `api_key = "${OPENAI_API_KEY}"`. */
export const WHOLE_VAR = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** One `${NAME}` that had no value: `unset` when the variable is missing, false when it is empty. */
export interface Miss {
  path: string[];
  name: string;
  unset: boolean;
}

/**
 * Expands `${NAME}` in every string of `v` (arrays and nested tables included) and returns a
 * copy; each variable without a value becomes "" and is recorded in `misses` with its key path.
 */
export function expandVars(v: unknown, path: string[], env: Record<string, string | undefined>, misses: Miss[]): unknown {
  return mapStrings(v, path, (s, at) =>
    s.replace(VAR, (_, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value) return value;
      if (fallback !== undefined) return fallback; // the default the file gives is meant: nothing to warn about
      misses.push({ path: at, name, unset: value === undefined });
      return value ?? "";
    }),
  );
}

/** Each `${NAME}` in the strings of `v`, with the key path of its string and its text as written (`${NAME:-default}`), in the file's order. */
export function varsIn(v: unknown, path: string[] = []): { name: string; path: string[]; written: string }[] {
  const out: { name: string; path: string[]; written: string }[] = [];
  mapStrings(v, path, (s, at) => {
    for (const m of s.matchAll(VAR)) out.push({ name: m[1]!, path: at, written: m[0] });
    return s;
  });
  return out;
}

/**
 * A copy of `v` in which each `${NAME}` that `drop` picks is "": a variable whose value may not be
 * sent. Never its default: this text is expanded afterwards, and a default may spell another
 * variable (`${NOPE:-${KEY}}`, `${NOPE:-$}{KEY}`).
 */
export function withoutVars(v: unknown, drop: (name: string, path: string[]) => boolean): unknown {
  return mapStrings(v, [], (s, at) => s.replace(VAR, (whole, name: string) => (drop(name, at) ? "" : whole)));
}

/** A copy of `v` with `f` applied to every string (arrays and nested tables included), given its key path. */
function mapStrings(v: unknown, path: string[], f: (s: string, path: string[]) => string): unknown {
  if (typeof v === "string") return f(v, path);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, path, f));
  if (isTable(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, [...path, k], f)]));
  return v;
}

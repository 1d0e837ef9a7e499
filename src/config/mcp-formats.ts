// MCP servers as other agents write them (issue 26), read as hey's own `[mcp.NAME]` tables:
// Codex's `[mcp_servers.NAME]` in a config file, and a project's `.mcp.json` (the `mcpServers`
// object of Claude Code, Cursor and VS Code's workspace files). Each becomes the table hey would
// have read, so checking, `${VAR}` expansion, the approvals guard and `/reload` treat it like any
// other; where it came from is kept for `/mcp`, which shows the conversion. Pure.

import { isTable, type Table } from "./table.ts";

/** One server read from another agent's format: hey's table, and what to say about it. */
export interface Converted {
  table: Table;
  warnings: string[];
  errors: string[];
}

const SAME = ["command", "args", "env", "cwd", "url", "enabled", "enabled_tools", "disabled_tools"] as const;
const bare = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/**
 * Codex's `[mcp_servers.NAME]` (codex-rs config): the keys hey shares are kept; `tool_timeout_sec` and
 * `startup_timeout_sec` become `timeout_ms` (the longer one: hey has one limit for both);
 * `bearer_token_env_var`, `http_headers` and `env_http_headers` become `headers`; `env_vars` (names
 * passed through) become `env` entries. `at(key)` names a key for messages (`FILE:LINE: [mcp_servers.x] key`).
 */
export function fromCodex(name: string, raw: Table, at: (key?: string) => string): Converted {
  const table: Table = {};
  const warnings: string[] = [];
  const errors: string[] = [];
  const headers: Table = {};
  const env: Table = isTable(raw.env) ? { ...raw.env } : {};
  let seconds: number | undefined;
  for (const [key, v] of Object.entries(raw)) {
    if ((SAME as readonly string[]).includes(key)) {
      if (key !== "env") table[key] = v;
      continue;
    }
    if (key === "tool_timeout_sec" || key === "startup_timeout_sec") {
      if (typeof v === "number" && v > 0) seconds = Math.max(seconds ?? 0, v);
      else errors.push(`${at(key)} must be a positive number of seconds, got ${JSON.stringify(v)}`);
    } else if (key === "bearer_token_env_var") {
      if (typeof v === "string" && v) headers.Authorization = `Bearer \${${v}}`;
      else errors.push(`${at(key)} must be the name of an environment variable`);
    } else if (key === "http_headers" && isTable(v)) Object.assign(headers, v);
    else if (key === "env_http_headers" && isTable(v)) for (const [h, variable] of Object.entries(v)) headers[h] = `\${${String(variable)}}`;
    else if (key === "env_vars" && Array.isArray(v)) for (const variable of v) env[String(variable)] ??= `\${${String(variable)}}`;
    else warnings.push(`${at(key)}: unknown key [mcp_servers.${bare(name)}] ${bare(key)} (ignored)`);
  }
  if (Object.keys(env).length || raw.env !== undefined) table.env = raw.env !== undefined && !isTable(raw.env) ? raw.env : env;
  if (Object.keys(headers).length) table.headers = headers;
  if (seconds !== undefined) table.timeout_ms = Math.round(seconds * 1000);
  return { table, warnings, errors };
}

/** A `.mcp.json` read as a config layer's data (`{ mcp: { NAME: table } }`), with where each server came from. */
export interface McpJson {
  data: Table;
  /** server name → `mcpServers.NAME in FILE` */
  origins: Record<string, string>;
  warnings: string[];
  /** what is wrong with the file as a whole: not JSON, `mcpServers` not an object */
  errors: string[];
  /** what is wrong with one entry (not an object, a `type` its keys contradict), by server: left out of `data` */
  broken: Record<string, string[]>;
  /** the 1-based line of a key of the converted data (`["mcp", NAME, KEY]`), for messages */
  locate(path: readonly string[]): number | undefined;
}

/**
 * A project's `.mcp.json`: `{"mcpServers": {"NAME": {"command", "args", "env"} | {"type": "http"|"sse",
 * "url", "headers"}}}`. `type` only has to agree with what the entry holds (hey tells stdio from
 * HTTP by `command` or `url`, and falls back to SSE by itself); `disabled: true` (Cline, Roo) keeps
 * the server off. Not JSON: an error with its line and column. Other keys are left to the
 * config check, which warns about them.
 */
export function fromMcpJson(source: string, text: string): McpJson {
  const none: McpJson = { data: {}, origins: {}, warnings: [], errors: [], broken: {}, locate: () => undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    const { line, col } = jsonErrorAt(text.replace(/^\uFEFF/, ""));
    return { ...none, errors: [`${source}:${line}:${col}: not valid JSON (${(e as Error).message.replace(/^JSON Parse error: /, "")})`] };
  }
  const locate = (path: readonly string[]) => jsonKeyLine(text, ["mcpServers", ...path.slice(1)]);
  if (!isTable(parsed) || parsed.mcpServers === undefined) return { ...none, warnings: [`${source}: no "mcpServers" object, so no MCP servers (ignored)`] };
  if (!isTable(parsed.mcpServers)) return { ...none, errors: [`${source}:${locate(["mcp"]) ?? 1}: "mcpServers" must be an object of servers`] };
  const servers: Table = {};
  const origins: Record<string, string> = {};
  const warnings: string[] = [];
  const broken: Record<string, string[]> = {};
  const at = (name: string, key?: string) => `${source}${line(locate(["mcp", name, ...(key ? [key] : [])]))}`;
  for (const [name, entry] of Object.entries(parsed.mcpServers)) {
    if (!isTable(entry)) {
      broken[name] = [`${at(name)}: mcpServers.${bare(name)} must be an object`];
      continue;
    }
    const { type, disabled, ...rest } = entry;
    const table: Table = { ...rest };
    if (type !== undefined) {
      const remote = type === "http" || type === "sse" || type === "streamable-http";
      if (type !== "stdio" && !remote)
        warnings.push(`${at(name, "type")}: mcpServers.${bare(name)} type ${JSON.stringify(type)} is not stdio, http or sse (ignored)`);
      else if (remote ? rest.command !== undefined : rest.url !== undefined) {
        broken[name] = [`${at(name, "type")}: mcpServers.${bare(name)} is type ${JSON.stringify(type)} but has ${remote ? "command" : "url"}`];
        continue;
      }
    }
    if (disabled === true) table.enabled = false;
    servers[name] = table;
    origins[name] = `mcpServers.${bare(name)} in ${source}`;
  }
  return { data: { mcp: servers }, origins, warnings, errors: [], broken, locate };
}

const line = (n: number | undefined) => (n ? `:${n}` : "");

/**
 * The 1-based line of the key at `path` in JSON `text`: each key looked for after the line of the
 * one before it. A heuristic over lines, good enough to point at, never used to decide anything.
 */
export function jsonKeyLine(text: string, path: readonly string[]): number | undefined {
  const lines = text.split("\n");
  let from = 0;
  let found: number | undefined;
  for (const key of path) {
    const pattern = new RegExp(`${reEscape(JSON.stringify(key))}\\s*:`);
    const i = lines.findIndex((l, n) => n >= from && pattern.test(l));
    if (i < 0) return found;
    found = i + 1;
    from = i;
  }
  return found;
}

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Where JSON `text` stops being JSON, 1-based: Bun's JSON.parse says what is wrong, not where. A
 * small recursive reader of the grammar, used only after JSON.parse failed.
 */
export function jsonErrorAt(text: string): { line: number; col: number } {
  let i = 0;
  const ws = () => {
    while (/\s/.test(text[i] ?? "")) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const expect = (c: string) => (text[i] === c ? i++ : fail());
  const string = () => {
    expect('"');
    while (text[i] !== '"') {
      if (i >= text.length || text[i] === "\n") fail();
      i += text[i] === "\\" ? 2 : 1;
    }
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        string();
        ws();
        expect(":");
        value();
        ws();
        if (text[i] === ",") i++;
        else return void expect("}");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else return void expect("]");
      }
    }
    if (c === '"') return string();
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
  } catch (at) {
    if (typeof at !== "number") throw at;
    i = at;
  }
  const before = text.slice(0, i).split("\n");
  return { line: before.length, col: before.at(-1)!.length + 1 };
}

/**
 * A tool selection key and its Codex spelling (`tools` / `enabled_tools`, `exclude_tools` /
 * `disabled_tools`) read as one list; both given: their union, with a warning.
 */
export function selectionKey(
  ours: string[] | undefined,
  codex: string[] | undefined,
  name: string,
  alias: string,
  atLine: (key?: string) => string,
  warnings: string[],
): string[] | undefined {
  if (ours !== undefined && codex !== undefined) warnings.push(`${atLine(alias)} ${alias} means the same as ${name}; both are read (keep one)`);
  if (ours === undefined && codex === undefined) return undefined;
  return [...new Set([...(ours ?? []), ...(codex ?? [])])];
}

/**
 * `[mcp.my.server]` (`command = …`) read as a table `server` inside `[mcp.my]`: a dot in a server's
 * name nests tables, as TOML says. Why that server cannot be read, when `raw` (`[mcp.NAME]`, `table`
 * the header's first word) holds no command or url of its own but a table that does; undefined otherwise.
 */
export function dottedName(table: string, name: string, raw: unknown): { key: string; message: string } | undefined {
  if (!isTable(raw) || raw.command !== undefined || raw.url !== undefined) return undefined;
  const key = Object.keys(raw).find((k) => isTable(raw[k]) && ((raw[k] as Table).command !== undefined || (raw[k] as Table).url !== undefined));
  if (key === undefined) return undefined;
  const whole = `${name}.${key}`;
  return {
    key,
    message: `[${table}.${whole}]: a dot in a server's name makes a table inside [${table}.${name}]; quote the name, [${table}.${JSON.stringify(whole)}], or write it with - ([${table}.${name}-${key}])`,
  };
}

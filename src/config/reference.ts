// The configuration reference (README.md, "Reference"), written from the key table
// (config/keys.ts): one row per key with what it holds, its default and its line of doc.
// `bun scripts/config-reference.ts` writes it into the README; a test fails while it is stale. Pure.
import { MCP_SERVER_KEYS, PROVIDER_KEYS, SECTIONS, type Key } from "./keys.ts";
import { kindPhrase } from "./schema.ts";

/** The lines the README holds the reference between. */
export const REFERENCE_START = "<!-- the reference: written from src/config/keys.ts by `bun scripts/config-reference.ts`; edit it there -->";
export const REFERENCE_END = "<!-- end of the reference -->";

/** The reference as a Markdown table, between REFERENCE_START and REFERENCE_END. */
export function configReference(): string {
  const rows = [
    ...Object.entries(SECTIONS).flatMap(([section, keys]) => rowsOf(`[${section}]`, keys)),
    ...rowsOf("[provider.NAME]", PROVIDER_KEYS),
    ...rowsOf("[mcp.NAME]", MCP_SERVER_KEYS),
    '| `[mcp] servers` | an array of tables | | the seed\'s form of MCP servers: `[{ name = "fs", command = "npx", … }]`, each entry as an `[mcp.NAME]` table |',
    "| `[mcp_servers.NAME]` | a table | | Codex's form of an MCP server, read as `[mcp.NAME]` (`tool_timeout_sec` → `timeout_ms`, `bearer_token_env_var`, `http_headers`, `env_http_headers` → `headers`, `env_vars` → `env`); a project's `.mcp.json` `mcpServers` too (see [MCP servers](#mcp-servers)) |",
  ];
  return [REFERENCE_START, "| key | holds | default | meaning |", "|---|---|---|---|", ...rows, REFERENCE_END].join("\n");
}

function rowsOf(table: string, keys: Record<string, Key>): string[] {
  return Object.entries(keys).map(([key, spec]) => {
    const holds = kindPhrase(spec.kind) + (spec.range ? `, ${spec.range[0]} to ${spec.range[1]}` : "");
    const also = [spec.env, spec.flag].filter(Boolean).map((o) => `\`${o}\``);
    const doc = spec.doc + (also.length ? ` (also ${also.join(", ")})` : "");
    return `| \`${table} ${key}\` | ${holds} | ${"default" in spec ? `\`${shown(spec.default)}\`` : ""} | ${doc.replaceAll("|", "\\|")} |`;
  });
}

const shown = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? "[]" : typeof v === "object" && v !== null ? "{}" : String(v));

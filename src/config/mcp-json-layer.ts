// A project's `.mcp.json` is shared with Claude Code, Cursor and VS Code: another tool's edit, or a
// bash command's, must not lock hey out of the project (x136). A file that is not JSON or not
// shaped as `{"mcpServers": {…}}` costs its servers; an entry that does not check (another tool's
// looser schema: `"env": {"PORT": 3000}`) costs only its own server (x143). Either is said in one
// warning line; only a write of it that is being vetted (config/write-check.ts) meets its errors,
// so the agent's own mistake is refused. Pure.
import { checkLayer } from "./schema.ts";
import { ConfigError, type ConfigLayer, type Written } from "./settings.ts";
import { isTable, type Table } from "./table.ts";

/**
 * The `.mcp.json` at `path` as a layer, read by `read` (config/read-layer.ts loadMcpJson, which throws
 * ConfigError), or undefined: there is none, it does not load (`warnings` says why), or `noMcp`
 * (--no-mcp: it holds nothing else, and is not read). `written` naming it: a write being vetted,
 * whose errors are thrown (ConfigError) for the vet to refuse. A server whose entry does not check
 * is left out of the layer, named in `warnings`.
 */
export function sharedMcpJson(
  path: string,
  read: (warn: (message: string) => void, written?: Written, drop?: (server: string, errors: string[]) => void) => ConfigLayer | undefined,
  opts: { noMcp?: boolean; written?: Written },
  warnings: string[],
): ConfigLayer | undefined {
  const vetting = opts.written?.path === path;
  if (vetting) return read((w) => warnings.push(w), opts.written);
  if (opts.noMcp) return undefined;
  const said: string[] = [];
  const dropped = new Map<string, string[]>(); // entries that are no server (not an object, a type their keys contradict)
  let layer: ConfigLayer | undefined;
  try {
    layer = read(
      (w) => said.push(w),
      undefined,
      (server, errors) => dropped.set(server, errors),
    );
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    warnings.push(`${e.message.split("\n").join("; ")} — its MCP servers are left out until it is fixed`);
    return undefined;
  }
  if (!layer) return undefined;
  const { kept, errors } = checkServers(path, layer, dropped);
  if (errors.length > 0) {
    warnings.push(`${errors.join("; ")} — its MCP servers are left out until it is fixed`);
    return undefined;
  }
  warnings.push(...said);
  if (dropped.size === 0) return layer;
  const names = [...dropped.keys()];
  const which = names.length === 1 ? `MCP server ${names[0]} is` : `MCP servers ${names.join(", ")} are`;
  const others = Object.keys(kept).length > 0 ? "; the file's other servers load" : "";
  warnings.push(`${[...dropped.values()].flat().join("; ")} — ${which} left out until ${names.length === 1 ? "it is" : "they are"} fixed${others}`);
  return { ...layer, data: { ...layer.data, mcp: kept } };
}

/**
 * Each server of the layer checked on its own (schema.ts checkLayer), so an error is its server's
 * without reading the message: `kept` the servers that check; the others go to `dropped` with their
 * errors; `errors`: what is wrong with the file once those are left out (none for a file
 * config/mcp-formats.ts read).
 */
function checkServers(path: string, layer: ConfigLayer, dropped: Map<string, string[]>): { kept: Table; errors: string[] } {
  const servers = isTable(layer.data.mcp) ? layer.data.mcp : {};
  const kept: Table = {};
  for (const [name, entry] of Object.entries(servers)) {
    const errors = checkLayer(path, { mcp: { [name]: entry } }, layer.locate).errors;
    if (errors.length > 0) dropped.set(name, errors);
    else kept[name] = entry;
  }
  const errors = checkLayer(path, { ...layer.data, mcp: kept }, layer.locate).errors;
  return { kept, errors };
}

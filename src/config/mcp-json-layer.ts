// A project's `.mcp.json` is shared with Claude Code, Cursor and VS Code: another tool's edit, or a
// bash command's, must not lock hey out of the project (x136). A file that is not JSON or does not
// check costs only its own servers, said in one warning line; only a write of it that is being
// vetted (config/write-check.ts) meets its errors, so the agent's own mistake is refused. Pure.
import { checkLayer } from "./schema.ts";
import { ConfigError, type ConfigLayer, type Written } from "./settings.ts";

/**
 * The `.mcp.json` at `path` as a layer, read by `read` (config/read-layer.ts loadMcpJson, which throws
 * ConfigError), or undefined: there is none, it does not load (`warnings` says why), or `noMcp`
 * (--no-mcp: it holds nothing else, and is not read). `written` naming it: a write being vetted,
 * whose errors are thrown (ConfigError) for the vet to refuse.
 */
export function sharedMcpJson(
  path: string,
  read: (warn: (message: string) => void, written?: Written) => ConfigLayer | undefined,
  opts: { noMcp?: boolean; written?: Written },
  warnings: string[],
): ConfigLayer | undefined {
  const vetting = opts.written?.path === path;
  if (vetting) return read((w) => warnings.push(w), opts.written);
  if (opts.noMcp) return undefined;
  const said: string[] = [];
  let errors: string[];
  let layer: ConfigLayer | undefined;
  try {
    layer = read((w) => said.push(w));
    errors = layer ? checkLayer(path, layer.data, layer.locate).errors : [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    errors = e.message.split("\n");
  }
  if (errors.length > 0) {
    warnings.push(`${errors.join("; ")} — its MCP servers are left out until it is fixed`);
    return undefined;
  }
  warnings.push(...said);
  return layer;
}

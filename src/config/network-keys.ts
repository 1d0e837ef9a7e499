// The network keys of a config file as resolution reads them (SPEC §16, §24): `[proxy] url`
// checked where it is written, `[network] ca_file` made absolute, and what a project's config may
// not set. Pure.
import { dirname, isAbsolute, join } from "node:path";
import { NetConfigError, parseProxyUrl } from "../net/proxy.ts";
import { keyLine, where } from "./schema.ts";
import { ConfigError, type ConfigLayer, type Settings } from "./settings.ts";
import { isTable, type Table } from "./table.ts";

/**
 * A project's config may not turn certificate checks off nor add a CA to trust: a repository
 * would then decide who may answer for a model endpoint, and read the user's key (SPEC §24).
 */
export function refuseInProject(layer: ConfigLayer, data: Table): string[] {
  const refused = (path: string[]) =>
    `${placeIn(layer, path)}: ${where(path)} is not accepted in a project's config; set it in your user config or a --config file`;
  const providers = isTable(data.provider) ? data.provider : {};
  const insecure = Object.entries(providers)
    .filter(([, p]) => isTable(p) && p.insecure !== undefined)
    .map(([name]) => refused(["provider", name, "insecure"]));
  const caFile = isTable(data.network) && data.network.ca_file !== undefined ? [refused(["network", "ca_file"])] : [];
  return [...insecure, ...caFile];
}

/** `FILE:LINE` of the key at `path` in `layer`; `FILE` where the line cannot be told. */
export function placeIn(layer: ConfigLayer, path: readonly string[]): string {
  const line = (layer.locate ?? (layer.text === undefined ? undefined : (p: readonly string[]) => keyLine(layer.text!, p)))?.(path);
  return line ? `${layer.source}:${line}` : layer.source;
}

/** A proxy URL hey cannot use is a ConfigError at `at` (`FILE:LINE: [proxy] url`, or `HEY_PROXY`), not only once a request would use it. */
export function checkProxy(url: string, at: string): void {
  try {
    parseProxyUrl(url, at);
  } catch (e) {
    if (e instanceof NetConfigError) throw new ConfigError(e.message);
    throw e;
  }
}

/** `[network] ca_file`: `~/` is the home directory, a relative path is relative to the file that set it. */
export function caFile(value: string | undefined, source: string, env: Record<string, string | undefined>): Settings["network"] {
  if (!value) return {};
  const home = env.HOME ?? "";
  const path = value.startsWith("~/") && home ? join(home, value.slice(2)) : isAbsolute(value) ? value : join(dirname(source), value);
  return { caFile: path, caFileSource: `[network] ca_file in ${source}` };
}

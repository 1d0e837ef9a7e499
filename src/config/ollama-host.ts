// Where the zero-config default, a local Ollama, listens (SPEC §2): 127.0.0.1:11434, or where
// OLLAMA_HOST says, read as Ollama's own client reads it (envconfig.Host). Pure.
import { ConfigError } from "./settings.ts";

const bad = (message: string): never => {
  throw new ConfigError(message);
};

/** The zero-config default: a local Ollama and this model. */
export const OLLAMA_URL = "http://127.0.0.1:11434/v1";
export const OLLAMA_MODEL = "qwen3";

/**
 * The built-in Ollama's API root: `OLLAMA_HOST` read as Ollama's own client reads it (envconfig.Host):
 * quotes around it dropped; `host`, `host:port`, `:port`, `scheme://host[:port][/path]`; port 11434
 * without a scheme, else the scheme's, and so for a port that is no number; the address a server
 * listens on (0.0.0.0, ::, none) reached on loopback. Else OLLAMA_URL. Throws ConfigError for a
 * scheme other than http or https, or a value no URL can be made of.
 */
export function ollamaUrl(env: Record<string, string | undefined>): string {
  const value = env.OLLAMA_HOST?.trim()
    .replace(/^["']+|["']+$/g, "")
    .trim();
  if (!value) return OLLAMA_URL;
  const refused = () => bad(`OLLAMA_HOST must be host[:port] or an http:// or https:// URL, got ${JSON.stringify(env.OLLAMA_HOST)}`);
  const cut = value.indexOf("://");
  const scheme = cut < 0 ? "http" : value.slice(0, cut).toLowerCase();
  if (scheme !== "http" && scheme !== "https") return refused();
  const rest = cut < 0 ? value : value.slice(cut + 3);
  const slash = rest.indexOf("/");
  const hostPort = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? "" : rest.slice(slash).replace(/\/+$/, "");
  const fallback = cut < 0 ? "11434" : scheme === "https" ? "443" : "80";
  const split = splitHostPort(hostPort);
  const bare = hostPort.replace(/^\[|\]$/g, "");
  let host = split ? split[0] : bare;
  const port = split && /^\d{1,5}$/.test(split[1]) && Number(split[1]) <= 65535 ? split[1] : fallback;
  if (host === "" || host === "0.0.0.0") host = "127.0.0.1";
  if (host === "::") host = "::1";
  const url = `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (!URL.canParse(url)) return refused();
  return `${new URL(url).origin}${path}/v1`;
}

/** Go's net.SplitHostPort: `host:port` or `[v6]:port`; undefined without a port, or with colons a bare v6 address has. */
function splitHostPort(hostPort: string): [string, string] | undefined {
  if (hostPort.startsWith("[")) {
    const end = hostPort.indexOf("]");
    return end > 0 && hostPort[end + 1] === ":" ? [hostPort.slice(1, end), hostPort.slice(end + 2)] : undefined;
  }
  const colon = hostPort.lastIndexOf(":");
  return colon >= 0 && hostPort.indexOf(":") === colon ? [hostPort.slice(0, colon), hostPort.slice(colon + 1)] : undefined;
}

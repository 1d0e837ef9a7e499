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
 * The built-in Ollama's API root: `OLLAMA_HOST` read as Ollama's own client reads it (`host`,
 * `host:port`, `scheme://host[:port][/path]`; port 11434 without a scheme, else the scheme's;
 * the address a server listens on, 0.0.0.0 or ::, is reached on loopback), else OLLAMA_URL.
 * Throws ConfigError for a value that names no host.
 */
export function ollamaUrl(env: Record<string, string | undefined>): string {
  const value = env.OLLAMA_HOST?.trim();
  if (!value) return OLLAMA_URL;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  let url: URL | undefined;
  try {
    url = new URL(scheme ? value : `http://${value}`);
  } catch {}
  const web = scheme === undefined || scheme === "http" || scheme === "https";
  if (!web || !url?.hostname || url.username || url.search || url.hash)
    return bad(`OLLAMA_HOST must be host[:port] or an http:// or https:// URL, got ${JSON.stringify(value)}`);
  if (!scheme && !url.port) url.port = "11434";
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (url.hostname === "[::]") url.hostname = "[::1]";
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}/v1`;
}

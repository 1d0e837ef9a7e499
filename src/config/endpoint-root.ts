// A base URL pasted with its endpoint — `…/v1/chat/completions`, the URL a vendor's curl example
// shows — is the API root plus the path the SDK appends itself, so every request went to
// `…/chat/completions/chat/completions` and the endpoint answered 404. Pure.
import type { Protocol } from "../kernel/ir.ts";

/**
 * The path each protocol's SDK appends to the API root. Gemini's is the model and its method
 * (`/models/gemini-3-pro:streamGenerateContent`, Google's `resource:method` form), or, right after a
 * version segment, the list of models or one model (`/v1beta/models`, `/v1beta/models/gemini-3-pro`):
 * a gateway's own path that merely has a `models` segment (`/google/models/v1beta`) is its root.
 */
const ENDPOINTS: Record<Protocol, RegExp> = {
  openai: /\/chat\/completions\/*$/,
  responses: /\/responses\/*$/,
  anthropic: /\/messages\/*$/,
  google: /\/models\/[^/:]+:[A-Za-z]+\/*$|(?<=\/v\d+(?:(?:alpha|beta)\d*)?)\/models(?:\/[^/:]+)?\/*$/,
};

/** The API root of `url` and the endpoint path cut from it; undefined when `url` ends with none (or is no URL). */
export function endpointRoot(url: string, protocol: Protocol): { root: string; cut: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const m = ENDPOINTS[protocol].exec(parsed.pathname);
  if (!m) return undefined;
  parsed.pathname = parsed.pathname.slice(0, m.index) || "/";
  // Gemini's query is its endpoint's too (`?alt=sse`, `?key=…` in Google's curl examples): the SDK
  // adds its own after the path, so one kept went before it. (OpenAI's and Anthropic's SDKs keep a
  // base URL's query, as Azure's `?api-version=` needs.)
  const query = protocol === "google" ? endpointQuery(parsed) : "";
  const root = parsed.toString();
  // URL adds a "/" after a bare host; the user's spelling had none
  return { root: parsed.pathname === "/" && !parsed.search ? root.replace(/\/$/, "") : root, cut: m[0].replace(/\/+$/, "") + query };
}

/** Takes the query off `url` and returns it as a warning shows it: a key's value never printed. */
function endpointQuery(url: URL): string {
  const shown = [...url.searchParams].map(([k, v]) => `${k}=${k.toLowerCase() === "key" ? "…" : v}`).join("&");
  url.search = "";
  return shown ? `?${shown}` : "";
}

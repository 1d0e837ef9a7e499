// Redirects, followed by hey's fetch itself (fetch.ts) rather than by the runtime: the runtime would
// send every hop the way the first one went, so a redirect from a host NO_PROXY sends direct to one
// that must go through the proxy skipped the proxy (and the reverse). These are the rules of fetch's
// own "HTTP-redirect fetch" (WHATWG Fetch §4.4), so the SDKs above see what they would from fetch.
// Pure.
import { credentialName } from "./credential-names.ts";

type RequestBody = RequestInit["body"];

/** One request of a chain: what the next hop sends, and to where. */
export interface Hop {
  url: URL;
  method: string;
  headers: Headers;
  /** null once a redirect turned the request into a GET */
  body: RequestBody;
}

/** fetch's own limit, which the SDKs expect; a chain longer than that is a loop. */
export const MAX_REDIRECTS = 20;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** The headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-encoding", "content-language", "content-location", "content-type", "content-length"];

/** Whether `status` asks the client to follow its Location. */
export const isRedirect = (status: number): boolean => REDIRECTS.has(status);

/** A fetch-like TypeError with the code Bun's fetch gives the same failure. */
export function redirectError(code: "TooManyRedirects" | "UnsupportedRedirectProtocol" | "UnexpectedRedirect", message: string): TypeError {
  return Object.assign(new TypeError(message), { code });
}

/**
 * The request a redirect answer (`status`, `location`) to `hop` asks for, the `count`th of its chain:
 * a 303, and a 301/302 to a POST, become a GET without the body and the headers that describe it;
 * a 307/308 keeps method and body. A hop to another origin goes without the headers whose names say
 * they hold a credential (config/secret-variables.ts credentialName: Authorization, Cookie, API keys).
 * Undefined when the answer has no Location (it is then the answer). Throws redirectError for a chain
 * longer than MAX_REDIRECTS, a Location that is not http(s), and a 307/308 whose body was a stream
 * (read once, it cannot be sent again).
 */
export function nextHop(hop: Hop, status: number, location: string | null, count: number): Hop | undefined {
  if (location === null || !URL.canParse(location, hop.url.href)) return undefined;
  const url = new URL(location, hop.url);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw redirectError("UnsupportedRedirectProtocol", `${hop.url.origin} redirected to ${url.protocol} (${url.origin}), which is not HTTP: not followed`);
  if (count > MAX_REDIRECTS)
    throw redirectError(
      "TooManyRedirects",
      `more than ${MAX_REDIRECTS} redirects, the last from ${hop.url.origin}${hop.url.pathname} to ${url.origin}${url.pathname}: a redirect loop`,
    );
  const headers = new Headers(hop.headers);
  let { method, body } = hop;
  if (status === 303 ? method !== "GET" && method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
    method = "GET";
    body = null;
    for (const name of BODY_HEADERS) headers.delete(name);
  } else if (!replayable(body)) {
    throw redirectError("UnexpectedRedirect", `${hop.url.origin} answered ${status}, which asks for the request's body again: it was a stream, read once`);
  }
  // fetch drops only Authorization; the keys vendors and gateways send in their own headers (x-api-key,
  // Ocp-Apim-Subscription-Key, x-functions-key) are credentials just the same: those hey hides by name
  if (url.origin !== hop.url.origin) for (const name of [...headers.keys()]) if (credentialName(name)) headers.delete(name);
  return { url, method, headers, body };
}

/** Whether `body` can be sent a second time: a stream or an iterator is used up by the first. */
function replayable(body: RequestBody): boolean {
  return (
    body === null ||
    body === undefined ||
    typeof body === "string" ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams
  );
}

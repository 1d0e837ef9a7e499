// What a remote MCP server's failures mean (SPEC §14), in the user's words: a request that got no
// answer at all (the server is out of reach), a session the server no longer knows (it
// restarted), an error body from its auth layer rather than from MCP. Pure.
import { errorText } from "../kernel/errors.ts";

/** A request to a remote server that got no answer: refused, no such host, reset, a TLS or proxy failure. */
export class Unreachable extends Error {
  override name = "Unreachable";
  constructor(url: URL, cause: unknown) {
    const code = typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : "";
    // a NetError (net/errors.ts) is a whole sentence naming the proxy or the certificate
    super(cause instanceof Error && cause.name === "NetError" ? cause.message : `cannot reach ${url.host} (${NO_ANSWER[code] ?? errorText(cause)})`);
  }
}

/** Bun's and the system's codes for a request that got no answer. */
const NO_ANSWER: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ConnectionRefused: "connection refused",
  ENOTFOUND: "no such host",
  ECONNRESET: "connection reset",
  ConnectionClosed: "connection closed",
  ETIMEDOUT: "timed out",
  ConnectionTimeout: "timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** A 401 whose WWW-Authenticate names the Bearer scheme: the server asks for a sign-in (MCP authorization spec). */
export const asksForSignIn = (res: Response) => res.status === 401 && /^\s*bearer\b/i.test(res.headers.get("www-authenticate") ?? "");

/** Why a server that answered 401 is waiting for a sign-in: none yet, or the one hey had no longer works. */
export function signInMessage(signedIn: boolean): string {
  return signedIn ? "hey's sign-in to it has run out and could not be refreshed" : "it answers HTTP 401 without one";
}

/**
 * Whether an HTTP error answers a request whose session the server no longer knows: 404 (the
 * spec's answer: the client starts a new session), or a 400 that names the session (what some
 * servers answer, server-everything among them).
 */
export function sessionGone(status: number, message: string): boolean {
  return status === 404 || (status === 400 && /session/i.test(message));
}

/** Whether a legacy SSE transport's failed POST (its words: `Error POSTing to endpoint (HTTP 404): …`) says the session is gone. */
export function legacySessionGone(e: unknown): boolean {
  const legacy = e instanceof Error ? /^Error POSTing to endpoint \(HTTP (\d+)\)/.exec(e.message) : null;
  return legacy !== null && sessionGone(Number(legacy[1]), (e as Error).message);
}

/** The error codes of OAuth (RFC 6749 §4.1.2.1 and §5.2, RFC 6750 §3.1, RFC 7591 §3.2.2, RFC 8707): those the MCP SDK's auth errors carry. */
const OAUTH_CODES = new Set(
  "invalid_request invalid_client invalid_grant unauthorized_client unsupported_grant_type invalid_scope access_denied server_error temporarily_unavailable unsupported_response_type unsupported_token_type invalid_token insufficient_scope invalid_client_metadata invalid_target".split(
    " ",
  ),
);

/**
 * The OAuth error of an error body at the end of `message` (`{"error":"server_error",
 * "error_description":"…"}`, an auth layer's, not a JSON-RPC error), as `code (description)`.
 */
export function oauthError(message: string): string | undefined {
  const body = /\{.*\}\s*$/s.exec(message)?.[0];
  try {
    const o = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
    if (!o || "jsonrpc" in o || typeof o.error !== "string" || !OAUTH_CODES.has(o.error)) return undefined;
    return typeof o.error_description === "string" ? `${o.error} (${o.error_description})` : o.error;
  } catch {
    return undefined;
  }
}

/** An HTTP error of the SDK's Streamable HTTP transport without its wrapping words: `HTTP 500: {…}`. */
export function httpText(e: { code?: number; message: string }): string {
  return `HTTP ${e.code}: ${e.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, "")}`;
}

/** The body of an initialize request made only to see what a server answers without a session or a token (a 401 that asks for a sign-in, or not). */
export function initializeBody(version: string): string {
  const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hey", version } };
  return JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params });
}

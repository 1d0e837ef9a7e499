// Whether a remote MCP server's error (not a 401) is its auth layer refusing hey's token (SPEC
// §14): the MCP SDK's bearer middleware answers a token its verifier throws on (revoked, from
// before the server restarted) with `500 {"error":"server_error"}`, and its other OAuth errors
// with 400 — but a server's own failure of one request can wear the same body. Pure: the fetch is
// given.
import { asksForSignIn, oauthError } from "./http-faults.ts";

export interface TokenProbe {
  /** the MCP endpoint */
  url: URL;
  /** the server table's headers */
  headers: Record<string, string>;
  /** the access token hey sent, undefined when it has none */
  token(): Promise<string | undefined>;
  /** the fetch it is asked through (hey's, proxied) */
  send: typeof fetch;
  signal: AbortSignal;
}

/**
 * Why `err` (an HTTP error with the server's body at the end of its message) is the server
 * refusing hey's sign-in, or undefined when it is not. It is, when its body is an OAuth error and
 * the endpoint answers the same error to a harmless request with hey's token (a `ping`, which
 * makes no session), and a 401 that asks for a sign-in to one without a token. A failure of the
 * one request that failed (a tool's) is answered otherwise: it is no sign-in's fault.
 */
export async function refusedToken(err: { code: number; message: string }, probe: TokenProbe): Promise<string | undefined> {
  const oauth = oauthError(err.message);
  const token = oauth && (await probe.token().catch(() => undefined));
  if (!oauth || !token) return undefined;
  const ask = async (authorization: string | undefined) => {
    const headers: Record<string, string> = { ...probe.headers, "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (authorization) headers.authorization = authorization;
    const res = await probe.send(probe.url, { method: "POST", headers, body: PING, signal: probe.signal }).catch(() => undefined);
    const text = res ? await res.text().catch(() => "") : "";
    return { res, text };
  };
  const [withToken, without] = await Promise.all([ask(`Bearer ${token}`), ask(undefined)]);
  const sameRefusal = withToken.res?.status === err.code && oauthError(withToken.text) === oauth;
  if (!sameRefusal || !without.res || !asksForSignIn(without.res)) return undefined;
  return `it refused hey's sign-in with HTTP ${err.code} ${oauth} and asks for a new one`;
}

/** A request any server may answer, that opens no session (JSON-RPC `ping`). */
const PING = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" });

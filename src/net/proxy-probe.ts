// What a proxy's port answers as (SPEC §16). A proxy URL with the wrong scheme otherwise fails
// in words about the model URL — http:// for a SOCKS5 port is a reset — or hangs: an HTTP proxy
// such as tinyproxy waits for the end of a request line that a TLS ClientHello (https://) or a
// SOCKS5 greeting (socks5://) never sends. Each probe is a new short connection that sends a few
// bytes and reads the first ones back.
import { connect } from "node:net";
import { checkServerIdentity, connect as tlsConnect } from "node:tls";
import { parseIp } from "./proxy.ts";

/** What a proxy's port speaks: `http` an HTTP proxy, `socks5` a SOCKS5 server, `tls` TLS (an https:// proxy). */
export type ProxyProtocol = "http" | "socks5" | "tls";

/**
 * How long each probe waits for its answer. Proxies answer the first bytes at once; a TLS
 * handshake with a distant one takes two round trips. Waiting longer only delays the message for a
 * port that answers nothing.
 */
export const PROBE_WAIT_MS = 5_000;

/** origin-form, which a forward proxy answers at once without forwarding anything (tinyproxy: 400) */
const HTTP_PROBE = new TextEncoder().encode("GET / HTTP/1.0\r\n\r\n");
/** RFC 1928: version 5, one method, "no authentication"; a server wanting a login still answers 5, 0xff */
const SOCKS5_GREETING = Uint8Array.of(5, 1, 0);
/** the order after the expected protocol: HTTP proxies and SOCKS servers answer HTTP's bytes at once, while an HTTP proxy waits silently on the others */
const ORDER: ProxyProtocol[] = ["http", "socks5", "tls"];

/**
 * What host:port answers as. `expected` (what the proxy URL's scheme says) is asked first, so a
 * correctly set proxy costs one quick probe; then the others, each on a new connection given
 * `waitMs`. Undefined when none gets an answer hey knows (refused, closed, silent). Never throws.
 */
export async function speaksAs(host: string, port: number, expected: ProxyProtocol, waitMs = PROBE_WAIT_MS): Promise<ProxyProtocol | undefined> {
  for (const protocol of [expected, ...ORDER.filter((p) => p !== expected)]) {
    const answer =
      protocol === "tls" ? await tlsHandshake(host, port, waitMs) : await firstBytes(host, port, protocol === "http" ? HTTP_PROBE : SOCKS5_GREETING, waitMs);
    if (answer) return answer;
  }
  return undefined;
}

const HTTP_VERSION = "HTTP/";

/** What the first bytes a port sent back show; "more" while they could still begin an HTTP status line. */
function readAnswer(bytes: Uint8Array): ProxyProtocol | "more" | undefined {
  if (bytes[0] === 5) return "socks5"; // a SOCKS5 reply starts with its version, whatever it was sent (2 bytes, then it waits)
  if (bytes[0] === 0x15 || bytes[0] === 0x16) return "tls"; // a TLS record: an alert, or a handshake
  const text = new TextDecoder().decode(bytes.subarray(0, HTTP_VERSION.length));
  if (text === HTTP_VERSION) return "http";
  return HTTP_VERSION.startsWith(text) ? "more" : undefined;
}

/** Sends `probe` and reads what comes back until it tells what answered, the connection closes, or `waitMs`. */
function firstBytes(host: string, port: number, probe: Uint8Array, waitMs: number): Promise<ProxyProtocol | undefined> {
  return new Promise((resolve) => {
    let got = Buffer.alloc(0);
    const socket = connect({ host, port });
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const answer = readAnswer(got);
      resolve(answer === "more" ? undefined : answer);
    };
    const timer = setTimeout(done, waitMs);
    socket.once("connect", () => socket.write(probe));
    socket.on("data", (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (readAnswer(got) !== "more") done();
    });
    socket.once("close", done);
    socket.once("error", done);
  });
}

/** "tls" when host:port completes a TLS handshake within `waitMs` (any certificate: only the protocol is asked). */
function tlsHandshake(host: string, port: number, waitMs: number): Promise<"tls" | undefined> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false, ...(parseIp(host) ? {} : { servername: host }) });
    const done = (answer: "tls" | undefined) => () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done(undefined), waitMs);
    socket.once("secureConnect", done("tls"));
    socket.once("close", done(undefined));
    socket.once("error", done(undefined));
  });
}

/**
 * How the certificate of the TLS port host:port (an https:// proxy's front) fares against `ca` (the
 * default store when undefined): "" when it verifies for `host`, else the verify code
 * (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID…); undefined when no
 * handshake completed within `waitMs`. Never throws.
 */
export function certificateCheck(host: string, port: number, ca: string[] | undefined, waitMs = PROBE_WAIT_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false, ...(parseIp(host) ? {} : { servername: host }), ...(ca ? { ca } : {}) });
    const done = (answer: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(undefined), waitMs);
    socket.once("secureConnect", () => {
      if (!socket.authorized) return done(String(socket.authorizationError ?? "CERT_UNTRUSTED"));
      done(checkServerIdentity(host, socket.getPeerCertificate()) ? "ERR_TLS_CERT_ALTNAME_INVALID" : "");
    });
    socket.once("close", () => done(undefined));
    socket.once("error", () => done(undefined));
  });
}

/**
 * Whether the HTTP proxy at host:port (over TLS when `tls`: an https:// proxy) answers a CONNECT to
 * `authority` (host:port) within `waitMs`, with any status: false when it stays silent (or closes).
 * No credentials go with it — a 407 is an answer too — so the proxy's password never crosses this
 * connection, whose certificate is not checked. Never throws.
 */
export function answersConnect(proxy: { host: string; port: number; tls: boolean }, authority: string, waitMs = PROBE_WAIT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const { host, port } = proxy;
    const socket = proxy.tls ? tlsConnect({ host, port, rejectUnauthorized: false, ...(parseIp(host) ? {} : { servername: host }) }) : connect({ host, port });
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.once(proxy.tls ? "secureConnect" : "connect", () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    let got = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= HTTP_VERSION.length) done(readAnswer(got) === "http");
    });
    socket.once("close", () => done(false));
    socket.once("error", () => done(false));
  });
}

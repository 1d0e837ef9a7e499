// What fetch threw, told in words that name the host or the proxy and say what to do (SPEC §16, §24).
import { describe, expect, test } from "bun:test";
import { classifyFetchError, classifyProxyResponse, NetError, proxyTlsError, wrongScheme } from "../../src/net/errors.ts";
import { parseProxyUrl, type ProxyRoute } from "../../src/net/proxy.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { netFailure } from "../../src/providers/common.ts";

const TARGET = new URL("https://llm.corp.example/v1/chat/completions");
const DIRECT: ProxyRoute = { kind: "direct" };
const HTTP = parseProxyUrl("http://proxy.corp:3128", "HTTPS_PROXY");
const HTTP_WITH_CREDENTIALS = parseProxyUrl("http://alice:hunter2@proxy.corp:3128", "[proxy] url in /home/a/.config/hey/config.toml");
const SOCKS = parseProxyUrl("socks5h://proxy.corp", "--proxy");
const HTTPS = parseProxyUrl("https://proxy.corp:3129", "HTTPS_PROXY");

/** What Bun's fetch throws: a TypeError with a `code`, or an ERR_PROXY_TUNNEL error with the proxy's status. */
const bunError = (code: string, message: string) => Object.assign(new TypeError(message), { code });
const tunnelError = (status: number, statusText: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`Proxy refused to open a tunnel: ${status} ${statusText}`), {
    code: "ERR_PROXY_TUNNEL",
    status,
    statusText,
    headers: new Headers(headers),
  });

describe("TLS failures are permanent and name the host", () => {
  test("a self-signed server certificate: give that certificate as the CA, or insecure = true as a last resort", () => {
    const error = classifyFetchError(bunError("DEPTH_ZERO_SELF_SIGNED_CERT", "self signed certificate"), TARGET, DIRECT)!;
    expect(error.message).toEndWith(
      "give its PEM file in [network] ca_file, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS; for a self-signed certificate, that file is the certificate itself (as a last resort, insecure = true in the provider's table skips the check)",
    );
  });

  test.each<[string, string]>([
    [
      "CERT_HAS_EXPIRED",
      "the TLS certificate of the proxy https://proxy.corp:3129 (from HTTPS_PROXY) is expired (CERT_HAS_EXPIRED); the model endpoint was not reached — its operator must renew it",
    ],
    [
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "the TLS certificate of the proxy https://proxy.corp:3129 (from HTTPS_PROXY) is not signed by a CA hey trusts (DEPTH_ZERO_SELF_SIGNED_CERT); the model endpoint was not reached — give the CA that signed it in [network] ca_file",
    ],
    [
      "ERR_TLS_CERT_ALTNAME_INVALID",
      "the TLS certificate of the proxy https://proxy.corp:3129 (from HTTPS_PROXY) is for another host name (ERR_TLS_CERT_ALTNAME_INVALID); the model endpoint was not reached — check the proxy's host in HTTPS_PROXY",
    ],
  ])("an https:// proxy's own certificate (%s) names the proxy, not the model host", (code, expected) => {
    expect(proxyTlsError(code, HTTPS).message).toStartWith(expected);
  });

  test.each([
    [
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "unable to verify the first certificate",
      /^the TLS certificate of llm\.corp\.example is not signed by a CA hey trusts \(unable to verify the first certificate, UNABLE_TO_VERIFY_LEAF_SIGNATURE\) — .*\[network\] ca_file, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS$/,
    ],
    ["SELF_SIGNED_CERT_IN_CHAIN", "self signed certificate in certificate chain", /not signed by a CA hey trusts/],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "self signed certificate", /not signed by a CA hey trusts/],
    [
      "CERT_HAS_EXPIRED",
      "certificate has expired",
      /^the TLS certificate of llm\.corp\.example is expired \(certificate has expired, CERT_HAS_EXPIRED\) — the server must renew it; .*clock$/,
    ],
    ["CERT_NOT_YET_VALID", "certificate is not yet valid", /is not valid yet .*clock$/],
    [
      "ERR_TLS_CERT_ALTNAME_INVALID",
      'ERR_TLS_CERT_ALTNAME_INVALID fetching "https://llm.corp.example/". For more information, pass `verbose: true`',
      /^the TLS certificate presented for llm\.corp\.example is for another host name \(ERR_TLS_CERT_ALTNAME_INVALID\) — check the host in the base URL$/,
    ],
  ])("%s", (code, message, expected) => {
    const error = classifyFetchError(bunError(code, message), TARGET, DIRECT);
    expect(error).toBeInstanceOf(NetError);
    expect(error).toMatchObject({ kind: "tls", permanent: true });
    expect(error!.message).toMatch(expected);
  });

  test("through a proxy the message names it, masked, and suspects TLS inspection on a name mismatch", () => {
    const error = classifyFetchError(bunError("ERR_TLS_CERT_ALTNAME_INVALID", "x"), TARGET, HTTP_WITH_CREDENTIALS)!;
    expect(error.message).toContain("through the proxy http://***@proxy.corp:3128 (from [proxy] url in /home/a/.config/hey/config.toml)");
    expect(error.message).toContain("whether the proxy intercepts TLS");
    expect(error.message).not.toContain("hunter2");
  });
});

describe("a proxy's answer to CONNECT", () => {
  test("407 without credentials in the URL: say where to put them", () => {
    const error = classifyFetchError(tunnelError(407, "Proxy Authentication Required"), TARGET, HTTP)!;
    expect(error).toMatchObject({ kind: "proxy_auth", permanent: true });
    expect(error.message).toBe(
      "the proxy http://proxy.corp:3128 (from HTTPS_PROXY) wants credentials (407 Proxy Authentication Required) — put them in HTTPS_PROXY as http://USER:PASSWORD@HOST:PORT",
    );
  });

  test.each([407, 401])("%d with credentials: they were rejected (tinyproxy answers 401 to wrong ones)", (status) => {
    const error = classifyFetchError(tunnelError(status, "Unauthorized"), TARGET, HTTP_WITH_CREDENTIALS)!;
    expect(error).toMatchObject({ kind: "proxy_auth", permanent: true });
    expect(error.message).toStartWith(
      "the proxy http://***@proxy.corp:3128 (from [proxy] url in /home/a/.config/hey/config.toml) rejected the credentials in its URL",
    );
  });

  test.each([403, 400, 405])("%d: the proxy refuses, permanently, naming host and port", (status) => {
    const error = classifyFetchError(tunnelError(status, "Access violation"), TARGET, HTTP)!;
    expect(error).toMatchObject({ kind: "proxy_refused", permanent: true });
    expect(error.message).toStartWith(
      `the proxy http://proxy.corp:3128 (from HTTPS_PROXY) refused to connect to llm.corp.example:443 (${status} Access violation) — its rules`,
    );
  });

  test.each([500, 502, 503, 504])("%d: the proxy could not reach the server — retryable, like a refused direct connection", (status) => {
    const error = classifyFetchError(tunnelError(status, "Unable to connect"), TARGET, HTTP)!;
    expect(error).toMatchObject({ kind: "upstream", permanent: false });
    expect(error.message).toBe(
      `the proxy http://proxy.corp:3128 (from HTTPS_PROXY) could not connect to llm.corp.example:443 (${status} Unable to connect) — if llm.corp.example is reachable from here without the proxy (a LAN or VPN address), list it in NO_PROXY`,
    );
  });

  test("hey's SOCKS bridge names the kind and the words in headers", () => {
    const error = classifyFetchError(
      tunnelError(502, "Bad Gateway", { "x-hey-bridge-failure": "proxy_refused", "x-hey-bridge-detail": "SOCKS5 reply 2: connection not allowed by ruleset" }),
      TARGET,
      SOCKS,
    )!;
    expect(error).toMatchObject({ kind: "proxy_refused", permanent: true });
    expect(error.message).toContain(
      "the proxy socks5h://proxy.corp (from --proxy) refused to connect to llm.corp.example:443 (SOCKS5 reply 2: connection not allowed by ruleset)",
    );
  });
});

describe("connection errors", () => {
  test.each(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH"])("%s through a proxy is the proxy's: permanent, the proxy named", (code) => {
    const error = classifyFetchError(bunError(code, "Unable to connect"), TARGET, HTTP)!;
    expect(error).toMatchObject({ kind: "proxy_unreachable", permanent: true });
    expect(error.message).toStartWith("cannot reach the proxy http://proxy.corp:3128 (from HTTPS_PROXY): ");
    expect(error.message).not.toContain("llm.corp.example");
  });

  test("a refused direct connection, a reset or a timeout are not classified here (they stay retryable network errors)", () => {
    expect(classifyFetchError(bunError("ECONNREFUSED", "Unable to connect"), TARGET, DIRECT)).toBeUndefined();
    expect(classifyFetchError(bunError("ECONNRESET", "socket hang up"), TARGET, HTTP)).toBeUndefined();
    expect(classifyFetchError(bunError("ETIMEDOUT", "timed out"), TARGET, HTTP)).toBeUndefined();
    expect(classifyFetchError("weird", TARGET, HTTP)).toBeUndefined();
  });
});

describe("responses a proxy sent in the server's place", () => {
  const response = (status: number, headers: Record<string, string> = {}) => ({ status, statusText: "", headers: new Headers(headers) });
  const PLAIN = new URL("http://llm.corp.example:8080/v1");

  test("a 407 through a proxy is the proxy's", () => {
    expect(classifyProxyResponse(response(407), PLAIN, HTTP)).toMatchObject({ kind: "proxy_auth", permanent: true });
  });

  test("a server's own 401/403/407 is left to the adapter: a 401 is the API key's, and direct there is no proxy", () => {
    expect(classifyProxyResponse(response(401), PLAIN, HTTP)).toBeUndefined();
    expect(classifyProxyResponse(response(403, { "content-type": "application/json" }), PLAIN, HTTP)).toBeUndefined();
    expect(classifyProxyResponse(response(407), PLAIN, DIRECT)).toBeUndefined();
  });

  // tinyproxy 1.11.1's answer to wrong credentials on a forwarded request, as captured
  const TINYPROXY_401 = { server: "tinyproxy/1.11.1", "content-type": "text/html", "www-authenticate": 'Basic realm="Tinyproxy"', connection: "close" };

  test.each<[string, Record<string, string>]>([
    ["tinyproxy's 401 (it answers 407 only when no credentials were sent)", TINYPROXY_401],
    ["any 401 with Proxy-Authenticate, a header only proxies send", { "proxy-authenticate": 'Basic realm="corp"' }],
    ["a Basic challenge whose realm names a proxy", { "content-type": "text/html", "www-authenticate": 'Basic realm="Corporate Proxy"' }],
  ])("a 401 is the proxy's: %s", (_name, headers) => {
    const error = classifyProxyResponse({ status: 401, statusText: "Unauthorized", headers: new Headers(headers) }, PLAIN, HTTP_WITH_CREDENTIALS)!;
    expect(error).toMatchObject({ kind: "proxy_auth", permanent: true });
    expect(error.message).toBe(
      "the proxy http://***@proxy.corp:3128 (from [proxy] url in /home/a/.config/hey/config.toml) rejected the credentials in its URL (401 Unauthorized) — check the user and password in [proxy] url in /home/a/.config/hey/config.toml",
    );
  });

  test("a proxy's 401 when hey sent no credentials says where to put them", () => {
    const error = classifyProxyResponse({ status: 401, statusText: "Unauthorized", headers: new Headers(TINYPROXY_401) }, PLAIN, HTTP)!;
    expect(error.message).toStartWith("the proxy http://proxy.corp:3128 (from HTTPS_PROXY) wants credentials (401 Unauthorized) — put them in HTTPS_PROXY");
  });

  // tinyproxy 1.11's own pages for a Filter match and for a host it cannot reach, as captured
  const TINYPROXY_PAGE = { server: "tinyproxy/1.11.1", "content-type": "text/html", connection: "close" };
  const LAN = new URL("http://192.168.1.20:11434/v1/chat/completions");

  test("a proxy's Filter 403 to a plain-http endpoint names the proxy and NO_PROXY, not the API key", () => {
    const error = classifyProxyResponse({ status: 403, statusText: "Filtered", headers: new Headers(TINYPROXY_PAGE) }, LAN, HTTP)!;
    expect(error).toMatchObject({ kind: "proxy_refused", permanent: true });
    expect(error.message).toBe(
      "the proxy http://proxy.corp:3128 (from HTTPS_PROXY) refused to connect to 192.168.1.20:11434 (403 Filtered) — its rules do not allow this host or port: ask its administrator, or list hosts that are reachable directly in NO_PROXY",
    );
  });

  test.each<[string, number, Record<string, string>]>([
    ["tinyproxy's 500 Unable to connect", 500, TINYPROXY_PAGE],
    ["a bare 502 with no body", 502, { "content-length": "0" }],
    ["squid's 503, named in X-Squid-Error", 503, { server: "squid/5.7", "x-squid-error": "ERR_DNS_FAIL 0", "content-type": "text/html" }],
    ["a 504 with Proxy-Agent", 504, { "proxy-agent": "corp-gw/2", "content-type": "text/html" }],
  ])("%s is the proxy failing to reach the endpoint, and says NO_PROXY", (_name, status, headers) => {
    const error = classifyProxyResponse({ status, statusText: "Unable to connect", headers: new Headers(headers) }, LAN, HTTP)!;
    expect(error).toMatchObject({ kind: "upstream", permanent: false });
    expect(error.message).toStartWith(
      `the proxy http://proxy.corp:3128 (from HTTPS_PROXY) could not connect to 192.168.1.20:11434 (${status} Unable to connect)`,
    );
    expect(error.message).toContain("list it in NO_PROXY");
  });

  test.each<[string, number, Record<string, string>]>([
    ["a JSON 500 (the model server's own)", 500, { "content-type": "application/json" }],
    ["a JSON 503 from a server that calls itself a proxy (LiteLLM)", 503, { "content-type": "application/json", server: "litellm-proxy" }],
    ["an HTML 502 the proxy forwarded (Via)", 502, { "content-type": "text/html", server: "nginx", via: "1.1 tinyproxy (tinyproxy/1.11.1)" }],
    ["a 404 with no proxy header", 404, { "content-type": "text/plain" }],
  ])("an error stays the server's: %s", (_name, status, headers) => {
    expect(classifyProxyResponse({ status, statusText: "", headers: new Headers(headers) }, LAN, HTTP)).toBeUndefined();
  });

  test.each<[string, number, Record<string, string>]>([
    ["a CDN's HTML 403 (a WAF's challenge page)", 403, { "content-type": "text/html", server: "cloudflare" }],
    ["a CDN's HTML 502", 502, { "content-type": "text/html" }],
    ["a page naming a proxy (the server's own reverse proxy)", 503, { "content-type": "text/html", server: "squid/5.7" }],
  ])("through an HTTP proxy to an https:// endpoint, which it only tunnels to, every response is the server's: %s", (_name, status, headers) => {
    expect(classifyProxyResponse({ status, statusText: "", headers: new Headers(headers) }, TARGET, HTTP)).toBeUndefined();
  });

  test.each<[string, Record<string, string>, ProxyRoute]>([
    ["a JSON error body (OpenAI, Anthropic, Gemini, vLLM, Ollama…)", { "content-type": "application/json; charset=utf-8" }, HTTP_WITH_CREDENTIALS],
    [
      "JSON even from a server that calls itself a proxy (LiteLLM)",
      { "content-type": "application/json", server: "litellm-proxy", "www-authenticate": "Basic" },
      HTTP,
    ],
    ["a Bearer challenge", { "content-type": "text/plain", "www-authenticate": 'Bearer realm="https://accounts.google.com/"' }, HTTP],
    [
      "a web server's Basic login in front of the model",
      { server: "nginx", "content-type": "text/html", "www-authenticate": 'Basic realm="Restricted"' },
      HTTP_WITH_CREDENTIALS,
    ],
    ["tinyproxy's headers on a SOCKS route (a SOCKS proxy never answers in HTTP)", TINYPROXY_401, SOCKS],
  ])("a 401 stays the server's: %s", (_name, headers, route) => {
    expect(classifyProxyResponse({ status: 401, statusText: "Unauthorized", headers: new Headers(headers) }, PLAIN, route)).toBeUndefined();
  });
});

describe("a proxy whose port speaks another protocol than its URL's scheme", () => {
  test.each<[string, string, "http" | "socks5" | "tls", string]>([
    [
      "http:// for a SOCKS5 port",
      "http://alice:hunter2@proxy.corp:1080",
      "socks5",
      "the proxy http://***@proxy.corp:1080 (from HTTPS_PROXY) did not answer as an HTTP proxy: it answers as a SOCKS5 proxy — use socks5h://***@proxy.corp:1080 (or socks5://) in HTTPS_PROXY",
    ],
    [
      "host:port (http) for a SOCKS5 port",
      "proxy.corp:1080",
      "socks5",
      "the proxy proxy.corp:1080 (from HTTPS_PROXY) did not answer as an HTTP proxy: it answers as a SOCKS5 proxy — use socks5h://proxy.corp:1080 (or socks5://) in HTTPS_PROXY",
    ],
    [
      "https:// for a plain HTTP proxy",
      "https://proxy.corp:3128",
      "http",
      "the proxy https://proxy.corp:3128 (from HTTPS_PROXY) did not answer as an HTTPS proxy (TLS to the proxy itself): it answers as a plain HTTP proxy — use http://proxy.corp:3128 in HTTPS_PROXY (the scheme says how to talk to the proxy, not to the endpoint)",
    ],
    [
      "http:// for a TLS port",
      "http://proxy.corp:443",
      "tls",
      "the proxy http://proxy.corp:443 (from HTTPS_PROXY) did not answer as an HTTP proxy: it answers with TLS, as an HTTPS proxy — use https://proxy.corp:443 in HTTPS_PROXY",
    ],
    [
      "socks5h:// for a plain HTTP proxy",
      "socks5h://proxy.corp:3128",
      "http",
      "the proxy socks5h://proxy.corp:3128 (from HTTPS_PROXY) did not answer as a SOCKS5 proxy: it answers as a plain HTTP proxy — use http://proxy.corp:3128 in HTTPS_PROXY",
    ],
  ])("%s: permanent, naming the proxy and the URL to write", (_name, url, speaks, message) => {
    const error = wrongScheme(parseProxyUrl(url, "HTTPS_PROXY"), speaks)!;
    expect(error).toMatchObject({ kind: "proxy_protocol", permanent: true, message });
    expect(error.message).not.toContain("hunter2");
  });

  test.each<[string, "http" | "socks5" | "tls" | undefined]>([
    ["http://proxy.corp:3128", "http"],
    ["https://proxy.corp", "tls"],
    ["socks5://proxy.corp", "socks5"],
    ["http://proxy.corp:3128", undefined],
  ])("%s answering as %s is no mistake", (url, speaks) => {
    expect(wrongScheme(parseProxyUrl(url, "--proxy"), speaks)).toBeUndefined();
  });
});

describe("netFailure: what the adapters make of a NetError", () => {
  test("found under the SDK's wrapping; credentials demands are auth; permanent ones are final", () => {
    const wrapped = Object.assign(new Error("Connection error."), { cause: new NetError("proxy_auth", "the proxy wants credentials") });
    const auth = netFailure(wrapped)!;
    expect(auth).toBeInstanceOf(ProviderError);
    expect(auth).toMatchObject({ kind: "auth", final: true, retryable: false, message: "the proxy wants credentials" });
    expect(netFailure(new NetError("tls", "bad cert"))).toMatchObject({ kind: "network", final: true, retryable: false });
    expect(netFailure(new NetError("upstream", "proxy could not connect"))).toMatchObject({ kind: "network", final: false, retryable: true });
    expect(netFailure(new TypeError("fetch failed"))).toBeUndefined();
  });
});

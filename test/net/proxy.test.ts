import { describe, expect, test } from "bun:test";
import {
  isLoopback,
  matchesNoProxy,
  parseIp,
  parseProxyUrl,
  NetConfigError,
  proxyAddress,
  redactProxyUrl,
  resolveProxy,
  unapprovedRoute,
  type ProxySources,
} from "../../src/net/proxy.ts";

const HTTPS = new URL("https://api.example.com/v1/chat");
const HTTP = new URL("http://api.example.com/v1/chat");
/** The expected route through an HTTP proxy: `shown` defaults to the URL as written (= `url` here). */
const httpVia = (url: string, source: string, shown = url) => ({ kind: "http", shown, source, url });
const socksVia = (host: string, port: number, remoteDns: boolean, source: string, shown: string) => ({ kind: "socks5", shown, source, host, port, remoteDns });

describe("resolveProxy precedence", () => {
  test.each<[string, URL, Omit<ProxySources, "env"> & { env?: ProxySources["env"] }, unknown]>([
    ["nothing set: direct", HTTPS, {}, { kind: "direct" }],
    [
      "cli beats config and env",
      HTTPS,
      { cli: "http://cli:1", config: "http://cfg:2", env: { HTTPS_PROXY: "http://env:3" } },
      httpVia("http://cli:1", "--proxy"),
    ],
    ["config beats env", HTTPS, { config: "http://cfg:2", env: { HTTPS_PROXY: "http://env:3" } }, httpVia("http://cfg:2", "[proxy] url")],
    ["config names its source", HTTPS, { config: "http://cfg:2", configSource: "HEY_PROXY", env: {} }, httpVia("http://cfg:2", "HEY_PROXY")],
    ["empty cli and config are unset", HTTPS, { cli: "", config: " ", env: { HTTPS_PROXY: "http://env:3" } }, httpVia("http://env:3", "HTTPS_PROXY")],
    ["HTTPS_PROXY for https", HTTPS, { env: { HTTPS_PROXY: "http://s:1", HTTP_PROXY: "http://p:2" } }, httpVia("http://s:1", "HTTPS_PROXY")],
    ["HTTP_PROXY for http", HTTP, { env: { HTTPS_PROXY: "http://s:1", HTTP_PROXY: "http://p:2" } }, httpVia("http://p:2", "HTTP_PROXY")],
    ["HTTP_PROXY alone does not cover https", HTTPS, { env: { HTTP_PROXY: "http://p:2" } }, { kind: "direct" }],
    [
      "lowercase wins over uppercase",
      HTTPS,
      { env: { HTTPS_PROXY: "http://upper:1", https_proxy: "http://lower:2" } },
      httpVia("http://lower:2", "https_proxy"),
    ],
    ["empty lowercase falls back to uppercase", HTTPS, { env: { HTTPS_PROXY: "http://upper:1", https_proxy: "" } }, httpVia("http://upper:1", "HTTPS_PROXY")],
    ["ALL_PROXY as fallback for https", HTTPS, { env: { ALL_PROXY: "http://all:1" } }, httpVia("http://all:1", "ALL_PROXY")],
    ["ALL_PROXY as fallback for http", HTTP, { env: { all_proxy: "http://all:1" } }, httpVia("http://all:1", "all_proxy")],
    ["scheme-specific beats ALL_PROXY", HTTPS, { env: { ALL_PROXY: "http://all:1", HTTPS_PROXY: "http://s:2" } }, httpVia("http://s:2", "HTTPS_PROXY")],
    ["host:port means http://", HTTPS, { cli: "proxy.corp:3128", env: {} }, httpVia("http://proxy.corp:3128", "--proxy", "proxy.corp:3128")],
    [
      "https proxy keeps its scheme, default port",
      HTTPS,
      { cli: "https://proxy.corp", env: {} },
      httpVia("https://proxy.corp:443", "--proxy", "https://proxy.corp"),
    ],
    ["socks5 resolves locally", HTTPS, { cli: "socks5://s:1080", env: {} }, socksVia("s", 1080, false, "--proxy", "socks5://s:1080")],
    ["socks5h resolves remotely, default port 1080", HTTPS, { env: { ALL_PROXY: "socks5h://S" } }, socksVia("s", 1080, true, "ALL_PROXY", "socks5h://S")],
    ["socks5 over IPv6", HTTPS, { cli: "socks5://[::1]:9050", env: {} }, socksVia("::1", 9050, false, "--proxy", "socks5://[::1]:9050")],
  ])("%s", (_name, target, sources, expected) => {
    expect(resolveProxy(target, { env: {}, ...sources })).toEqual(expected as never);
  });

  test.each([
    ["socks4://proxy:1080", /unsupported proxy scheme "socks4".*socks5h:\/\//],
    ["ftp://proxy:21", /unsupported proxy scheme "ftp"/],
    ["http://", /invalid proxy URL "http:\/\/"/],
    ["http://proxy:99999", /invalid proxy URL/],
    ["http://u:%zz@proxy:1", /malformed percent-escape/],
  ])("%s is a NetConfigError", (value, message) => {
    expect(() => resolveProxy(HTTPS, { cli: value, env: {} })).toThrow(NetConfigError);
    expect(() => resolveProxy(HTTPS, { cli: value, env: {} })).toThrow(message);
  });

  test("a bad value's credentials are not in the error", () => {
    expect(() => parseProxyUrl("socks4://alice:hunter2@proxy:1080", "--proxy")).toThrow(/"socks4:\/\/\*\*\*@proxy:1080"/);
    expect(() => parseProxyUrl("socks4://alice:hunter2@proxy:1080", "--proxy")).not.toThrow(/hunter2/);
  });

  // a user with several proxy settings must be told which one to fix
  test.each<[string, Omit<ProxySources, "env"> & { env?: ProxySources["env"] }, string]>([
    ["--proxy", { cli: "ftp://u:pw@proxy:21" }, '--proxy: unsupported proxy scheme "ftp" in "ftp://***@proxy:21"'],
    ["https_proxy as spelled", { env: { https_proxy: "ftp://proxy:21", HTTPS_PROXY: "http://ok:1" } }, "https_proxy: unsupported proxy scheme"],
    ["HTTPS_PROXY", { env: { HTTPS_PROXY: "http://" } }, 'HTTPS_PROXY: invalid proxy URL "http://"'],
    ["ALL_PROXY", { env: { ALL_PROXY: "http://u:%zz@proxy:1" } }, "ALL_PROXY: proxy URL"],
    [
      "the config's source",
      { config: "socks4://p", configSource: "/c.toml:2: [proxy] url", env: {} },
      '/c.toml:2: [proxy] url: unsupported proxy scheme "socks4"',
    ],
  ])("a bad value from %s names it first", (_name, sources, start) => {
    let thrown: unknown;
    try {
      resolveProxy(HTTPS, { env: {}, ...sources });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(NetConfigError);
    expect((thrown as Error).message).toStartWith(start);
  });
});

describe("unapprovedRoute: a [proxy] url waiting for approval keeps what it would route from going out another way (x68)", () => {
  const held = '[proxy] url = "http://***@corp:3128" in /u/config.toml:2';
  test.each<[string, URL, Partial<ProxySources>, boolean]>([
    ["refused: not direct", HTTPS, {}, true],
    ["refused: not through HTTPS_PROXY either", HTTPS, { env: { HTTPS_PROXY: "http://other:8080" } }, true],
    ["--proxy outranks it", HTTPS, { cli: "http://cli:1" }, false],
    ["an approved [proxy] url or HEY_PROXY stands in its place", HTTPS, { config: "http://approved:1" }, false],
    ["loopback is direct whatever the proxy", new URL("http://127.0.0.1:8080/v1"), {}, false],
    ["a NO_PROXY host is direct whatever the proxy", HTTPS, { env: { NO_PROXY: ".example.com" } }, false],
    ["nothing held", HTTPS, { held: undefined }, false],
  ])("%s", (_, target, given, refused) => {
    const why = unapprovedRoute(target, { env: {}, held, ...given });
    expect(why !== undefined).toBe(refused);
    if (refused) expect(why).toStartWith(`${held} is not approved yet, so no request to api.example.com goes out, neither directly nor through another proxy`);
  });
});

describe("loopback and NO_PROXY in resolveProxy", () => {
  const everything = { cli: "http://cli:1", config: "http://cfg:2", env: { HTTPS_PROXY: "http://env:3", HTTP_PROXY: "http://env:3" } };

  test.each([
    "http://localhost:11434/",
    "http://LOCALHOST./",
    "http://ollama.localhost/",
    "http://127.0.0.1:8080/",
    "http://127.8.9.1/",
    "http://[::1]:8080/",
    "https://[0:0::1]/",
    "http://[::ffff:127.0.0.1]/",
  ])("%s is always direct", (url) => {
    expect(resolveProxy(new URL(url), everything)).toEqual({ kind: "direct" });
    expect(resolveProxy(new URL(url), { ...everything, cli: "socks5h://s:1" })).toEqual({ kind: "direct" });
  });

  test.each(["http://128.0.0.1/", "http://localhost.example.com/", "http://[::2]/", "http://mylocalhost/"])("%s is not loopback", (url) => {
    expect(resolveProxy(new URL(url), everything).kind).toBe("http");
  });

  test.each<[string, Omit<ProxySources, "env">]>([
    ["cli", { cli: "http://cli:1" }],
    ["config", { config: "http://cfg:2" }],
    ["env", {}],
  ])("NO_PROXY applies to a proxy from %s", (_name, sources) => {
    const env = { HTTPS_PROXY: "http://env:3", NO_PROXY: "example.com" };
    expect(resolveProxy(HTTPS, { ...sources, env })).toEqual({ kind: "direct" });
    expect(resolveProxy(new URL("https://other.org/"), { ...sources, env }).kind).toBe("http");
  });

  test("no_proxy wins over NO_PROXY, and port-restricted entries use the target's default port", () => {
    const env = { HTTPS_PROXY: "http://env:3", NO_PROXY: "other.org", no_proxy: "example.com:443" };
    expect(resolveProxy(HTTPS, { env })).toEqual({ kind: "direct" });
    expect(resolveProxy(new URL("https://api.example.com:8443/"), { env }).kind).toBe("http");
    expect(resolveProxy(new URL("https://other.org/"), { env }).kind).toBe("http");
  });

  test("isLoopback", () => {
    expect([isLoopback("127.0.0.1"), isLoopback("[::1]"), isLoopback("a.localhost"), isLoopback("10.0.0.1")]).toEqual([true, true, true, false]);
  });
});

describe("matchesNoProxy", () => {
  test.each<[string, string, number, boolean]>([
    // [NO_PROXY, host, port, direct?]
    ["*", "anything.example", 443, true],
    [" * ", "anything.example", 443, true],
    ["example.com", "example.com", 443, true],
    ["example.com", "api.example.com", 443, true],
    ["example.com", "a.b.example.com", 443, true],
    ["example.com", "notexample.com", 443, false],
    ["example.com", "example.com.evil.org", 443, false],
    [".example.com", "api.example.com", 443, true],
    [".example.com", "example.com", 443, true],
    [".example.com", "notexample.com", 443, false],
    ["*.example.com", "api.example.com", 443, true],
    ["*.example.com", "example.com", 443, true],
    ["*.example.com", "xexample.com", 443, false],
    ["EXAMPLE.com", "Api.Example.COM", 443, true],
    ["example.com.", "api.example.com", 443, true],
    ["example.com", "api.example.com.", 443, true],
    ["example.com:8080", "example.com", 8080, true],
    ["example.com:8080", "example.com", 443, false],
    ["other.org,  example.com", "example.com", 443, true],
    ["other.org example.com", "example.com", 443, true],
    ["other.org,,\texample.com,", "example.com", 443, true],
    ["", "example.com", 443, false],
    [" , ", "example.com", 443, false],
    ["10.1.2.3", "10.1.2.3", 80, true],
    ["10.1.2.3", "10.1.2.4", 80, false],
    ["10.1.2.3:8080", "10.1.2.3", 8080, true],
    ["10.1.2.3:8080", "10.1.2.3", 80, false],
    ["10.0.0.0/8", "10.200.3.4", 80, true],
    ["10.0.0.0/8", "11.0.0.1", 80, false],
    ["192.168.1.0/25", "192.168.1.127", 80, true],
    ["192.168.1.0/25", "192.168.1.128", 80, false],
    ["0.0.0.0/0", "8.8.8.8", 80, true],
    ["10.0.0.0/33", "10.0.0.1", 80, false],
    ["fe80::1", "[fe80::1]", 80, true],
    ["fe80::1", "fe80:0:0:0:0:0:0:1", 80, true],
    ["[fe80::1]", "[fe80::1]", 80, true],
    ["[::1]:8080", "[::1]", 8080, true],
    ["[::1]:8080", "[::1]", 80, false],
    ["fd00::/8", "[fd12:3456::1]", 443, true],
    ["fd00::/8", "[fe80::1]", 443, false],
    ["[fd00::]/8", "[fd12::1]", 443, true],
    ["2001:db8::/32", "[2001:db8:ffff::1]", 443, true],
    ["2001:db8::/32", "[2001:db9::1]", 443, false],
    ["10.0.0.0/8", "[::ffff:10.0.0.1]", 443, false], // IPv4 ranges match IPv4 addresses only
    ["0.1", "10.0.0.1", 80, false], // a name entry never suffix-matches an address
    ["example.com", "10.0.0.1", 80, false],
    ["10.0.0.0/8", "ten.example.com", 80, false], // no DNS
    ["example.com:notaport", "example.com", 80, false],
  ])("NO_PROXY=%j host %s:%d → %p", (noProxy, host, port, direct) => {
    expect(matchesNoProxy(host, port, noProxy)).toBe(direct);
  });
});

describe("parseIp", () => {
  test.each<[string, number[] | null]>([
    ["1.2.3.4", [1, 2, 3, 4]],
    ["255.255.255.255", [255, 255, 255, 255]],
    ["256.1.1.1", null],
    ["1.2.3", null],
    ["1.2.3.4.5", null],
    ["1.2.3.-4", null],
    ["a.b.c.d", null],
    ["::", Array(16).fill(0)],
    ["::1", [...Array(15).fill(0), 1]],
    ["1::", [0, 1, ...Array(14).fill(0)]],
    ["2001:db8::ff00:42:8329", [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0xff, 0x00, 0, 0x42, 0x83, 0x29]],
    ["1:2:3:4:5:6:7:8", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]],
    ["::ffff:1.2.3.4", [...Array(10).fill(0), 0xff, 0xff, 1, 2, 3, 4]],
    ["1:2:3:4:5:6:7:8:9", null],
    ["1:2:3:4:5:6:7", null],
    ["1::2::3", null],
    ["1:2:3:4:5:6:7::8", null],
    ["12345::", null],
    ["g::1", null],
    [":1::", null],
    ["1.2.3.4::", null],
    ["example.com", null],
    ["", null],
  ])("%s", (text, bytes) => {
    const ip = parseIp(text);
    expect(ip ? [...ip] : null).toEqual(bytes);
  });
});

describe("credentials", () => {
  test.each([
    ["http://alice:s3cret@proxy:8080", { kind: "http", url: "http://proxy:8080", authorization: `Basic ${btoa("alice:s3cret")}` }],
    ["alice:s3cret@proxy:8080", { kind: "http", url: "http://proxy:8080", authorization: `Basic ${btoa("alice:s3cret")}` }],
    ["http://al%40ce:p%3Ass%2Fw@proxy:8080", { kind: "http", url: "http://proxy:8080", authorization: `Basic ${btoa("al@ce:p:ss/w")}` }],
    ["http://token@proxy:8080", { kind: "http", url: "http://proxy:8080", authorization: `Basic ${btoa("token:")}` }],
    ["socks5h://alice:p%40ss@proxy", { kind: "socks5", host: "proxy", port: 1080, remoteDns: true, username: "alice", password: "p@ss" }],
  ])("%s", (value, expected) => {
    const route = parseProxyUrl(value, "HTTPS_PROXY");
    expect(route).toEqual({ ...expected, shown: redactProxyUrl(value), source: "HTTPS_PROXY" } as never);
    expect(route.shown).toContain("***@");
    if (route.kind === "http") expect(route.url).not.toContain("@");
  });

  test("non-ASCII credentials are UTF-8 in the Basic header", () => {
    const route = parseProxyUrl("http://j%C3%BCrgen:%E2%82%AC@proxy:1", "--proxy");
    expect(route.kind === "http" && Buffer.from(route.authorization!.slice(6), "base64").toString("utf8")).toBe("jürgen:€");
  });

  test("SOCKS5 credentials longer than RFC 1929 allows are refused", () => {
    expect(() => parseProxyUrl(`socks5://${"u".repeat(256)}:p@proxy`, "ALL_PROXY")).toThrow(/^ALL_PROXY: SOCKS5 username and password .* at most 255 bytes/);
  });
});

describe("proxyAddress: where hey connects to reach the proxy", () => {
  test.each([
    ["http://proxy", { host: "proxy", port: 80 }],
    ["https://alice:pw@proxy", { host: "proxy", port: 443 }],
    ["proxy:3128", { host: "proxy", port: 3128 }],
    ["http://[::1]:8080", { host: "::1", port: 8080 }],
    ["socks5h://proxy", { host: "proxy", port: 1080 }],
  ])("%s", (url, address) => {
    expect(proxyAddress(parseProxyUrl(url, "--proxy"))).toEqual(address);
  });
});

describe("redactProxyUrl", () => {
  test.each([
    ["http://alice:s3cret@proxy:8080", "http://***@proxy:8080"],
    ["socks5h://alice:s3cret@proxy", "socks5h://***@proxy"],
    ["alice:s3cret@proxy:8080", "***@proxy:8080"],
    ["http://token@proxy", "http://***@proxy"],
    ["http://alice:pa@ss/w#rd@proxy:1", "http://***@proxy:1"],
    ["http://proxy:8080", "http://proxy:8080"],
    ["proxy:8080", "proxy:8080"],
  ])("%s → %s", (url, shown) => {
    expect(redactProxyUrl(url)).toBe(shown);
  });
});

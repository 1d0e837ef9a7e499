// speaksAs against what users run: real tinyproxy and microsocks, a TLS server, a closed port and
// one that accepts and never answers — whichever protocol the proxy URL's scheme made it ask first.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { speaksAs, type ProxyProtocol } from "../../src/net/proxy-probe.ts";
import { freePort, startMicrosocks, startTinyproxy, type RealProxy } from "../helpers/real-proxies.ts";
import { describeNeeding, missingTools } from "../helpers/tools.ts";

/** short, so the silent probes (tinyproxy waits for a line end that TLS and SOCKS5 never send) end quickly */
const WAIT_MS = 1_000;
const ASKED: ProxyProtocol[] = ["http", "socks5", "tls"];

const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
});

describeNeeding(["tinyproxy", "microsocks"], "real proxies", () => {
  const proxies: Record<"tinyproxy" | "microsocks" | "microsocksWithLogin", RealProxy> = {} as never;
  beforeAll(async () => {
    if (missingTools(["tinyproxy", "microsocks"])) return;
    [proxies.tinyproxy, proxies.microsocks, proxies.microsocksWithLogin] = await Promise.all([
      startTinyproxy(),
      startMicrosocks(),
      startMicrosocks({ credentials: { user: "u", password: "p" } }),
    ]);
    for (const p of Object.values(proxies)) closers.push(p.close);
  });

  test.each(ASKED)("tinyproxy answers as an HTTP proxy, asked %s first", async (first) => {
    expect(await speaksAs("127.0.0.1", proxies.tinyproxy.port, first, WAIT_MS)).toBe("http");
  });

  test.each(ASKED)("microsocks answers as SOCKS5, asked %s first (with and without a login)", async (first) => {
    expect(await speaksAs("127.0.0.1", proxies.microsocks.port, first, WAIT_MS)).toBe("socks5");
    expect(await speaksAs("127.0.0.1", proxies.microsocksWithLogin.port, first, WAIT_MS)).toBe("socks5");
  });
});

describe("other ports", () => {
  test.each(ASKED)("a TLS server answers as TLS, asked %s first", async (first) => {
    const dir = join(import.meta.dir, "..", "fixtures", "tls");
    const tls = { cert: readFileSync(join(dir, "model.test.crt"), "utf8"), key: readFileSync(join(dir, "model.test.key"), "utf8") };
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", tls, fetch: () => new Response("hi") });
    try {
      expect(await speaksAs("127.0.0.1", server.port!, first, WAIT_MS)).toBe("tls");
    } finally {
      server.stop(true);
    }
  });

  test("a closed port, and one that never answers, are nothing known", async () => {
    expect(await speaksAs("127.0.0.1", freePort(), "http", WAIT_MS)).toBeUndefined();
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      expect(await speaksAs("127.0.0.1", silent.port, "tls", 100)).toBeUndefined();
    } finally {
      silent.stop(true);
    }
  });
});

// The request log's masking, and that a run without it never loads it.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { hideSecrets } from "../../src/config/secrets.ts";
import { maskHeaders, maskTokens, maskUrl, openDebugLog } from "../../src/net/debug-log.ts";
import { proxiedFetch } from "../../src/net/fetch.ts";
import { tempDir } from "../helpers/e2e.ts";
import { startHttpProxy, startSocks5Server } from "../helpers/proxies.ts";

describe("masking", () => {
  test("secret headers are ***, others as sent", () => {
    const headers = {
      Authorization: "Bearer sk-1",
      "x-api-key": "k",
      "x-goog-api-key": "g",
      "Proxy-Authorization": "Basic YQ==",
      Cookie: "c=1",
      "X-Auth-Token": "t",
      "content-type": "application/json",
      "x-team": "core",
    };
    expect(JSON.parse(maskHeaders(headers))).toEqual({
      authorization: "***",
      "x-api-key": "***",
      "x-goog-api-key": "***",
      "proxy-authorization": "***",
      cookie: "***",
      "x-auth-token": "***",
      "content-type": "application/json",
      "x-team": "core",
    });
  });

  test("URL credentials and key-like query values are ***", () => {
    expect(maskUrl("https://gen.example/v1beta/models/m:streamGenerateContent?alt=sse&key=AIza-secret")).toBe(
      "https://gen.example/v1beta/models/m:streamGenerateContent?alt=sse&key=***",
    );
    expect(maskUrl("http://alice:pw@proxy:3128/")).toBe("http://***@proxy:3128/");
  });
});

test("a streamed body passes through whole; only its first 4 KB go to the log", async () => {
  const dir = tempDir();
  try {
    const big = "x".repeat(10_000);
    const base = (async () => new Response(big, { status: 200, statusText: "OK" })) as unknown as typeof fetch;
    const log = openDebugLog(dir.path, (t) => t);
    const res = await log.wrap(base)("https://h.example/v1/x", { method: "POST", body: "{}" });
    expect(await res.text()).toBe(big);
    const text = readFileSync(join(dir.path, readdirSync(dir.path)[0]!), "utf8");
    expect(text).toContain("#1 → POST https://h.example/v1/x");
    expect(text).toContain("body complete, 10000 bytes (first 4096):");
    expect(text).not.toContain("x".repeat(4097));
  } finally {
    dir.remove();
  }
});

test("the proxy is named as the user set it, with where it was set: for SOCKS5 not only hey's loopback bridge; never its password", async () => {
  const dir = tempDir();
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
  const hosts = { "model.test": "127.0.0.1" };
  const socks = await startSocks5Server({ hosts, users: { bob: "sock-pw-9" } });
  const http = await startHttpProxy({ hosts, credentials: { username: "ann", password: "http-pw-9" } });
  try {
    const log = openDebugLog(dir.path, (t) => t);
    const target = `http://model.test:${server.port}/v1/models`;
    await (await proxiedFetch({ env: { ALL_PROXY: `socks5h://bob:sock-pw-9@127.0.0.1:${socks.port}` } }, { base: log.wrap(fetch) })(target)).text();
    await (await proxiedFetch({ cli: `http://ann:http-pw-9@127.0.0.1:${http.port}`, env: {} }, { base: log.wrap(fetch) })(target)).text();
    const lines = readFileSync(join(dir.path, readdirSync(dir.path)[0]!), "utf8")
      .split("\n")
      .filter((l) => l.includes("proxy:"));
    expect(lines[0]).toMatch(
      new RegExp(`^  proxy: socks5h://\\*\\*\\*@127\\.0\\.0\\.1:${socks.port} \\(from ALL_PROXY\\), through hey's SOCKS5 bridge http://127\\.0\\.0\\.1:\\d+$`),
    );
    expect(lines[1]).toBe(`  proxy: http://***@127.0.0.1:${http.port} (from --proxy) with headers {"proxy-authorization":"***"}`);
    expect(lines.join("\n")).not.toMatch(/sock-pw-9|http-pw-9/);
  } finally {
    socks.close();
    http.close();
    server.stop(true);
    dir.remove();
  }
});

test("bodies and errors are logged with the known secrets and credential-shaped values hidden", async () => {
  const dir = tempDir();
  try {
    const KEY = "sk-known-0123456789abcdef";
    const echoed = JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}. Also ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked` } });
    const base = (async () => new Response(echoed, { status: 401, statusText: "Unauthorized" })) as unknown as typeof fetch;
    const log = openDebugLog(
      dir.path,
      hideSecrets(() => [KEY]),
    );
    const res = await log.wrap(base)("https://h.example/v1/chat", { method: "POST", body: JSON.stringify({ note: `my key is ${KEY}` }) });
    await res.text();
    log.output.emit({ type: "error", kind: "auth", message: `401: ${KEY} rejected` });
    const text = readFileSync(join(dir.path, readdirSync(dir.path)[0]!), "utf8");
    expect(text).toContain("Incorrect API key provided: [redacted]");
    expect(text).toContain("[secret: github-token] leaked");
    expect(text).toContain("no retry: auth: 401: [redacted] rejected");
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("ghp_0123456789");
  } finally {
    dir.remove();
  }
});

test("zero cost when off: only type imports of debug-log.ts, and one dynamic import each in run.ts, the doctor and hey mcp", () => {
  const src = join(import.meta.dir, "..", "..", "src");
  const files = readdirSync(src, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".ts"));
  for (const f of files) {
    const code = readFileSync(join(f.parentPath, f.name), "utf8");
    for (const m of code.matchAll(/^import (type )?[^;]*from "[^"]*debug-log\.ts";$/gm)) expect(`${f.name}: ${m[0]}`).toContain("import type");
  }
  const dynamic = files
    .filter((f) => /import\("[^"]*debug-log\.ts"\)/.test(readFileSync(join(f.parentPath, f.name), "utf8")))
    .map((f) => relative(src, join(f.parentPath, f.name)));
  expect(dynamic.sort()).toEqual(["doctor/command.ts", "mcp-command.ts", "run.ts"]);
});

test.each([
  [
    '{"access_token":"at-1","token_type":"Bearer","refresh_token": "rt-1","expires_in":3600}',
    '{"access_token":"***","token_type":"Bearer","refresh_token": "***","expires_in":3600}',
  ],
  ['{"client_id":"c","client_secret":"s3cr\\"et"}', '{"client_id":"c","client_secret":"***"}'],
  ["grant_type=authorization_code&code=abc&code_verifier=v&redirect_uri=x", "grant_type=authorization_code&code=***&code_verifier=***&redirect_uri=x"],
  ["grant_type=refresh_token&refresh_token=rt-9", "grant_type=refresh_token&refresh_token=***"],
  // an error code in JSON stays readable
  ['{"error":{"code":"invalid_api_key","message":"no"}}', '{"error":{"code":"invalid_api_key","message":"no"}}'],
])("OAuth credentials in a logged body are masked: %s", (body, want) => {
  expect(maskTokens(body)).toBe(want);
});

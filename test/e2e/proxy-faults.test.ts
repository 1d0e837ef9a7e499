// dist/hey when the proxy (not the endpoint) is at fault, or the URL is: a proxy silent on CONNECT,
// a plain-http proxy's own 403 or 5xx page, an https:// proxy with a bad certificate, a base_url
// without /v1, a 301 to https, and `hey upgrade` going by hey's proxy settings. Each message must
// name what is wrong — the proxy where it is the proxy's — and never send the user after the key
// or the model.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey } from "../helpers/e2e.ts";
import { fileTempDir } from "../helpers/fixtures.ts";
import { startHttpProxy, startSilentServer, startSocks5Server, startTlsFront, type TestProxy, type HttpProxyRequest } from "../helpers/proxies.ts";
import { PROXIED_HOST, startTinyproxy, type RealProxy } from "../helpers/real-proxies.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { startReplayServer } from "../helpers/replay-server.ts";
import { makeTestCa, type TestCa } from "../helpers/test-ca.ts";
import { missingTools, testNeeding } from "../helpers/tools.ts";

const withTinyproxy = testNeeding(["tinyproxy"]);
const withTinyproxyTls = testNeeding(["tinyproxy", "openssl"]);
/** the doctor tries the silent proxy's port as each protocol, then waits for its CONNECT reply */
const DOCTOR_MS = 55_000;

const work = fileTempDir();
let silent: { port: number; close(): void };
let filtering: RealProxy | undefined;
let ca: TestCa | undefined;
let expiredFront: { port: number; close(): void } | undefined;
let plain: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  await ensureBinary();
  silent = await startSilentServer();
  // a model-like server that is at the wrong path, or moved: Ollama's router 404 off /v1, and a 301 to https
  plain = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname.startsWith("/moved/"))
        return new Response(null, { status: 301, headers: { location: `http://127.0.0.1:${plain.port}/new${url.pathname.slice(6)}` } });
      if (url.pathname === "/new/v1/chat/completions" && req.method === "GET") return new Response("no route GET /new/v1/chat/completions", { status: 404 });
      return new Response("404 page not found", { status: 404, headers: { "content-type": "text/plain" } });
    },
  });
  if (missingTools(["tinyproxy"])) return;
  filtering = await startTinyproxy({ filtered: "^0\\.0\\.0\\.0$" });
  if (missingTools(["openssl"])) return;
  ca = makeTestCa();
  // an https:// proxy whose TLS front has an expired certificate: tinyproxy behind a TLS terminator
  expiredFront = await startTlsFront(ca.expired, filtering.port);
});
afterAll(() => {
  silent?.close();
  plain?.stop(true);
  expiredFront?.close();
  filtering?.close();
  ca?.remove();
});

const errorOf = (stdout: string) => jsonEvents(stdout).find((e) => e.type === "error") as { message: string } | undefined;
const run = (args: string[], env: Record<string, string> = {}, timeoutMs = 20_000) =>
  runHey([...args, "--protocol", "openai", "--api-key", "k-1", "-m", "m"], { cwd: work.path, env, timeoutMs });

test("a run through a proxy that never answers CONNECT names the proxy, not a stuck model", async () => {
  const config = join(work.path, "idle.toml");
  writeFileSync(config, "[retry]\nidle_timeout_ms = 500\n");
  const proxy = `http://127.0.0.1:${silent.port}`;
  const r = await run(["--config", config, "--base-url", "https://model.invalid:4431/v1", "-p", "hi", "--output", "json"], { HTTPS_PROXY: proxy });
  expect(r.code).toBe(1);
  expect(errorOf(r.stdout)?.message).toStartWith(`the proxy ${proxy} (from HTTPS_PROXY) did not answer CONNECT model.invalid:4431 in `);
  expect(r.stdout).not.toContain("looks stuck");
  expect(jsonEvents(r.stdout).filter((e) => e.type === "retry")).toEqual([]);
});

test("a silent server behind a plain-http proxy: the message names the proxy too (either may be the silent one)", async () => {
  const config = join(work.path, "idle.toml");
  writeFileSync(config, "[retry]\nidle_timeout_ms = 500\n");
  const proxy = await startHttpProxy({ hosts: { "model.test": `127.0.0.1:${silent.port}` } });
  try {
    const endpoint = `http://model.test:${silent.port}/v1`;
    const r = await run(["--config", config, "--base-url", endpoint, "-p", "hi", "--output", "json"], { HTTP_PROXY: proxy.url });
    expect(r.code).toBe(1);
    expect(errorOf(r.stdout)?.message).toStartWith(`no answer from ${endpoint} (through the proxy ${proxy.url} (from HTTP_PROXY)) in 0.5 s, not a byte`);
  } finally {
    proxy.close();
  }
});

test(
  "hey doctor through a proxy that never answers CONNECT ends, naming the proxy",
  async () => {
    const proxy = `http://127.0.0.1:${silent.port}`;
    const r = await run(["doctor", "--base-url", "https://model.invalid:4431/v1"], { HTTPS_PROXY: proxy }, DOCTOR_MS);
    expect(r.code).toBe(1);
    const tls = r.stdout.split("\n").find((l) => l.startsWith("✗ TLS "));
    expect(tls).toContain(`the proxy ${proxy} (from HTTPS_PROXY) did not answer CONNECT model.invalid:4431 in 15 s`);
    expect(tls).toEndWith("→ fix the proxy setting it names");
  },
  DOCTOR_MS + 5_000,
);

withTinyproxy("a plain-http proxy's Filter 403 is the proxy's refusal, with NO_PROXY — not a missing API key", async () => {
  const endpoint = `http://${PROXIED_HOST}:${plain.port}/v1`;
  const r = await run(["--base-url", endpoint, "-p", "hi", "--output", "json"], { HTTP_PROXY: filtering!.url });
  expect(r.code).toBe(1);
  expect(errorOf(r.stdout)?.message).toBe(
    `the proxy ${filtering!.url} (from HTTP_PROXY) refused to connect to ${PROXIED_HOST}:${plain.port} (403 Filtered) — its rules do not allow this host or port: ask its administrator, or list hosts that are reachable directly in NO_PROXY`,
  );
  expect(r.stdout + r.stderr).not.toContain("api_key");
  const doctor = await run(["doctor", "--base-url", endpoint], { HTTP_PROXY: filtering!.url });
  expect(doctor.stdout).not.toContain("check the provider's api_key");
  expect(doctor.stdout).toContain("(403 Filtered)");
});

withTinyproxyTls("an https:// proxy with an expired certificate is named, not the endpoint; hey doctor has a TLS line for it", async () => {
  const port = expiredFront!.port;
  const proxy = `https://127.0.0.1:${port}`;
  const env = { HTTPS_PROXY: proxy, NODE_EXTRA_CA_CERTS: ca!.caFile };
  const r = await run(["--base-url", "https://model.invalid:4431/v1", "-p", "hi", "--output", "json"], env);
  expect(r.code).toBe(1);
  const said = `the TLS certificate of the proxy ${proxy} (from HTTPS_PROXY) is expired (CERT_HAS_EXPIRED); the model endpoint was not reached`;
  expect(errorOf(r.stdout)?.message).toStartWith(said);
  expect(r.stdout).not.toContain("of model.invalid");
  const doctor = await run(["doctor", "--base-url", "https://model.invalid:4431/v1"], env);
  expect(doctor.stdout.split("\n").find((l) => l.startsWith("✗ TLS "))).toContain(said);
});

withTinyproxyTls("through an https:// proxy whose certificate is good, the endpoint's expired one is still the endpoint's", async () => {
  const open = await startTinyproxy();
  const front = await startTlsFront(ca!.valid, open.port);
  const model = startReplayServer(undefined, { tls: ca!.expired });
  try {
    const proxy = `https://127.0.0.1:${front.port}`;
    const endpoint = `https://${PROXIED_HOST}:${new URL(model.url).port}/v1`;
    const r = await run(["--base-url", endpoint, "-p", "hi", "--output", "json"], { HTTPS_PROXY: proxy, NODE_EXTRA_CA_CERTS: ca!.caFile });
    expect(r.code).toBe(1);
    expect(errorOf(r.stdout)?.message).toStartWith(`the TLS certificate of ${PROXIED_HOST} is expired`);
    expect(errorOf(r.stdout)?.message).toContain(`through the proxy ${proxy} (from HTTPS_PROXY)`);
  } finally {
    model.stop();
    front.close();
    open.close();
  }
});

withTinyproxyTls(
  "hey doctor takes a TLS handshake that a slow hop delays past 5 s (a run does) and goes on",
  async () => {
    const model = startReplayServer(undefined, { tls: ca!.valid });
    // the first connection that sends bytes (the doctor's TLS check: its TCP check sends none) gets
    // its answer 6.5 s late, as through a slow VPN hop
    let delayed = false;
    const forwarder = createServer((client) => {
      const upstream = connect({ host: "127.0.0.1", port: Number(new URL(model.url).port) });
      client.once("data", (hello: Buffer) => {
        client.pause();
        const delay = delayed ? 0 : 6_500;
        delayed = true;
        setTimeout(() => {
          upstream.write(hello);
          client.pipe(upstream).pipe(client);
        }, delay);
      });
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, "127.0.0.1", resolve));
    try {
      const port = (forwarder.address() as { port: number }).port;
      const r = await run(["doctor", "--base-url", `https://127.0.0.1:${port}/v1`], { NODE_EXTRA_CA_CERTS: ca!.caFile }, DOCTOR_MS);
      const tls = r.stdout.split("\n").find((l) => / TLS /.test(l));
      expect(tls).not.toStartWith("✗");
      expect(tls).toContain("issued by hey test CA");
      expect(r.stdout).toContain("streamed answer"); // the model checks ran
    } finally {
      forwarder.close();
      model.stop();
    }
  },
  DOCTOR_MS + 5_000,
);

withTinyproxyTls("a certificate error while a new [network] ca_file waits for approval says it is there but not used yet", async () => {
  const model = startReplayServer(undefined, { tls: ca!.valid });
  try {
    const xdg = join(work.path, "pending-ca");
    const env = { XDG_CONFIG_HOME: join(xdg, "config"), XDG_STATE_HOME: join(xdg, "state") };
    const config = join(xdg, "config", "hey", "config.toml");
    Bun.spawnSync(["mkdir", "-p", join(xdg, "config", "hey")]);
    writeFileSync(config, "[agent]\nmax_turns = 5\n");
    const endpoint = ["--base-url", `${model.url}/v1`, "-p", "hi"];
    // the first run that gets an answer records the file as approved
    model.enqueue(textReply("openai", "ok"));
    expect(await run(endpoint, { ...env, NODE_EXTRA_CA_CERTS: ca!.caFile })).toMatchObject({ code: 0 });
    writeFileSync(config, `[agent]\nmax_turns = 5\n[network]\nca_file = "${ca!.caFile}"\n`);
    const r = await run(endpoint, env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `— [network] ca_file = "${ca!.caFile}" in ${config} is set but not approved yet, so it is not used: start \`hey\` at a terminal and answer yes to use it`,
    );
  } finally {
    model.stop();
  }
});

test("a base_url without /v1 (a router's 404) is told to add /v1, not to pull the model", async () => {
  const r = await run(["--base-url", `http://127.0.0.1:${plain.port}`, "-p", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`base_url probably lacks /v1 — set it to http://127.0.0.1:${plain.port}/v1`);
  expect(r.stderr).not.toContain("has no model");
});

test("Ollama's native /api root as base_url (its router's 404) is told /v1 in its place, not /api/v1", async () => {
  const r = await run(["--base-url", `http://127.0.0.1:${plain.port}/api`, "-p", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`/api is Ollama's own API, its OpenAI-compatible one is at /v1 — set base_url to http://127.0.0.1:${plain.port}/v1`);
  expect(r.stderr).not.toContain("/api/v1");
});

test("a 301 that turns the POST into a GET says where the server moved, not that the model is missing", async () => {
  const r = await run(["--base-url", `http://127.0.0.1:${plain.port}/moved/v1`, "-p", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    `the server redirected POST http://127.0.0.1:${plain.port}/moved/v1/chat/completions to http://127.0.0.1:${plain.port}/new/v1/chat/completions, where it answered 404 — set base_url to http://127.0.0.1:${plain.port}/new/v1`,
  );
  expect(r.stderr).not.toContain("has no model");
});

test("hey upgrade downloads through HEY_PROXY and the user config's [proxy] url, as a run does", async () => {
  const proxy: TestProxy<HttpProxyRequest> = await startHttpProxy({ hosts: { "release.test": `127.0.0.1:${plain.port}` } });
  try {
    const xdg = join(work.path, "xdg");
    const release = `http://release.test:${plain.port}/rel`;
    for (const env of [{ HEY_PROXY: proxy.url }, { XDG_CONFIG_HOME: xdg }]) {
      Bun.spawnSync(["mkdir", "-p", join(xdg, "hey")]);
      writeFileSync(join(xdg, "hey", "config.toml"), `[proxy]\nurl = "${proxy.url}"\n`);
      const r = await runHey(["upgrade", "--check"], { cwd: work.path, env: { HEY_RELEASE_URL: release, HEY_INSECURE: "1", ...env } });
      expect(r.stderr).toContain(`could not download ${release}/SHA256SUMS: HTTP 404`);
      expect(r.stderr).not.toContain("ENOTFOUND");
    }
    expect(proxy.log.map((l) => l.target)).toEqual([`${release}/SHA256SUMS`, `${release}/SHA256SUMS`]);
    // a user config that cannot be read is named, and the environment's proxy still applies
    writeFileSync(join(xdg, "hey", "config.toml"), "[proxy\n");
    const broken = await runHey(["upgrade", "--check"], {
      cwd: work.path,
      env: { HEY_RELEASE_URL: release, HEY_INSECURE: "1", XDG_CONFIG_HOME: xdg, HTTP_PROXY: proxy.url },
    });
    expect(broken.stderr).toContain(`hey upgrade: warning: ${join(xdg, "hey", "config.toml")}:`);
    expect(broken.stderr).toContain(
      "its [proxy] url and [network] ca_file are not used; the download goes by HEY_PROXY, the proxy variables and SSL_CERT_FILE",
    );
    expect(broken.stderr).toContain(`could not download ${release}/SHA256SUMS: HTTP 404`);
  } finally {
    proxy.close();
  }
});

test("hey upgrade goes through ALL_PROXY=socks5h://, as a run does", async () => {
  const socks = await startSocks5Server({ hosts: { "release.test": "127.0.0.1" } });
  try {
    const release = `http://release.test:${plain.port}/rel`;
    const r = await runHey(["upgrade", "--check"], {
      cwd: work.path,
      env: { HEY_RELEASE_URL: release, HEY_INSECURE: "1", ALL_PROXY: `socks5h://127.0.0.1:${socks.port}` },
    });
    expect(r.stderr).toContain(`could not download ${release}/SHA256SUMS: HTTP 404`);
    expect(socks.log).toEqual([{ atyp: 3, host: "release.test", port: plain.port! }]);
  } finally {
    socks.close();
  }
});

withTinyproxyTls("hey upgrade trusts the user config's [network] ca_file, as a run does", async () => {
  const release = startReplayServer(undefined, { tls: ca!.valid });
  try {
    const xdg = join(work.path, "xdg-ca");
    Bun.spawnSync(["mkdir", "-p", join(xdg, "hey")]);
    writeFileSync(join(xdg, "hey", "config.toml"), `[network]\nca_file = "${ca!.caFile}"\n`);
    const r = await runHey(["upgrade", "--check"], { cwd: work.path, env: { HEY_RELEASE_URL: `${release.url}/rel`, XDG_CONFIG_HOME: xdg } });
    expect(r.stderr).not.toContain("certificate");
    expect(r.stderr).toContain(`could not download ${release.url}/rel/SHA256SUMS: HTTP 405`); // it answered: the certificate was trusted
  } finally {
    release.stop();
  }
});

// dist/hey given a proxy URL whose scheme is wrong for the port — http:// for microsocks, https://
// or socks5:// for tinyproxy — the mistakes a new user makes. Each must stop the run at once (no
// retries; the one that used to hang, within the probe's wait) naming the proxy, masked, where it
// was set and the URL to write, never the model URL. A real HTTPS proxy (tinyproxy behind TLS) still works.
import { afterAll, beforeAll, expect } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey, type HeyRun } from "../helpers/e2e.ts";
import { fileTempDir } from "../helpers/fixtures.ts";
import { startTlsFront } from "../helpers/proxies.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { PROXIED_HOST, startMicrosocks, startTinyproxy, type RealProxy } from "../helpers/real-proxies.ts";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { makeTestCa, type TestCa } from "../helpers/test-ca.ts";
import { missingTools, testNeeding } from "../helpers/tools.ts";

const withMicrosocks = testNeeding(["openssl", "microsocks"]);
const withTinyproxy = testNeeding(["openssl", "tinyproxy"]);
/** a reset answered at once; the silent TLS handshake with tinyproxy costs the probe's 5 s wait */
const FAST_MS = 2_000;
const PROBE_BOUND_MS = 9_000;
/** bun's 5 s default is less than a probe's wait */
const TEST_TIMEOUT_MS = 30_000;

const work = fileTempDir();
let ca: TestCa;
let model: ReplayServer;
let tinyproxy: RealProxy | undefined;
let microsocks: RealProxy | undefined;
let httpsProxy: { port: number; close(): void } | undefined;

beforeAll(async () => {
  await ensureBinary(); // a rebuild must not count against a run's time
  if (missingTools(["openssl"])) return;
  ca = makeTestCa();
  model = startReplayServer(undefined, { tls: ca.valid });
  if (!missingTools(["microsocks"])) microsocks = await startMicrosocks({ credentials: { user: "alice", password: "s3cret-pw" } });
  if (missingTools(["tinyproxy"])) return;
  tinyproxy = await startTinyproxy();
  // an HTTPS proxy as users have them (squid's https_port): TLS to the proxy, then HTTP — here tinyproxy behind a TLS terminator
  httpsProxy = await startTlsFront(ca.valid, tinyproxy.port);
});
afterAll(() => {
  httpsProxy?.close();
  tinyproxy?.close();
  microsocks?.close();
  model?.stop();
  ca?.remove();
});

/** the endpoint as the proxies reach it (0.0.0.0: not loopback to hey, so it is proxied) */
const endpoint = () => baseUrlFor("openai", `https://${PROXIED_HOST}:${new URL(model.url).port}`);

async function hey(extra: string[], env: Record<string, string> = {}): Promise<HeyRun & { ms: number }> {
  const started = performance.now();
  const run = await runHey(["--base-url", endpoint(), "--protocol", "openai", "--api-key", "k-1", "-m", "m", "-p", "hi", "--output", "json", ...extra], {
    cwd: work.path,
    env: { NODE_EXTRA_CA_CERTS: ca.caFile, ...env },
  });
  return { ...run, ms: performance.now() - started };
}

/** exit 1, the message as the error event, no retry, nothing about the model URL, within `ms` */
function expectStopped(run: HeyRun & { ms: number }, message: string, ms: number): void {
  expect(run.code).toBe(1);
  const events = jsonEvents(run.stdout);
  expect(events.find((e) => e.type === "error")).toMatchObject({ kind: "network", message });
  expect(events.filter((e) => e.type === "retry")).toEqual([]);
  expect(run.stdout + run.stderr).not.toContain(endpoint());
  expect(run.ms).toBeLessThan(ms);
}

withMicrosocks("http:// for a SOCKS5 port (HTTPS_PROXY): the proxy is named, with the socks5h:// URL to write, password masked", async () => {
  const before = model.requests.length;
  const run = await hey([], { HTTPS_PROXY: microsocks!.urlWith("alice", "s3cret-pw").replace("socks5:", "http:") });
  const shown = `***@127.0.0.1:${microsocks!.port}`;
  expectStopped(
    run,
    `the proxy http://${shown} (from HTTPS_PROXY) did not answer as an HTTP proxy: it answers as a SOCKS5 proxy — use socks5h://${shown} (or socks5://) in HTTPS_PROXY`,
    FAST_MS,
  );
  expect(run.stdout + run.stderr).not.toContain("s3cret-pw");
  expect(model.requests.length).toBe(before);
});

withMicrosocks("https:// for a SOCKS5 port ([proxy] url)", async () => {
  const config = join(work.path, "socks-as-https.toml");
  writeFileSync(config, `[proxy]\nurl = "https://127.0.0.1:${microsocks!.port}"\n`);
  const run = await hey(["--config", config]);
  expectStopped(
    run,
    `the proxy https://127.0.0.1:${microsocks!.port} (from [proxy] url in ${config}:2) did not answer as an HTTPS proxy (TLS to the proxy itself): it answers as a SOCKS5 proxy — use socks5h://127.0.0.1:${microsocks!.port} (or socks5://) in [proxy] url in ${config}:2`,
    FAST_MS,
  );
});

// tinyproxy waits for the end of a request line that a TLS ClientHello or a SOCKS5 greeting never sends: these hung
withTinyproxy(
  "https:// for a plain HTTP proxy (--proxy): stopped after the probe's wait instead of hanging",
  async () => {
    const run = await hey(["--proxy", `https://127.0.0.1:${tinyproxy!.port}`]);
    expectStopped(
      run,
      `the proxy https://127.0.0.1:${tinyproxy!.port} (from --proxy) did not answer as an HTTPS proxy (TLS to the proxy itself): it answers as a plain HTTP proxy — use http://127.0.0.1:${tinyproxy!.port} in --proxy (the scheme says how to talk to the proxy, not to the endpoint)`,
      PROBE_BOUND_MS,
    );
  },
  TEST_TIMEOUT_MS,
);

withTinyproxy(
  "socks5:// for a plain HTTP proxy (ALL_PROXY)",
  async () => {
    const run = await hey([], { ALL_PROXY: `socks5://127.0.0.1:${tinyproxy!.port}` });
    expectStopped(
      run,
      `the proxy socks5://127.0.0.1:${tinyproxy!.port} (from ALL_PROXY) did not answer as a SOCKS5 proxy: it answers as a plain HTTP proxy — use http://127.0.0.1:${tinyproxy!.port} in ALL_PROXY`,
      PROBE_BOUND_MS,
    );
  },
  TEST_TIMEOUT_MS,
);

withTinyproxy(
  "a real https:// proxy still answers, and so does the right http:// one",
  async () => {
    const port = httpsProxy!.port;
    for (const proxy of [`https://127.0.0.1:${port}`, tinyproxy!.url]) {
      model.enqueue(textReply("openai", "hello through the proxy"));
      const run = await hey(["--output", "text", "--proxy", proxy]);
      expect(run).toMatchObject({ code: 0, stdout: "hello through the proxy\n", stderr: "" });
    }
  },
  TEST_TIMEOUT_MS,
);

withMicrosocks("hey doctor says the same on its TCP line, with the proxy setting as the fix", async () => {
  const run = await runHey(
    ["doctor", "--base-url", endpoint(), "--protocol", "openai", "--api-key", "k-1", "-m", "m", "--proxy", `http://127.0.0.1:${microsocks!.port}`],
    {
      cwd: work.path,
      env: { NODE_EXTRA_CA_CERTS: ca.caFile },
    },
  );
  expect(run.code).toBe(1);
  const tcp = run.stdout.split("\n").find((l) => l.startsWith("✗ TCP "));
  expect(tcp).toBe(
    `✗ TCP                 the proxy http://127.0.0.1:${microsocks!.port} (from --proxy) did not answer as an HTTP proxy: it answers as a SOCKS5 proxy — use socks5h://127.0.0.1:${microsocks!.port} (or socks5://) in --proxy → fix the proxy setting it names`,
  );
});

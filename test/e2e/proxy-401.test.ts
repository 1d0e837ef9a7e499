// dist/hey through a real tinyproxy with BasicAuth to a plain-http model endpoint, which the proxy
// forwards instead of tunnelling: tinyproxy refuses wrong credentials there with 401, not 407, and
// that 401 must read as the proxy's — while the endpoint's own 401s, forwarded by the same proxy,
// stay the API key's.
import { afterAll, beforeAll, expect } from "bun:test";
import { ensureBinary, jsonEvents, runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { PROXIED_HOST, startTinyproxy, type RealProxy } from "../helpers/real-proxies.ts";
import { jsonReply, type Reply } from "../helpers/replay-server.ts";
import { missingTools, testNeeding } from "../helpers/tools.ts";

const withTinyproxy = testNeeding(["tinyproxy"]);
const server = fileReplayServer();
const work = fileTempDir();
/** the endpoint as tinyproxy reaches it (0.0.0.0: not loopback to hey, so the request is proxied) */
const baseUrl = `http://${PROXIED_HOST}:${new URL(server.url).port}/v1`;
let proxy: RealProxy | undefined;

beforeAll(async () => {
  await ensureBinary();
  if (!missingTools(["tinyproxy"])) proxy = await startTinyproxy({ credentials: { user: "alice", password: "s3cret-pw" } });
});
afterAll(() => proxy?.close());

const hey = (proxyUrl: string, extra: string[] = []) =>
  runHey(["--base-url", baseUrl, "--api-key", "sk-test-1", "-m", "m", "-p", "hi", "--proxy", proxyUrl, ...extra], { cwd: work.path });

withTinyproxy("wrong proxy credentials: the proxy is named, masked, not the API key; no retry, nothing reaches the endpoint", async () => {
  const before = server.requests.length;
  const run = await hey(proxy!.urlWith("alice", "wrong-pw"), ["--output", "json"]);
  expect(run.code).toBe(1);
  const error = jsonEvents(run.stdout).find((e) => e.type === "error");
  expect(error).toMatchObject({
    kind: "auth",
    message: `the proxy http://***@127.0.0.1:${proxy!.port} (from --proxy) rejected the credentials in its URL (401 Unauthorized) — check the user and password in --proxy`,
  });
  expect(run.stdout).not.toContain('"retry"');
  expect(run.stdout + run.stderr).not.toContain("wrong-pw");
  expect(server.requests.length).toBe(before);
});

withTinyproxy("hey doctor says the same", async () => {
  const run = await runHey(
    ["doctor", "--base-url", baseUrl, "--protocol", "openai", "--api-key", "sk-test-1", "-m", "m", "--proxy", proxy!.urlWith("alice", "wrong-pw")],
    {
      cwd: work.path,
    },
  );
  expect(run.code).toBe(1);
  const auth = run.stdout.split("\n").find((l) => l.startsWith("✗ auth "));
  expect(auth).toMatch(
    /^✗ auth +the proxy http:\/\/\*\*\*@127\.0\.0\.1:\d+ \(from --proxy\) rejected the credentials in its URL \(401 Unauthorized\) .*→ fix the proxy setting it names$/,
  );
  expect(run.stdout).not.toContain("--api-key");
  expect(run.stdout + run.stderr).not.toContain("wrong-pw");
});

// what endpoints send: a JSON error (every vendor and OpenAI-compatible server), or a web server's Basic login in front of one
const ENDPOINT_401S: [string, Reply, string][] = [
  [
    "a JSON error",
    jsonReply(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }),
    "error: authentication failed (401): Incorrect API key provided — check --api-key\n",
  ],
  [
    "nginx's Basic login page",
    {
      status: 401,
      headers: { server: "nginx", "content-type": "text/html", "www-authenticate": 'Basic realm="Restricted"' },
      chunks: [
        new TextEncoder().encode(
          "<html><head><title>401 Authorization Required</title></head><body><center><h1>401 Authorization Required</h1></center></body></html>",
        ),
      ],
    },
    "error: authentication failed (401): an HTML page: 401 Authorization Required — check --api-key\n",
  ],
];

for (const [name, reply, expected] of ENDPOINT_401S)
  withTinyproxy(`the endpoint's own 401 through the same proxy stays the API key's: ${name}`, async () => {
    server.enqueue(reply);
    const run = await hey(proxy!.urlWith("alice", "s3cret-pw"));
    expect(run).toMatchObject({ code: 1, stderr: expected });
  });

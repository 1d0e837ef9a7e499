// dist/hey behind real proxies (Debian's tinyproxy and microsocks, on loopback): a redirect is
// routed by its own URL, not the first hop's; socks5:// with a name this machine cannot resolve
// fails at once; the --verbose log names the proxy the user set, not hey's SOCKS bridge.
import { afterAll, beforeAll, expect } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { PROXIED_HOST, startMicrosocks, startTinyproxy, type RealProxy } from "../helpers/real-proxies.ts";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { missingTools, testNeeding } from "../helpers/tools.ts";

/** A name no resolver finds: its first label is over DNS's 63 bytes, refused here without asking a server (the test needs no network). */
const NO_SUCH_HOST = `${"x".repeat(64)}.corp.example`;
const withTinyproxy = testNeeding(["tinyproxy"]);
const withMicrosocks = testNeeding(["microsocks"]);

let work: ReturnType<typeof tempDir>;
let model: ReplayServer;
let redirector: ReturnType<typeof Bun.serve>;
let tinyproxy: RealProxy | undefined;
let microsocks: RealProxy | undefined;

beforeAll(async () => {
  work = tempDir();
  model = startReplayServer();
  const modelPort = new URL(model.url).port;
  // a gateway that answers every request with a 307 to the model, named so that it is proxied
  redirector = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => new Response(null, { status: 307, headers: { location: `http://${PROXIED_HOST}:${modelPort}${new URL(req.url).pathname}` } }),
  });
  if (!missingTools(["tinyproxy"])) tinyproxy = await startTinyproxy();
  if (!missingTools(["microsocks"])) microsocks = await startMicrosocks({ credentials: { user: "bob", password: "sock-pw#9" } });
});
afterAll(() => {
  tinyproxy?.close();
  microsocks?.close();
  redirector?.stop(true);
  model?.stop();
  work?.remove();
});

const hey = (baseUrl: string, env: Record<string, string>, extra: string[] = []) =>
  runHey(["--base-url", baseUrl, "--api-key", "k-1", "-m", "m", "-p", "hi", ...extra], { cwd: work.path, env });

withTinyproxy("a 307 from a host NO_PROXY sends direct, to one that goes through HTTP_PROXY: the model request arrives through the proxy", async () => {
  model.enqueue(textReply("openai", "hello after the redirect"));
  const before = model.requests.length;
  const gateway = `${PROXIED_HOST}:${redirector.port}`;
  const run = await hey(`http://${gateway}/v1`, { HTTP_PROXY: tinyproxy!.url, NO_PROXY: gateway });
  expect(run).toMatchObject({ code: 0, stdout: "hello after the redirect\n" });
  const arrived = model.requests.slice(before);
  expect(arrived.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/chat/completions"]);
  expect(arrived[0]!.headers.via).toContain("tinyproxy"); // tinyproxy adds Via to what it forwards
});

withMicrosocks("socks5:// with a host this machine cannot resolve fails at once, not retried, naming socks5h:// as the fix", async () => {
  const proxy = microsocks!.urlWith("bob", "sock-pw#9");
  const run = await hey(`http://${NO_SUCH_HOST}:8080/v1`, { ALL_PROXY: proxy }, ["--output", "json"]);
  expect(run.code).toBe(1);
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "retry")).toEqual([]);
  expect(String(events.find((e) => e.type === "error")?.message)).toContain(
    `the host ${NO_SUCH_HOST} does not resolve on this machine (no such host), so hey does not retry: socks5:// has this machine resolve names before asking the proxy socks5://***@127.0.0.1:${microsocks!.port} (from ALL_PROXY) — if only the proxy's side knows ${NO_SUCH_HOST}, use socks5h://***@127.0.0.1:${microsocks!.port} in ALL_PROXY`,
  );
  expect(run.stdout + run.stderr).not.toContain("sock-pw");
});

withMicrosocks("--verbose names the SOCKS5 proxy the user set and where, password masked; hey's loopback bridge only as the detail", async () => {
  model.enqueue(textReply("openai", "hello through socks"));
  const state = join(work.path, "state");
  const proxy = microsocks!.urlWith("bob", "sock-pw#9").replace("socks5:", "socks5h:");
  const run = await hey(`http://${PROXIED_HOST}:${new URL(model.url).port}/v1`, { ALL_PROXY: proxy, XDG_STATE_HOME: state }, ["--verbose"]);
  expect(run).toMatchObject({ code: 0, stdout: "hello through socks\n" });
  const dir = join(state, "hey", "logs");
  const text = readFileSync(join(dir, readdirSync(dir)[0]!), "utf8");
  expect(text).toMatch(
    new RegExp(
      `\\n  proxy: socks5h://\\*\\*\\*@127\\.0\\.0\\.1:${microsocks!.port} \\(from ALL_PROXY\\), through hey's SOCKS5 bridge http://127\\.0\\.0\\.1:\\d+\\n`,
    ),
  );
  expect(text).not.toContain("sock-pw");
});

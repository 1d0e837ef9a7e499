// dist/hey behind proxies (SPEC §16): the model endpoint is http://model.test:PORT, a name only the
// loopback proxies resolve, so an answer proves the request went through the proxy.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { startHttpProxy, startSocks5Server } from "../helpers/proxies.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";

const server = fileReplayServer();
const port = Number(new URL(server.url).port);
const work = fileTempDir();
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const answer = () => sseReply(sse([chatChunk({ content: "via proxy" }), chatChunk({ finish: "stop" })]));
const viaModelTest = () => ["--base-url", `http://model.test:${port}/v1`, "-m", "m", "-p", "hi"];
const hosts = { "model.test": "127.0.0.1" };

async function httpProxy(credentials?: { username: string; password: string }) {
  const p = await startHttpProxy({ hosts, ...(credentials ? { credentials } : {}) });
  closers.push(p.close);
  return p;
}
async function socksProxy() {
  const p = await startSocks5Server({ hosts });
  closers.push(p.close);
  return p;
}

describe("through an HTTP proxy", () => {
  test.each([
    ["HTTP_PROXY", (url: string) => ({ env: { HTTP_PROXY: url }, args: [] as string[] })],
    ["http_proxy", (url: string) => ({ env: { http_proxy: url }, args: [] as string[] })],
    ["ALL_PROXY", (url: string) => ({ env: { ALL_PROXY: url }, args: [] as string[] })],
    ["--proxy", (url: string) => ({ env: {}, args: ["--proxy", url] })],
    ["--proxy host:port without a scheme", (url: string) => ({ env: {}, args: ["--proxy", url.replace("http://", "")] })],
    ["HEY_PROXY", (url: string) => ({ env: { HEY_PROXY: url }, args: [] as string[] })],
  ])("%s", async (_name, how) => {
    const proxy = await httpProxy();
    server.enqueue(answer());
    const { env, args } = how(proxy.url);
    const run = await runHey([...viaModelTest(), ...args], { cwd: work.path, env });
    expect(run).toMatchObject({ code: 0, stdout: "via proxy\n" });
    expect(proxy.log.map((r) => `${r.method} ${r.target}`)).toEqual([`POST http://model.test:${port}/v1/chat/completions`]);
  });

  test("[proxy] url in the config file, with credentials that are sent but never printed", async () => {
    const proxy = await httpProxy({ username: "alice", password: "s3cret-pw" });
    const cfg = join(work.path, "proxy.toml");
    writeFileSync(cfg, `[proxy]\nurl = "http://alice:s3cret-pw@127.0.0.1:${proxy.port}"\n`);
    server.enqueue(answer());
    const run = await runHey([...viaModelTest(), "--config", cfg, "--output", "json"], { cwd: work.path });
    expect(run.code).toBe(0);
    expect(proxy.log[0]!.proxyAuthorization).toBe(`Basic ${btoa("alice:s3cret-pw")}`);
    expect(run.stdout + run.stderr).not.toContain("s3cret-pw");
  });

  test("[proxy] url whose password changed since it was approved: a -p run sends nothing, neither directly nor through HTTP_PROXY, and says how to approve; doctor says so (x68)", async () => {
    // 0.0.0.0 is reached directly too (it is no loopback name): a request that went around the proxy would get an answer
    const proxy = await startHttpProxy({ hosts: { "0.0.0.0": "127.0.0.1" }, credentials: { username: "alice", password: "s3cret-pw" } });
    closers.push(proxy.close);
    const other = await httpProxy();
    const home = join(work.path, "rotated");
    const config = join(home, ".config", "hey", "config.toml");
    mkdirSync(join(config, ".."), { recursive: true });
    const withPassword = (pw: string) => writeFileSync(config, `[proxy]\nurl = "http://alice:${pw}@127.0.0.1:${proxy.port}"\n`);
    const endpoint = ["--base-url", `http://0.0.0.0:${port}/v1`, "-m", "m"];
    withPassword("s3cret-pw");
    server.enqueue(answer());
    expect(await runHey([...endpoint, "-p", "hi"], { cwd: work.path, env: { HOME: home } })).toMatchObject({ code: 0, stdout: "via proxy\n" });
    const sent = server.requests.length;

    withPassword("n3w-pw-2027"); // the user's password rotated
    const env = { HOME: home, HTTP_PROXY: other.url, HEY_MAX_RETRIES: "0" };
    const run = await runHey([...endpoint, "-p", "hi"], { cwd: work.path, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `not used: ~ [proxy] url = "http://***@127.0.0.1:${proxy.port}" (was "http://***@127.0.0.1:${proxy.port}", with another password)`,
    );
    expect(run.stderr).toContain(
      `error: [proxy] url = "http://***@127.0.0.1:${proxy.port}" in ${config}:2 is not approved yet, so no request to 0.0.0.0:${port} goes out, neither directly nor through another proxy`,
    );
    expect(run.stderr).toContain("say yes to it at the interactive prompt");
    expect(server.requests.length).toBe(sent);
    expect(proxy.log).toHaveLength(1);
    expect(other.log).toEqual([]);
    // the doctor names the change as the run does, and the proxy as set but not approved: no "no proxy is set"
    const doctor = await runHey(["doctor", ...endpoint], { cwd: work.path, env });
    expect(doctor.code).toBe(1);
    expect(doctor.stderr).toContain("hey doctor: not used: ~ [proxy] url");
    expect(doctor.stdout.split("\n").find((l) => l.startsWith("✗ proxy "))).toContain(
      `[proxy] url = "http://***@127.0.0.1:${proxy.port}" in ${config}:2 is not approved yet`,
    );
    expect(doctor.stdout + doctor.stderr).not.toContain("n3w-pw-2027");
    expect(server.requests.length).toBe(sent);
    expect(other.log).toEqual([]);
  });

  test("a proxy that refuses the credentials: clear error, password not shown", async () => {
    const proxy = await httpProxy({ username: "alice", password: "right" });
    const run = await runHey([...viaModelTest(), "--proxy", `http://alice:wrong-pw@127.0.0.1:${proxy.port}`, "--output", "json"], {
      cwd: work.path,
      env: { HEY_MAX_RETRIES: "0" },
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain("wrong-pw");
  });
});

describe("through a SOCKS5 proxy", () => {
  test.each([
    ["ALL_PROXY=socks5h://", (url: string) => ({ env: { ALL_PROXY: url.replace("socks5://", "socks5h://") }, args: [] as string[] })],
    ["--proxy socks5h://", (url: string) => ({ env: {}, args: ["--proxy", url.replace("socks5://", "socks5h://")] })],
  ])("%s sends the host name to the proxy", async (_name, how) => {
    const socks = await socksProxy();
    server.enqueue(answer());
    const { env, args } = how(socks.url);
    const run = await runHey([...viaModelTest(), ...args], { cwd: work.path, env });
    expect(run).toMatchObject({ code: 0, stdout: "via proxy\n" });
    expect(socks.log).toEqual([{ atyp: 3, host: "model.test", port }]);
  });
});

describe("direct connections", () => {
  test("NO_PROXY matches go straight to the server (which cannot resolve model.test)", async () => {
    const proxy = await httpProxy();
    const run = await runHey([...viaModelTest(), "--output", "json"], {
      cwd: work.path,
      env: { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,*.TEST", HEY_MAX_RETRIES: "0" },
    });
    expect(run.code).toBe(1);
    expect(proxy.log).toEqual([]);
    expect(jsonEvents(run.stdout).find((e) => e.type === "error")).toMatchObject({ kind: "network" });
  });

  test("loopback is always direct, whatever the proxy settings", async () => {
    const proxy = await httpProxy();
    server.enqueue(answer());
    const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi"], {
      cwd: work.path,
      env: { HTTP_PROXY: proxy.url, ALL_PROXY: proxy.url },
    });
    expect(run).toMatchObject({ code: 0, stdout: "via proxy\n" });
    expect(proxy.log).toEqual([]);
  });
});

// Several places can set a proxy: the error must say which one to fix, and reach no server
describe("a proxy value hey cannot use: exit 2, naming where it was set", () => {
  const remote = ["--base-url", "https://api.example.test/v1", "--api-key", "k-1", "-m", "m"];
  test.each([
    ["--proxy", ["--proxy", "ftp://u:pw-1@proxy.test:21"], {}, '--proxy: unsupported proxy scheme "ftp" in "ftp://***@proxy.test:21"'],
    [
      "https_proxy as the user spelled it",
      [],
      { https_proxy: "ftp://proxy.test:21", HTTPS_PROXY: "http://ok.test:1" },
      'https_proxy: unsupported proxy scheme "ftp"',
    ],
    ["HTTPS_PROXY", [], { HTTPS_PROXY: "socks4://proxy.test" }, 'HTTPS_PROXY: unsupported proxy scheme "socks4"'],
    ["ALL_PROXY", [], { ALL_PROXY: "http://[bad" }, 'ALL_PROXY: invalid proxy URL "http://[bad"'],
    ["--proxy, with a loopback model URL too", ["--proxy", "ftp://proxy.test", "--base-url", `${server.url}/v1`], {}, "--proxy: unsupported proxy scheme"],
  ])("%s", async (_name, args, env, start) => {
    const run = await runHey([...remote, ...args, "-p", "hi"], { cwd: work.path, env });
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toStartWith(`hey: ${start}`);
    expect(run.stderr).not.toContain("pw-1");
    const doctor = await runHey(["doctor", "--protocol", "openai", ...remote, ...args], { cwd: work.path, env });
    expect(doctor.code).toBe(1);
    const proxyLine = doctor.stdout.split("\n").find((l) => l.startsWith("✗ proxy "));
    expect(proxyLine?.replace(/^✗ proxy +/, "")).toStartWith(start);
  });

  test("[proxy] url: the file and line", async () => {
    const cfg = join(work.path, "bad-proxy.toml");
    writeFileSync(cfg, '# corporate\n[proxy]\nurl = "ftp://proxy.test:21"\n');
    const run = await runHey([...remote, "--config", cfg, "-p", "hi"], { cwd: work.path });
    expect(run).toMatchObject({
      code: 2,
      stderr: `hey: ${cfg}:3: [proxy] url: unsupported proxy scheme "ftp" in "ftp://proxy.test:21"; use http://, https://, socks5:// or socks5h://\n`,
    });
  });
});

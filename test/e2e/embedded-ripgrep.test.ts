// grep in the compiled binary (SPEC §7, §24): with no rg on PATH the ripgrep embedded in dist/hey
// is written once to the cache dir and searches; rg on PATH or `[tools] rg` take precedence.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, setDefaultTimeout } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey, tempDir } from "../helpers/e2e.ts";
import { sseReply, startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { resultText } from "../helpers/model-server.ts";

// each test runs dist/hey or a shell several times: seconds on a loaded 2-core machine
setDefaultTimeout(30_000);

let server: ReplayServer;
let work: ReturnType<typeof tempDir>;
beforeAll(async () => {
  server = startReplayServer();
  await ensureBinary();
}, 120_000);
afterAll(() => server.stop());
beforeEach(() => {
  work = tempDir("hey-e2e-rg-");
  for (const dir of ["repo/src", "cache", "empty-path", "rg-path"]) Bun.spawnSync(["mkdir", "-p", join(work.path, dir)]);
  writeFileSync(join(work.path, "repo", "src", "a.ts"), "const x = 1;\n// needle here\n");
  writeFileSync(join(work.path, "repo", "b.txt"), "no match\nneedle again\n");
});
afterEach(() => work.remove());

const rgPath = (await import("@vscode/ripgrep")).rgPath as string; // what build.ts embedded in dist/hey
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** One grep call, then an answer; returns what the model was shown for the call. */
async function grepThroughHey(env: Record<string, string>, args: string[] = []): Promise<string> {
  const start = server.requests.length;
  const call = JSON.stringify({ pattern: "needle" });
  server.enqueue(
    sseReply(sse([chatChunk({ toolCall: { index: 0, id: "call_1", name: "grep", arguments: call } }), chatChunk({ finish: "tool_calls" })])),
    sseReply(sse([chatChunk({ content: "found" }), chatChunk({ finish: "stop" })])),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "find needle", ...args], { cwd: join(work.path, "repo"), env });
  expect(run).toMatchObject({ code: 0, stdout: "found\n" });
  type Chat = { messages: { role: string; content: string }[] };
  return resultText((server.requests[start + 1]!.body as Chat).messages.find((m) => m.role === "tool"));
}

const RESULT = "b.txt:2: needle again\nsrc/a.ts:2: // needle here";

/** An `rg` that records each run in `log`, then runs the real one. */
function loggingRg(path: string, log: string): string {
  writeFileSync(path, `#!/bin/sh\necho ran >> '${log}'\nexec '${rgPath}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

test("with no rg on PATH, the embedded ripgrep is extracted once (content-addressed, 0700 in a 0700 folder, verified) and searches", async () => {
  const cache = join(work.path, "cache");
  const env = { PATH: join(work.path, "empty-path"), XDG_CACHE_HOME: cache };
  expect(await grepThroughHey(env)).toBe(RESULT);

  const embedded = new Uint8Array(readFileSync(rgPath));
  const name = `rg-${sha256(embedded).slice(0, 16)}`;
  expect(readdirSync(join(cache, "hey"))).toEqual([name]);
  const extracted = join(cache, "hey", name);
  expect(statSync(extracted).mode & 0o777).toBe(0o700);
  expect(statSync(join(cache, "hey")).mode & 0o777).toBe(0o700);
  expect(sha256(readFileSync(extracted))).toBe(sha256(embedded));
  expect(Bun.spawnSync([extracted, "--version"]).stdout.toString()).toStartWith("ripgrep ");

  const inode = statSync(extracted).ino;
  expect(await grepThroughHey(env)).toBe(RESULT); // the second run reuses it
  expect(statSync(extracted).ino).toBe(inode);
});

test("rg on PATH is preferred: nothing is extracted", async () => {
  const log = join(work.path, "rg.log");
  loggingRg(join(work.path, "rg-path", "rg"), log);
  const cache = join(work.path, "cache");
  expect(await grepThroughHey({ PATH: `${join(work.path, "rg-path")}`, XDG_CACHE_HOME: cache })).toBe(RESULT);
  expect(readFileSync(log, "utf8")).toMatch(/^(ran\n)+$/); // grep runs it more than once: counts, then lines
  expect(existsSync(join(cache, "hey"))).toBe(false);
});

test("[tools] rg overrides both", async () => {
  const log = join(work.path, "rg.log");
  loggingRg(join(work.path, "rg-path", "rg"), join(work.path, "path-rg.log"));
  const config = join(work.path, "config.toml");
  writeFileSync(config, `[tools]\nrg = "${loggingRg(join(work.path, "my-rg"), log)}"\n`);
  const cache = join(work.path, "cache");
  expect(await grepThroughHey({ PATH: join(work.path, "rg-path"), XDG_CACHE_HOME: cache }, ["--config", config])).toBe(RESULT);
  expect(readFileSync(log, "utf8")).toMatch(/^(ran\n)+$/); // grep runs it more than once: counts, then lines
  expect(existsSync(join(work.path, "path-rg.log"))).toBe(false);
  expect(existsSync(join(cache, "hey"))).toBe(false);
});

test("[tools] rg naming a program that cannot be run is said once, with its line, and grep uses the ripgrep it would without it", async () => {
  const log = join(work.path, "rg.log");
  loggingRg(join(work.path, "rg-path", "rg"), log);
  const config = join(work.path, "config.toml");
  writeFileSync(config, `[tools]\nrg = "/nonexistent/rg"\n`);
  const cache = join(work.path, "cache");
  const env = { PATH: join(work.path, "rg-path"), XDG_CACHE_HOME: cache };
  server.enqueue(
    sseReply(sse([chatChunk({ toolCall: { index: 0, id: "call_1", name: "grep", arguments: '{"pattern":"needle"}' } }), chatChunk({ finish: "tool_calls" })])),
    sseReply(sse([chatChunk({ content: "found" }), chatChunk({ finish: "stop" })])),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "find needle", "--config", config], { cwd: join(work.path, "repo"), env });
  expect(run.code).toBe(0);
  const said = `hey: ${config}:2: [tools] rg "/nonexistent/rg" cannot be run (not found); grep uses rg on PATH (${join(work.path, "rg-path", "rg")}) instead`;
  expect(run.stderr.split("\n").filter((l) => l.includes("[tools] rg"))).toEqual([said]);
  expect(readFileSync(log, "utf8")).toMatch(/^(ran\n)+$/); // ripgrep searched, not the walk (more than once: counts, then lines)
});

test("hey doctor says an unrunnable [tools] rg once, as its `! grep:` line with where it is set", async () => {
  loggingRg(join(work.path, "rg-path", "rg"), join(work.path, "rg.log"));
  const config = join(work.path, "config.toml");
  writeFileSync(config, `[tools]\nrg = "/nonexistent/rg"\n`);
  const env = { PATH: join(work.path, "rg-path"), XDG_CACHE_HOME: join(work.path, "cache") };
  // port 1 on loopback refuses: the probes fail fast, and the report is printed all the same
  const run = await runHey(["doctor", "--base-url", "http://127.0.0.1:1/v1", "-m", "m", "--config", config], { cwd: join(work.path, "repo"), env });
  const said = `${config}:2: [tools] rg "/nonexistent/rg" cannot be run (not found); grep uses rg on PATH (${join(work.path, "rg-path", "rg")}) instead`;
  expect(`${run.stdout}\n${run.stderr}`.split("\n").filter((l) => l.includes("[tools] rg"))).toEqual([`! grep: ${said}`]);
});

// --verbose / HEY_LOG=debug (dist/hey): each request and response, retries included, in a file in
// the state directory whose path is said once; keys and proxy passwords never in it; nothing at all
// without the flag.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { startHttpProxy } from "../helpers/proxies.ts";
import { jsonReply } from "../helpers/replay-server.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";

const server = fileReplayServer();
const work = fileTempDir();

function logOf(state: string): { path: string; text: string } {
  const dir = join(state, "hey", "logs");
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  const path = join(dir, files[0]!);
  return { path, text: readFileSync(path, "utf8") };
}

test("--verbose: request, proxy, status, timings, retry and bodies; key and proxy password masked; path said once", async () => {
  const port = new URL(server.url).port;
  const proxy = await startHttpProxy({ hosts: { "model.test": "127.0.0.1" }, credentials: { username: "alice", password: "proxy-pw-9" } });
  try {
    const state = join(work.path, "state-1");
    server.enqueue(jsonReply(503, { error: { message: "overloaded, try again" } }), textReply("openai", "logged hello"));
    const config = join(work.path, "fast-retry.toml");
    await Bun.write(config, "[retry]\nbase_delay_ms = 10\njitter = false\n");
    const run = await runHey(
      [
        "--base-url",
        `http://model.test:${port}/v1`,
        "-m",
        "m",
        "--api-key",
        "sk-secret-123",
        "--proxy",
        `http://alice:proxy-pw-9@127.0.0.1:${proxy.port}`,
        "--config",
        config,
        "--verbose",
        "-p",
        "hi",
      ],
      { cwd: work.path, env: { XDG_STATE_HOME: state } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("logged hello\n");
    const { path, text } = logOf(state);
    expect(run.stderr.split("\n").filter((l) => l.includes("debug log"))).toEqual([`hey: debug log: ${path}`]);
    expect(text).toContain(`#1 → POST http://model.test:${port}/v1/chat/completions`);
    expect(text).toContain(`proxy: http://***@127.0.0.1:${proxy.port} (from --proxy) with headers {"proxy-authorization":"***"}`);
    expect(text).toMatch(/"authorization":"\*\*\*"/);
    expect(text).toMatch(/#1 ← 503 Service Unavailable in \d+ ms/);
    expect(text).toContain('"overloaded, try again"');
    expect(text).toMatch(/retry 1 in 500 ms after: the provider is failing \(503\)/);
    expect(text).toMatch(/#2 ← 200 OK in \d+ ms/);
    // The SDK may cancel the body once it has read `data: [DONE]`, before the end of the stream is
    // seen (1 run in 9 here): the log then says so, with the same bytes.
    expect(text).toMatch(/#2 ← body (complete|cancelled by the reader), \d+ bytes:\n  data: .*"logged hello"[^]*data: \[DONE\]/);
    expect(text).toMatch(/body, \d+ bytes \(first 4096 characters\):\n  \{"model":"m","messages":\[/); // hey's first request is over 4 KB
    expect(text).not.toContain("sk-secret-123");
    expect(text).not.toContain("proxy-pw-9");
    expect(text).not.toContain(btoa("alice:proxy-pw-9"));
  } finally {
    proxy.close();
  }
});

test("HEY_LOG=debug does the same; a failed run logs its error", async () => {
  const state = join(work.path, "state-2");
  server.enqueue(jsonReply(400, { error: { message: "bad model name" } }));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi", "--output", "json"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state, HEY_LOG: "debug" },
  });
  expect(run.code).toBe(1);
  expect(jsonEvents(run.stdout).find((e) => e.type === "error")).toBeDefined();
  const { text } = logOf(state);
  expect(text).toContain("proxy: none (direct)");
  expect(text).toContain("no retry: bad_request: request rejected (400): bad model name");
});

test("a run that makes no request (hey --verbose -p /usage) still has the file it announces: a first line names the run", async () => {
  const state = join(work.path, "state-none");
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--verbose", "-p", "/usage"], { cwd: work.path, env: { XDG_STATE_HOME: state } });
  expect(run.code).toBe(0);
  const { path, text } = logOf(state); // before: announced, never created (nor its directory)
  expect(run.stderr.split("\n").filter((l) => l.includes("debug log"))).toEqual([`hey: debug log: ${path}`]);
  expect(text).toMatch(/^\S+ hey debug log, pid \d+: the run's HTTP requests and retry decisions follow\n$/);
});

test("off by default: no log directory, no mention", async () => {
  const state = join(work.path, "state-3");
  server.enqueue(textReply("openai", "quiet"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi"], { cwd: work.path, env: { XDG_STATE_HOME: state } });
  expect(run).toMatchObject({ code: 0, stdout: "quiet\n", stderr: "" });
  expect(existsSync(join(state, "hey", "logs"))).toBe(false);
});

describe.each(["responses", "anthropic", "google"] as const)("%s with --verbose", (protocol) => {
  test("the streamed answer still arrives whole, and its body is logged", async () => {
    const state = join(work.path, `state-${protocol}`);
    server.enqueue(textReply(protocol, "still streaming"));
    const run = await runHey(
      ["--base-url", baseUrlFor(protocol, server.url), "--protocol", protocol, "-m", "some-model", "--api-key", "key-abc-987", "-p", "hi", "--verbose"],
      {
        cwd: work.path,
        env: { XDG_STATE_HOME: state },
      },
    );
    expect(run).toMatchObject({ code: 0, stdout: "still streaming\n" });
    const { text } = logOf(state);
    expect(text).toContain("← body complete");
    expect(text).toContain("still streaming");
    expect(text).not.toContain("key-abc-987");
  });
});

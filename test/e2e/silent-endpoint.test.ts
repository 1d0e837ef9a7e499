// A server that accepts the request and then sends nothing — no headers, no byte — is given up on
// after two idle timeouts in a row, the error naming the endpoint, the wait and the key; one that
// sends keep-alives and no event of the answer is given up on after two such tries as well (each
// held 5 idle timeouts at most), whatever max_retries says; one that sent an event of the answer
// before it stalled keeps all of max_retries. Through the compiled binary, with a small
// [retry] idle_timeout_ms.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";

const work = fileTempDir("hey-silent-");
const config = join(work.path, "silent.toml");
writeFileSync(config, "[retry]\nidle_timeout_ms = 400\nmax_retries = 5\nbase_delay_ms = 100\njitter = false\n");

/** Accepts connections and reads what comes, never writing a byte back. */
let connections = 0;
const mute = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data() {} } });
afterAll(() => mute.stop(true));

test("accepted, then silence: stopped after the second silent try, naming the endpoint, the wait and [retry] idle_timeout_ms", async () => {
  const url = `http://127.0.0.1:${mute.port}/v1`;
  const run = await runHey(["--base-url", url, "-m", "m", "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(connections).toBe(2);
  const local = ": a local server may still be loading the model (a large one takes minutes the first time) or reading a long prompt";
  expect(run.stderr).toBe(
    `retrying in 500 ms (1/5): no answer from ${url} in 0.4 s, not a byte${local}\n` +
      `error: no answer from ${url} in 0.4 s, not a byte${local} — nothing came on 2 tries in a row, so hey stopped: the server looks stuck (a model that loads, reads a long prompt or thinks in silence for longer needs a larger [retry] idle_timeout_ms)\n`,
  );
});

test("the zero-config Ollama that took the request and said nothing is running: loading is named, and no first-run help to start it", async () => {
  const run = await runHey(["--config", config, "-p", "hi"], { cwd: work.path, env: { OLLAMA_HOST: `127.0.0.1:${mute.port}` } });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("took the request and sent nothing back: it is running, most likely still loading qwen3 (`ollama ps` shows what it has loaded)");
  expect(run.stderr).not.toContain("ollama serve");
  expect(run.stderr).not.toContain("ollama pull");
});

test("hey doctor says it as a run does: no answer from the endpoint in [retry] idle_timeout_ms, and asks no other role into the silence", async () => {
  const url = `http://127.0.0.1:${mute.port}/v1`;
  const before = connections;
  const run = await runHey(["doctor", "--base-url", url, "-m", "m", "--config", config], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(connections - before).toBe(3); // the TCP check, the model list and one answer: not the developer role too
  expect(run.stdout).toMatch(
    new RegExp(
      `✗ streamed answer +no answer from ${url.replace(/[.:/]/g, "\\$&")} in 0\\.4 s, not a byte: a local server may still be loading the model \\(a large one takes minutes the first time\\) or reading a long prompt → the server took the request and answered nothing: check that it is working \\(a run gives up after 2 such tries; \\[retry\\] idle_timeout_ms sets the wait\\)`,
    ),
  );
  expect(run.stdout).toContain(`– model listed        no model list: no answer to GET ${url}/models in 0.4 s\n`);
  expect(run.stdout).not.toContain("system role");
});

const server = fileReplayServer();

/** How a run that got keep-alives and no event of the answer twice in a row ends. */
const KEPT_ALIVE =
  "no event of the answer came on 2 tries in a row (keep-alives at most), so hey stopped: the endpoint looks stuck (a model that thinks in silence for longer needs a larger [retry] idle_timeout_ms)";

/** OpenRouter's keep-alive every 100 ms for longer than any test runs: only hey's bound ends it. */
const forever = () =>
  sseReply(
    Array.from({ length: 1000 }, () => ": OPENROUTER PROCESSING\n\n"),
    { delayMs: 100, hang: true },
  );

test("a keep-alive, then silence: no event of the answer came, so two such tries end the run whatever max_retries says", async () => {
  const url = `${server.url}/v1`;
  const before = server.requests.length;
  server.enqueue(...Array.from({ length: 2 }, () => sseReply([": keep-alive\n\n"], { hang: true })));
  const run = await runHey(["--base-url", url, "-m", "m", "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(server.requests.length - before).toBe(2);
  expect(run.stderr).toBe("retrying in 500 ms (1/5): no data from the model for 0.4 s\n" + `error: ${url}: no data from the model for 0.4 s — ${KEPT_ALIVE}\n`);
});

test("keep-alives and nothing else (OpenRouter's while its upstream hangs): two tries of 5 idle timeouts, not max_retries + 1, then a -p run exits 1 naming the endpoint and the key", async () => {
  const url = `${server.url}/v1`;
  const before = server.requests.length;
  server.enqueue(forever(), forever());
  const run = await runHey(["--base-url", url, "-m", "m", "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(server.requests.length - before).toBe(2);
  const said = `${url} sent only keep-alives for 2 s and no event of the answer (keep-alives hold a try 5 × [retry] idle_timeout_ms at most)`;
  expect(run.stderr).toBe(`retrying in 500 ms (1/5): ${said}\nerror: ${said} — ${KEPT_ALIVE}\n`);
});

/** The event that opens an answer and holds none of it, then the protocol's keep-alive every 100 ms for longer than any test runs. */
const MESSAGE_START = {
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } },
};
const RESPONSE = { id: "resp_1", object: "response", status: "in_progress", output: [], usage: null };
test.each([
  ["anthropic", "", [`event: message_start\ndata: ${JSON.stringify(MESSAGE_START)}\n\n`], 'event: ping\ndata: {"type": "ping"}\n\n'],
  [
    "responses",
    "/v1",
    ["response.created", "response.in_progress"].map(
      (type, n) => `event: ${type}\ndata: ${JSON.stringify({ type, response: RESPONSE, sequence_number: n })}\n\n`,
    ),
    ": keep-alive\n\n",
  ],
])(
  "%s: the event that opens an answer, then keep-alives only: no event of the answer, so two tries end the run, not max_retries + 1",
  async (protocol, path, opening, keepAlive) => {
    const url = `${server.url}${path}`;
    const before = server.requests.length;
    const stuck = () => sseReply([...opening, ...Array.from({ length: 1000 }, () => keepAlive)], { delayMs: 100, hang: true });
    server.enqueue(stuck(), stuck());
    const run = await runHey(["--base-url", url, "--protocol", protocol, "--api-key", "k", "-m", "m", "--config", config, "-p", "hi"], { cwd: work.path });
    expect(run.code).toBe(1);
    expect(server.requests.length - before).toBe(2);
    expect(run.stderr).toContain(
      `sent only keep-alives for 2 s and no event of the answer (keep-alives hold a try 5 × [retry] idle_timeout_ms at most) — ${KEPT_ALIVE}\n`,
    );
  },
);

test("one try of keep-alives only, then an answer: the retry answers, and the run succeeds", async () => {
  const before = server.requests.length;
  server.enqueue(forever(), sseReply(sseEvents([chatChunk({ content: "answered at last" }), chatChunk({ finish: "stop" })])));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.stderr).toContain("retrying in 500 ms (1/5): ");
  expect(run.code).toBe(0);
  expect(server.requests.length - before).toBe(2);
  expect(run.stdout).toContain("answered at last");
});

test("keep-alives for longer than the idle timeout, then the answer: a model thinking in silence is not cut", async () => {
  const before = server.requests.length;
  const keepAlives = Array.from({ length: 8 }, () => ": OPENROUTER PROCESSING\n\n"); // 8 × 100 ms: twice idle_timeout_ms
  server.enqueue(sseReply([...keepAlives, ...sseEvents([chatChunk({ content: "thought it over" }), chatChunk({ finish: "stop" })])], { delayMs: 100 }));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(server.requests.length - before).toBe(1);
  expect(run.stdout).toContain("thought it over");
});

test("a few words, then keep-alives only: the answer broke off, its words kept, and the error names the endpoint", async () => {
  const one = join(work.path, "one.toml");
  writeFileSync(one, "[retry]\nidle_timeout_ms = 400\nmax_retries = 1\nbase_delay_ms = 100\njitter = false\n");
  const words = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Starting... " } }] })}\n\n`;
  server.enqueue(sseReply([words, ...Array.from({ length: 1000 }, () => ": keep-alive\n\n")], { delayMs: 100, hang: true }));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--config", one, "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain("Starting...");
  expect(run.stderr).toContain(`error: the response broke off after partial output: ${server.url}/v1 sent only keep-alives for 2 s`);
});

// Issue 13 rows 7 and 15 (not the proxy's 407): a server that goes silent is given up on after
// `[retry] idle_timeout_ms`, each stall counting against the retry budget with its backoff;
// retries keep a floor however short the server's Retry-After; an answer that is not the protocol
// — an HTML page, JSON that is no whole answer, malformed events — fails at once as a protocol error
// instead of five "network" retries; a whole answer where a stream was asked for is used. Through the compiled binary against a local replay server.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { cutAfter, jsonReply, sseReply, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse, sseEvents } from "../helpers/sse.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-protocol-");

const adHoc = () => ["--base-url", `${server.url}/v1`, "-m", "m"];
const answer = (text: string) => sseReply(sse([chatChunk({ content: text }), chatChunk({ finish: "stop" })]));
const raw = (type: string, body: string): Reply => ({ status: 200, headers: { "content-type": type }, chunks: [new TextEncoder().encode(body)] });

test("429 with Retry-After: 0, twice: the retries still wait 0.5 s and 1 s", async () => {
  const limited = () => jsonReply(429, { error: { message: "Rate limit reached", type: "requests" } }, { "retry-after": "0" });
  server.enqueue(limited(), limited(), answer("finally"));
  const t0 = performance.now();
  const run = await runHey([...adHoc(), "-p", "hi"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "finally\n" });
  expect(run.stderr).toMatch(/^retrying in 500 ms \(1\/5\): .*\nretrying in 1 s \(2\/5\): /);
  expect(performance.now() - t0).toBeGreaterThan(1500);
});

test.each([
  [
    "an HTML page (a captive portal)",
    raw("text/html; charset=utf-8", "<html><body><h1>Sign in to the hotel Wi-Fi</h1></body></html>"),
    'answered with text/html instead of a stream of events: "<html><body><h1>Sign in to the hotel Wi-Fi',
  ],
  [
    "JSON that is neither an error nor a whole answer",
    raw("application/json", JSON.stringify({ object: "list", data: [{ id: "m" }] })),
    "answered with application/json instead of a stream of events",
  ],
  ["malformed events", raw("text/event-stream", "data: {this is not json\n\n"), "the model's answer is malformed"],
])("%s: one request, no retry, a protocol error (exit 1)", async (_name, reply, said) => {
  const before = server.requests.length;
  server.enqueue(reply); // a retry would find no reply queued and count as a second request
  const run = await runHey([...adHoc(), "--output", "json", "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(server.requests.length - before).toBe(1);
  const error = jsonEvents(run.stdout).find((e) => e.type === "error")!;
  expect(error.kind).toBe("protocol");
  expect(String(error.message)).toContain(said);
  expect(run.stderr).not.toContain("retrying");
});

// a stream that ended as its server ended it, with nothing in it: the endpoint answered with no
// content — not "the connection closed" and five retries; two retries (an empty answer is often a
// flake), then an empty_answer error naming the endpoint, exit 1
test.each([
  ["a comment, then [DONE]", raw("text/event-stream", ": keep-alive\n\ndata: [DONE]\n\n")],
  ["an empty body", raw("text/event-stream", "")],
  ["a role chunk and [DONE]", sseReply(sse([chatChunk({})]))],
])("%s: 'answered with no content', retried twice, then exit 1", async (_name, reply) => {
  const config = join(work.path, "fast.toml");
  writeFileSync(config, "[retry]\nbase_delay_ms = 100\njitter = false\n");
  const before = server.requests.length;
  server.enqueue(reply, reply, reply);
  const run = await runHey([...adHoc(), "--config", config, "--output", "json", "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(server.requests.length - before).toBe(3);
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "retry").map((e) => [e.error, e.retries])).toEqual([
    [`${server.url}/v1 answered with no content`, 2],
    [`${server.url}/v1 answered with no content`, 2],
  ]);
  expect(events.find((e) => e.type === "error")).toEqual({
    type: "error",
    kind: "empty_answer",
    message: `${server.url}/v1 answered with no content — gave up after 2 retries`,
  });
  expect(run.stderr).not.toContain("the connection closed");
});

test("an empty answer, then a real one: the retry gets it; exit 0", async () => {
  server.enqueue(raw("text/event-stream", "data: [DONE]\n\n"), answer("there"));
  const run = await runHey([...adHoc(), "-p", "hi"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "there\n" });
  expect(run.stderr).toContain("answered with no content");
});

test("headers, then nothing: each try ends after [retry] idle_timeout_ms, and a second silent one in a row ends the retries", async () => {
  const config = join(work.path, "stall.toml");
  writeFileSync(config, "[retry]\nidle_timeout_ms = 400\nmax_retries = 5\nbase_delay_ms = 100\njitter = false\n");
  const silent = () => sseReply([], { hang: true });
  const before = server.requests.length;
  server.enqueue(silent(), silent()); // a third request would find none: the server says so with a 500
  const run = await runHey([...adHoc(), "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(server.requests.length - before).toBe(2);
  const said = `no answer from ${server.url}/v1 in 0.4 s, not a byte: a local server may still be loading the model (a large one takes minutes the first time) or reading a long prompt`;
  expect(run.stderr).toBe(
    `retrying in 500 ms (1/5): ${said}\nerror: ${said} — nothing came on 2 tries in a row, so hey stopped: the server looks stuck (a model that loads, reads a long prompt or thinks in silence for longer needs a larger [retry] idle_timeout_ms)\n`,
  );
});

test("the default idle timeout is 120 s", async () => {
  const { defaultSettingsForTest } = await import("../helpers/settings.ts");
  expect(defaultSettingsForTest().retry.idleTimeoutMs).toBe(120_000);
});

test("a stream that breaks off after part of the answer: not retried, the part kept marked, and hey -c sends it so", async () => {
  const env = { XDG_STATE_HOME: join(work.path, "broken-state") };
  const events = sseEvents([chatChunk({ content: "The bug is in parse" }), chatChunk({ content: "r.ts, line 12." }), chatChunk({ finish: "stop" })]);
  const before = server.requests.length;
  server.enqueue(cutAfter(sseReply(events), Buffer.byteLength(events[0]!)));
  const run = await runHey([...adHoc(), "--output", "json", "-p", "where is the bug?"], { cwd: work.path, env });
  expect(run.code).toBe(1);
  expect(server.requests.length - before).toBe(1); // text was shown: a retry would say it twice
  const out = jsonEvents(run.stdout);
  expect(out.find((e) => e.type === "error")).toMatchObject({ kind: "stream_interrupted" });
  expect(out.find((e) => e.type === "result")).toMatchObject({ text: "The bug is in parse\n\n[interrupted: the response broke off]" });
  // the cut request was billed: counted with hey's estimate, marked so, not as 0 tokens
  const usage = out.filter((e) => e.type === "usage");
  expect(usage).toHaveLength(1);
  expect(usage[0]).toMatchObject({ estimated: true });
  expect((usage[0]!.input_tokens as number) > 0 && (usage[0]!.output_tokens as number) > 0).toBe(true);
  expect(out.at(-1)).toMatchObject({ type: "done", usage: { estimated: true, input_tokens: usage[0]!.input_tokens } });

  server.enqueue(answer("In parser.ts, line 12."));
  const next = await runHey([...adHoc(), "-c", "-p", "go on"], { cwd: work.path, env });
  expect(next).toMatchObject({ code: 0, stdout: "In parser.ts, line 12.\n" });
  const body = server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
  expect(body.messages.slice(-2)).toEqual([
    { role: "assistant", content: "The bug is in parse\n\n[interrupted: the response broke off]" },
    { role: "user", content: "go on" },
  ]);
});

test("a 500 with a gateway's whole HTML page: each retry and the final error are one line naming the page", async () => {
  const page = `<!doctype html>\n<html><head><title>500 Internal Server Error</title></head><body>\n${"<p>nginx</p>\n".repeat(300)}</body></html>\n`;
  const failing = (): Reply => ({ status: 500, headers: { "content-type": "text/html" }, chunks: [new TextEncoder().encode(page)] });
  server.enqueue(failing(), failing());
  const config = join(work.path, "html.toml");
  writeFileSync(config, "[retry]\nmax_retries = 1\nbase_delay_ms = 100\njitter = false\n");
  const run = await runHey([...adHoc(), "--config", config, "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(1);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^retrying in .* \(1\/1\): the provider is failing \(500\): an HTML page: 500 Internal Server Error$/);
  // the give-up line names the endpoint that sent the page (a gateway's, an old OPENAI_BASE_URL's); the retry line stays short
  expect(lines[1]).toBe(`error: ${server.url}/v1: the provider is failing (500): an HTML page: 500 Internal Server Error — gave up after 1 retry`);
});

test.each([
  [
    "openai",
    sseReply(
      sse(
        [
          chatChunk({ content: "All done." }),
          chatChunk({ finish: "stop" }),
          chatChunk({ usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }),
        ],
        { done: false },
      ),
      {
        hang: true,
      },
    ),
  ],
  ["anthropic", { ...textReply("anthropic", "All done."), hang: true }],
] as const)("%s: a complete answer on a connection the server keeps open is the answer (exit 0), not a broken stream", async (protocol, reply) => {
  const config = join(work.path, "open-connection.toml");
  writeFileSync(config, "[retry]\nidle_timeout_ms = 3000\n"); // the old wait, short enough to fail the test
  const env = { XDG_STATE_HOME: join(work.path, `open-${protocol}-state`) };
  server.enqueue(reply);
  const base = ["--base-url", baseUrlFor(protocol, server.url), "--protocol", protocol, "-m", "m", "--config", config];
  const run = await runHey([...base, "-p", "hi"], { cwd: work.path, env });
  expect(run).toMatchObject({ code: 0, stdout: "All done.\n", stderr: "" });

  server.enqueue(protocol === "openai" ? answer("Next.") : textReply(protocol, "Next."));
  expect(await runHey([...base, "-c", "-p", "go on"], { cwd: work.path, env })).toMatchObject({ code: 0, stdout: "Next.\n" });
  expect(JSON.stringify(server.requests.at(-1)!.body)).not.toContain("interrupted"); // kept whole, as answered
});

test("OpenRouter's 200 JSON error body is its upstream's failure: retried, said in the provider's words, then the answer", async () => {
  const failed = () =>
    raw(
      "application/json",
      JSON.stringify({ error: { message: "Provider returned error", code: 502, metadata: { provider_name: "Venice", raw: "upstream exploded" } } }),
    );
  const before = server.requests.length;
  server.enqueue(failed(), answer("Recovered."));
  const run = await runHey([...adHoc(), "-p", "hi"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "Recovered.\n" });
  expect(server.requests.length - before).toBe(2);
  expect(run.stderr).toMatch(/^retrying in .* \(1\/5\): .*Provider returned error \(Venice: upstream exploded\)\n$/);
});

test("a stream of events labelled application/json is read as the stream", async () => {
  server.enqueue(raw("application/json; charset=utf-8", sse([chatChunk({ content: "Streamed anyway." }), chatChunk({ finish: "stop" })])));
  expect(await runHey([...adHoc(), "-p", "hi"], { cwd: work.path })).toMatchObject({ code: 0, stdout: "Streamed anyway.\n", stderr: "" });
});

test("a server that ignores stream: true: its whole answers are used — a tool call runs, then the answer — and it is said once not to stream", async () => {
  const whole = (message: Record<string, unknown>, finish: string) =>
    raw(
      "application/json",
      JSON.stringify({
        id: "x",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
        usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 },
      }),
    );
  writeFileSync(join(work.path, "note.txt"), "the word is plover\n");
  const call = { id: "call_1", type: "function", function: { name: "read", arguments: JSON.stringify({ path: "note.txt" }) } };
  const before = server.requests.length;
  server.enqueue(whole({ content: null, tool_calls: [call] }, "tool_calls"), whole({ content: "The word is plover." }, "stop"));
  const run = await runHey([...adHoc(), "-p", "what is the word?"], { cwd: work.path });
  expect(run.stdout).toEndWith("The word is plover.\n");
  expect(run.code).toBe(0);
  expect(server.requests.length - before).toBe(2);
  expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("the word is plover");
  const notice = `hey: ${server.url}/v1 does not stream (it ignores "stream": true): each answer shows once it is complete\n`;
  expect(run.stderr.startsWith(notice)).toBe(true);
  expect(run.stderr.split(notice)).toHaveLength(2); // once, not for each answer
  expect(run.stderr).toContain("read note.txt");
});

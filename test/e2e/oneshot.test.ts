// The compiled binary, run as a user would: one-shot answers, JSON events, stdin, @files, and
// the errors a new user meets (SPEC §2, §3, §18).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { reasoningTaken } from "../../src/kernel/retried-request.ts";
import { jsonReply, sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply, toolCallsReply } from "../helpers/protocol-streams.ts";
import { startTerm } from "../helpers/tmux.ts";

const server = fileReplayServer();
const work = fileTempDir();

const answer = (text: string, thinking?: string) =>
  sseReply(
    sse([
      ...(thinking ? [chatChunk({ reasoning: thinking })] : []),
      ...text.split(/(?<= )/).map((w) => chatChunk({ content: w })),
      chatChunk({ finish: "stop" }),
      chatChunk({ usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 } }),
    ]),
  );
const adHoc = () => ["--base-url", `${server.url}/v1`, "-m", "some-model"];
const lastBody = () => server.requests[server.requests.length - 1]!.body as { model: string; messages: { role: string; content: string }[] };

describe("answers", () => {
  test("-p streams the answer to stdout and nothing else; thinking goes to stderr", async () => {
    server.enqueue(answer("Hello from the mock.", "pondering"));
    const run = await runHey([...adHoc(), "-p", "hi"], { cwd: work.path });
    expect(run).toMatchObject({ code: 0, stdout: "Hello from the mock.\n" });
    expect(run.stderr).toContain("pondering");
    expect(lastBody().model).toBe("some-model");
    expect(lastBody().messages.at(-1)).toEqual({ role: "user", content: "hi" });
  });

  test("--output json prints one event per line, in order", async () => {
    server.enqueue(answer("Hi there.", "thinking"));
    const run = await runHey([...adHoc(), "-p", "hi", "--output", "json"], { cwd: work.path });
    expect(run.code).toBe(0);
    const events = jsonEvents(run.stdout);
    expect(events.map((e) => e.type)).toEqual(["session", "turn_start", "thinking_delta", "text_delta", "text_delta", "usage", "result", "done"]);
    expect(events[0]).toMatchObject({ type: "session", provider: "cli", model: "some-model", cwd: work.path });
    expect(events.filter((e) => e.type === "text_delta").map((e) => e.text)).toEqual(["Hi ", "there."]);
    expect(events.at(-1)).toEqual({
      type: "done",
      stop_reason: "end",
      turns: 1,
      usage: { input_tokens: 21, output_tokens: 4, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 },
    });
  });

  test("piped stdin is merged into the prompt after the message and implies -p", async () => {
    server.enqueue(answer("Summary."));
    const run = await runHey([...adHoc(), "summarize"], { cwd: work.path, stdin: "line one\nline two\n" });
    expect(run).toMatchObject({ code: 0, stdout: "Summary.\n" });
    expect(lastBody().messages.at(-1)!.content).toBe("summarize\n\n```stdin\nline one\nline two\n```");
  });

  // `hey -p "$(cat todo.md)"` with a markdown list or front matter was refused, exit 2, "unknown flag -  "
  test.each([["- fix the parser\n- add tests"], ["---\ntitle: x\n---\nDo it"]])("a message starting with - that holds a line break runs: %p", async (text) => {
    server.enqueue(answer("On it."));
    const run = await runHey([...adHoc(), "-p", text], { cwd: work.path });
    expect(run).toMatchObject({ code: 0, stdout: "On it.\n", stderr: "" });
    expect(lastBody().messages.at(-1)).toEqual({ role: "user", content: text });
  });

  // as `codex exec -`: the prompt is stdin, not a literal "-" with stdin after it in a block
  test("a message of - alone is read from stdin: hey -p - < task.md", async () => {
    server.enqueue(answer("Done."));
    const run = await runHey([...adHoc(), "-p", "-"], { cwd: work.path, stdin: "- fix the parser\n- add tests\n" });
    expect(run).toMatchObject({ code: 0, stdout: "Done.\n" });
    expect(lastBody().messages.at(-1)).toEqual({ role: "user", content: "- fix the parser\n- add tests" });
    const empty = await runHey([...adHoc(), "-p", "-"], { cwd: work.path, stdin: "" });
    expect(empty).toMatchObject({ code: 2, stderr: 'hey: no message: give it as arguments (hey -p "…") or on stdin\n' });
  });

  // at a terminal there is nothing piped to read: said at once, rather than waiting for Ctrl-D
  test("hey -p - with stdin a terminal exits 2 saying so; nothing is sent", async () => {
    const before = server.requests.length;
    const term = await startTerm({ args: [...adHoc(), "-p", "-"], cwd: work.path, cols: 300 });
    try {
      const screen = await term.waitFor(/\[exit \d+\]/);
      expect(screen).toContain("hey: a message of - is read from stdin, and stdin is a terminal here: pipe the message in (hey -p - < task.md)");
      expect(screen).toContain("[exit 2]");
    } finally {
      await term.close();
    }
    expect(server.requests.length).toBe(before);
  });

  test("@file expands to the file's content in a fenced block", async () => {
    writeFileSync(join(work.path, "notes.txt"), "alpha\nbeta\n");
    server.enqueue(answer("Two lines."));
    const run = await runHey([...adHoc(), "-p", "@notes.txt", "count the lines"], { cwd: work.path });
    expect(run.code).toBe(0);
    expect(lastBody().messages.at(-1)!.content).toBe("@notes.txt count the lines\n\n```notes.txt\nalpha\nbeta\n```");
  });

  test("a .env in the working directory is not loaded (it could redirect the key)", async () => {
    const evil = tempDir();
    try {
      writeFileSync(join(evil.path, ".env"), "HEY_BASE_URL=http://127.0.0.1:1/v1\nHEY_MODEL=evil\n");
      server.enqueue(answer("safe"));
      const run = await runHey([...adHoc(), "-p", "hi"], { cwd: evil.path });
      expect(run).toMatchObject({ code: 0, stdout: "safe\n" });
      expect(lastBody().model).toBe("some-model");
    } finally {
      evil.remove();
    }
  });

  test("a config file selects the provider, with ${VAR} keys and custom headers", async () => {
    const cfg = join(work.path, "hey.toml");
    writeFileSync(
      cfg,
      `[default]\nprovider = "mock"\n\n[provider.mock]\nbase_url = "${server.url}/v1"\napi_key = "\${MOCK_KEY}"\nmodels = ["m1"]\nheaders = { "X-Team" = "core" }\n`,
    );
    server.enqueue(answer("configured"));
    const run = await runHey(["--config", cfg, "-p", "hi"], { cwd: work.path, env: { MOCK_KEY: "sk-test-123" } });
    expect(run).toMatchObject({ code: 0, stdout: "configured\n" });
    const req = server.requests.at(-1)!;
    expect(req.headers.authorization).toBe("Bearer sk-test-123");
    expect(req.headers["x-team"]).toBe("core");
    expect((req.body as { model: string }).model).toBe("m1");
    expect(run.stderr).not.toContain("sk-test-123");
  });
});

// an answer with nothing at all (not even thinking) is the endpoint's empty answer, retried (protocol-faults.test.ts);
// one of thinking alone is retried the same way, then taken as the answer on every protocol (unfinished-answers.test.ts)
test("a first reply of thinking alone on every try is not called empty under its words: in JSON, retries, a notice, the reasoning as the answer; exit 0", async () => {
  const thoughtOnly = () =>
    sseReply(
      `data: ${JSON.stringify({ candidates: [{ index: 0, content: { role: "model", parts: [{ text: "only thinking", thought: true }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } })}\r\n\r\n`,
    );
  const gemini = ["--base-url", `${server.url}/v1beta`, "--protocol", "google", "-m", "some-model"];
  server.enqueue(thoughtOnly(), thoughtOnly(), thoughtOnly());
  const run = await runHey([...gemini, "-p", "go", "--output", "json"], { cwd: work.path });
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
  expect(events.find((e) => e.type === "error")).toBeUndefined();
  expect(events.find((e) => e.type === "notice")).toEqual({ type: "notice", message: reasoningTaken({ reasoned: 3, tries: 3 }) });
  expect(events.filter((e) => e.type === "text_delta").map((e) => e.text)).toEqual(["only thinking"]);
  expect(events.at(-1)).toMatchObject({ stop_reason: "end" });
});

// an empty end_turn after tool results is how Claude may end a task (Anthropic documents it): the work
// is done, so the run ends normally — exit 0, a line saying there was no final answer — and is not retried.
// Other protocols retry it as the flake it is there (chat-stream-ends.test.ts)
test("Anthropic: a final answer without text after the model worked with tools: the run ends normally (exit 0), not retried, and says there was no final answer", async () => {
  const claude = ["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "-m", "some-model"];
  const read = () => toolCallsReply("anthropic", [{ id: "toolu_1", name: "read_file", args: { path: "notes.txt" } }]);
  writeFileSync(join(work.path, "notes.txt"), "hello\n");
  const before = server.requests.length;
  server.enqueue(read(), textReply("anthropic", ""));
  const run = await runHey([...claude, "-p", "read my notes"], { cwd: work.path });
  expect(run.code).toBe(0);
  expect(server.requests.length - before).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain("the model ended without a final answer; its work is above");
  expect(run.stderr).not.toContain("error:");
  server.enqueue(read(), textReply("anthropic", ""));
  const json = await runHey([...claude, "-p", "read my notes", "--output", "json"], { cwd: work.path });
  expect(json.code).toBe(0);
  expect(jsonEvents(json.stdout).at(-1)).toMatchObject({ type: "done", stop_reason: "end" });
});

describe("errors a new user meets", () => {
  test.each([
    [["--frobnicate"], 'hey: unknown flag --frobnicate (see hey --help); put -- before a message that starts with - (hey -p -- "--frobnicate")\n'],
    [["-t", "loud", "-p", "x"], 'hey: -t/--effort must be one of off, minimal, low, medium, high, xhigh, max (got "loud")\n'],
    [["--output", "xml", "-p", "x"], 'hey: --output must be one of text, json (got "xml")\n'],
    [["--max-turns", "0", "-p", "x"], 'hey: --max-turns must be a positive integer (got "0")\n'],
    [["--max-turns", "-1", "-p", "x"], 'hey: --max-turns must be a positive integer (got "-1")\n'],
    [["--max-run-tokens", "-5", "-p", "x"], 'hey: --max-run-tokens must be a positive integer (got "-5")\n'],
    [["--base-url", "http://127.0.0.1:9/v1", "-p", "x"], "hey: --base-url needs -m MODEL\n"],
    [["-m"], "hey: -m/--model needs a value\n"],
    [["-c", "--resume", "abc", "-p", "x"], "hey: -c/--continue and --resume both pick the session to continue: use one"],
    [["--sessions", "-p", "hi"], "hey: --sessions lists sessions and runs no prompt: run the prompt without --sessions\n"],
    [["-m", "mock/", "-p", "x"], 'hey: -m/--model mock/: no model after "mock/" (-m PROVIDER/MODEL; -m mock alone'],
    [["-p"], 'hey: no message: give it as arguments (hey -p "…") or on stdin\n'],
    [["-p", "-fix"], 'hey: unknown flag -f in "-fix" (see hey --help); put -- before a message that starts with - (hey -p -- "-fix")\n'],
    [["-p", "@missing.txt"], "hey: @missing.txt: no such file ("],
  ])("%p → exit 2: %s", async (args, message) => {
    const run = await runHey(args, { cwd: work.path });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith(message);
  });

  test("a bad proxy value is a configuration error at once (exit 2), also as a JSON event", async () => {
    const run = await runHey([...adHoc(), "-p", "hi", "--proxy", "ftp://proxy.example:21", "--output", "json"], { cwd: work.path, env: { NO_PROXY: "" } });
    expect(run.code).toBe(2);
    expect(jsonEvents(run.stdout)).toEqual([
      { type: "error", kind: "config", message: expect.stringContaining("ftp") },
      expect.objectContaining({ type: "done", stop_reason: "error" }),
    ]);
    expect(run.stderr).toContain("ftp");
  });

  test("a reader that goes away (| head) ends the output quietly, without a stack trace, and the run with exit 141", async () => {
    // a server of its own: hey may stop before its request is made, leaving the reply unasked for
    const own = startReplayServer();
    try {
      own.enqueue(answer("x ".repeat(2000)));
      const bin = await ensureBinary();
      const pipe = Bun.spawn(["bash", "-c", `"${bin}" --base-url ${own.url}/v1 -m m -p hi --output json | head -c 10; echo " exit \${PIPESTATUS[0]}"`], {
        cwd: work.path,
        env: { PATH: process.env.PATH ?? "", HOME: work.path },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err] = await Promise.all([pipe.stdout.text(), pipe.stderr.text(), pipe.exited]);
      expect(out).toMatch(/^.{10} exit 141\n$/s);
      expect(err).not.toContain("internal error");
      expect(err).not.toMatch(/\n\s+at /);
    } finally {
      own.stop();
    }
  });

  test("a malformed config file names path:line:column, exit 2", async () => {
    const cfg = join(work.path, "bad.toml");
    writeFileSync(cfg, "[agent]\nmax_turns = \n");
    const run = await runHey(["--config", cfg, "-p", "x"], { cwd: work.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^hey: ${cfg.replace(/[.]/g, "\\.")}:2:\\d+: .+\\n$`));
  });

  test("a wrong type in the user config names the key, exit 2", async () => {
    const home = tempDir();
    try {
      mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
      writeFileSync(join(home.path, ".config", "hey", "config.toml"), '[agent]\nmax_turns = "twenty"\n');
      const run = await runHey([...adHoc(), "-p", "x"], { cwd: work.path, env: { HOME: home.path } });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`hey: ${join(home.path, ".config", "hey", "config.toml")}:2: [agent] max_turns must be a positive integer, got "twenty"\n`);
    } finally {
      home.remove();
    }
  });

  test("an unreachable local endpoint: a clear error at once (no minute of retries), exit 1, no stack trace", async () => {
    const run = await runHey(["--base-url", "http://127.0.0.1:9/v1", "-m", "m", "-p", "hi", "--output", "json"], { cwd: work.path });
    expect(run.code).toBe(1);
    const events = jsonEvents(run.stdout);
    expect(events.filter((e) => e.type === "retry")).toEqual([]);
    const error = events.find((e) => e.type === "error")!;
    expect(error).toEqual({
      type: "error",
      kind: "network",
      message: "cannot connect to http://127.0.0.1:9/v1, set by --base-url: connection refused (is the server running?)",
    });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(jsonEvents(run.stdout).at(-1)).toMatchObject({ type: "done", stop_reason: "error" });
  });

  test("a 401 names the key variable, exit 1, no retry", async () => {
    server.enqueue(jsonReply(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }));
    const before = server.requests.length;
    const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--api-key", "sk-wrong", "-p", "hi"], { cwd: work.path });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("error: authentication failed (401): Incorrect API key provided — check --api-key\n");
    expect(server.requests.length - before).toBe(1);
  });
});

test("a 429 with Retry-After is waited out and announced, then the answer arrives", async () => {
  server.enqueue(
    jsonReply(429, { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { "retry-after": "1" }),
    answer("after the wait"),
  );
  const t0 = performance.now();
  const run = await runHey([...adHoc(), "-p", "hi"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "after the wait\n" });
  expect(run.stderr).toMatch(/^retrying in 1(\.\d)? s \(1\/5\): rate limited \(429\): Rate limit reached\n$/);
  expect(performance.now() - t0).toBeGreaterThan(1000);
});

test("--version and --help", async () => {
  const v = await runHey(["--version"]);
  // version, commit, build date and release target (scripts/build.ts defines them)
  expect(v.stdout).toMatch(/^hey \d+\.\d+\.\d+ \([0-9a-f]{12}(-dirty)?, built \d{4}-\d\d-\d\d, (linux|darwin|windows)-(x64|arm64)(-musl)?\)\n$/);
  const h = await runHey(["--help"]);
  expect(h.code).toBe(0);
  for (const flag of ["-p, --print", "--output", "--base-url", "--protocol", "-t, --effort", "--proxy", "--config", "--max-turns"])
    expect(h.stdout).toContain(flag);
});

// `hey -p … > answer.md` (issue 10 item 4): with stdout not a terminal it holds the final answer
// only; what the model said in turns that called tools goes to stderr, each turn on its own line.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { jsonReply } from "../helpers/replay-server.ts";
import { until } from "../helpers/wait.ts";

import { answer, toolCalls, writeSession } from "./repl-helpers.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";

const server = fileReplayServer();
const work = fileTempDir();

test("-p to a pipe: the final answer alone on stdout, narration on stderr", async () => {
  server.enqueue(
    toolCalls([["bash", { command: "echo one" }]], "Let me check the directory first."),
    toolCalls([["bash", { command: "echo two" }]], "Now the second thing."),
    answer("The answer is 42."),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "what is it?"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0 });
  expect(run.stdout).toBe("The answer is 42.\n");
  expect(run.stderr).toContain("Let me check the directory first.\n$ echo one\n");
  expect(run.stderr).toContain("Now the second thing.\n$ echo two\n");
  expect(run.stderr).not.toContain("answer is 42"); // the answer goes to stdout only
}, 60_000);

test("model text cannot reach the terminal's control sequences through -p either", async () => {
  server.enqueue(answer("title\x1b]0;owned\x07 done"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi"], { cwd: work.path });
  expect(run.stdout).toBe("title^[]0;owned^G done\n");
}, 60_000);

test("a run that never got an answer leaves no session; one that did leaves one", async () => {
  const state = join(work.path, "state-none");
  const failed = await runHey(["--base-url", "http://127.0.0.1:9/v1", "-m", "m", "-p", "hi"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state, HEY_MAX_RETRIES: "0" },
  });
  expect(failed.code).toBe(1);
  expect(existsSync(join(state, "hey", "sessions")) ? readdirSync(join(state, "hey", "sessions")) : []).toEqual([]);
  server.enqueue(answer("hello"));
  expect((await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi"], { cwd: work.path, env: { XDG_STATE_HOME: state } })).code).toBe(0);
  expect(readdirSync(join(state, "hey", "sessions"))).toHaveLength(1);
}, 60_000);

test("a run killed (SIGTERM) while it waits out a 429 got no answer: it leaves no session, and -c goes on with the conversation before it", async () => {
  const state = join(work.path, "state-killed");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, XDG_STATE_HOME: state, NO_COLOR: "1" };
  const sessions = () => readdirSync(join(state, "hey", "sessions")).filter((f) => f.endsWith(".jsonl"));
  server.enqueue(answer("the first answer"));
  expect((await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "first question"], { cwd: work.path, env })).code).toBe(0);
  expect(sessions()).toHaveLength(1);

  server.enqueue(jsonReply(429, { error: { message: "Rate limit reached" } }, { "retry-after": "60" }));
  const hey = Bun.spawn([await ensureBinary(), "--base-url", `${server.url}/v1`, "-m", "m", "-p", "second question"], {
    cwd: work.path,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
  });
  let stderr = "";
  void (async () => {
    for await (const chunk of hey.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  await until(() => stderr.includes("retrying in"), "the 429's wait");
  hey.kill("SIGTERM");
  expect(await hey.exited).toBe(143);
  await until(() => stderr.includes("terminated (SIGTERM)"), "the reason");
  expect(sessions()).toHaveLength(1); // no session of a question with no answer

  server.enqueue(answer("go on"));
  const resumed = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-c", "-p", "third question"], { cwd: work.path, env });
  expect(resumed.code).toBe(0);
  const sent = server.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
  expect(sent.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["first question", "third question"]);
}, 60_000);

test("--sessions lists this directory's sessions; --all every directory's", async () => {
  const state = join(work.path, "state-list");
  writeSession(state, work.path, "question from here", "a");
  writeSession(state, "/somewhere/else", "question from elsewhere", "b");
  const here = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state } });
  expect(here.stdout).toContain("question from here");
  expect(here.stdout).not.toContain("question from elsewhere");
  const all = await runHey(["--sessions", "--all"], { cwd: work.path, env: { XDG_STATE_HOME: state } });
  expect(all.stdout).toContain("question from here");
  expect(all.stdout).toContain("question from elsewhere");
}, 60_000);

test("a config with errors also shows its unknown-key warnings, first, in the same run", async () => {
  const xdg = join(work.path, "xdg-warn");
  mkdirSync(join(xdg, "hey"), { recursive: true });
  const file = join(xdg, "hey", "config.toml");
  writeFileSync(file, "[agent]\nmax_turn = 3\nmax_turns = 0\n");
  const run = await runHey(["-p", "hi"], { cwd: work.path, env: { XDG_CONFIG_HOME: xdg } });
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(
    `hey: ${file}:2: unknown key [agent] max_turn (ignored); did you mean max_turns?\nhey: ${file}:3: [agent] max_turns must be a positive integer, got 0\n`,
  );
}, 60_000);

test("-m PROVIDER/MODEL with an unknown provider is a usage error listing the known ones", async () => {
  const run = await runHey(["-m", "nope/some-model", "-p", "hi"], { cwd: work.path });
  expect(run.code).toBe(2);
  expect(run.stderr).toStartWith('hey: -m nope/some-model: unknown provider "nope"; known providers: openai, anthropic, google, deepseek, ollama');
}, 60_000);

test("a config with several mistakes lists every one at start-up, each on its own hey: line with its line number, and exits 2", async () => {
  const xdg = join(work.path, "xdg-many");
  mkdirSync(join(xdg, "hey"), { recursive: true });
  const file = join(xdg, "hey", "config.toml");
  writeFileSync(file, "[agent]\nmax_turns = 0\n\n[retry]\nbase_delay_ms = -1\nmax_retries = 1000\n\n[permissions]\nallow = []\n");
  const run = await runHey(["-p", "hi"], { cwd: work.path, env: { XDG_CONFIG_HOME: xdg } });
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(
    [
      `hey: ${file}:2: [agent] max_turns must be a positive integer, got 0`,
      `hey: ${file}:5: [retry] base_delay_ms must be a non-negative integer, got -1`,
      `hey: ${file}:6: [retry] max_retries must be between 0 and 100, got 1000`,
      `hey: ${file}:8: unknown table [permissions]; permission rules belong in [permission]`,
      "",
    ].join("\n"),
  );
}, 60_000);

// What a user keeps when dist/hey is killed with SIGKILL (kill -9, as a power cut leaves it) in the
// middle of a turn, against a local mock model (x16): the results of the calls that had finished,
// the question and the words already streamed; `hey -c` then tells the model (and the user, in one
// line) which calls and which answer were cut, so the next message goes on its own and finished
// work is not done again.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_RESULT } from "../../src/kernel/tool-calls.ts";
import { newId, userMessage } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileReplayServer } from "../helpers/fixtures.ts";
import { killMarked, marker, waitForGroup } from "../helpers/processes.ts";
import { found } from "../helpers/wait.ts";
import { answer, heldAnswer, toolCalls } from "./repl-helpers.ts";

const server = fileReplayServer();
const dir = eachTempDir("hey-killed-");
const leftovers: string[] = [];
const running: { kill(signal?: number | NodeJS.Signals): void }[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.kill("SIGKILL");
  killMarked(leftovers.splice(0));
});

const env = () => ({
  HOME: dir.path,
  XDG_STATE_HOME: join(dir.path, "state"),
  XDG_CONFIG_HOME: join(dir.path, "config"),
  XDG_CACHE_HOME: join(dir.path, "cache"),
});
const sessionsDir = () => join(dir.path, "state", "hey", "sessions");
const args = (...rest: string[]) => ["--base-url", `${server.url}/v1`, "-m", "mock-model", ...rest];

/** dist/hey started with `rest`, in the test's directory, as a user's shell starts it. */
async function start(...rest: string[]) {
  const hey = Bun.spawn([await ensureBinary(), ...args(...rest)], {
    cwd: dir.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1", ...env() },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
  });
  running.push(hey);
  return hey;
}

/** The text of the one session file, once it holds `text` (undefined until then). */
const sessionWith = (text: string) => () => {
  if (!existsSync(sessionsDir())) return undefined;
  const file = readdirSync(sessionsDir()).find((f) => f.endsWith(".jsonl"));
  const content = file ? readFileSync(join(sessionsDir(), file), "utf8") : "";
  return content.includes(text) ? content : undefined;
};

/**
 * The session file once the words its answer streamed (its `partial` entries, joined) hold `text`: a word
 * alone ("w2") can stand in a random id or the temp dir's name, and the kill then came before the request,
 * leaving the held answer queued for `hey -c`, which hung until its timeout.
 */
const streamedWith = (text: string) => () => {
  const content = sessionWith('"type":"partial"')();
  const streamed = content
    ?.split("\n")
    .filter((l) => l.includes('"type":"partial"'))
    .map((l) => (JSON.parse(l) as { text: string }).text)
    .join("");
  return streamed?.includes(text) ? content : undefined;
};

/** `hey -c -p PROMPT` after the kill: the run, and the messages its request sent (system prompt left out). */
async function resumed(prompt: string) {
  server.enqueue(answer("Understood."));
  const before = server.requests.length;
  const run = await runHey(args("-c", "-p", prompt), { cwd: dir.path, env: env() });
  expect(run.code).toBe(0);
  expect(server.requests.length).toBe(before + 1);
  type Sent = { role: string; content: string | null; tool_call_id?: string; tool_calls?: { id: string }[] };
  const messages = (server.requests.at(-1)!.body as { messages: Sent[] }).messages.filter((m) => m.role !== "system");
  return { run, messages };
}

/** The marker of an answer hey was killed in (kernel/turns.ts HEY_STOPPED_MIDWAY), spelled out: the test runs against the old source too. */
const MIDWAY = "[interrupted: hey stopped in the middle of this answer]";

const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
const shownWords = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

test("kill -9 while the second of two calls runs: the first call's result is kept, only the second is reported interrupted", async () => {
  const m = marker();
  leftovers.push(m);
  server.enqueue(
    toolCalls([
      ["bash", { command: "echo AAA > a.txt; echo first-done" }],
      ["bash", { command: `sleep ${m}; echo never` }],
    ]),
  );
  const hey = await start("-p", "do both");
  await waitForGroup(m);
  await found(sessionWith(`"role":"tool"`), "the finished call's result in the session file"); // (its command, in the call, names first-done too)
  hey.kill("SIGKILL");
  await hey.exited;
  killMarked([m]); // the orphaned command: hey was given no chance to end it
  expect(readFileSync(join(dir.path, "a.txt"), "utf8")).toBe("AAA\n");

  const { run, messages } = await resumed("what happened");
  const [first, second] = messages[1]!.tool_calls!.map((c) => c.id);
  const resultOf = (id: string | undefined) => messages.find((x) => x.role === "tool" && x.tool_call_id === id)?.content;
  expect(resultOf(first)).toContain("first-done");
  expect(resultOf(second)).toStartWith(NO_RESULT);
  expect(messages.map((x) => x.role)).toEqual(["user", "assistant", "tool", "tool", "user"]); // results in call order
  expect(run.stderr).toContain(
    `1 tool call of the last turn was interrupted (hey stopped before it finished): bash \`sleep ${m}; echo never\`; the model is told so`,
  );
  expect(server.violations).toEqual([]);
});

test("kill -9 in a fresh session's first streamed answer: the question and the words shown are kept, and the next message goes on its own", async () => {
  server.enqueue(heldAnswer(words, 12, new Promise(() => {}))); // w0 … w11, then the stream waits
  const hey = await start("-p", "slow fresh");
  await found(streamedWith(shownWords(12)), "the streamed words in the session file");
  hey.kill("SIGKILL");
  await hey.exited;

  const { run, messages } = await resumed("and now?");
  expect(messages).toEqual([
    { role: "user", content: "slow fresh" },
    { role: "assistant", content: `${shownWords(12)}\n\n${MIDWAY}` },
    { role: "user", content: "and now?" },
  ]);
  expect(run.stderr).toContain("the last answer was cut short (hey stopped while it streamed)");
  // once resumed, that answer is a message of the session: the next resume sends it once, and says nothing of it
  const again = await resumed("go on");
  expect(again.messages.filter((x) => x.content?.includes("w11"))).toHaveLength(1);
  expect(again.run.stderr).not.toContain("cut short");
});

test("kill -9 in a resumed session's answer (hey --resume ID): the question is added, not lost", async () => {
  const id = newId();
  const said = { id: newId(), role: "assistant" as const, content: [{ type: "text" as const, text: "a1" }] };
  const lines = [
    toLine({ type: "header", id, cwd: dir.path, created: new Date().toISOString(), version: "0.1.0" }),
    toLine({ type: "message", message: userMessage("q1") }),
    toLine({ type: "message", message: said }),
  ];
  await Bun.write(join(sessionsDir(), `${id}.jsonl`), lines.join(""));
  server.enqueue(heldAnswer(words, 3, new Promise(() => {})));
  const hey = await start("--resume", id, "-p", "slow second");
  await found(streamedWith(shownWords(3)), "the question and its first words in the session file");
  hey.kill("SIGKILL");
  await hey.exited;

  const { messages } = await resumed("and now?");
  expect(messages).toEqual([
    { role: "user", content: "q1" },
    { role: "assistant", content: "a1" },
    { role: "user", content: "slow second" },
    { role: "assistant", content: `${shownWords(3)}\n\n${MIDWAY}` },
    { role: "user", content: "and now?" },
  ]);
});

test("a write_file a kill cut leaves its temporary copy; resuming that session removes it (its process is gone)", async () => {
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  const copy = `.target.txt.${dead.pid}.03bc75f3.tmp`;
  writeFileSync(join(dir.path, copy), "x".repeat(1000));
  const id = newId();
  const write = { id: "call_w", name: "write_file", arguments: JSON.stringify({ path: "target.txt", content: "x".repeat(1000) }) };
  const lines = [
    toLine({ type: "header", id, cwd: dir.path, created: new Date().toISOString(), version: "0.1.0" }),
    toLine({ type: "message", message: userMessage("write it") }),
    toLine({ type: "message", message: { id: newId(), role: "assistant", content: [], toolCalls: [write] } }),
  ];
  await Bun.write(join(sessionsDir(), `${id}.jsonl`), lines.join(""));
  const { run } = await resumed("did it work?");
  expect(run.stderr).toContain("1 tool call of the last turn was interrupted (hey stopped before it finished): write_file `target.txt`");
  expect(readdirSync(dir.path).filter((f) => f.endsWith(".tmp"))).toEqual([]);
});

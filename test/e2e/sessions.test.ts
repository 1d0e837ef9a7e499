// Sessions through dist/hey (SPEC §19): crash mid-tool then `-c`, a torn last line, an unwritable
// sessions directory, `-c` with nothing to continue, --resume and --sessions.
import { expect, test } from "bun:test";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { eachTempDir, fileReplayServer } from "../helpers/fixtures.ts";
import { textReply, toolCallsReply } from "../helpers/protocol-streams.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";
import { resultText } from "../helpers/model-server.ts";
import { until } from "../helpers/wait.ts";

const server = fileReplayServer();
const state = eachTempDir("hey-state-");
const work = eachTempDir("hey-work-");

const sessionsDir = () => join(state.path, "hey", "sessions");
const sessionFiles = () => readdirSync(sessionsDir()).filter((f) => f.endsWith(".jsonl"));
const hey = (args: string[], extra: Record<string, string> = {}) =>
  runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path, ...extra } });
type Body = { messages: { role: string; content: string | null; tool_call_id?: string }[] };
const lastBody = () => server.requests.at(-1)!.body as Body;

test("a conversation is saved and `-c` continues it with the history sent again", async () => {
  server.enqueue(textReply("openai", "The capital is Paris."));
  expect((await hey(["-p", "capital of France?"])).code).toBe(0);
  expect(sessionFiles()).toHaveLength(1);
  server.enqueue(textReply("openai", "About 2.1 million."));
  const run = await hey(["-c", "-p", "and its population?"]);
  expect(run.code).toBe(0);
  expect(lastBody().messages.map((m) => [m.role, m.content])).toEqual([
    ["system", expect.any(String)],
    ["user", "capital of France?"],
    ["assistant", "The capital is Paris."],
    ["user", "and its population?"],
  ]);
  expect(sessionFiles()).toHaveLength(1); // appended to the same file
  const session = jsonEvents(run.stdout)[0]!;
  expect(sessionFiles()[0]).toBe(`${session.id}.jsonl`);
});

test("killed mid-tool (SIGKILL): `-c` closes the call with an interrupted result and continues", async () => {
  const marker = 500 + Math.floor(Math.random() * 400);
  server.enqueue(toolCallsReply("openai", [{ id: "call_long", name: "bash", args: { command: `sleep ${marker}` } }]));
  const bin = await ensureBinary();
  const proc = Bun.spawn([bin, "--base-url", `${server.url}/v1`, "-m", "m", "-p", "run the long job"], {
    cwd: work.path,
    env: { PATH: process.env.PATH ?? "", HOME: work.path, XDG_STATE_HOME: state.path },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  const sleepers = () =>
    Bun.spawnSync(["ps", "-eo", "pid=,stat=,args="])
      .stdout.toString()
      .split("\n")
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[2] === "sleep" && f[3] === String(marker) && !f[1]!.startsWith("Z"));
  try {
    await until(() => sleepers().length > 0, "the command to run");
    expect(sleepers()).toHaveLength(1);
    proc.kill("SIGKILL");
    await proc.exited;
  } finally {
    for (const [pid] of sleepers()) process.kill(Number(pid), "SIGKILL"); // the detached tool outlives hey
  }
  expect(readdirSync(sessionsDir()).filter((f) => f.endsWith(".lock"))).toHaveLength(1); // stale: its hey is gone
  server.enqueue(textReply("openai", "The job was interrupted; rerun it with a timeout."));
  const run = await hey(["-c", "-p", "what happened?"]);
  expect(run.code).toBe(0);
  const tool = lastBody().messages.find((m) => m.role === "tool")!;
  expect(tool.tool_call_id).toBe("call_long");
  expect(resultText({ role: "tool", content: tool.content })).toBe("interrupted: hey stopped before this call finished");
  const lines = readFileSync(join(sessionsDir(), sessionFiles()[0]!), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; message?: { role: string } });
  expect(lines.filter((l) => l.message?.role === "tool")).toHaveLength(1); // persisted once
  expect(server.violations).toEqual([]);
});

test("a torn last line is skipped with a warning and the conversation goes on", async () => {
  server.enqueue(textReply("openai", "first answer"));
  await hey(["-p", "first"]);
  appendFileSync(join(sessionsDir(), sessionFiles()[0]!), '{"type":"message","message":{"id":"x","role":"assis');
  server.enqueue(textReply("openai", "second answer"));
  const run = await hey(["-c", "-p", "second"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("torn");
  expect(lastBody().messages.map((m) => m.content)).toEqual([expect.any(String), "first", "first answer", "second"]);
  // the writer ended it, marked as known: it was said once, and is not said at every resume after
  for (const prompt of ["third", "fourth"]) {
    server.enqueue(textReply("openai", `${prompt} answer`));
    const next = await hey(["-c", "-p", prompt]);
    expect(next.stderr).toBe("");
  }
  expect(lastBody().messages.map((m) => m.content)).toEqual([
    expect.any(String),
    "first",
    "first answer",
    "second",
    "second answer",
    "third",
    "third answer",
    "fourth",
  ]);
  // nothing of it is lost: its bytes stay in the file, marked as cut short
  expect(readFileSync(join(sessionsDir(), sessionFiles()[0]!), "utf8").split("\n")[5]).toStartWith('{"type":"message","message":{"id":"x","role":"assis');
});

test("a torn line an older hey ended with a bare newline (no mark) is said by one resume, not by every one after", async () => {
  server.enqueue(textReply("openai", "first answer"));
  await hey(["-p", "first"]);
  appendFileSync(join(sessionsDir(), sessionFiles()[0]!), '{"type":"message","message":{"id":"x","role":"assis\n');
  for (const [prompt, said] of [
    ["second", true],
    ["third", false],
    ["fourth", false],
  ] as const) {
    server.enqueue(textReply("openai", `${prompt} answer`));
    const run = await hey(["-c", "-p", prompt]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(said ? `hey: ${join(sessionsDir(), sessionFiles()[0]!)}: skipped a torn line (line 6): hey stopped while writing it\n` : "");
  }
  expect(lastBody().messages.map((m) => m.content)).toEqual([
    expect.any(String),
    "first",
    "first answer",
    "second",
    "second answer",
    "third",
    "third answer",
    "fourth",
  ]);
});

test("`-c` of a session a newer hey wrote to: entries of kinds this hey does not know are skipped, said in one line naming them, and the rest is sent", async () => {
  server.enqueue(textReply("openai", "first answer"));
  await hey(["-p", "first"]);
  const file = join(sessionsDir(), sessionFiles()[0]!);
  const newer = (type: string) => `${JSON.stringify({ type, id: `0mxa4zzzz000${type.length}aaaaaa`, to: "x" })}\n`;
  appendFileSync(file, newer("rewind") + newer("rewind") + newer("branch\u001b[2J"));
  appendFileSync(file, `${JSON.stringify({ type: "message", message: { id: "n1", role: "user", content: [{ type: "audio", data: "AAAA" }] } })}\n`);
  appendFileSync(file, `${JSON.stringify({ type: "message", message: { id: "n2", role: "assistant", content: [{ type: "text", text: "heard it" }] } })}\n`);
  for (const prompt of ["second", "third"]) {
    server.enqueue(textReply("openai", `${prompt} answer`));
    const run = await hey(["-c", "-p", prompt]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `hey: ${file}: skipped 3 lines of kinds this hey does not know (rewind, branch?[2J), written by a newer hey; the rest is loaded — \`hey upgrade\` reads them\n`,
    );
  }
  expect(lastBody().messages.map((m) => m.content)).toEqual([
    expect.any(String),
    "first",
    "first answer",
    "[audio content from a newer hey, which this one cannot send]",
    "heard it",
    "second",
    "second answer",
    "third",
  ]);
});

test("a line damaged in the middle of a session (edited by hand), not one hey cut short and ended, is still said at every resume", async () => {
  server.enqueue(textReply("openai", "first answer"));
  await hey(["-p", "first"]);
  appendFileSync(join(sessionsDir(), sessionFiles()[0]!), '{"type":"message", garbage\n');
  for (const prompt of ["second", "third"]) {
    server.enqueue(textReply("openai", `${prompt} answer`));
    const run = await hey(["-c", "-p", prompt]);
    expect(run.stderr).toContain(
      ": skipped line 6: not valid JSON, cut short or damaged (hey stopped while writing it, or it was edited); the lines after it are loaded\n",
    );
  }
});

test("a message line with a part missing its text (edited by hand) is skipped with a warning naming its line; -c goes on, no internal error", async () => {
  server.enqueue(textReply("openai", "first answer"));
  await hey(["-p", "first"]);
  const file = join(sessionsDir(), sessionFiles()[0]!);
  const lineNo = readFileSync(file, "utf8").split("\n").length; // the next line's number
  appendFileSync(file, `${JSON.stringify({ type: "message", message: { id: "x1", role: "assistant", content: [{ type: "text" }] } })}\n`);
  server.enqueue(textReply("openai", "second answer"));
  const run = await hey(["-c", "-p", "second"]);
  expect(run.stderr).not.toContain("internal error");
  expect(run.stderr).toContain(`${file}: skipped line ${lineNo}: not a valid message entry`);
  expect(run.code).toBe(0);
  expect(lastBody().messages.map((m) => m.content)).toEqual([expect.any(String), "first", "first answer", "second"]);
});

test("an unwritable sessions directory warns once and the answer is still printed", async () => {
  writeFileSync(join(state.path, "hey"), "a file where the directory should be");
  server.enqueue(toolCallsReply("openai", [{ id: "c1", name: "bash", args: { command: "echo hi" } }]), textReply("openai", "still answered"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("still answered\n");
  expect(run.stderr.match(/hey: .*session/g)).toHaveLength(1);
  // the file in the way is named, not "ENOTDIR: mkdir …/hey/sessions"
  expect(run.stderr).toMatch(`: ${join(state.path, "hey")} is a file, not a directory`);
});

// `--output json` as a system user whose home cannot be written: the `session` event's id looked
// valid and only stderr said the session (and the approvals record) was not saved; a script kept
// an id `--resume` refuses. Each is a `notice` event now, as well as its line on stderr.
test("--output json: a session and an approvals record that cannot be saved are `notice` events, besides stderr", async () => {
  server.enqueue(textReply("openai", "still answered"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "-p", "hi"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
    fileSizeLimitKb: 0, // no file of hey's state can be written: as a home that is not writable
  });
  expect(run.code).toBe(0);
  const notices = jsonEvents(run.stdout)
    .filter((e) => e.type === "notice")
    .map((e) => e.message as string);
  expect(notices).toEqual([
    expect.stringMatching(/^could not record approvals in .*approvals\.json: .*EFBIG/),
    expect.stringMatching(/^session not saved: cannot write .*\.jsonl: .*EFBIG/),
  ]);
  for (const notice of notices) expect(run.stderr).toContain(`hey: ${notice}`);
  expect(run.stderr).toContain("still cannot be written as hey ends"); // after `done`, which stays last: stderr alone
  expect(jsonEvents(run.stdout).at(-1)).toMatchObject({ type: "done", stop_reason: "end" });
});

test("writes the file size limit refuses (as a full disk would): said once with the cause, the answer printed, no empty or torn session file and no lock left behind", async () => {
  const limited = (prompt: string, kb: number) =>
    runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", prompt], { cwd: work.path, env: { XDG_STATE_HOME: state.path }, fileSizeLimitKb: kb });
  for (const [prompt, kb] of [
    ["hi", 0], // not even the lock can be written
    ["x".repeat(3000), 1], // the header fits, the first prompt does not
  ] as const) {
    server.enqueue(textReply("openai", "still answered"));
    const run = await limited(prompt, kb);
    expect([run.code, run.stdout]).toEqual([0, "still answered\n"]);
    expect(
      run.stderr.match(/hey: session not saved: cannot write .*\.jsonl: the file would be larger than this process may write \(EFBIG: see `ulimit -f`\)/g),
    ).toHaveLength(1);
    expect(readdirSync(sessionsDir())).toEqual([]);
  }
  const listed = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(listed.stdout).toBe("No sessions yet.\n");
});

test("`-c` on a disk that takes no more bytes (here `ulimit -f`, as a full disk): the session is still resumed, the answer given, and not being saved said once", async () => {
  server.enqueue(textReply("openai", "first answer"));
  await hey(["-p", "first"]);
  const file = join(sessionsDir(), sessionFiles()[0]!);
  const before = readFileSync(file, "utf8");
  server.enqueue(textReply("openai", "second answer"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-c", "-p", "second"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
    fileSizeLimitKb: 0, // not even the lock can be written
  });
  expect([run.code, run.stdout]).toEqual([0, "second answer\n"]);
  expect(lastBody().messages.map((m) => m.content)).toEqual([expect.any(String), "first", "first answer", "second"]);
  expect(run.stderr.match(/hey: session not saved: .*EFBIG/g)).toHaveLength(1);
  expect(readFileSync(file, "utf8")).toBe(before); // as it was, not torn
  expect(readdirSync(sessionsDir()).filter((f) => f.endsWith(".lock"))).toEqual([]);
});

test("a sessions directory hey cannot list is not “no sessions”: --sessions and -c name the file in its way, and -c starts nothing", async () => {
  server.enqueue(textReply("openai", "saved"));
  await hey(["-p", "first"]);
  const dir = sessionsDir();
  renameSync(dir, `${dir}.moved`); // as a sync tool or a backup restore may leave it
  writeFileSync(dir, "");
  const named = `hey: ${dir} is a file, not a directory; move it away (hey makes the directory again)\n`;
  const listed = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect([listed.code, listed.stdout, listed.stderr]).toEqual([2, "", named]);
  const sent = server.requests.length;
  const continued = await hey(["-c", "-p", "second"]);
  expect(continued.code).toBe(2);
  expect(continued.stderr).toContain(named);
  expect(continued.stderr).not.toContain("starting a new one");
  expect(server.requests).toHaveLength(sent); // nothing was sent for the second prompt
});

test("a sessions directory that is a link to nothing (a disk not mounted) is named with its target: not saved, and not “no sessions” for --sessions and -c", async () => {
  mkdirSync(join(state.path, "hey"));
  const target = join(state.path, "usb", "sessions");
  symlinkSync(target, sessionsDir());
  const named = `${sessionsDir()} is a symbolic link to ${target}, which does not exist (a disk not mounted, or a folder moved?); make ${target} or remove the link`;
  server.enqueue(textReply("openai", "answered"));
  const run = await hey(["-p", "first"]);
  expect(run.code).toBe(0); // answered
  expect(run.stderr).toContain(named);
  const listed = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect([listed.code, listed.stdout, listed.stderr]).toEqual([2, "", `hey: ${named}\n`]);
  const sent = server.requests.length;
  const continued = await hey(["-c", "-p", "second"]);
  expect(continued.code).toBe(2);
  expect(continued.stderr).toContain(named);
  expect(server.requests).toHaveLength(sent);
  mkdirSync(target, { recursive: true }); // the disk is back: the link is used as the directory
  server.enqueue(textReply("openai", "saved"));
  expect((await hey(["-p", "third"])).stderr).toBe("");
  expect(readdirSync(target).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);
});

test("`-c` with no earlier session here starts a fresh one, and says so on stderr", async () => {
  server.enqueue(textReply("openai", "fresh"));
  const run = await hey(["-c", "-p", "hello"]);
  expect(run.code).toBe(0);
  expect(lastBody().messages.map((m) => m.role)).toEqual(["system", "user"]);
  expect(run.stderr).toBe("hey: no earlier session in this directory; starting a new one\n");
  server.enqueue(textReply("openai", "again"));
  expect((await hey(["-c", "-p", "hello again"])).stderr).toBe(""); // now there is one
});

test("--resume by id prefix or end, --sessions lists with short forms, a bad id is a usage error", async () => {
  server.enqueue(textReply("openai", "one"));
  const first = jsonEvents((await hey(["-p", "remember the word apple"])).stdout)[0]!;
  const id = String(first.id);
  const list = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(list.code).toBe(0);
  expect(list.stdout).toContain(id);
  expect(list.stdout).toContain("remember the word apple");
  server.enqueue(textReply("openai", "apple"));
  const resumed = await hey(["--resume", id.slice(0, 10), "-p", "which word?"]);
  expect(resumed.code).toBe(0);
  expect(lastBody().messages[1]!.content).toBe("remember the word apple");
  expect(list.stdout).toMatch(new RegExp(`^${id}  ${id.slice(0, 4)} `, "m")); // the only session: its first four characters
  server.enqueue(textReply("openai", "still apple"));
  expect((await hey(["--resume", id.slice(-6), "-p", "and now?"])).code).toBe(0); // the random end of the id
  expect(lastBody().messages[1]!.content).toBe("remember the word apple");
  const bad = await hey(["--resume", "zzzz", "-p", "x"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("zzzz");
});

test("`-c` goes on with the model the session last used; -m still wins", async () => {
  const cfg = join(work.path, "two.toml");
  writeFileSync(
    cfg,
    `[default]\nprovider = "a"\n\n[provider.a]\nbase_url = "${server.url}/v1"\nmodels = ["model-a"]\n\n[provider.b]\nbase_url = "${server.url}/v1"\nmodels = ["model-b"]\n`,
  );
  const run = (args: string[]) => runHey(["--config", cfg, "--output", "json", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  const model = () => (server.requests.at(-1)!.body as { model: string }).model;
  server.enqueue(textReply("openai", "one"));
  await run(["-m", "b/model-b", "-p", "first"]);
  expect(model()).toBe("model-b");
  server.enqueue(textReply("openai", "two"));
  await run(["-c", "-p", "second"]);
  expect(model()).toBe("model-b");
  server.enqueue(textReply("openai", "three"));
  await run(["-c", "-m", "a/model-a", "-p", "third"]);
  expect(model()).toBe("model-a");
});

test("`-c` after an ad-hoc --base-url session says, on one line and as a JSON notice, that its model is not configured now and which one is used", async () => {
  const cfg = join(work.path, "one.toml");
  writeFileSync(cfg, `[provider.a]\nbase_url = "${server.url}/v1"\nmodels = ["model-a"]\n`);
  server.enqueue(textReply("openai", "one"));
  expect((await hey(["-m", "claude-x", "-p", "first"])).code).toBe(0); // cli/claude-x
  server.enqueue(textReply("openai", "two"));
  const run = await runHey(["--config", cfg, "--output", "json", "-c", "-p", "second"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(run.code).toBe(0);
  expect((server.requests.at(-1)!.body as { model: string }).model).toBe("model-a");
  expect(run.stderr).toContain(
    "hey: the session used cli/claude-x, which is not configured in this run; using a/model-a — pass --base-url URL -m claude-x to continue with it\n",
  );
  // a script reading the events is told its history went to another model than the session's
  expect(jsonEvents(run.stdout).filter((e) => e.type === "notice")).toEqual([
    { type: "notice", message: expect.stringContaining("the session used cli/claude-x, which is not configured in this run; using a/model-a") },
  ]);
});

// a busy session is a wait, not a mistake: it was exit 2 and kind `usage`, as a typo is, so a retry wrapper gave up on it
test("two `hey -c` at once: the second is refused with a message (exit 1, kind busy), nothing is interleaved", async () => {
  server.enqueue(textReply("openai", "first answer"));
  await hey(["-p", "first"]);
  const words = ["a ", "slow ", "answer"].map((w) => chatChunk({ content: w }));
  server.enqueue(
    sseReply(sseEvents([...words, chatChunk({ finish: "stop" }), chatChunk({ usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } })]), {
      delayMs: 400,
    }),
  );
  const bin = await ensureBinary();
  const slow = Bun.spawn([bin, "--base-url", `${server.url}/v1`, "-m", "m", "-c", "-p", "slow one"], {
    cwd: work.path,
    env: { PATH: process.env.PATH ?? "", HOME: work.path, XDG_STATE_HOME: state.path },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const locks = () => readdirSync(sessionsDir()).filter((f) => f.endsWith(".lock"));
  await until(() => locks().length > 0, "the first hey to lock its session");
  expect(locks()).toHaveLength(1);
  const second = await hey(["-c", "-p", "second one"]);
  expect(second.code).toBe(1);
  expect(second.stderr).toMatch(
    new RegExp(`^hey: the one session of this directory, \\S+, is open in another hey \\(pid ${slow.pid}\\); \`hey\` without -c starts a new session`),
  );
  expect(jsonEvents(second.stdout).map((e) => [e.type, e.kind])).toEqual([
    ["error", "busy"],
    ["done", undefined],
  ]);
  expect(await slow.exited).toBe(0);
  expect(await new Response(slow.stdout).text()).toBe("a slow answer\n");
  const text = readFileSync(join(sessionsDir(), sessionFiles()[0]!), "utf8");
  expect(text).not.toContain("second one");
  expect(
    text
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { type: string }).type),
  ).toEqual(["header", "model", "message", "message", "usage", "model", "message", "message", "usage"]);
  expect(locks()).toEqual([]); // released on exit
  server.enqueue(textReply("openai", "now it is free"));
  expect((await hey(["-c", "-p", "third"])).code).toBe(0);
});

test("a session file copied under another name (a branch of the conversation): --resume of the copy goes on in the copy, the original is untouched, each listed by its own id", async () => {
  server.enqueue(textReply("openai", "blue"));
  const id = String(jsonEvents((await hey(["-p", "my favourite colour is blue"])).stdout)[0]!.id);
  const original = join(sessionsDir(), `${id}.jsonl`);
  const before = readFileSync(original, "utf8");
  writeFileSync(join(sessionsDir(), "try-green.jsonl"), before);
  server.enqueue(textReply("openai", "Green it is."));
  const run = await hey(["--resume", "try-green", "-p", "make it green"]);
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout)[0]!.id).toBe("try-green");
  expect(readFileSync(original, "utf8")).toBe(before); // the new messages went into the original, or a new file of its name
  expect(readFileSync(join(sessionsDir(), "try-green.jsonl"), "utf8")).toContain("Green it is.");
  const list = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(
    list.stdout
      .split("\n")
      .filter((l) => l.includes("my favourite colour"))
      .map((l) => l.split(" ")[0]),
  ).toEqual(["try-green", id]);
});

test("a damaged header: listed, and `-c` repairs it and goes on", async () => {
  server.enqueue(textReply("openai", "blue"));
  await hey(["-p", "my favourite colour is blue"]);
  const file = join(sessionsDir(), sessionFiles()[0]!);
  writeFileSync(file, readFileSync(file, "utf8").replace('"type":"header"', '"type":"he?der"'));
  const list = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(list.stdout).toContain("my favourite colour is blue");
  server.enqueue(textReply("openai", "Blue."));
  const run = await hey(["-c", "-p", "which colour?"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("the session's header was damaged; repaired");
  expect(lastBody().messages.map((m) => m.content)).toEqual([expect.any(String), "my favourite colour is blue", "blue", "which colour?"]);
  expect(JSON.parse(readFileSync(file, "utf8").split("\n")[0]!)).toMatchObject({ type: "header", cwd: work.path });
});

test("a damaged header that cannot be repaired (the disk full, a size limit): --resume goes on from the lines after it, says which file and why the header stays, and leaves nothing behind", async () => {
  server.enqueue(textReply("openai", "noted"));
  const id = String(jsonEvents((await hey(["-p", `remember ${"42 ".repeat(4000)}`])).stdout)[0]!.id);
  const file = join(sessionsDir(), `${id}.jsonl`);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, '{"type":"hea' + text.slice(text.indexOf("\n"))); // shorter than the header it needs: repaired by a copy
  const damaged = readFileSync(file, "utf8");
  server.enqueue(textReply("openai", "42"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--resume", id, "-p", "which number?"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
    fileSizeLimitKb: 4, // the session is 12 KB: its copy cannot be written
  });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    `hey: ${file}: the session's header is cut short (most often by a full disk) and cannot be repaired now: the file would be larger than this process may write (EFBIG: see \`ulimit -f\`); resumed from the lines after it, as it is — \`hey --resume ${id}\` repairs it once the disk takes writes\n`,
  );
  expect(lastBody().messages.map((m) => m.content)).toEqual([expect.any(String), `remember ${"42 ".repeat(4000)}`.trim(), "noted", "which number?"]);
  expect(readFileSync(file, "utf8")).toBe(damaged);
  expect(sessionFiles()).toEqual([`${id}.jsonl`]);
  expect(readdirSync(sessionsDir()).filter((f) => !f.endsWith(".jsonl"))).toEqual([]); // no copy, no lock
});

test("a header damaged beyond reading its directory: reported by --sessions and -c; --resume ID repairs it here", async () => {
  server.enqueue(textReply("openai", "noted"));
  const id = String(jsonEvents((await hey(["-p", "remember 42"])).stdout)[0]!.id);
  const file = join(sessionsDir(), `${id}.jsonl`);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, '{"type":"hea' + text.slice(text.indexOf("\n")));
  const list = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(list.stdout).toContain(`hey: a session file has a damaged header and cannot be listed: ${file}`);
  server.enqueue(textReply("openai", "fresh start"));
  const fresh = await hey(["-c", "-p", "hello"]);
  expect(fresh.stderr).toContain(`a session file has a damaged header and cannot be listed: ${file}`);
  expect(lastBody().messages.map((m) => m.role)).toEqual(["system", "user"]);
  server.enqueue(textReply("openai", "42"));
  const resumed = await hey(["--resume", id, "-p", "which number?"]);
  expect(resumed.code).toBe(0);
  expect(lastBody().messages.map((m) => m.content)).toEqual([expect.any(String), "remember 42", "noted", "which number?"]);
});

test("a session file a crash left empty or of NUL bytes: named as lost, to delete — not ignored, nor sent to a --resume that cannot repair it", async () => {
  server.enqueue(textReply("openai", "noted"));
  const id = String(jsonEvents((await hey(["-p", "remember 42"])).stdout)[0]!.id);
  const file = join(sessionsDir(), `${id}.jsonl`);
  const lost = "holds nothing — it is empty or NUL bytes only, what a crash can leave of a file not yet on disk — so there is nothing to resume";
  for (const bytes of [Buffer.alloc(readFileSync(file).length), Buffer.alloc(0)]) {
    writeFileSync(file, bytes);
    const list = await runHey(["--sessions"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
    expect(list.stdout).toContain(`hey: a session file ${lost}: ${file}; delete it\n`);
    expect(list.stdout).not.toContain("repairs it");
    const resumed = await hey(["--resume", id, "-p", "which number?"]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`hey: ${file} ${lost}; delete it\n`);
    server.enqueue(textReply("openai", "a fresh start"));
    const continued = await hey(["-c", "-p", "which number?"]);
    expect(continued.code).toBe(0);
    // an empty file was passed over without a word: -c started afresh (or went on with an older session)
    expect(continued.stderr).toContain(`hey: a session file ${lost}: ${file}; delete it\n`);
    expect(readFileSync(file).equals(bytes)).toBe(true); // nothing written into it
    for (const f of sessionFiles()) if (!f.startsWith(id)) unlinkSync(join(sessionsDir(), f)); // -c's new one
  }
});

test("session files that cannot be opened — no read permission, a FIFO, a directory named x.jsonl, a link — are named by --sessions and -c, not passed over", async () => {
  server.enqueue(textReply("openai", "noted"));
  const id = String(jsonEvents((await hey(["-p", "remember 42"])).stdout)[0]!.id);
  const dir = sessionsDir();
  const file = join(dir, `${id}.jsonl`);
  const at = (name: string) => join(dir, name);
  expect(Bun.spawnSync(["mkfifo", at("pipe.jsonl")]).exitCode).toBe(0);
  mkdirSync(at("x.jsonl"));
  symlinkSync(file, at("link.jsonl"));
  writeFileSync(at("secret.jsonl"), readFileSync(file));
  chmodSync(at("secret.jsonl"), 0);
  // root reads any file: then the listing runs as another user, who owns the directory but not the file
  const root = process.getuid?.() === 0;
  if (root) for (const p of [state.path, join(state.path, "hey"), dir, file, at("x.jsonl"), at("pipe.jsonl"), work.path]) chownSync(p, NOBODY, NOBODY);
  const list = Bun.spawnSync([...(root ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"] : []), await ensureBinary(), "--sessions"], {
    cwd: work.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: state.path, XDG_STATE_HOME: state.path, NO_COLOR: "1" },
  });
  const out = list.stdout.toString();
  expect(list.exitCode).toBe(0);
  expect(out).toContain("remember 42"); // the session it can read is listed
  expect(out).toContain("hey: 4 session files cannot be opened: ");
  expect(out).toContain(`${at("secret.jsonl")} (this user may not read it (EACCES); see ls -l ${at("secret.jsonl")})`);
  expect(out).toContain(`${at("pipe.jsonl")} (a FIFO (named pipe))`);
  expect(out).toContain(`${at("x.jsonl")} (a directory)`);
  expect(out).toContain(`${at("link.jsonl")} (a symbolic link: hey does not follow links for its own files)`);
  expect(out.match(/cannot be opened/g)).toHaveLength(1); // named once
  unlinkSync(at("secret.jsonl")); // a copy of the session: as root, -c would go on with it
  utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000)); // -c names the files newer than the session it picks
  server.enqueue(textReply("openai", "42"));
  const continued = await hey(["-c", "-p", "which number?"]);
  expect(continued.code).toBe(0);
  expect(continued.stderr).toContain(`${at("pipe.jsonl")} (a FIFO (named pipe))`);
  expect(lastBody().messages.map((m) => m.content)).toContain("remember 42"); // -c went on with the readable one
});

/** The user the listing runs as when the tests run as root (who may read any file). */
const NOBODY = 65534;

test("control characters a session file holds in its directory or name reach the terminal visible, never as escapes", async () => {
  server.enqueue(textReply("openai", "noted"));
  const id = String(jsonEvents((await hey(["-p", "remember 42"])).stdout)[0]!.id);
  const file = join(sessionsDir(), `${id}.jsonl`);
  const [header, ...rest] = readFileSync(file, "utf8").split("\n");
  writeFileSync(file, [JSON.stringify({ ...JSON.parse(header!), cwd: "/tmp/\x1b]0;owned\x07x" }), ...rest].join("\n"));
  writeFileSync(join(sessionsDir(), "\x1b[2Jwiped.jsonl"), "\0\0\0\0");
  const list = await runHey(["--sessions", "--all"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(list.stdout).toContain("^[[2Jwiped.jsonl; delete it");
  server.enqueue(textReply("openai", "42"));
  const resumed = await hey(["--resume", id, "-p", "which number?"]);
  expect(resumed.stderr).toContain("this session was started in /tmp/^[]0;owned^Gx;");
  for (const out of [list.stdout, list.stderr, resumed.stderr]) expect(out).not.toContain("\x1b");
});

test("--resume of a session started in another directory says so once on stderr; one of this directory says nothing of the kind", async () => {
  const other = tempDir("hey-other-");
  try {
    const env = { XDG_STATE_HOME: state.path };
    server.enqueue(textReply("openai", "noted"));
    const first = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--output", "json", "-p", "read src/a.ts"], { cwd: other.path, env });
    const id = String(jsonEvents(first.stdout)[0]!.id);
    server.enqueue(textReply("openai", "there"));
    const away = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--resume", id, "-p", "go on"], { cwd: work.path, env });
    expect(away.code).toBe(0);
    const [was, now] = [realpathSync(other.path), realpathSync(work.path)];
    const notice = `hey: this session was started in ${was}; hey works in ${now} now (paths in it may be relative to ${was})\n`;
    expect(away.stderr.split(notice)).toHaveLength(2); // once
    server.enqueue(textReply("openai", "here"));
    const home = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "--resume", id, "-p", "go on"], { cwd: other.path, env });
    expect(home.code).toBe(0);
    expect(home.stderr).not.toContain("was started in");
  } finally {
    other.remove();
  }
});

// Plan mode through dist/hey in tmux: Shift+Tab at the prompt turns it on (the prompt shows
// `plan`), a write the model asks for is refused with plan mode's reason and the file is not made,
// the model is told of the mode in the next message only; Shift+Tab again lets the same write run.
// `hey --plan -p` runs one message so. Before: Shift+Tab did nothing and every tool ran.
import { expect, setDefaultTimeout, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { ALL, answer, lastLine, replTerms, toolCalls } from "./repl-helpers.ts";
import { PLAN_LEFT } from "../../src/permission/plan-mode.ts";
import { PLAN_OFF, PLAN_ON } from "../../src/kernel/user-notes.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();
const { open, start } = replTerms(server);
const work = fileTempDir("hey-plan-");

type Sent = { role: string; content: unknown };
const messagesOf = (i: number) => (server.requests[i]!.body as { messages: Sent[] }).messages;
const text = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));

test("Shift+Tab turns plan mode on: `plan ›`, a write is refused saying how to leave it; Shift+Tab again lets it run", async () => {
  const term = await open({ cwd: work.path });
  const file = join(work.path, "plan.txt");
  await term.type("draft");
  await term.keys("BTab");
  await term.waitFor((s) => lastLine(s) === "plan › draft"); // the line typed stays
  expect(await term.screen(ALL)).toContain("plan mode on");
  await term.keys("C-u");

  const first = server.requests.length;
  server.enqueue(toolCalls([["write_file", { path: "plan.txt", content: "x\n" }]]), answer("Planned."));
  await term.type("write plan.txt");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("Planned.") && lastLine(s) === "plan ›");
  expect(existsSync(file)).toBe(false);
  expect(await term.screen(ALL)).toContain("blocked by plan mode");
  const refused = messagesOf(first + 1).find((m) => m.role === "tool");
  expect(text(refused?.content)).toContain("blocked by plan mode: write_file may change things");
  expect(text(refused?.content)).toContain("until the user turns plan mode off (Shift+Tab or /plan)");
  expect(text(messagesOf(first).at(-1)?.content)).toContain(PLAN_ON); // told once, with the message

  await term.keys("BTab");
  await term.waitFor((s) => lastLine(s) === "›" && s.includes("plan mode off"));
  const second = server.requests.length;
  server.enqueue(toolCalls([["write_file", { path: "plan.txt", content: "x\n" }]]), answer("Written."));
  await term.type("go ahead");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("Written.") && lastLine(s) === "›");
  expect(existsSync(file)).toBe(true);
  const asked = text(messagesOf(second).at(-1)?.content);
  expect(asked).toContain(PLAN_OFF);
  expect(asked).not.toContain(PLAN_ON);
  // the note that plan mode was on is in the history as it was sent: the cached prefix stays the same
  expect(messagesOf(second).some((m) => m.role === "user" && text(m.content).includes(PLAN_ON))).toBe(true);
});

test("/plan turns it on and off as Shift+Tab does; a command that only reads runs in plan mode", async () => {
  const term = await open({ cwd: work.path });
  await term.type("/plan");
  await term.keys("Enter");
  await term.waitFor((s) => lastLine(s) === "plan ›");
  const first = server.requests.length;
  server.enqueue(toolCalls([["bash", { command: "ls -a && git status 2>/dev/null; rm -f nothing.txt" }]]), toolCalls([["bash", { command: "ls -a" }]]));
  server.enqueue(answer("Looked."));
  await term.type("look around");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("Looked.") && lastLine(s) === "plan ›");
  const results = messagesOf(first + 2).filter((m) => m.role === "tool");
  expect(text(results[0]?.content)).toContain("blocked by plan mode: `ls -a && git status 2>/dev/null; rm -f nothing.txt` may change things");
  expect(text(results[1]?.content)).not.toContain("blocked");
  await term.type("/plan off");
  await term.keys("Enter");
  await term.waitFor((s) => lastLine(s) === "›" && s.includes("plan mode off"));
});

test("hey --plan -p: the one message runs in plan mode (a write is refused); hey -p /plan says to use the flag", async () => {
  const file = join(work.path, "once.txt");
  server.enqueue(toolCalls([["write_file", { path: "once.txt", content: "x\n" }]]), answer("A plan."));
  const first = server.requests.length;
  const env = { HOME: work.path };
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "mock-model", "--plan", "-p", "write once.txt"], { cwd: work.path, env });
  expect(run).toMatchObject({ code: 0, stdout: "A plan.\n" });
  expect(existsSync(file)).toBe(false);
  expect(text(messagesOf(first).at(-1)?.content)).toContain(PLAN_ON);
  // the session is listed by what the user asked, not by the note
  const listed = await runHey(["--sessions"], { cwd: work.path, env });
  expect(listed.stdout).toContain("write once.txt");
  expect(listed.stdout).not.toContain("plan mode");
  const command = await runHey(["--base-url", `${server.url}/v1`, "-m", "mock-model", "-p", "/plan"], { cwd: work.path });
  expect(command.code).toBe(2);
  expect(command.stderr).toContain('hey --plan -p "…"');
});

test("hey --plan opens the REPL in plan mode, and /clear keeps it", async () => {
  const term = await start({ cwd: work.path, args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", "--plan"] });
  await term.waitFor((s) => lastLine(s) === "plan ›");
  await term.type("/clear");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("new session") && lastLine(s) === "plan ›");
  const first = server.requests.length;
  server.enqueue(toolCalls([["edit", { path: "x.txt", old_string: "a", new_string: "b" }]]), answer("Proposed."));
  await term.type("fix x.txt");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("Proposed.") && lastLine(s) === "plan ›");
  expect(text(messagesOf(first).at(-1)?.content)).toContain(PLAN_ON); // the new session's model is told too
  expect(text(messagesOf(first + 1).find((m) => m.role === "tool")?.content)).toContain("blocked by plan mode: edit may change things");
});

test("a session left in plan mode: hey -c at the prompt stays in it and says so; a one-shot hey -c -p leaves it and says so", async () => {
  const dir = join(work.path, "resumed");
  mkdirSync(dir);
  const env = { HOME: dir };
  const args = ["--base-url", `${server.url}/v1`, "-m", "mock-model"];
  server.enqueue(answer("A plan."));
  expect((await runHey([...args, "--plan", "-p", "plan it"], { cwd: dir, env })).code).toBe(0);
  const term = await start({ cwd: dir, env, args: [...args, "-c"] });
  await term.waitFor((s) => lastLine(s) === "plan ›");
  expect(await term.screen(ALL)).toContain("this session was in plan mode, and still is");
  await term.type("/quit");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("[exit 0]"));
  server.enqueue(answer("Went on."));
  const first = server.requests.length;
  const once = await runHey([...args, "-c", "-p", "go on"], { cwd: dir, env });
  expect(once).toMatchObject({ code: 0, stdout: "Went on.\n" });
  expect(once.stderr).toContain(PLAN_LEFT);
  expect(text(messagesOf(first).at(-1)?.content)).toContain(PLAN_OFF); // the model hears the mode this run is in
});

test("a session that left plan mode, then was summarized: hey -c -p says nothing of plan mode, hey -c opens out of it", async () => {
  const dir = join(work.path, "summarized");
  const state = join(dir, "state");
  mkdirSync(dir);
  const env = { HOME: dir, XDG_STATE_HOME: state };
  const args = ["--base-url", `${server.url}/v1`, "-m", "mock-model"];
  server.enqueue(answer("A plan."), answer("Done."), answer("Read it."));
  expect((await runHey([...args, "--plan", "-p", "plan it"], { cwd: dir, env })).stderr).not.toContain("plan mode");
  expect((await runHey([...args, "-c", "-p", "go ahead"], { cwd: dir, env })).stderr).toContain(PLAN_LEFT);
  expect((await runHey([...args, "-c", "-p", "read more"], { cwd: dir, env })).stderr).not.toContain("plan mode");
  // a summary of everything after the first message, as hey writes one when the context fills
  const sessions = join(state, "hey", "sessions");
  const [file] = readdirSync(sessions).filter((f) => f.endsWith(".jsonl"));
  const path = join(sessions, file!);
  const ids = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.startsWith('{"type":"message"'))
    .map((l) => (JSON.parse(l) as { message: { id: string } }).message.id);
  const compaction = { type: "compaction", id: "c1", from_id: ids[1], to_id: ids.at(-1), summary: "planned, then fixed it" };
  appendFileSync(path, `${JSON.stringify(compaction)}\n`);
  server.enqueue(answer("Went on."));
  const first = server.requests.length;
  const once = await runHey([...args, "-c", "-p", "go on"], { cwd: dir, env });
  expect(once).toMatchObject({ code: 0, stdout: "Went on.\n" });
  expect(once.stderr).not.toContain("plan mode"); // was: "this session was in plan mode; this run is not"
  expect(text(messagesOf(first).at(-1)?.content)).toContain("go on");
  const term = await start({ cwd: dir, env, args: [...args, "-c"] });
  await term.waitFor((s) => s.includes("resumed session") && lastLine(s) === "›"); // was: `plan ›`, edits refused
  expect(await term.screen(ALL)).not.toContain("plan mode");
});

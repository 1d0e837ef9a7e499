// A session file emptied or cut short while hey writes it (a `: > file`, a log-rotation tool, a
// cleanup script): the writer notices at its next entry and writes back what it knows (writer.ts,
// sessions/shrunk.ts), so `hey -c` finds the whole conversation, or says what was lost.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileReplayServer } from "../helpers/fixtures.ts";
import { textReply, toolCallsReply } from "../helpers/protocol-streams.ts";

const server = fileReplayServer();
const state = eachTempDir("hey-state-");
const work = eachTempDir("hey-work-");

const sessionsDir = () => join(state.path, "hey", "sessions");
const sessionFiles = () => readdirSync(sessionsDir()).filter((f) => f.endsWith(".jsonl"));
const hey = (args: string[]) => runHey(["--base-url", `${server.url}/v1`, "-m", "m", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
type Body = { messages: { role: string; content: string | null }[] };
const contents = () => (server.requests.at(-1)!.body as Body).messages.map((m) => m.content);

test("a session file emptied between two turns of a run is written back whole: `hey -c` sends the whole conversation", async () => {
  const empty = `for f in ${sessionsDir()}/*.jsonl; do : > "$f"; done; echo emptied`;
  server.enqueue(
    toolCallsReply("openai", [{ id: "c1", name: "bash", args: { command: "echo one" } }]),
    toolCallsReply("openai", [{ id: "c2", name: "bash", args: { command: empty } }]),
    textReply("openai", "done"),
  );
  const run = await hey(["-p", "first"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("was emptied while hey was writing it; hey wrote back the 7 lines of this run it had lost; nothing of the session is lost\n");
  expect(sessionFiles()).toHaveLength(1);
  server.enqueue(textReply("openai", "second answer"));
  const next = await hey(["-c", "-p", "second"]);
  expect(next.code).toBe(0);
  expect(next.stderr).toMatch(/^hey: resumed session \S+ \(6 messages loaded\) · cli\/m\n$/);
  expect(contents()).toEqual([expect.any(String), "first", null, expect.stringMatching(/^one\n/), null, expect.stringMatching(/^emptied\n/), "done", "second"]);
  const lines = readFileSync(join(sessionsDir(), sessionFiles()[0]!), "utf8").trimEnd().split("\n");
  expect(JSON.parse(lines[0]!).type).toBe("header");
});

test("a resumed session emptied mid-run: the messages it resumed with and this run's lines are written back, and `hey -c` sends the whole conversation", async () => {
  server.enqueue(textReply("openai", "first answer"));
  expect((await hey(["-p", "first"])).code).toBe(0);
  const file = join(sessionsDir(), sessionFiles()[0]!);
  const header = readFileSync(file, "utf8").split("\n")[0]!;
  const empty = `: > ${file}; echo emptied`;
  server.enqueue(toolCallsReply("openai", [{ id: "c1", name: "bash", args: { command: empty } }]), textReply("openai", "done"));
  const run = await hey(["-c", "-p", "second"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    `hey: ${file} was emptied while hey was writing it; hey wrote back the 2 messages this run resumed with and the 4 lines of this run it had lost, which \`hey -c\` goes on from; what a resume does not load (older messages, the earlier runs' usage records) is lost\n`,
  );
  expect(readFileSync(file, "utf8").split("\n")[0]).toBe(header); // the session keeps its id, directory and date
  server.enqueue(textReply("openai", "third answer"));
  const next = await hey(["-c", "-p", "third"]);
  expect(next.code).toBe(0);
  expect(next.stderr).toMatch(/^hey: resumed session \S+ \(6 messages loaded\) · cli\/m\n$/);
  expect(contents()).toEqual([expect.any(String), "first", "first answer", "second", null, expect.stringMatching(/^emptied\n/), "done", "third"]);
});

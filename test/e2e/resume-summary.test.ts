// Resume keeps the latest summary (issue 10 item 1, SPEC §19): a session whose last summary
// covers messages before the ~500-message resume window is resumed through dist/hey, and the
// summary is followed from the session file into the request body: first prompt + summary + the
// messages after it, and never a re-summary of what the summary already covers.
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { recordEarlierRun } from "../helpers/earlier-run.ts";
import { writeBigSession, type BigSession, type SummaryAt } from "../helpers/big-session.ts";
import { startModelServer, textOf, type ChatRequest } from "../helpers/model-server.ts";

const isSummary = (req: ChatRequest) => !req.tools?.length;
const model = startModelServer((req) => ({ text: isSummary(req) ? "NEW SUMMARY: parser refactor, steps 1-200 done." : "Continuing." }));
afterAll(() => model.stop());
let state: ReturnType<typeof tempDir>;
let work: ReturnType<typeof tempDir>;
beforeEach(() => {
  state = tempDir("hey-state-");
  work = tempDir("hey-work-");
  model.requests.length = 0;
});
afterEach(() => {
  state.remove();
  work.remove();
});

/** A 701-message session of the work directory with one summary, saved where `-c` finds it. */
function session(summary: SummaryAt): BigSession {
  const dir = join(state.path, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, "writing.tmp");
  const s = writeBigSession(tmp, { messages: 701, keepTail: 701, summary, cwd: work.path });
  const id = (JSON.parse(readFileSync(tmp, "utf8").split("\n", 1)[0]!) as { id: string }).id;
  renameSync(tmp, join(dir, `${id}.jsonl`));
  recordEarlierRun(state.path); // the record the run that wrote it left (its config: hey.toml, named with --config each time)
  return s;
}
const resume = (budget: number) => {
  const cfg = join(work.path, "hey.toml");
  writeFileSync(cfg, `[agent]\nbudget_tokens = ${budget}\n`);
  return runHey(["--base-url", model.baseUrl, "-m", "m", "--config", cfg, "-c", "-p", "next step"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
};
/** The call ids whose results a request carries. */
const resultIds = (req: ChatRequest) => new Set(req.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id!));
/** The call ids of the session's tool results from message 2 up to the summary's last message. */
const covered = (s: BigSession) => {
  const end = s.tail.findIndex((m) => m.id === s.summaries[0]!.toId);
  return { ids: s.tail.slice(1, end + 1).flatMap((m) => (m.role === "tool" ? [m.toolCallId!] : [])), after: s.tail.slice(end + 1) };
};

test("a summary of messages 2–400 of 701: the request is first prompt + summary + 401–701, in one request", async () => {
  const s = session({ from: 2, to: 400, after: 410 });
  const run = await resume(1_000_000);
  expect(run).toMatchObject({ code: 0, stdout: "Continuing.\n" });
  expect(model.requests).toHaveLength(1);
  const [req] = model.requests;
  expect(textOf(req!.messages[1])).toStartWith("first prompt: refactor the parser.");
  expect(textOf(req!.messages[2])).toBe(`[summary of earlier work]\n${s.summaries[0]!.text}`);
  const { ids, after } = covered(s);
  const sent = resultIds(req!);
  expect(ids.filter((id) => sent.has(id))).toEqual([]); // 201–400 are not sent raw
  expect(after.filter((m) => m.role === "tool").every((m) => sent.has(m.toolCallId!))).toBe(true);
  expect(textOf(req!.messages.at(-1))).toBe("next step");
});

test("a summary written long before the window: it opens the request, then the window", async () => {
  const s = session({ from: 2, to: 150, after: 160 });
  expect((await resume(1_000_000)).code).toBe(0);
  expect(model.requests).toHaveLength(1);
  expect(textOf(model.requests[0]!.messages[2])).toBe(`[summary of earlier work]\n${s.summaries[0]!.text}`);
});

test("over budget after the summary: the new summary is made from the old one and what follows it, never from what it covered", async () => {
  const s = session({ from: 2, to: 400, after: 410 });
  const run = await resume(10_000);
  expect(run.code).toBe(0);
  const [summarize, chat] = model.requests;
  expect(isSummary(summarize!)).toBe(true);
  const transcript = textOf(summarize!.messages.at(-1));
  expect(transcript).toContain(s.summaries[0]!.text); // the old summary is carried on
  for (const id of covered(s).ids) expect(transcript).not.toContain(`output of ${id}\n`);
  expect(chat!.messages.map(textOf).some((t) => t.includes("NEW SUMMARY"))).toBe(true);
  expect(chat!.messages.map(textOf).some((t) => t.includes(s.summaries[0]!.text))).toBe(false); // replaced by the new one
});

// Through dist/hey: `.hey/task.md` written once, early, by the agent, whose write a summary then takes (r2 #1). The live run
// sends the note after the summary; `hey -c` loads the summary in place of the write, and took the note for another
// conversation's: every request of the resumed run after a rebuilt prefix (its own summary here, the first after the cache's
// lifetime) left it out, and an older hey's session lost it from the first. Now the session's lines say it is its own.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SUMMARY_ASK_START } from "../../src/context/summary-cached.ts";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf, textOf, type ChatRequest, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(240_000); // the first test may build dist/hey

const NOTE = "# Plan\n\nGOAL: the real goal NOTE-MARKER-7\n- [ ] read every file\n";
const isSummary = (req: ChatRequest) => systemOf(req).startsWith("You compress") || textOf(req.messages.at(-1)).includes(SUMMARY_ASK_START);
let step = 0;
/** `NOTEONCE`: the first step writes the note; then `ROUNDS=N` reads of 2 KB files, then an answer. */
function decide(req: ChatRequest): Turn {
  if (isSummary(req)) return { text: "SUMMARY: files were read." };
  if (req.messages.at(-1)?.role === "user") step = 0;
  const task = textOf(req.messages.findLast((m) => m.role === "user" && /ROUNDS=/.test(textOf(m))));
  const rounds = Number(/ROUNDS=(\d+)/.exec(task)?.[1] ?? 0);
  const now = step++;
  if (task.includes("NOTEONCE") && now === 0) return { calls: [["write_file", { path: ".hey/task.md", content: NOTE }]] };
  if (now < rounds) return { calls: [["read_file", { path: `f${now % 30}.txt` }]] };
  return { text: `Done: ${task.slice(0, 20)}` };
}
const model = fileModelServer(decide);
const project = eachTempDir();
const state = eachTempDir();

async function run(...args: string[]): Promise<void> {
  const env = { XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") };
  const r = await runHey([...args, "--max-turns", "100"], { cwd: project.path, env, timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(r.stderr.slice(-800));
}

/** The first run: the note written at its first step, then 30 reads over a 6,000-token budget: summaries take the write. */
async function firstRun(): Promise<void> {
  for (let k = 0; k < 30; k++)
    writeFileSync(join(project.path, `f${k}.txt`), `${Array.from({ length: 40 }, (_, i) => `file ${k} row ${i} ${"abcde".repeat(8)}`).join("\n")}\n`);
  mkdirSync(join(state.path, "config", "hey"), { recursive: true });
  const provider = `[provider.mock]\nbase_url = "${model.baseUrl}"\nprotocol = "openai"\napi_key = "k"\nmodels = ["m"]\ncontext_window = 200000\n`;
  writeFileSync(join(state.path, "config", "hey", "config.toml"), `[default]\nmodel = "mock/m"\n[agent]\nbudget_tokens = 6000\n${provider}`);
  step = 0;
  model.requests.length = 0;
  await run("-p", "task G: NOTEONCE ROUNDS=30 read the files");
}

const agentRequests = () => model.requests.filter((r) => !isSummary(r));
/** The task note request `req` sends, undefined when none. */
const noteOf = (req: ChatRequest) => req.messages.map(textOf).find((t) => t.startsWith("[task notes from .hey/task.md"));
const writesNote = (req: ChatRequest) => req.messages.some((m) => m.tool_calls?.some((c) => c.function.arguments.includes(".hey/task.md")));
/** The requests of the run whose prompt begins with `task` (the agent's, not summaries). */
const runOf = (task: string) => {
  const all = agentRequests();
  const first = all.findIndex((r) => textOf(r.messages.at(-1)).startsWith(task));
  const next = all.findIndex((r, i) => i > first && r.messages.at(-1)?.role === "user" && !textOf(r.messages.at(-1)).startsWith(task));
  return all.slice(first, next < 0 ? undefined : next);
};
/** Whether request `later` repeats every message of `earlier` but its last (whose end carries the context line). */
const repeats = (later: ChatRequest, earlier: ChatRequest) =>
  JSON.stringify(later.messages.slice(0, earlier.messages.length - 1)) === JSON.stringify(earlier.messages.slice(0, -1));
const sessionFile = () => {
  const dir = join(state.path, "hey", "sessions");
  return join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!);
};

test("hey -c after a summary took the agent's write of the note sends the note in every request, the file as edited since after its own summary", async () => {
  await firstRun();
  const live = runOf("task G");
  const lastLive = live.at(-1)!;
  expect(noteOf(lastLive)).toContain("NOTE-MARKER-7"); // the live run sends it after its summaries
  expect(writesNote(lastLive)).toBe(false); // a summary took the write
  writeFileSync(join(project.path, ".hey", "task.md"), `${NOTE}- [x] USER-EDIT-MARKER\n`); // the user edits it between the runs

  await run("-c", "-p", "task H: ROUNDS=30 go on");
  const resumed = runOf("task H");
  const summaries = model.requests.filter(isSummary).length;
  expect(resumed.length).toBe(31);
  expect(resumed.filter((r) => noteOf(r) === undefined)).toHaveLength(0); // before: 27 of 31 without it
  expect(repeats(resumed[0]!, lastLive)).toBe(true); // the first goes on from the last request's prefix, its held note
  expect(noteOf(resumed[0]!)).not.toContain("USER-EDIT-MARKER");
  // the resumed run summarized again: the prefix rebuilt there reads the file as it is now
  expect(summaries).toBeGreaterThan(1);
  expect(noteOf(resumed.at(-1)!)).toContain("USER-EDIT-MARKER");
});

test("a note deleted between the runs is not sent again once the resumed run rebuilds its prefix", async () => {
  await firstRun();
  rmSync(join(project.path, ".hey", "task.md"));
  await run("-c", "-p", "task H: ROUNDS=30 go on");
  const resumed = runOf("task H");
  expect(noteOf(resumed[0]!)).toContain("NOTE-MARKER-7"); // held as the last request sent it, for its cached prefix
  expect(noteOf(resumed.at(-1)!)).toBeUndefined();
});

test("an older hey's session (no task_note on its usage lines) goes on with the note from the first resumed request", async () => {
  await firstRun();
  const lastLive = runOf("task G").at(-1)!;
  const file = sessionFile();
  writeFileSync(file, readFileSync(file, "utf8").replace(/,"task_note":"(?:[^"\\]|\\.)*"/g, ""));
  expect(readFileSync(file, "utf8")).not.toContain("task_note");
  await run("-c", "-p", "task H: ROUNDS=2 go on");
  const resumed = runOf("task H");
  expect(resumed).toHaveLength(3);
  expect(resumed.filter((r) => noteOf(r)?.includes("NOTE-MARKER-7"))).toHaveLength(3); // before: none of the 3
  expect(repeats(resumed[0]!, lastLive)).toBe(true); // the older hey sent the file's note: the replay holds it, the prefix is kept
});

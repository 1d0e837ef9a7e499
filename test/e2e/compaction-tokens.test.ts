// `compaction` events through dist/hey (docs/json-events.md): a summary and a trim of the same
// request say the same `tokens_before` — the whole context the request would have held, system
// prompt and tools included, over the budget — and `tokens_after` is what it then holds.
import { beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { summarizingModel, writeReadingSession } from "../helpers/reading-session.ts";

const BUDGET = 3000;
let refuseSummaries = false;
const model = fileModelServer(summarizingModel(() => refuseSummaries));
const work = eachTempDir();
const state = eachTempDir();
beforeEach(() => writeFileSync(join(work.path, "hey.toml"), `[agent]\nbudget_tokens = ${BUDGET}\n`));

/** A session of the work directory, well over BUDGET: eight 3 KB file reads. The same history whatever `id`. */
const session = (id: string) => writeReadingSession(state.path, work.path, id);

const resume = async (id: string) => {
  session(id);
  const run = await runHey(
    ["--base-url", model.baseUrl, "-m", "m", "--config", join(work.path, "hey.toml"), "--output", "json", "--resume", id, "-p", "go on"],
    {
      cwd: work.path,
      env: { XDG_STATE_HOME: state.path },
    },
  );
  expect(run.code).toBe(0);
  return jsonEvents(run.stdout).filter((e) => e.type === "compaction");
};

test("a summary and a trim of the same request report the same tokens_before, the whole context over the budget", async () => {
  refuseSummaries = false;
  const [summary] = await resume(newId());
  refuseSummaries = true;
  const [trim] = await resume(newId());
  expect(summary).toMatchObject({ kind: "summary", summary: "Summary: read f0 to f7." });
  expect(trim).toMatchObject({ kind: "trim", error: expect.stringContaining("no summaries today") });
  const before = Number(summary!.tokens_before);
  expect(before).toBeGreaterThan(BUDGET); // what made hey compact: not the summarizer's transcript
  expect(trim!.tokens_before).toBe(before);
  for (const e of [summary!, trim!]) {
    expect(Number(e.tokens_after)).toBeLessThanOrEqual(BUDGET);
    // the system prompt and tools are in both numbers: far more than the summary's own few tokens
    expect(Number(e.tokens_after)).toBeGreaterThan(500);
  }
});

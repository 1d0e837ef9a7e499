// `.hey/task.md` after a compaction, through dist/hey (SPEC §10): hand-offs are appended, so the
// newest is at the end of a long note; the note injected keeps that end (and the `# Task` heading)
// within a share of the budget, and the `compaction` events never report the context growing.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf } from "../helpers/model-server.ts";
import { summarizingModel, writeReadingSession } from "../helpers/reading-session.ts";

const BUDGET = 3000;
let refuseSummaries = false;
const model = fileModelServer(summarizingModel(() => refuseSummaries));
const work = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  writeFileSync(join(work.path, "hey.toml"), `[agent]\nbudget_tokens = ${BUDGET}\n`);
  mkdirSync(join(work.path, ".hey"), { recursive: true });
  const older = Array.from({ length: 40 }, (_, i) => `## Stopped at the turn limit (${i})\n\nRemaining: old step ${i} ${"y".repeat(1000)}\n`);
  writeFileSync(
    join(work.path, ".hey", "task.md"),
    `# Task\n\nrefactor the parser\n\n${older.join("\n")}\n## Stopped at the turn limit (last)\n\nNEWEST-HANDOFF-MARKER Remaining: fix parser.c line 42\n`,
  );
});

/** A session of the work directory, well over BUDGET: eight 3 KB file reads. The same history whatever `id`. */
const session = (id: string) => writeReadingSession(state.path, work.path, id);

test("after a summary or a trim, the request holds the newest hand-off and fits the budget, and the events say so", async () => {
  for (const refuse of [false, true]) {
    refuseSummaries = refuse;
    model.requests.length = 0;
    const id = newId();
    session(id);
    const run = await runHey(
      ["--base-url", model.baseUrl, "-m", "m", "--config", join(work.path, "hey.toml"), "--output", "json", "--resume", id, "-p", "go on"],
      { cwd: work.path, env: { XDG_STATE_HOME: state.path } },
    );
    expect(run.code).toBe(0);
    const sent = JSON.stringify(model.requests.filter((r) => !systemOf(r).startsWith("You compress")).at(-1));
    expect(sent).toContain("NEWEST-HANDOFF-MARKER Remaining: fix parser.c line 42");
    expect(sent).toContain(
      "[task notes from .hey/task.md as of the last compaction; changes made since are in the calls below]\\n# Task\\n\\nrefactor the parser\\n\\n[… about ",
    );
    expect(sent).toContain("KB of older notes left out to fit the context budget; .hey/task.md has all of it …]");
    expect(sent).not.toContain("old step 0 ");
    const [compaction] = jsonEvents(run.stdout).filter((e) => e.type === "compaction");
    expect(compaction).toMatchObject({ kind: refuse ? "trim" : "summary" });
    expect(Number(compaction!.tokens_after)).toBeLessThanOrEqual(BUDGET);
    expect(Number(compaction!.tokens_after)).toBeLessThan(Number(compaction!.tokens_before));
  }
});

test("a note whose hand-off is another task's is not re-injected into this conversation (a resumed session of another task)", async () => {
  refuseSummaries = false;
  model.requests.length = 0;
  const id = newId();
  writeReadingSession(state.path, work.path, id, "write the release notes");
  const args = ["--base-url", model.baseUrl, "-m", "m", "--config", join(work.path, "hey.toml"), "--output", "json", "--resume", id, "-p"];
  const run = await runHey([...args, "go on"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).some((e) => e.type === "compaction")).toBe(true);
  const agentRequests = () => model.requests.filter((r) => !systemOf(r).startsWith("You compress"));
  // the parser's hand-off would cost a fifth of the budget and send the model back to an old task
  expect(JSON.stringify(agentRequests())).not.toContain("NEWEST-HANDOFF-MARKER");
});

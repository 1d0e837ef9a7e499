// `.hey/task.md` is read again for each request of a run (f122b): what start-up shares is what it
// read before the first request, never the note, so a note the agent changes during the run is
// what the next request holds, through dist/hey.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf } from "../helpers/model-server.ts";
import { writeReadingSession } from "../helpers/reading-session.ts";

const work = eachTempDir();
const state = eachTempDir();
const model = fileModelServer((req) => {
  if (systemOf(req).startsWith("You compress")) return { text: "Summary: read f0 to f7." };
  // the agent's first request: it adds a step to the note; the one after its result: it answers
  if (req.messages.at(-1)?.role !== "tool") return { calls: [["bash", { command: "printf '\\n- [ ] STEP-TWO-MARKER\\n' >> .hey/task.md" }]] };
  return { text: "Noted." };
});
beforeEach(() => {
  writeFileSync(join(work.path, "hey.toml"), "[agent]\nbudget_tokens = 3000\n"); // the reading session is over it: the note is re-injected
  mkdirSync(join(work.path, ".hey"), { recursive: true });
  writeFileSync(join(work.path, ".hey", "task.md"), "# Task\n\nrefactor the parser\n\n- [x] STEP-ONE-MARKER\n");
});

test("a task note the agent changes during a run is what the run's next request holds", async () => {
  const id = newId();
  writeReadingSession(state.path, work.path, id);
  const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "--config", join(work.path, "hey.toml"), "--resume", id, "-p", "go on"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
  });
  expect(run.code).toBe(0);
  const sent = model.requests.filter((r) => !systemOf(r).startsWith("You compress")).map((r) => JSON.stringify(r.messages));
  expect(sent).toHaveLength(2);
  expect(sent[0]).toContain("STEP-ONE-MARKER");
  expect(sent[0]).not.toContain("STEP-TWO-MARKER");
  expect(sent[1]).toContain("- [x] STEP-ONE-MARKER\\n\\n- [ ] STEP-TWO-MARKER");
});

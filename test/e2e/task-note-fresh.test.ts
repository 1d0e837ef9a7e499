// `.hey/task.md` is read for the request that brings it in (here the first after a summary), not at
// start-up (f122b), and then held: a note the agent changes during the run is in its own call at the
// end of the next request, whose prefix — the note included — repeats the previous request's, so the
// provider's cache serves it (x4 #1); `hey -c` sends the held note again. Through dist/hey.
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
  // the agent's first request of a prompt: it adds a step to the note; the one after its result: it answers
  if (req.messages.at(-1)?.role !== "tool") return { calls: [["bash", { command: "printf '\\n- [ ] STEP-TWO-MARKER\\n' >> .hey/task.md" }]] };
  return { text: "Noted." };
});
beforeEach(() => {
  writeFileSync(join(work.path, "hey.toml"), "[agent]\nbudget_tokens = 3000\n"); // the reading session is over it: the note is re-injected
  mkdirSync(join(work.path, ".hey"), { recursive: true });
  writeFileSync(join(work.path, ".hey", "task.md"), "# Task\n\nrefactor the parser\n\n- [x] STEP-ONE-MARKER\n");
});

const noteOf = (messages: string) => JSON.parse(messages).find((m: { content: string }) => String(m.content).startsWith("[task notes"))?.content as string;

/** Whether request `later` repeats every message of `earlier` but its last (whose end carries the `Context:` line) as it was sent. */
const repeats = (later: string, earlier: string) => {
  const [a, b] = [JSON.parse(earlier) as unknown[], JSON.parse(later) as unknown[]];
  return JSON.stringify(b.slice(0, a.length - 1)) === JSON.stringify(a.slice(0, -1));
};

test("a task note the agent changes during a run is held in the next request's prefix, its change in the call at the end; hey -c sends it again", async () => {
  const id = newId();
  writeReadingSession(state.path, work.path, id);
  const hey = (prompt: string, ...flags: string[]) =>
    runHey(["--base-url", model.baseUrl, "-m", "m", "--config", join(work.path, "hey.toml"), ...flags, "-p", prompt], {
      cwd: work.path,
      env: { XDG_STATE_HOME: state.path },
    });
  expect((await hey("go on", "--resume", id)).code).toBe(0);
  const sent = () => model.requests.filter((r) => !systemOf(r).startsWith("You compress")).map((r) => JSON.stringify(r.messages));
  const [first, second] = sent();
  expect(sent()).toHaveLength(2);
  expect(noteOf(first!)).toContain("STEP-ONE-MARKER"); // read for the request, not at start-up
  expect(noteOf(first!)).not.toContain("STEP-TWO-MARKER");
  expect(repeats(second!, first!)).toBe(true);
  expect(noteOf(second!)).toBe(noteOf(first!));
  expect(second!.slice(first!.length)).toContain("STEP-TWO-MARKER"); // the change, in the agent's own call

  expect((await hey("next", "-c")).code).toBe(0);
  const third = sent()[2]!;
  expect(repeats(third, second!)).toBe(true); // the resumed run goes on from the held note, not the file's newer text
});

// A session that began in plan mode and left it, then had its older work summarized: the summary
// took the message that said "plan mode is off", while the first message (kept before the summary)
// still says it is on. Loaded back, the session is out of plan mode: `hey -c` does not say it was in
// it, and the next message does not tell the model "plan mode is off" again. Before (x103): it
// resumed in plan mode at the prompt and re-sent the note after every summary.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId, type Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { PLAN_OFF, PLAN_ON } from "../../src/kernel/user-notes.ts";
import { planNote } from "../../src/permission/plan-mode.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";

const root = mkdtempSync(join(tmpdir(), "hey-plan-summary-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const user = (...texts: string[]): Message => ({ id: newId(), role: "user", content: texts.map((text) => ({ type: "text", text })) });
const answer = (text: string): Message => ({ id: newId(), role: "assistant", content: [{ type: "text", text }] });

function sessionLog(messages: Message[], summarized: { from: Message; to: Message } | undefined): string {
  const w = createSessionWriter({
    dir: root,
    id: newId(),
    cwd: "/work/p",
    version: "9.9.9",
    warn: (m) => {
      throw new Error(m);
    },
  });
  w.model("openai", "gpt-test");
  for (const m of messages) w.emit({ type: "message", message: m });
  if (summarized)
    w.emit({ type: "compaction", kind: "summary", from_id: summarized.from.id, to_id: summarized.to.id, summary: "read the files" } as unknown as AgentEvent);
  w.close();
  return w.path;
}

const planned = user(PLAN_ON, "plan the fix");
const left = user(PLAN_OFF, "go ahead");
const history = [planned, answer("a plan"), left, answer("done"), user("read big.txt"), answer("read it"), user("and the next"), answer("ok")];

test("on, off, then a summary of the 'off': the loaded session is out of plan mode and is not told so again", () => {
  const loaded = loadSession(sessionLog(history, { from: history[1]!, to: history[5]! }));
  expect(loaded.messages.map((m) => m.id)).not.toContain(left.id); // the summary stands for it
  expect(planNote(true, loaded.messages)).toBe(PLAN_ON); // run.ts: `hey -c` is not said to have been in plan mode
  expect(planNote(false, loaded.messages)).toBeUndefined(); // no "plan mode is off" again
});

test("without a summary the same log reads as before: on, then off", () => {
  const loaded = loadSession(sessionLog(history, undefined));
  expect(planNote(true, loaded.messages)).toBe(PLAN_ON);
  expect(planNote(false, loaded.messages)).toBeUndefined();
  const stillPlanning = loadSession(sessionLog([planned, answer("a plan")], undefined));
  expect(planNote(true, stillPlanning.messages)).toBeUndefined(); // left in plan mode: `hey -c` stays in it
});

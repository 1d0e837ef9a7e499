// A session that began in plan mode and left it, then had its older work summarized: the summary
// took the message that said "plan mode is off", while the first message (kept before the summary)
// still says it is on. Loaded back, the session is out of plan mode: `hey -c` does not say it was in
// it. Before (x103): it resumed in plan mode at the prompt, and `hey -c -p` warned that it was.
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
const summaryOf = (from: Message, to: Message) => ({ from, to });

test("on, off, then a summary of the 'off': the loaded session was left out of plan mode", () => {
  const loaded = loadSession(sessionLog(history, summaryOf(history[1]!, history[5]!)));
  expect(loaded.messages.map((m) => m.id)).not.toContain(left.id); // the summary stands for it
  expect(loaded.plan).toBe(false); // run.ts: `hey -c` neither stays in plan mode nor says it was in it
  // what the model is sent still says "on" (the first message) and nothing after: it is told "off" once more
  expect(planNote(false, loaded.messages)).toBe(PLAN_OFF);
});

test("on, then a summary while still planning: the loaded session was left in plan mode", () => {
  const planning = [planned, answer("a plan"), user("read big.txt"), answer("read it"), user("and the next"), answer("ok")];
  expect(loadSession(sessionLog(planning, summaryOf(planning[1]!, planning[3]!))).plan).toBe(true);
  // turned on after the first message, and the summary took that message too: still on
  const later = [user("look around"), answer("ok"), user(PLAN_ON, "now plan"), answer("a plan"), user("more"), answer("ok")];
  expect(loadSession(sessionLog(later, summaryOf(later[1]!, later[3]!))).plan).toBe(true);
});

test("without a summary the same log reads as before; a session that never used plan mode says nothing", () => {
  expect(loadSession(sessionLog(history, undefined)).plan).toBe(false);
  expect(loadSession(sessionLog([planned, answer("a plan")], undefined)).plan).toBe(true);
  expect(loadSession(sessionLog([user("hi"), answer("hello")], undefined)).plan).toBeUndefined();
  // a tool result that quotes a note (a session file read back) is no note
  expect(
    loadSession(
      sessionLog(
        [
          user("hi"),
          {
            ...answer("reading"),
            role: "tool",
            toolCallId: "c1",
            toolName: "read_file",
            isError: false,
            content: [{ type: "text", text: PLAN_ON }],
          } as Message,
        ],
        undefined,
      ),
    ).plan,
  ).toBeUndefined();
});

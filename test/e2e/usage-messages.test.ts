// `/usage` after a resume counts the session's messages, not the 500 or more a resume loads (SPEC §19
// reads big sessions from the tail): the file's messages before this run, and this run's.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId, type Message } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";

const model = fileModelServer(() => ({ text: "Noted." }));
const work = eachTempDir();
const state = eachTempDir();
const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });

/** A session of the work directory with `exchanges` user/assistant pairs. */
function session(exchanges: number): void {
  const dir = join(state.path, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  const id = newId();
  const lines = [toLine({ type: "header", id, cwd: work.path, created: new Date().toISOString(), version: "0.1.0" })];
  const add = (m: Message) => lines.push(toLine({ type: "message", message: m }));
  for (let i = 0; i < exchanges; i++) {
    add({ id: newId(), role: "user", content: [{ type: "text", text: `step ${i}` }] });
    add({ id: newId(), role: "assistant", content: [{ type: "text", text: `did step ${i}` }] });
  }
  writeFileSync(join(dir, `${id}.jsonl`), lines.join(""));
}

test("after -c of a session longer than resume loads, /usage says how many messages the session has", async () => {
  session(1000); // 2,000 messages: more than the 1,500 a resume loads at most
  const usage = await hey(["-c", "-p", "/usage"]);
  expect(usage.code).toBe(0);
  const loaded = Number(/· 2,000 messages in the session \((\d+) in this run's history\)$/m.exec(usage.stdout)?.[1]);
  expect(loaded).toBeGreaterThanOrEqual(501); // the first prompt and the last 500 at least
  expect(loaded).toBeLessThanOrEqual(1501);
  expect((await hey(["-c", "-p", "one more"])).code).toBe(0);
  const again = Number(/· 2,002 messages in the session \((\d+) in this run's history\)$/m.exec((await hey(["-c", "-p", "/usage"])).stdout)?.[1]);
  expect(again).toBeGreaterThanOrEqual(501);
  expect(again).toBeLessThanOrEqual(1503);
});

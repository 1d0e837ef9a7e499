// What the session writer holds on to (SPEC §22: a 500-turn session within 150 MB): it keeps
// this run's lines to write back should the file be emptied under it (shrunk.ts), but not a second
// copy of their text — the messages are in the conversation already.
import { afterAll, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { readFileSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { tempDir } from "../helpers/e2e.ts";

const dir = tempDir("hey-writer-memory-");
afterAll(() => dir.remove());

const heap = () => {
  Bun.gc(true);
  return heapStats().heapSize;
};

test("a long run's lines are not kept twice in memory, and still come back when the file is emptied", () => {
  const warnings: string[] = [];
  const w = createSessionWriter({ dir: join(dir.path, "sessions"), id: newId(), cwd: "/p", version: "1", warn: (m) => warnings.push(m) });
  const conversation: Message[] = []; // the agent holds its messages: the writer's copy would be the second
  const MESSAGES = 64;
  for (let i = 0; i < MESSAGES; i++) conversation.push(userMessage(`${i} `.padEnd(256 * 1024, String.fromCharCode(97 + (i % 26)))));
  w.emit({ type: "message", message: conversation[0]! });
  const before = heap();
  for (const message of conversation.slice(1)) w.emit({ type: "message", message });
  const grown = heap() - before;
  expect(grown).toBeLessThan(4 * 1024 * 1024); // 16 MB of lines written: the text was held again
  w.sync();
  truncateSync(w.path, 0);
  w.emit({ type: "message", message: userMessage("after") });
  w.close();
  const lines = readFileSync(w.path, "utf8").trimEnd().split("\n");
  expect(lines.length).toBe(1 + MESSAGES + 1);
  expect(JSON.parse(lines[MESSAGES]!).message).toEqual(conversation.at(-1));
  expect(warnings).toHaveLength(1);
});

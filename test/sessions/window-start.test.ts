// Where a resume's window starts when its messages are short (x167 #1): the start stays put from run to run.
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../src/kernel/ir.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { strideFor, WINDOW_STRIDE } from "../../src/sessions/window-stride.ts";

const dir = mkdtempSync(join(tmpdir(), "hey-window-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (message: object) => `${JSON.stringify({ type: "message", message })}\n`;
let calls = 0;
/** a short tool exchange, as a loop of ls and grep writes: ~260 bytes a message */
const exchange = () => {
  const id = `call${calls++}`;
  return (
    line({ id: newId(), role: "assistant", content: [{ type: "text", text: "ok" }], toolCalls: [{ id, name: "bash", arguments: '{"command":"ls"}' }] }) +
    line({ id: newId(), role: "tool", toolCallId: id, toolName: "bash", isError: false, content: [{ type: "text", text: "a.ts b.ts c.ts" }] })
  );
};

test("each hey -c of a session of short tool exchanges starts where the one before did, not 1,500 messages back each time (x167 #1)", () => {
  const path = join(dir, "short.jsonl");
  writeFileSync(path, `${JSON.stringify({ type: "header", id: newId(), cwd: "/p", created: new Date().toISOString(), version: "1" })}\n`);
  appendFileSync(path, line({ id: newId(), role: "user", content: [{ type: "text", text: "tidy the repo" }] }));
  appendFileSync(path, Array.from({ length: 1500 }, exchange).join(""));
  const starts: string[] = [];
  for (let run = 0; run < 30; run++) {
    appendFileSync(path, Array.from({ length: 5 }, exchange).join("")); // 10 messages a run
    const loaded = loadSession(path);
    starts.push(loaded.messages[1]!.id); // after the first prompt
    expect(loaded.messages.length).toBeGreaterThan(500);
    expect(loaded.messages[1]!.role).toBe("assistant"); // never a result without its call
  }
  expect(new Set(starts).size).toBeLessThanOrEqual(2); // the old start moved with every run: 30 of 30
});

test.each([
  [2_000, WINDOW_STRIDE], // typical messages: the 1 MB stride
  [1_100, WINDOW_STRIDE],
  [1_000, WINDOW_STRIDE / 2],
  [300, WINDOW_STRIDE / 4],
  [260, 128 * 1024],
  [100, 64 * 1024],
  [0, 1],
])("a window of %p-byte messages snaps to a stride of %p bytes", (average, stride) => {
  expect(strideFor(average)).toBe(stride);
});

test("a smaller stride asked for stays the most", () => {
  expect(strideFor(2_000, 128 * 1024)).toBe(128 * 1024);
});

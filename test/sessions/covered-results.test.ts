// Resume passes over a summarized range looking for the results that read_file notes point at
// (reader.ts). Each line is looked at once for the call id its result names, however many notes
// wait (x98: one search per note made 240 notes over a 30 MB range cost 0.4–0.8 s), and only a
// real result's id counts: words that mention one inside a message do not.
import { expect, test } from "bun:test";
import { coveredEntry, toLine } from "../../src/sessions/format.ts";
import { resultCallId } from "../../src/sessions/pointed-at.ts";
import type { Message } from "../../src/kernel/ir.ts";

const lineOf = (message: Message) => {
  const buf = Buffer.from(toLine({ type: "message", message }).trimEnd());
  return { buf, start: 0, end: buf.length, offset: 0, terminated: true };
};
const result = (callId: string, text: string): Message => ({
  id: `r-${callId}`,
  role: "tool",
  toolCallId: callId,
  toolName: "read_file",
  content: [{ type: "text", text }],
});

test.each([
  ["c1", "lines"],
  ['odd"id\\x', "lines"],
  ["call_9", 'a file that says "toolCallId":"c1" in its text'],
])("a result line names its call %p, read from its bytes", (id, text) => {
  const line = lineOf(result(id, text));
  expect(resultCallId(line.buf)).toBe(id);
});

test("a message that only mentions a call id in its words is no result of it", () => {
  const line = lineOf({ id: "u1", role: "user", content: [{ type: "text", text: '{"toolCallId":"c1"}' }] });
  expect(resultCallId(line.buf)).toBeUndefined();
  const wanted = new Set(["c1"]);
  expect(coveredEntry(line, [], (bytes) => wanted.has(resultCallId(bytes) ?? ""))).toBeUndefined();
});

test("among thousands of wanted results, a line holding one is found and the others pass", () => {
  const wanted = new Set(Array.from({ length: 5_000 }, (_, i) => `n${i}`));
  const take = (bytes: Buffer) => wanted.has(resultCallId(bytes) ?? "");
  expect(coveredEntry(lineOf(result("n4999", "lines of a.ts")), [], take)).toMatchObject({ type: "message", message: { toolCallId: "n4999" } });
  expect(coveredEntry(lineOf(result("other", "lines of b.ts")), [], take)).toBeUndefined();
});

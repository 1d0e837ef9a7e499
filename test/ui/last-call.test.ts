// `/last` finds the previous tool call and, for bash, the full-output file it named
// (ui/last-call.ts) — only bash's own last line, only inside hey's outputs folder.
import { expect, test } from "bun:test";
import type { Message } from "../../src/kernel/ir.ts";
import { lastCall } from "../../src/ui/last-call.ts";

const OUT = "/h/.cache/hey/outputs";
const call = (id: string, name: string, args: object): Message => ({
  id: `a${id}`,
  role: "assistant",
  content: [],
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});
const result = (id: string, name: string, text: string): Message => ({
  id: `r${id}`,
  role: "tool",
  toolCallId: id,
  toolName: name,
  content: [{ type: "text", text }],
});

test("none before any tool call", () => {
  expect(lastCall([{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }], OUT)).toBeUndefined();
});

test("the last result, with its call's line; bash's full-output file when its last line names one in the outputs folder", () => {
  const file = `${OUT}/s1/c2.log`;
  const messages = [
    call("1", "read_file", { path: "a.ts" }),
    result("1", "read_file", "1\tx"),
    call("2", "bash", { command: "npm test" }),
    result("2", "bash", `[output filtered: 900 of 1000 lines dropped]\nFAIL a\n[exit code 1]\n[full output: ${file}]`),
  ];
  expect(lastCall(messages, OUT)).toEqual({ line: "$ npm test", output: expect.stringContaining("FAIL a"), fullOutput: file });
  expect(lastCall(messages.slice(0, 2), OUT)).toEqual({ line: "read a.ts", output: "1\tx" });
});

test.each([
  ["a file outside the outputs folder", "bash", "x\n[full output: /home/u/.ssh/id_rsa]"],
  ["a path that climbs out of it", "bash", `x\n[full output: ${OUT}/../../.ssh/id_rsa]`],
  ["another tool's text", "read_file", `x\n[full output: ${OUT}/s/c.log]`],
  ["a note that is not the last line", "bash", `[full output: ${OUT}/s/c.log]\nmore`],
])("no file is read for %s", (_name, tool, text) => {
  const messages = [call("9", tool, tool === "bash" ? { command: "cat notes" } : { path: "notes" }), result("9", tool, text)];
  expect(lastCall(messages, OUT)?.fullOutput).toBeUndefined();
});

test("a copy the model repeated in its reply (not run) is passed over: the call that ran is the last", () => {
  const messages: Message[] = [
    { id: "a", role: "assistant", content: [], toolCalls: ["1", "2"].map((id) => ({ id, name: "bash", arguments: '{"command":"npm test"}' })) },
    result("1", "bash", "12 pass"),
    result("2", "bash", "same call as the 1st in this reply: not run again; its result is above"),
  ];
  expect(lastCall(messages, OUT)).toEqual({ line: "$ npm test", output: "12 pass" });
});

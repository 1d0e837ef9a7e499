// A session line's message is checked for what requests are built from (sessions/message-entry.ts):
// a part missing its field is a bad line, skipped with a warning; a kind of content from a newer hey is left out.
import { expect, test } from "bun:test";
import { parseEntry } from "../../src/sessions/format.ts";
import { messageEntry } from "../../src/sessions/message-entry.ts";

const line = (message: unknown) => JSON.stringify({ type: "message", message });
const parsed = (message: unknown) => parseEntry(line(message));

test("a part without the field of its kind, or a call without its arguments, is not a valid message entry", () => {
  for (const bad of [
    { id: "a", role: "assistant", content: [{ type: "text" }] },
    { id: "a", role: "assistant", content: [{ type: "thinking", text: 3 }] },
    { id: "a", role: "user", content: [{ type: "image", data: "AAAA" }] },
    { id: "a", role: "assistant", content: [], toolCalls: [{ id: "c", name: "bash" }] },
    { id: "a", role: "tool", content: [{ type: "text", text: "ok" }] },
    { id: "a", role: "user", content: ["just a string"] },
  ])
    expect(parsed(bad)).toEqual({ ok: false, reason: "not a valid message entry" });
});

test("what hey writes comes back as written", () => {
  const messages = [
    {
      id: "u",
      role: "user",
      content: [
        { type: "text", text: "hi" },
        { type: "image", mediaType: "image/png", data: "AAAA" },
      ],
    },
    {
      id: "a",
      role: "assistant",
      content: [{ type: "thinking", text: "hm", opaque: { protocol: "anthropic", model: "m", data: { signature: "s" } } }],
      toolCalls: [{ id: "c", name: "bash", arguments: "{}", opaque: { protocol: "google", model: "g", data: "sig" } }],
    },
    { id: "t", role: "tool", toolCallId: "c", toolName: "bash", isError: false, content: [{ type: "text", text: "ok" }] },
  ];
  for (const m of messages) expect(parsed(m)).toEqual({ ok: true, entry: { type: "message", message: m } as never });
});

test("content of a kind a newer hey wrote is left out; a message left with nothing says so", () => {
  expect(
    parsed({
      id: "u",
      role: "user",
      content: [
        { type: "hologram", data: 1 },
        { type: "text", text: "see this" },
      ],
    }),
  ).toEqual({
    ok: true,
    entry: { type: "message", message: { id: "u", role: "user", content: [{ type: "text", text: "see this" }] } },
  });
  expect(parsed({ id: "a", role: "assistant", content: [{ type: "hologram" }] })).toEqual({
    ok: true,
    entry: {
      type: "message",
      message: { id: "a", role: "assistant", content: [{ type: "text", text: "[hologram content from a newer hey, which this one cannot send]" }] },
    },
  });
});

test("a message read back is the same JSON as the line, key order included (the prompt cache compares the two)", () => {
  const lines = [
    '{"id":"t1","role":"tool","toolCallId":"c1","toolName":"read_file","isError":false,"content":[{"type":"text","text":"x"}]}',
    '{"id":"a1","role":"assistant","content":[{"type":"thinking","text":"hm","opaque":{"protocol":"anthropic","model":"m","data":"sig"}}],"toolCalls":[{"id":"c1","name":"read_file","arguments":"{}","opaque":{"protocol":"google","model":"g","data":"s"}}]}',
  ];
  for (const line of lines) expect(JSON.stringify(messageEntry(JSON.parse(line)))).toBe(line);
});

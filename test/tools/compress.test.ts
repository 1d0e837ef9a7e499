// The compress tool (SPEC §10): its refusals word for word, a successful call, and buildContext
// replacing the range from the call recorded in the history.
import { describe, expect, test } from "bun:test";
import type { Message, ToolCall } from "../../src/kernel/ir.ts";
import { buildContext, checkCompressRange, type ContextInput } from "../../src/context/view.ts";
import { createCompressTool, PENDING_NOTE } from "../../src/tools/compress.ts";
import { testPolicy } from "../helpers/settings.ts";

const user = (id: string, text: string): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const ask = (id: string, ...calls: ToolCall[]): Message => ({ id, role: "assistant", content: [{ type: "text", text: "checking" }], toolCalls: calls });
const result = (id: string, callId: string, text: string, isError = false): Message => ({
  id,
  role: "tool",
  toolCallId: callId,
  toolName: "t",
  isError,
  content: [{ type: "text", text }],
});
const call = (id: string, name = "read_file", args = '{"path":"a.ts"}'): ToolCall => ({ id, name, arguments: args });

// 0 u1 · 1 a1 (2 calls) · 2 r1 · 3 r2 · 4 a2 · 5 r3 · 6 u2 · 7 a3 · 8 r4 · 9 a4 · 10 r5 · 11 a5 · 12 r6 · 13 a6 (compress)
const base: Message[] = [
  user("id-user1", "fix the bug"),
  ask("id-ast01", call("c1"), call("c2", "grep", '{"pattern":"bug"}')),
  result("id-res01", "c1", "1\tconst a = 1;\n".repeat(20)),
  result("id-res02", "c2", "a.ts:1: bug"),
  ask("id-ast02", call("c3", "bash", '{"command":"bun test"}')),
  result("id-res03", "c3", "1 fail\n".repeat(10)),
  user("id-user2", "also update the docs"),
  ask("id-ast03", call("c4")),
  result("id-res04", "c4", "docs"),
  ask("id-ast04", call("c5")),
  result("id-res05", "c5", "more"),
  ask("id-ast05", call("c6")),
  result("id-res06", "c6", "more"),
];
const compressCall = (args: Record<string, unknown>) => call("c7", "compress", JSON.stringify(args));
/** The history as the tool sees it when it runs: its own assistant message last. */
const running = (args: Record<string, unknown>) => [...base, ask("id-ast06", compressCall(args))];
const compress = (args: Record<string, unknown>, history = running(args)) =>
  createCompressTool(() => history).run(args, { signal: new AbortController().signal, cwd: "/" });
const SUMMARY = "a.ts:1 holds the bug (const a = 1); bun test fails 10 times";

describe("refusals", () => {
  test.each([
    [
      "an unknown handle",
      { start_id: "#zzzzz", end_id: "#res03" },
      "compress: unknown handle #zzzzz; use a handle shown at the end of a tool result, e.g. [#k3f9a]",
    ],
    [
      "an end before the start",
      { start_id: "#res03", end_id: "#res01" },
      "compress: end #res01 comes before start #res03; the range runs from the older handle to the newer",
    ],
    [
      "a start that splits a turn",
      { start_id: "#res02", end_id: "#res03" },
      "compress: start #res02 would split a turn: its call and earlier results come before it; start at #res01, the turn's first result",
    ],
    [
      "an end that splits a turn",
      { start_id: "#res01", end_id: "#res01" },
      "compress: end #res01 would split a turn: more results of its calls follow; end at #res02, the turn's last result",
    ],
    [
      "an end on a call whose results follow",
      { start_id: "#res01", end_id: "id-ast02" },
      "compress: end #ast02 would split a turn: more results of its calls follow; end at #res03, the turn's last result",
    ],
    [
      "the latest user message",
      { start_id: "#res01", end_id: "#res04" },
      "compress: the range holds the latest user message, which is always kept; compress before or after it",
    ],
    [
      "the protected tail",
      { start_id: "#res05", end_id: "#res06" },
      "compress: the range reaches into the last 3 turns, which are always kept; end at #res04 at the latest",
    ],
    [
      "an empty summary",
      { start_id: "#res01", end_id: "#res03", summary: " \n" },
      "compress: the summary is empty; write what the range holds that still matters: paths, line numbers, decisions, errors, open tasks",
    ],
    ["missing handles", { end: "#res03" }, "compress: start_id and end_id must be handles as shown at the end of tool results, e.g. #k3f9a"],
  ])("%s", async (_name, args, message) => {
    expect(await compress({ summary: SUMMARY, ...args })).toEqual({ output: message, isError: true });
  });

  test("the first user message", async () => {
    const history = [ask("id-ast00", call("c0")), result("id-res00", "c0", "old"), ...running({})];
    expect(await compress({ start_id: "#res00", end_id: "#res02", summary: SUMMARY }, history)).toEqual({
      output: "compress: the range holds the first user message, which is always kept; start after it",
      isError: true,
    });
  });

  test("a handle two ids end with: the whole id, as the view shows it, is needed", async () => {
    const history = running({}).map((m) => (m.id === "id-res03" ? { ...m, id: "x-res01" } : m));
    expect((await compress({ start_id: "#res01", end_id: "#res01", summary: SUMMARY }, history)).output).toBe(
      "compress: handle #res01 matches 2 messages; use the full handle shown on the result",
    );
    expect(checkCompressRange(history, "#id-res01", "[#x-res01]")).toEqual({ fromId: "id-ast01", toId: "x-res01" });
  });
});

describe("a successful compress", () => {
  const args = { start_id: "#res01", end_id: "[#res03]", summary: SUMMARY };

  test.each([["res01"], ["#res01"], ["[#res01]"], [" [ #res01 ] "], ["id-res01"]])("accepts the handle written as %p", (start) => {
    expect(checkCompressRange(running(args), start, "res03")).toEqual({ fromId: "id-ast01", toId: "id-res03" });
  });

  test("answers with what it saved", async () => {
    expect(await compress(args)).toEqual({ output: `compressed 5 messages (~149 tokens → ~26 tokens); ${PENDING_NOTE}` });
  });

  const input = (history: Message[]): ContextInput => ({
    history,
    summaries: [],
    policy: testPolicy(),
    fixedTokens: 0,
    tokensPerChar: 0.25,
  });

  test("buildContext replaces the range by the summary from then on", () => {
    const after = [
      ...running(args),
      result("id-res07", "c7", "compressed 5 messages (~149 tokens → ~26 tokens)"),
      ask("id-ast08", call("c8")),
      result("id-res08", "c8", "x"),
    ];
    const view = buildContext(input(after));
    expect(view.messages.map((m) => m.id)).toEqual([
      "id-user1",
      "summary-id-ast01",
      "id-user2",
      "id-ast03",
      "id-res04",
      "id-ast04",
      "id-res05",
      "id-ast05",
      "id-res06",
      "id-ast06",
      "id-res07",
      "id-ast08",
      "id-res08",
    ]);
    expect(view.messages[1]!.content).toEqual([{ type: "text", text: `[summary of earlier work]\n${SUMMARY}` }]);
    expect(view.messages[4]!.content).toEqual([{ type: "text", text: "docs\n[#res04]" }]);
    expect(view.stats).toMatchObject({ compressed: 1, summarized: 0 }); // one range (of 5 messages), no compaction summary
  });

  test("a call after rewriteUpTo waits with the other rewrites: the range is sent as it was and counted as pending", () => {
    const after = [...running(args), result("id-res07", "c7", "compressed"), ask("id-ast08", call("c8")), result("id-res08", "c8", "x")];
    const held = buildContext({ ...input(after), rewriteUpTo: after.findIndex((m) => m.id === "id-ast06") });
    expect(held.messages.map((m) => m.id)).toEqual(after.map((m) => m.id)); // nothing replaced: the previous request's prefix stays
    expect(held.stats).toMatchObject({ compressed: 0, pending: 1 });
    // once the requests take in the call (the cache rebuilt, or the saving pays for the miss) it applies
    const applied = buildContext({ ...input(after), rewriteUpTo: after.length });
    expect(applied.messages.map((m) => m.id)).toContain("summary-id-ast01");
    expect(applied.stats).toMatchObject({ compressed: 1, pending: 0 });
  });

  test("a session recorded with the old argument names (start, end) keeps its compressed range", () => {
    const recorded = (a: Record<string, unknown>) => [
      ...running(a),
      result("id-res07", "c7", "compressed"),
      ask("id-ast08", call("c8")),
      result("id-res08", "c8", "x"),
    ];
    const ids = (a: Record<string, unknown>) => buildContext(input(recorded(a))).messages.map((m) => m.id);
    expect(ids({ start: "#res01", end: "[#res03]", summary: SUMMARY })).toEqual(ids(args));
    expect(ids(args)).toContain("summary-id-ast01");
  });

  test("a refused call, or one the history as it was then would refuse, changes nothing", () => {
    const failed = [...running(args), result("id-res07", "c7", "compress: …", true)];
    expect(buildContext(input(failed)).stats.compressed).toBe(0);
    // the tail at that call started at a4: recorded as a success by mistake, it is still not applied,
    // even though the same range would be allowed at the end of the longer history
    const tailArgs = { start_id: "#res04", end_id: "#res05", summary: SUMMARY };
    const later = [
      ...running(tailArgs),
      result("id-res07", "c7", "compressed"),
      ...[8, 9, 10].flatMap((n) => [ask(`id-ast${n}`, call(`c${n}`)), result(`id-res${n}`, `c${n}`, "x")]),
    ];
    expect(checkCompressRange(later, "#res04", "#res05")).toEqual({ fromId: "id-ast03", toId: "id-res05" });
    expect(buildContext(input(later)).stats.compressed).toBe(0);
  });
});

test("the description states the contract in at most 250 characters", () => {
  const tool = createCompressTool(() => []);
  expect(tool.description.length).toBeLessThanOrEqual(250);
  expect(tool.description).toContain("paths, line numbers, decisions, errors, open tasks");
  expect(tool.parameters).toEqual({
    type: "object",
    properties: { start_id: { type: "string" }, end_id: { type: "string" }, summary: { type: "string" } },
    required: ["start_id", "end_id", "summary"],
  });
});

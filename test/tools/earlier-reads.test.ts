// read_file's notes for a re-read of unchanged lines (x49 finding 2): when one is due, and when the
// earlier result it would name is forgotten.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/kernel/ir.ts";
import { coveringRead, keepShown, stubText, withRead } from "../../src/tools/earlier-reads.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import type { EarlierRead, SeenFiles } from "../../src/tools/seen-files.ts";
import { tempDir } from "../helpers/e2e.ts";

const read = (callId: string, first: number, last: number, hash = "h1"): EarlierRead => ({ hash, first, last, callId, output: `lines ${first}-${last}` });
const result = (toolCallId: string, text: string): Message => ({
  id: `m-${toolCallId}`,
  role: "tool",
  toolCallId,
  toolName: "read_file",
  content: [{ type: "text", text }],
});

describe("coveringRead", () => {
  const reads = [read("a", 1, 100), read("b", 200, 300)];
  test("the same bytes and a range inside an earlier one: that read", () => {
    expect(coveringRead(reads, "h1", 1, 100)?.callId).toBe("a");
    expect(coveringRead(reads, "h1", 20, 40)?.callId).toBe("a");
    expect(coveringRead(reads, "h1", 250, 300)?.callId).toBe("b");
  });
  test("a range no one read covers, or other bytes: none", () => {
    expect(coveringRead(reads, "h1", 90, 110)).toBeUndefined(); // 101-110 were not shown
    expect(coveringRead(reads, "h1", 100, 200)).toBeUndefined(); // two reads, a gap between
    expect(coveringRead(reads, "h2", 1, 10)).toBeUndefined();
    expect(coveringRead(undefined, "h1", 1, 10)).toBeUndefined();
  });
  test("the newest read that covers it", () => {
    expect(coveringRead([...reads, read("c", 1, 500)], "h1", 1, 50)?.callId).toBe("c");
  });
});

test("withRead drops the reads of other bytes and keeps the last eight", () => {
  expect(withRead([read("old", 1, 9, "h0")], read("new", 1, 9)).map((r) => r.callId)).toEqual(["new"]);
  const many = Array.from({ length: 10 }, (_, i) => read(`c${i}`, 1, 9));
  expect(withRead(many, read("last", 1, 9)).map((r) => r.callId)).toEqual(["c3", "c4", "c5", "c6", "c7", "c8", "c9", "last"]);
});

test("keepShown forgets the reads a request does not show whole: summarized, deduplicated, or after /clear", () => {
  const seen: SeenFiles = new Map([
    ["/p/a.ts", { hash: "h1", reads: [read("a", 1, 10), read("b", 1, 10)] }],
    ["/p/b.ts", { hash: "h1", reads: [read("c", 1, 10)] }],
  ]);
  // "a" is whole (with a handle after it), "b" was pruned as a duplicate, "c" is not sent at all
  keepShown(seen, [result("a", "lines 1-10\n[#k3f9a]"), result("b", "[pruned: duplicate call — the latest identical call's output is below]")]);
  expect(seen.get("/p/a.ts")!.reads!.map((r) => r.callId)).toEqual(["a"]);
  expect(seen.get("/p/b.ts")!.reads).toEqual([]);
  expect(seen.get("/p/b.ts")!.hash).toBe("h1"); // what write_file knows of the file stays
  keepShown(seen, []); // a new session's first request
  expect(seen.get("/p/a.ts")!.reads).toEqual([]);
});

test("the note names the lines, the earlier result's lines and its call", () => {
  expect(stubText("src/a.ts", 1, 500, 500, read("call_1", 1, 500))).toBe(
    "[unchanged: src/a.ts lines 1-500 (all 500) are the same bytes as your earlier read_file result of lines 1-500 above (call call_1); not sent again]",
  );
  expect(stubText("a.ts", 7, 7, 500, read("x", 1, 100))).toStartWith("[unchanged: a.ts line 7 of 500 are");
});

describe("the read_file tool", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir("hey-earlier-reads-")));
  afterEach(() => dir.remove());
  const ctx = (callId?: string) => ({ signal: new AbortController().signal, cwd: dir.path, ...(callId ? { callId } : {}) });

  test("a line it cut is not all shown: reading it again sends it again", async () => {
    writeFileSync(join(dir.path, "wide.txt"), `short\n${"x".repeat(5000)}\nend\n`);
    const tool = createReadFileTool({ seen: new Map() });
    await tool.run({ path: "wide.txt" }, ctx("c1"));
    expect((await tool.run({ path: "wide.txt" }, ctx("c2"))).output).toContain("[cut: 2000 of 5000 chars]");
    // the lines before the cut line were shown whole, but a read of them alone was never made
    expect((await tool.run({ path: "wide.txt", limit: 1 }, ctx("c3"))).output).toStartWith("1\tshort\n… 2 more lines");
    expect((await tool.run({ path: "wide.txt", limit: 1 }, ctx("c4"))).output).toStartWith("[unchanged: wide.txt line 1 of 3");
  });

  test("without a call id (a tool run outside a turn) it always reads", async () => {
    writeFileSync(join(dir.path, "a.txt"), "one\ntwo\n");
    const tool = createReadFileTool({ seen: new Map() });
    await tool.run({ path: "a.txt" }, ctx());
    expect((await tool.run({ path: "a.txt" }, ctx())).output).toBe("1\tone\n2\ttwo");
  });
});

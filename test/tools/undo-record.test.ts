// The record of `/undo`'s turns read back (undo-record.ts): the stack a hey started again on the
// session rebuilds, whatever a hey killed mid-line left at the end.
import { describe, expect, test } from "bun:test";
import { changedFiles, foldersOfCreated, recordLine, replayRecords, type UndoRecord } from "../../src/tools/undo-record.ts";
import type { Message } from "../../src/kernel/ir.ts";

const A = "a".repeat(64);
const B = "b".repeat(64);
const C = "c".repeat(64);

/** Two turns: t1 edited /p/app.txt (a copy of its old bytes kept) and made /p/new/x.txt in a folder it made; t2 ran bash and edited /p/app.txt again. */
const steps: UndoRecord[] = [
  { type: "turn", turn: "t1" },
  { type: "before", turn: "t1", path: "/p/app.txt", copy: "undo-t1-1", sha256: A, mode: 0o640 },
  { type: "after", turn: "t1", path: "/p/app.txt", sha256: B },
  { type: "before", turn: "t1", path: "/p/new/x.txt" },
  { type: "folder", turn: "t1", path: "/p/new" },
  { type: "after", turn: "t1", path: "/p/new/x.txt", sha256: C },
  { type: "turn", turn: "t2" },
  { type: "bash", turn: "t2" },
  { type: "before", turn: "t2", path: "/p/app.txt", copy: "undo-t2-2", sha256: B, mode: 0o640 },
  { type: "after", turn: "t2", path: "/p/app.txt", sha256: A },
  { type: "after", turn: "t2", path: "/p/app.txt", sha256: C }, // a second edit in the turn: the last one counts
];
const text = steps.map(recordLine).join("");

/** The stack as plain values: each turn's id, files, bash and folders. */
const stack = (record: string) =>
  replayRecords(record).turns.map((t) => ({ id: t.id, files: [...t.files.values()], ranBash: t.ranBash, folders: [...t.folders] }));

const whole = [
  {
    id: "t1",
    files: [
      { path: "/p/app.txt", copy: "undo-t1-1", copyHash: A, mode: 0o640, after: B },
      { path: "/p/new/x.txt", after: C },
    ],
    ranBash: false,
    folders: ["/p/new"],
  },
  { id: "t2", files: [{ path: "/p/app.txt", copy: "undo-t2-2", copyHash: B, mode: 0o640, after: C }], ranBash: true, folders: [] },
];

test("the record's steps rebuild each turn: its files as they were before it and as the agent left them, its bash, its folders", () => {
  expect(stack(text)).toEqual(whole);
});

describe("a record cut short by a hey killed mid-line loses that step only", () => {
  const lastLine = recordLine(steps.at(-1)!);
  test.each([1, 10, lastLine.length - 2])("the last line cut %d characters in", (at) => {
    const cut = text.slice(0, text.length - lastLine.length + at);
    const expected = structuredClone(whole);
    expected[1]!.files[0]!.after = A; // the edit before the cut one
    expect(stack(cut)).toEqual(expected);
  });
  test("a last line whole but for its newline counts", () => {
    expect(stack(text.slice(0, -1))).toEqual(whole);
  });
  test("a cut line with whole lines after it (the next hey started them on a line of their own) loses nothing else", () => {
    const cut = text.slice(0, text.length - lastLine.length + 5) + "\n" + recordLine({ type: "turn", turn: "t3" }) + recordLine({ type: "bash", turn: "t3" });
    expect(stack(cut).map((t) => [t.id, t.ranBash])).toEqual([
      ["t1", false],
      ["t2", true],
      ["t3", true],
    ]);
  });
});

test("/undo's step drops that turn and every newer one; turns begun after it stay", () => {
  const undone = text + recordLine({ type: "undone", turn: "t2" }) + recordLine({ type: "turn", turn: "t3" }) + recordLine({ type: "bash", turn: "t3" });
  expect(stack(undone).map((t) => t.id)).toEqual(["t1", "t3"]);
  expect(stack(text + recordLine({ type: "undone", turn: "t1" }))).toEqual([]);
});

test.each<[string, string, unknown]>([
  ["a copy name that is not one of hey's", '{"type":"before","turn":"t1","path":"/p/a","copy":"../../.ssh/id_rsa","sha256":"' + A + '"}', "damaged"],
  ["a copy without its hash", '{"type":"before","turn":"t1","path":"/p/a","copy":"undo-t1-1"}', "damaged"],
  ["a relative path", '{"type":"before","turn":"t1","path":"p/a","copy":"undo-t1-1","sha256":"' + A + '"}', undefined],
  ["a step of a turn never begun", '{"type":"before","turn":"t9","path":"/p/a"}', undefined],
  ["not JSON", "{nonsense", undefined],
])("%s: never restored from", (_, line, skipped) => {
  const record = `${recordLine({ type: "turn", turn: "t1" })}${line}\n`;
  const files = replayRecords(record).turns[0]!.files;
  if (skipped === undefined) expect(files.size).toBe(0);
  else expect(files.get("/p/a")).toEqual({ path: "/p/a", skipped: "the record of its copy is damaged; not touched" });
});

test("an empty or missing record is an empty stack", () => {
  expect(replayRecords("")).toEqual({ turns: [], lost: false, undone: 0 });
  expect(replayRecords("\n\n")).toEqual({ turns: [], lost: false, undone: 0 });
});

test("a record begun after an earlier one was lost says so, whatever follows", () => {
  const record = recordLine({ type: "lost" }) + text + recordLine({ type: "undone", turn: "t1" });
  expect(replayRecords(record)).toMatchObject({ turns: [], lost: true });
  expect(replayRecords(text).lost).toBe(false);
});

test.each<[string, Message[], boolean]>([
  ["an edit that worked", [{ id: "1", role: "tool", toolName: "edit", toolCallId: "c", content: [] }], true],
  ["a write_file that worked", [{ id: "1", role: "tool", toolName: "write_file", toolCallId: "c", content: [] }], true],
  ["an edit that failed", [{ id: "1", role: "tool", toolName: "edit", toolCallId: "c", isError: true, content: [] }], false],
  ["only reads and commands", [{ id: "1", role: "tool", toolName: "bash", toolCallId: "c", content: [] }], false],
])("whether a history with %s changed files", (_, history, changed) => {
  expect(changedFiles(history)).toBe(changed);
});

test("a turn's project is read back where it is a path; the folders /undo may remove are those above a file the turn created", () => {
  const turns: UndoRecord[] = [
    { type: "turn", turn: "t1", root: "/p" },
    { type: "turn", turn: "t2" },
    { type: "turn", turn: "t3", root: "p" }, // not a path: which project is not known
  ];
  const [made, bare, relative] = replayRecords(turns.map(recordLine).join("")).turns;
  expect([made?.root, bare?.root, relative?.root]).toEqual(["/p", undefined, undefined]);
  const files = [{ path: "/p/new/deep/x.txt" }, { path: "/p/app.txt", copy: "undo-t1-1", copyHash: A }, { path: "/p/big/y.bin", skipped: "over 10 MB" }];
  expect(foldersOfCreated(["/p/new/deep", "/p/new", "/p/newer", "/home/u/empty", "/p/big", "/p/new/deep/x.txt"], files)).toEqual(["/p/new/deep", "/p/new"]);
});

test("the turns that changed files an /undo of any earlier hey undid are counted; turns it passed over that changed none are not", () => {
  const quiet: UndoRecord[] = [
    { type: "turn", turn: "t3" },
    { type: "bash", turn: "t3" },
  ];
  const both = text + quiet.map(recordLine).join("");
  expect(replayRecords(both).undone).toBe(0);
  // the /undo that undid t2 passed over t3 (no file changed), the next one undid t1
  const undone = both + recordLine({ type: "undone", turn: "t2" }) + recordLine({ type: "undone", turn: "t1" });
  expect(replayRecords(undone)).toEqual({ turns: [], lost: false, undone: 2 });
  expect(replayRecords(both + recordLine({ type: "undone", turn: "t3" })).undone).toBe(0);
});

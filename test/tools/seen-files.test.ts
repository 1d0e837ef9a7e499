// The decisions that keep write_file from replacing a change the agent has not seen: when a
// whole-file write is refused, and what the agent knows of a file after a read and after an edit.
import { expect, test } from "bun:test";
import { changedSinceRead, type SeenFile, sawWindow, seenAfterEdit, writeRefusal } from "../../src/tools/seen-files.ts";

const CHANGED =
  "src/app.ts has changed since it was last read or written (by the user, a command or another program); not written, so that change is kept: " +
  "read it again with read_file and make your change to what it holds now";
const UNREAD =
  "src/app.ts exists and has not been read or written in this run; not written, so what it holds is kept: " +
  "read it with read_file and make your change to what it holds now";
const file = (hash: string, text = "a\n") => ({ hash, bytes: new TextEncoder().encode(text) });

test.each([
  ["never read or written this run (a resumed run's copy is from an earlier one)", undefined, file("h1"), UNREAD],
  ["never seen and not there: a new file", undefined, undefined, undefined],
  ["unchanged since the agent saw it", { hash: "h1" }, file("h1"), undefined],
  ["gone since: writing it back loses no content", { hash: "h1" }, undefined, undefined],
  ["changed since the agent saw it (the user saved it, a command rewrote it)", { hash: "h1" }, file("h2"), CHANGED],
])("write_file over a file %s", (_, seen, now, refusal) => {
  expect(writeRefusal("src/app.ts", seen, now, "new\n")).toBe(refusal);
});

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
test.each([
  ["drops lines past the window read", [[1, 6]], "line 1\nline 2\n", "lines 7-10"],
  ["keeps the lines past the window as they are, changing those read", [[1, 6]], TEN.replace("line 2\n", "LINE 2\n"), undefined],
  ["keeps the unseen lines but not as they are (one changed in memory)", [[1, 6]], TEN.replace("line 9\n", "line 9 (from memory)\n"), "line 9"],
  [
    "keeps every line but one read_file cut short",
    [
      [1, 3],
      [5, 10],
    ],
    TEN.replace("line 4\n", "line 4 as shown cut\n"),
    "line 4",
  ],
  ["only edited: keeps all it did not see", [[2, 2]], TEN.replace("line 2\n", "line two\n").replace("line 10\n", "line 10\nline 11\n"), undefined],
  ["only edited: drops a line it never saw", [[2, 2]], TEN.replace("line 2\n", "line two\n").replace("line 7\n", ""), "line 7"],
])("write_file over a file of which the agent has seen some lines, whose content %s", (_, lines, content, lost) => {
  const refusal = writeRefusal("long.txt", { hash: "h1", lines: lines as [number, number][] }, file("h1", TEN), content);
  if (lost === undefined) expect(refusal).toBeUndefined();
  else expect(refusal).toStartWith(`long.txt has 10 lines, and content drops or changes ${lost}, which you have not seen whole in this run (you have seen `);
});

test("the refusal counts a file of one line as one line", () => {
  expect(writeRefusal("min.js", { hash: "h1", lines: [] }, file("h1", "x()\n"), "y()\n")).toStartWith(
    "min.js has 1 line, and content drops or changes line 1,",
  );
});

test("the refusal after a partial read says which lines are lost and where to read them", () => {
  expect(writeRefusal("long.txt", { hash: "h1", lines: [[1, 6]] }, file("h1", TEN), "line 1\n")).toBe(
    "long.txt has 10 lines, and content drops or changes lines 7-10, which you have not seen whole in this run (you have seen lines 1-6); " +
      "not written, so they are kept: read them with read_file (offset=7) first, or change the file with edit",
  );
});

test.each([
  ["the whole file in one window", undefined, { first: 1, last: 10, total: 10, cut: [] }, { hash: "h1" }],
  ["the first window of a longer file", undefined, { first: 1, last: 6, total: 10, cut: [] }, { hash: "h1", lines: [[1, 6]] }],
  ["the rest of it, after the first window", { hash: "h1", lines: [[1, 6]] }, { first: 7, last: 10, total: 10, cut: [] }, { hash: "h1" }],
  [
    "a window of bytes since changed: the old window no longer counts",
    { hash: "h0", lines: [[7, 10]] },
    { first: 1, last: 6, total: 10, cut: [] },
    { hash: "h1", lines: [[1, 6]] },
  ],
  ["a window of a file already seen whole", { hash: "h1" }, { first: 3, last: 4, total: 10, cut: [] }, { hash: "h1" }],
  [
    "every line, one of them cut short",
    undefined,
    { first: 1, last: 10, total: 10, cut: [4] },
    {
      hash: "h1",
      lines: [
        [1, 3],
        [5, 10],
      ],
    },
  ],
])("read_file shows %s", (_, prev, window, known) => {
  expect(sawWindow(prev as SeenFile | undefined, "h1", window)).toEqual(known as SeenFile);
});

const before = "a\nb\nc\nd\ne\n";
const editIn = (text: string, old: string, now: string) => ({ before: text, at: [text.indexOf(old)], end: [text.indexOf(old) + old.length], newString: now });
const edit = (old: string, now: string) => editIn(before, old, now);
const LONG = "a\nb\nconst data = [1, 2, 3];\nd\ne\n"; // line 3 as if longer than read_file shows
test.each([
  ["it had seen the file as edit found it: it knows the result", { hash: "h1" }, edit("b", "B"), { hash: "h2" }],
  ["it never saw the file: only the lines edit wrote", undefined, edit("b", "B"), { hash: "h2", lines: [[2, 2]] }],
  ["it never saw the file, and the edit added lines", undefined, edit("b", "B1\nB2\nB3"), { hash: "h2", lines: [[2, 4]] }],
  [
    "it had read lines 4-5, and the edit above them added two: they moved down",
    { hash: "h1", lines: [[4, 5]] },
    edit("b", "B1\nB2\nB3"),
    {
      hash: "h2",
      lines: [
        [2, 4],
        [6, 7],
      ],
    },
  ],
  ["it had read lines 1-3, and the edit joined lines 4 and 5", { hash: "h1", lines: [[1, 3]] }, edit("d\ne", "de"), { hash: "h2", lines: [[1, 4]] }],
  [
    "the file had changed unseen: edit kept that change, and the agent has seen only the line it wrote",
    { hash: "h0" },
    edit("b", "B"),
    { hash: "h2", lines: [[2, 2]] },
  ],
  [
    "read_file had shown line 3 cut, and the edit rewrote only its start: the rest is still unseen",
    {
      hash: "h1",
      lines: [
        [1, 2],
        [4, 5],
      ],
    },
    editIn(LONG, "const data", "const items"),
    {
      hash: "h2",
      lines: [
        [1, 2],
        [4, 5],
      ],
    },
  ],
  [
    "it never saw the file, and the edit rewrote the end of line 2 and the start of line 3: neither is whole",
    undefined,
    editIn("a\nbb\ncc\nd\n", "b\nc", "B\nC"),
    { hash: "h2", lines: [] },
  ],
  [
    "it never saw the file, and old_string ended in a line break: the line after it is not the edit's",
    undefined,
    edit("b\n", "B\n"),
    { hash: "h2", lines: [[2, 2]] },
  ],
  [
    "it never saw the file, and every line but the last was replaced whole, with replace_all",
    undefined,
    { before: "a\nb\nc\nd\n", at: [0, 2, 4], end: [2, 4, 6], newString: "x\n" },
    { hash: "h2", lines: [[1, 3]] },
  ],
])("after an edit, when %s", (_, seen, change, known) => {
  expect(seenAfterEdit(seen as SeenFile | undefined, { before: "h1", after: "h2" }, change)).toEqual(known as SeenFile);
});

test.each([
  ["changed since the agent read it: said first", { hash: "h1" }, "h2", true],
  ["as the agent read it", { hash: "h1" }, "h1", false],
  ["never read this run: nothing to compare with", undefined, "h2", false],
])("edit's old_string not found in a file %s", (_, seen, now, said) => {
  expect(changedSinceRead("src/calc.py", seen, now)).toBe(
    said
      ? "src/calc.py has changed since you last read it (by the user, a command or another program): read it again with read_file and take old_string from what it holds now"
      : undefined,
  );
});

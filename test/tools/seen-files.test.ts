// The decisions that keep write_file from replacing a change the agent has not seen: when a
// whole-file write is refused, and what the agent knows of a file after an edit.
import { expect, test } from "bun:test";
import { changedSinceRead, seenAfterEdit, writeRefusal } from "../../src/tools/seen-files.ts";

const CHANGED =
  "src/app.ts has changed since it was last read or written (by the user, a command or another program); not written, so that change is kept: " +
  "read it again with read_file and make your change to what it holds now";
const UNREAD =
  "src/app.ts exists and has not been read or written in this run; not written, so what it holds is kept: " +
  "read it with read_file and make your change to what it holds now";

test.each([
  ["never read or written this run (a resumed run's copy is from an earlier one)", undefined, "h1", UNREAD],
  ["never seen and not there: a new file", undefined, undefined, undefined],
  ["unchanged since the agent saw it", "h1", "h1", undefined],
  ["gone since: writing it back loses no content", "h1", undefined, undefined],
  ["changed since the agent saw it (the user saved it, a command rewrote it)", "h1", "h2", CHANGED],
])("write_file over a file %s", (_, seen, now, refusal) => {
  expect(writeRefusal("src/app.ts", seen, now)).toBe(refusal);
});

test.each([
  ["it had seen the file as edit found it: it knows the result", "h1", "h1", "h2", "h2"],
  ["it never saw the file: the result is the first it knows", undefined, "h1", "h2", "h2"],
  ["the file had changed unseen: edit kept that change, which the agent still has not read", "h0", "h1", "h2", "h0"],
])("after an edit, when %s", (_, seen, before, after, known) => {
  expect(seenAfterEdit(seen, before, after)).toBe(known);
});

test.each([
  ["changed since the agent read it: said first", "h1", "h2", true],
  ["as the agent read it", "h1", "h1", false],
  ["never read this run: nothing to compare with", undefined, "h2", false],
])("edit's old_string not found in a file %s", (_, seen, now, said) => {
  expect(changedSinceRead("src/calc.py", seen, now)).toBe(
    said
      ? "src/calc.py has changed since you last read it (by the user, a command or another program): read it again with read_file and take old_string from what it holds now"
      : undefined,
  );
});

// `--sessions` (and /resume's list) showed a project directory's newline raw: the row split in two
// and the columns after it fell out of line; on a pipe an escape sequence in the name went out as it
// was. A control character in the directory is written as file names are everywhere (`\n`, `\x1B`).
import { expect, test } from "bun:test";
import { formatSessionList, type SessionInfo } from "../../src/sessions/format.ts";

const at = new Date(2025, 2, 4, 9, 5).getTime();
const info = (cwd: string): SessionInfo => ({
  id: "id-one",
  created: new Date(at).toISOString(),
  modified: at,
  cwd,
  firstPrompt: "bash: pwd",
  size: 1700,
  path: "/s/id-one.jsonl",
});

test.each([
  ["a newline", "/tmp/we ird\nname é 日本", "/tmp/we ird\\nname é 日本"],
  ["an escape sequence", "/home/u/\x1b[31mRED\x07", "~/\\x1B[31mRED\\x07"],
  ["a tab and a backslash beside it", "/srv/a\tb\\c", "/srv/a\\tb\\\\c"],
  ["nothing odd: backslashes stay as they are", "C:\\src\\hey", "C:\\src\\hey"],
])("a directory with %s: one row, the name escaped", (_what, cwd, shown) => {
  const out = formatSessionList([info(cwd)], "/home/u");
  const lines = out.split("\n");
  expect(lines[1]).toBe(`id-one  2025-03-04 09:05  1.7 KB  ${shown.padEnd("DIRECTORY".length)}  bash: pwd`);
  expect(lines[2]).toBe(""); // the row did not split
});

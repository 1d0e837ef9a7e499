// edit in files whose lines end in CRLF, LF or both: the lines it adds take the line end of the
// lines around them, the lines it leaves keep theirs byte for byte, and every occurrence counts.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool } from "../../src/tools/edit.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-edit-eol-");
const edit = (args: Record<string, unknown>) => callTool(createEditTool(), args, { cwd: project.path, signal: new AbortController().signal });
const bytes = (name: string) => readFileSync(join(project.path, name), "latin1");
const put = (name: string, text: string) => writeFileSync(join(project.path, name), text);

test("an LF file with one stray CRLF line: a line added is LF, and the line edited keeps its LF (git diff shows only the new line)", async () => {
  put("app.py", 'import os\ndef f():\n    print("hi")\r\n    return 1\n');
  const result = await edit({ path: "app.py", old_string: "import os", new_string: "import os\nimport sys" });
  expect(result.output).toBe(
    ["edited app.py: 1 replacement", "@@ -1,4 +1,5 @@", " import os", "+import sys", " def f():", '     print("hi")', "     return 1"].join("\n"),
  );
  expect(bytes("app.py")).toBe('import os\nimport sys\ndef f():\n    print("hi")\r\n    return 1\n');
  put("pB.txt", "a\nb\r\nc\nd\ne\n");
  await edit({ path: "pB.txt", old_string: "d", new_string: "d1\nd2" });
  expect(bytes("pB.txt")).toBe("a\nb\r\nc\nd1\nd2\ne\n");
});

test("a CRLF file with one stray LF line: a line added inside a CRLF line is CRLF; one added to the LF line is LF", async () => {
  put("win.txt", "one\r\ntwo\nthree\r\nfour\r\n");
  await edit({ path: "win.txt", old_string: "three", new_string: "three\n3" });
  expect(bytes("win.txt")).toBe("one\r\ntwo\nthree\r\n3\r\nfour\r\n");
  await edit({ path: "win.txt", old_string: "two", new_string: "two\n2" });
  expect(bytes("win.txt")).toBe("one\r\ntwo\n2\nthree\r\n3\r\nfour\r\n");
});

test("lines new_string keeps from old_string keep their own line ends; the last line of a file without one gets the line end before it", async () => {
  put("m.txt", "a\r\nb\nc\r\nd\ne");
  await edit({ path: "m.txt", old_string: "a\nb\nc\nd", new_string: "a\nb\nX\nY\nc\nd" });
  expect(bytes("m.txt")).toBe("a\r\nb\nX\r\nY\r\nc\r\nd\ne");
  await edit({ path: "m.txt", old_string: "e", new_string: "e\nf" });
  expect(bytes("m.txt")).toBe("a\r\nb\nX\r\nY\r\nc\r\nd\ne\nf");
});

test("replace_all replaces the occurrences of every line end; without it, both count and their lines are named", async () => {
  put("m2.txt", "a\r\nb\r\nmid\r\na\nb\r\n");
  expect(await edit({ path: "m2.txt", old_string: "a\nb", new_string: "X" })).toEqual({
    output: "old_string matches 2 times in m2.txt (lines 1, 4); include more surrounding lines to pick one, or set replace_all to change every one",
    isError: true,
  });
  const result = await edit({ path: "m2.txt", old_string: "a\nb", new_string: "X\nY", replace_all: true });
  expect(result.output.split("\n")[0]).toBe("edited m2.txt: 2 replacements");
  expect(bytes("m2.txt")).toBe("X\r\nY\r\nmid\r\nX\nY\r\n");
});

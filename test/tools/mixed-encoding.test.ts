// A file that is UTF-8 but for a stray byte far down it (a Latin-1 line pasted into a UTF-8 file):
// read_file and edit read it the same way, whichever line the byte is on, and an edit writes back
// every byte it does not touch as it was.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { decodeText } from "../../src/fs/text-encoding.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const dir = eachTempDir("hey-mixed-");
const ctx = (): ToolContext => ({ cwd: dir.path, signal: new AbortController().signal });
const read = (args: Record<string, unknown>) => callTool(createReadFileTool(), args, ctx());
const edit = (args: Record<string, unknown>) => callTool(createEditTool(), args, ctx());
const latin1 = (text: string) => Buffer.from(text, "latin1");
const PADDING = "x = 1 padding padding padding\n".repeat(170_000); // 5 MB: the stray byte is far past read_file's first chunk

test("a 5 MB UTF-8 file with one Latin-1 byte on its last line: read_file and edit agree on line 1, and the byte stays as it was", async () => {
  const path = join(dir.path, "mixed2.txt");
  writeFileSync(path, Buffer.concat([Buffer.from(`# café config\nline two\n${PADDING}`), latin1("last caf\xe9\n")]));
  expect((await read({ path: "mixed2.txt", limit: 2 })).output).toBe(
    "[mixed2.txt is UTF-8 but for 1 byte that is not (line 170003): shown as its Windows-1252 character, which edit keeps as the byte it is]\n" +
      "1\t# café config\n2\tline two\n… 170001 more lines; use offset=3",
  );
  expect((await edit({ path: "mixed2.txt", old_string: "# café config", new_string: "# café settings" })).output).toStartWith(
    "edited mixed2.txt: 1 replacement (kept its 1 byte that is not UTF-8 as it was)\n@@ -1,4 +1,4 @@\n-# café config\n+# café settings\n",
  );
  // a new é is UTF-8, as the file is: not the Latin-1 byte, which would spread the damage
  expect((await edit({ path: "mixed2.txt", old_string: "line two", new_string: "line two é" })).isError).toBeUndefined();
  expect(readFileSync(path)).toEqual(Buffer.concat([Buffer.from(`# café settings\nline two é\n${PADDING}`), latin1("last caf\xe9\n")]));
  // the stray line itself reads as read_file shows it, and the edit of it writes UTF-8
  expect((await read({ path: "mixed2.txt", offset: 170003 })).output).toEndWith("170003\tlast café");
  expect((await edit({ path: "mixed2.txt", old_string: "last café", new_string: "last café!" })).output).toStartWith("edited mixed2.txt: 1 replacement\n");
  expect(readFileSync(path).subarray(-13).toString()).toBe("\nlast café!\n");
});

test.each([
  ["all UTF-8", Buffer.from("café\n"), "utf-8", "café\n"],
  ["Latin-1 throughout (no UTF-8 character in it)", latin1("caf\xe9 cr\xe8me\n"), "windows-1252", "café crème\n"],
  ["UTF-8 but for one byte", Buffer.concat([Buffer.from("café\n"), latin1("na\xefve\n")]), "utf-8", "café\nnaïve\n"],
  [
    "mostly Latin-1, with one UTF-8 character pasted in",
    Buffer.concat([latin1("caf\xe9 cr\xe8me br\xfbl\xe9e\n"), Buffer.from("é\n")]),
    "windows-1252",
    "café crème brûlée\nÃ©\n",
  ],
])("a file %s is read as one encoding, wherever its odd bytes are", (_, bytes, encoding, text) => {
  expect(decodeText(bytes)).toMatchObject({ encoding, text });
});

// File names that are not UTF-8 (a Latin-1 `caf\xe9.txt` from an old archive) or hold a control
// character (a newline): grep writes them one way (`caf\xE9.txt`, `new\nline.txt`, one line each),
// and every file tool opens the file by that name; a name written as a program reading it as UTF-8
// shows it (`caf�.txt`) is pointed to the right one, never created beside it.
import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diskPath } from "../../src/fs/dir-names.ts";
import { shownName } from "../../src/fs/odd-names.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";
import { bothGreps } from "../helpers/find-rg.ts";

const project = eachTempDir("hey-odd-names-");
const LATIN = Buffer.from("caf\xe9.txt", "latin1"); // é as one byte: not UTF-8

/** A git project holding odd/caf\xe9.txt, odd/new⏎line.txt and odd/it's "q".txt, each with a line saying needle. */
function layout() {
  const root = project.path;
  mkdirSync(join(root, ".git"));
  mkdirSync(join(root, "odd"));
  writeFileSync(Buffer.concat([Buffer.from(`${root}/odd/`), LATIN]), "needle in latin\n");
  writeFileSync(join(root, "odd", "new\nline.txt"), "needle in newline\n");
  writeFileSync(join(root, "odd", `it's "q".txt`), "needle in quotes\n");
  const ctx: ToolContext = { cwd: root, signal: new AbortController().signal };
  const seen = new Map();
  const tool = (t: ReturnType<typeof createEditTool>) => (args: Record<string, unknown>) => callTool(t, args, ctx);
  return {
    root,
    ctx,
    read: tool(createReadFileTool({ home: "/nonexistent-home", seen })),
    edit: tool(createEditTool({ home: "/nonexistent-home", seen })),
    write: tool(createWriteFileTool({ home: "/nonexistent-home", seen })),
    names: () => readdirSync(join(root, "odd"), { encoding: "buffer" }).map((b) => shownName(b)),
  };
}

describe.each(await bothGreps())("grep (%s)", (_, grep) => {
  test("a name that is not UTF-8 is written with \\xE9 and one with a newline with \\n, each result on one line", async () => {
    const { ctx } = layout();
    const { output } = await callTool(grep, { pattern: "needle" }, ctx);
    expect(output.split("\n").sort()).toEqual([
      `odd/caf\\xE9.txt:1: needle in latin`,
      `odd/it's "q".txt:1: needle in quotes`,
      `odd/new\\nline.txt:1: needle in newline`,
    ]);
  });

  test("a path written so is searched", async () => {
    const { ctx } = layout();
    expect((await callTool(grep, { pattern: "needle", path: "odd/caf\\xE9.txt" }, ctx)).output).toBe("odd/caf\\xE9.txt:1: needle in latin");
  });
});

test("read_file opens a name as grep writes it, and edit and write_file change that file, never another", async () => {
  const { root, read, edit, write, names } = layout();
  expect(await read({ path: "odd/caf\\xE9.txt" })).toEqual({ output: "1\tneedle in latin" });
  expect(await read({ path: "odd/new\\nline.txt" })).toEqual({ output: "1\tneedle in newline" });
  expect((await edit({ path: "odd/caf\\xE9.txt", old_string: "latin", new_string: "Latin-1" })).isError).toBeFalsy();
  expect(readFileSync(Buffer.concat([Buffer.from(`${root}/odd/`), LATIN]), "utf8")).toBe("needle in Latin-1\n");
  expect((await write({ path: "odd/new\\nline.txt", content: "rewritten\n" })).isError).toBeFalsy();
  expect(readFileSync(join(root, "odd", "new\nline.txt"), "utf8")).toBe("rewritten\n");
  expect(names().sort()).toEqual(["caf\\xE9.txt", `it's "q".txt`, "new\\nline.txt"]);
});

test("a link named with a byte that is not UTF-8 is followed as any link is: write_file writes the file it names, and the link stays", async () => {
  const { root, read, write } = layout();
  writeFileSync(join(root, "target.txt"), "old\n");
  symlinkSync("target.txt", Buffer.concat([Buffer.from(`${root}/link`), Buffer.from([0x80])]));
  expect(await read({ path: "link\\x80" })).toEqual({ output: "1\told" });
  expect((await write({ path: "link\\x80", content: "new\n" })).isError).toBeFalsy();
  expect(readFileSync(join(root, "target.txt"), "utf8")).toBe("new\n");
  expect(lstatSync(Buffer.concat([Buffer.from(`${root}/link`), Buffer.from([0x80])])).isSymbolicLink()).toBe(true);
});

test("the name as U+FFFD or as Windows-1252 text shows: read_file and edit name the file it is, write_file refuses to make a second", async () => {
  const { root, read, edit, write, names } = layout();
  const meant = `did you mean odd/caf\\xE9.txt (${root}/odd/caf\\xE9.txt)?`;
  expect((await read({ path: "odd/caf\uFFFD.txt" })).output).toBe(`file not found: odd/caf\uFFFD.txt (looked for ${root}/odd/caf\uFFFD.txt); ${meant}`);
  expect((await read({ path: "odd/café.txt" })).output).toBe(`file not found: odd/café.txt (looked for ${root}/odd/café.txt); ${meant}`);
  const edited = await edit({ path: "odd/caf\uFFFD.txt", old_string: "latin", new_string: "x" });
  expect(edited.output).toContain(meant);
  expect(edited.output).not.toContain("write_file");
  expect(await write({ path: "odd/caf\uFFFD.txt", content: "new\n" })).toEqual({
    isError: true,
    output: `write_file: odd/caf\uFFFD.txt is odd/caf\\xE9.txt as a program reading names as UTF-8 shows it (each \\xHH is a byte that is not UTF-8); give that name; not written`,
  });
  expect(names().sort()).toEqual(["caf\\xE9.txt", `it's "q".txt`, "new\\nline.txt"]);
});

test("a name that holds a backslash is itself when a file has it: read_file, edit and grep open odd\\new.txt, not a name with a newline", async () => {
  const { root, ctx, read, edit } = layout();
  writeFileSync(join(root, "odd", "back\\new.txt"), "needle with a backslash\n");
  expect(await read({ path: "odd/back\\new.txt" })).toEqual({ output: "1\tneedle with a backslash" });
  expect((await edit({ path: "odd/back\\new.txt", old_string: "with", new_string: "has" })).isError).toBeFalsy();
  expect(readFileSync(join(root, "odd", "back\\new.txt"), "utf8")).toBe("needle has a backslash\n");
  for (const [, grep] of await bothGreps())
    expect((await callTool(grep, { pattern: "backslash" }, ctx)).output).toBe("odd/back\\new.txt:1: needle has a backslash");
});

test("write_file creates no file whose name holds a control character: a backslash path on Linux (docs\\notes.md) is not a newline in a name", async () => {
  const { root, write } = layout();
  const refusal =
    "would create a file whose name holds a control character (\\n, \\t, \\r and \\xHH are how hey writes those); give the name without it; not written";
  expect(await write({ path: "docs\\notes.md", content: "x\n" })).toEqual({ isError: true, output: `write_file: docs\\notes.md ${refusal}` });
  expect(await write({ path: "odd/a\nb.txt", content: "x\n" })).toEqual({ isError: true, output: `write_file: odd/a\\nb.txt ${refusal}` });
  expect(readdirSync(root).sort()).toEqual([".git", "odd"]);
  expect((await write({ path: "odd/caf\\xE9 2.txt", content: "x\n" })).output).toBe("created odd/caf\\xE9 2.txt (1 line, 2 bytes)"); // a byte that is not UTF-8 is no control character
  expect(readFileSync(Buffer.from(`${root}/odd/caf\xe9 2.txt`, "latin1"), "utf8")).toBe("x\n");
});

test.each([
  ["plain.txt", "plain.txt"],
  ["caf\xe9.txt", "caf\\xE9.txt"],
  ["new\nline", "new\\nline"],
  ["tab\there", "tab\\there"],
  ["esc\x1b[31m", "esc\\x1B[31m"],
  ["a\\b.txt", "a\\b.txt"], // a backslash in a name with nothing to escape stays as it is
  ["a\\b\xe9", "a\\\\b\\xE9"], // and is doubled in one that has
  ["\xff\xfe", "\\xFF\\xFE"],
  ["日本.txt", "日本.txt"],
])("name bytes %j are written %j, and that form names the same bytes again", (name, shown) => {
  const bytes = /^[\x00-\xff]*$/.test(name) && !/^[\x00-\x7f]*$/.test(name) ? Buffer.from(name, "latin1") : Buffer.from(name);
  expect(shownName(bytes)).toBe(shown);
  const back = diskPath(`/p/${shown}`);
  expect(Buffer.from(back)).toEqual(Buffer.concat([Buffer.from("/p/"), bytes]));
});

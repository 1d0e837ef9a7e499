// The file tools of one run against a file someone else changes while the agent works: write_file
// never replaces a change the agent has not seen, and says how to go on.
import { expect, test } from "bun:test";
import { appendFileSync, readFileSync, statSync, symlinkSync, unlinkSync, utimesSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Tool, ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import type { SeenFiles } from "../../src/tools/seen-files.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";
import { until } from "../helpers/wait.ts";

const dir = eachTempDir("hey-changed-");
const REFUSED = "has changed since it was last read or written (by the user, a command or another program); not written, so that change is kept";

/** The three file tools of one run, sharing what they saw, as wire.ts and lib.ts build them. */
function run() {
  const seen: SeenFiles = new Map();
  const ctx: ToolContext = { cwd: dir.path, signal: new AbortController().signal };
  const call = (tool: Tool) => (args: Record<string, unknown>) => callTool(tool, args, ctx);
  return { read: call(createReadFileTool({ seen })), write: call(createWriteFileTool({ seen })), edit: call(createEditTool({ seen })) };
}
const file = (name: string) => join(dir.path, name);
const text = (name: string) => readFileSync(file(name), "utf8");

test("read, the user saves a change, write_file of the file as remembered is refused and the change kept; read again, the write goes through", async () => {
  const { read, write } = run();
  writeFileSync(file("app.ts"), "export const a = 1;\n");
  await read({ path: "app.ts" });
  writeFileSync(file("app.ts"), "export const a = 1;\nexport const user = true;\n");
  expect(await write({ path: "app.ts", content: "export const a = 2;\n" })).toEqual({
    isError: true,
    output: `app.ts ${REFUSED}: read it again with read_file and make your change to what it holds now`,
  });
  expect(text("app.ts")).toBe("export const a = 1;\nexport const user = true;\n");
  expect((await read({ path: "app.ts" })).output).toBe("1\texport const a = 1;\n2\texport const user = true;");
  expect(await write({ path: "app.ts", content: "export const a = 2;\nexport const user = true;\n" })).toEqual({
    output: "overwrote app.ts (2 lines, 46 bytes)",
  });
});

test("a change of the same size with the same modification time is still seen: the content is compared, not the clock", async () => {
  const { read, write } = run();
  writeFileSync(file("flag.ts"), "on = 0\n");
  await read({ path: "flag.ts" });
  const { atime, mtime } = statSync(file("flag.ts"));
  writeFileSync(file("flag.ts"), "on = 1\n");
  utimesSync(file("flag.ts"), atime, mtime); // as a file system with 1-second times, or `cp -p`, leaves it
  expect((await write({ path: "flag.ts", content: "on = 2\n" })).output).toStartWith(`flag.ts ${REFUSED}`);
  expect(text("flag.ts")).toBe("on = 1\n");
});

test("a window of the file, then a change outside the lines read: the change is kept too", async () => {
  const { read, write } = run();
  writeFileSync(file("long.txt"), "a\nb\nc\nd\n");
  expect((await read({ path: "long.txt", offset: 1, limit: 2 })).output).toBe("1\ta\n2\tb\n… 2 more lines; use offset=3");
  writeFileSync(file("long.txt"), "a\nb\nc\nd\ne (the user's)\n");
  expect((await write({ path: "long.txt", content: "A\nB\nc\nd\n" })).output).toStartWith(`long.txt ${REFUSED}`);
  expect(text("long.txt")).toBe("a\nb\nc\nd\ne (the user's)\n");
});

test("what write_file wrote is what the agent saw: a change after it is kept from the next write", async () => {
  const { write } = run();
  expect((await write({ path: "draft.md", content: "# Draft\n" })).output).toBe("created draft.md (1 line, 8 bytes)");
  writeFileSync(file("draft.md"), "# Draft\n\nThe user's paragraph.\n");
  expect((await write({ path: "draft.md", content: "# Draft 2\n" })).output).toStartWith(`draft.md ${REFUSED}`);
  expect(text("draft.md")).toBe("# Draft\n\nThe user's paragraph.\n");
});

test("an edit keeps the change it found and says once that the file had changed; a whole-file write from memory is refused for the lines it has not seen", async () => {
  const { read, write, edit } = run();
  writeFileSync(file("conf.ts"), "port = 1\nhost = 'a'\n");
  await read({ path: "conf.ts" });
  writeFileSync(file("conf.ts"), "// the user's line\nport = 1\nhost = 'user'\n");
  const NOTE =
    "note: conf.ts had changed since you last read it (by a command, the user or another program); your edit went into what it holds now, and that change is kept: read it again before relying on its other lines";
  expect((await edit({ path: "conf.ts", old_string: "port = 1", new_string: "port = 2" })).output).toStartWith(
    `edited conf.ts: 1 replacement\n${NOTE}\n@@ -1,3 +1,3 @@`,
  );
  // the agent's own line, edited again: the file is what its last edit left, nothing to say (x58: the note came with every edit)
  expect((await edit({ path: "conf.ts", old_string: "port = 2", new_string: "port = 3" })).output).toStartWith(
    "edited conf.ts: 1 replacement\n@@ -1,3 +1,3 @@",
  );
  expect(await write({ path: "conf.ts", content: "port = 4\nhost = 'a'\n" })).toEqual({
    output:
      "conf.ts has 3 lines, and content drops or changes lines 1, 3, which you have not seen whole in this run (you have seen line 2); " +
      "not written, so they are kept: read them with read_file (offset=1) first, or change the file with edit",
    isError: true,
  });
  expect(text("conf.ts")).toBe("// the user's line\nport = 3\nhost = 'user'\n");
  await read({ path: "conf.ts" });
  expect((await edit({ path: "conf.ts", old_string: "port = 3", new_string: "port = 5" })).output).not.toContain("note:");
  expect((await write({ path: "conf.ts", content: "port = 6\n" })).output).toBe("overwrote conf.ts (1 line, 9 bytes)");
});

test("edit's old_string no longer in a file the user changed since it was read: the error says so first, then what matches loosely", async () => {
  const { read, edit } = run();
  writeFileSync(file("calc.py"), "def add(a, b):\n    return a + b\n");
  await read({ path: "calc.py" });
  writeFileSync(file("calc.py"), "def add(a, b):\n        return a+b\n"); // the user's formatter
  expect(await edit({ path: "calc.py", old_string: "    return a + b", new_string: "    return b + a" })).toEqual({
    isError: true,
    output:
      "calc.py has changed since you last read it (by the user, a command or another program): read it again with read_file and take old_string from what it holds now\n" +
      "old_string not found in calc.py, but it matches when whitespace is ignored, at line 2:\n2\t        return a+b\ncopy the exact text (indentation, tabs, line breaks) into old_string",
  });
  await read({ path: "calc.py" });
  expect((await edit({ path: "calc.py", old_string: "return a + b", new_string: "x" })).output).toStartWith("old_string not found in calc.py");
});

test("an edit of a file seen as it was leaves it known: write_file after it goes through", async () => {
  const { read, write, edit } = run();
  writeFileSync(file("ok.ts"), "x = 1\n");
  await read({ path: "ok.ts" });
  await edit({ path: "ok.ts", old_string: "x = 1", new_string: "x = 2" });
  expect(await write({ path: "ok.ts", content: "x = 3\n" })).toEqual({ output: "overwrote ok.ts (1 line, 6 bytes)" });
});

test("read through a link, changed, written through its target: one file, refused", async () => {
  const { read, write } = run();
  writeFileSync(file("real.toml"), "a = 1\n");
  symlinkSync("real.toml", file("link.toml"));
  await read({ path: "link.toml" });
  writeFileSync(file("real.toml"), "a = 1\nb = 2\n");
  expect((await write({ path: "real.toml", content: "a = 9\n" })).output).toStartWith(`real.toml ${REFUSED}`);
});

test("a file never read this run (as after hey -c) is not overwritten until read; then, and once it was written, it is", async () => {
  const { read, write } = run();
  writeFileSync(file("blind.txt"), "old\nthe user's line\n");
  expect(await write({ path: "blind.txt", content: "new\n" })).toEqual({
    isError: true,
    output:
      "blind.txt exists and has not been read or written in this run; not written, so what it holds is kept: read it with read_file and make your change to what it holds now",
  });
  expect(text("blind.txt")).toBe("old\nthe user's line\n");
  await read({ path: "blind.txt" });
  expect(await write({ path: "blind.txt", content: "new\n" })).toEqual({ output: "overwrote blind.txt (1 line, 4 bytes)" });
  expect(await write({ path: "blind.txt", content: "newer\n" })).toEqual({ output: "overwrote blind.txt (1 line, 6 bytes)" });
});

test("a file saved again unchanged since it was read, and one deleted since, are written as before", async () => {
  const { read, write } = run();
  writeFileSync(file("same.txt"), "same\n");
  await read({ path: "same.txt" });
  writeFileSync(file("same.txt"), "same\n");
  expect(await write({ path: "same.txt", content: "new\n" })).toEqual({ output: "overwrote same.txt (1 line, 4 bytes)" });
  writeFileSync(file("gone.txt"), "gone\n");
  await read({ path: "gone.txt" });
  unlinkSync(file("gone.txt"));
  expect(await write({ path: "gone.txt", content: "back\n" })).toEqual({ output: "created gone.txt (1 line, 5 bytes)" });
});

test("a file read as Windows-1252 (after its first pass as UTF-8 failed) or as UTF-16 is known as read: writing it goes through", async () => {
  const { read, write } = run();
  writeFileSync(file("latin.txt"), Buffer.concat([Buffer.from("a\n".repeat(5000)), Buffer.from("caf\xe9\n", "latin1")]));
  expect((await read({ path: "latin.txt", offset: 5001 })).output).toEndWith("5001\tcafé");
  expect((await write({ path: "latin.txt", content: `${"a\n".repeat(5000)}café!\n` })).output).toStartWith("overwrote latin.txt"); // keeping the lines not read
  writeFileSync(file("wide.txt"), Buffer.from("\ufeffhi\r\n", "utf16le"));
  expect((await read({ path: "wide.txt" })).output).toEndWith("1\thi");
  expect((await write({ path: "wide.txt", content: "ho\n" })).output).toStartWith("overwrote wide.txt");
});

test("a save that lands while edit writes the file (its new copy written and flushed) is kept: the edit it caught is refused and says so", async () => {
  const { edit } = run();
  writeFileSync(file("big.ts"), `a = 1\n${"x\n".repeat(200_000)}`);
  // the user's editor saves the moment hey's temporary copy appears beside the file
  let saved = false;
  const watcher = watch(dir.path, (_, name) => {
    if (!name?.endsWith(".tmp") || saved) return;
    appendFileSync(file("big.ts"), "user\n");
    saved = true;
  });
  const result = await edit({ path: "big.ts", old_string: "a = 1", new_string: "a = 2" });
  await until(() => saved, "the user's save").finally(() => watcher.close());
  expect(text("big.ts")).toEndWith("x\nuser\n"); // whenever it landed
  // it lands while the copy is written and flushed; on a loaded machine it may come only after the rename, on the edited file
  const outcome = result.isError ? result.output : text("big.ts").slice(0, 6);
  expect([
    "cannot write big.ts: it changed while it was being written (by the user, a command or another program); not replaced, so that change is kept: read it again",
    "a = 2\n",
  ]).toContain(outcome);
});

test("a file only edited, never read (as after hey -c): write_file that drops a line the agent never saw is refused; one that keeps them goes through", async () => {
  const { read, write, edit } = run();
  const remembered = "def f0():\n    return 0\n\ndef f1():\n    return 1\n";
  writeFileSync(file("m.py"), `${remembered}\ndef user_fn(): return "USER WORK"\n`); // the user's function, added since the earlier run
  // line 2 written whole, its indentation too: seen (an old_string after the indentation would leave it unseen)
  expect((await edit({ path: "m.py", old_string: "    return 0", new_string: "    return 100" })).output).toStartWith("edited m.py: 1 replacement");
  expect(await write({ path: "m.py", content: `${remembered.replace("return 0", "return 100")}\ndef g():\n    return 1\n` })).toEqual({
    isError: true,
    output:
      "m.py has 7 lines, and content drops or changes line 7, which you have not seen whole in this run (you have seen line 2); " +
      "not written, so they are kept: read them with read_file (offset=7) first, or change the file with edit",
  });
  expect(text("m.py")).toEndWith('def user_fn(): return "USER WORK"\n');
  // content that keeps every line it has not seen, as they are, loses nothing
  const kept = `${text("m.py")}\ndef g():\n    return 1\n`;
  expect((await write({ path: "m.py", content: kept })).output).toBe("overwrote m.py (10 lines, 107 bytes)");
  await read({ path: "m.py" });
  expect((await write({ path: "m.py", content: "def g():\n    return 1\n" })).output).toBe("overwrote m.py (2 lines, 22 bytes)");
});

test("read_file's first window of a long file, then write_file of only the lines read: refused, naming the lines lost; after reading the rest, it goes through", async () => {
  const { read, write } = run();
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`);
  writeFileSync(file("long.txt"), `${lines.join("\n")}\n`);
  expect((await read({ path: "long.txt" })).output).toEndWith("2000\tline 2000\n… 1000 more lines; use offset=2001");
  const firstPart = `${lines.slice(0, 2000).join("\n").replace("line 5\n", "LINE 5\n")}\n`;
  expect(await write({ path: "long.txt", content: firstPart })).toEqual({
    isError: true,
    output:
      "long.txt has 3000 lines, and content drops or changes lines 2001-3000, which you have not seen whole in this run (you have seen lines 1-2000); " +
      "not written, so they are kept: read them with read_file (offset=2001) first, or change the file with edit",
  });
  expect(text("long.txt").split("\n")).toHaveLength(3001);
  await read({ path: "long.txt", offset: 2001 });
  expect((await write({ path: "long.txt", content: firstPart })).output).toStartWith("overwrote long.txt (2000 lines");
});

test("a line read_file showed cut short is not seen whole: writing it back as shown is refused", async () => {
  const { read, write } = run();
  const long = "x".repeat(2500);
  writeFileSync(file("min.js"), `a\n${long}\nb\n`);
  expect((await read({ path: "min.js" })).output).toContain("… [cut: 2000 of 2500 chars]");
  expect((await write({ path: "min.js", content: `A\n${"x".repeat(2000)}\nb\n` })).output).toStartWith(
    "min.js has 3 lines, and content drops or changes line 2, which you have not seen whole in this run (you have seen lines 1, 3)",
  );
  expect((await write({ path: "min.js", content: `A\n${long}\nb\n` })).output).toStartWith("overwrote min.js");
});

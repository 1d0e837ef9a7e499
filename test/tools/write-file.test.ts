// write_file and writeFileAtomic against real files: parents, messages, modes, symlinks, and a
// concurrent reader in another process that must never see a partial file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import type { SeenFiles } from "../../src/tools/seen-files.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { testNeeding } from "../helpers/tools.ts";

let dir: string;
let ctx: ToolContext;
const seen: SeenFiles = new Map(); // one run's: write_file overwrites only a file read or written in it
const write = (args: Record<string, unknown>) => callTool(createWriteFileTool({ seen }), args, ctx);
const read = (path: string) => callTool(createReadFileTool({ seen }), { path }, ctx);
const edit = (args: Record<string, unknown>) => callTool(createEditTool({ seen }), args, ctx);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-write-"));
  ctx = { cwd: dir, signal: new AbortController().signal };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("creates missing parent directories and says what it wrote", async () => {
  expect(await write({ path: "a/b/c.txt", content: "one\ntwo\n" })).toEqual({ output: "created a/b/c.txt (2 lines, 8 bytes)" });
  expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("one\ntwo\n");
  expect(await write({ path: "new.txt", content: "one line\n" })).toEqual({ output: "created new.txt (1 line, 9 bytes)" });
});

test("overwriting says so; counts a last line without newline and bytes, not characters", async () => {
  writeFileSync(join(dir, "over.txt"), "old");
  await read("over.txt");
  expect(await write({ path: "over.txt", content: "é\nlast" })).toEqual({ output: "overwrote over.txt (2 lines, 7 bytes)" });
  expect(await write({ path: "over.txt", content: "" })).toEqual({ output: "overwrote over.txt (0 lines, 0 bytes)" });
  expect(readFileSync(join(dir, "over.txt"), "utf8")).toBe("");
});

test("keeps the mode of an existing file (an executable stays executable)", async () => {
  const script = join(dir, "run.sh");
  writeFileSync(script, "#!/bin/sh\n");
  chmodSync(script, 0o755); // not writeFileSync's mode, which the umask cuts
  await write({ path: "run.sh", content: "#!/bin/sh\necho hi\n" });
  expect(statSync(script).mode & 0o777).toBe(0o755);
  writeFileSync(join(dir, "private"), "x");
  await read("private");
  chmodSync(join(dir, "private"), 0o600);
  await write({ path: "private", content: "y" });
  expect(statSync(join(dir, "private")).mode & 0o777).toBe(0o600);
});

test("overwriting keeps the file's CRLF line ends, byte-order mark and encoding (Windows-1252, UTF-16), and says so", async () => {
  writeFileSync(join(dir, "win.cs"), "\uFEFFclass A\r\n{\r\n}\r\n");
  await read("win.cs");
  expect(await write({ path: "win.cs", content: "class B\n{\n}\n" })).toEqual({
    output: "overwrote win.cs (3 lines, 18 bytes; kept its CRLF line ends, byte-order mark)",
  });
  expect(readFileSync(join(dir, "win.cs"), "utf8")).toBe("\uFEFFclass B\r\n{\r\n}\r\n");
  writeFileSync(join(dir, "old.properties"), Buffer.from("a=caf\xe9\n", "latin1"));
  await read("old.properties");
  expect(await write({ path: "old.properties", content: "a=café €\n" })).toEqual({
    output: "overwrote old.properties (1 line, 9 bytes; kept its Windows-1252 (Latin-1) encoding)",
  });
  expect(readFileSync(join(dir, "old.properties"))).toEqual(Buffer.from([...Buffer.from("a=caf\xe9 ", "latin1"), 0x80, 0x0a]));
  const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  writeFileSync(join(dir, "out.log"), utf16le("a\r\n"));
  await read("out.log");
  expect(await write({ path: "out.log", content: "b ✓\n" })).toEqual({
    output: "overwrote out.log (1 line, 12 bytes; kept its CRLF line ends, UTF-16 LE encoding)",
  });
  expect(readFileSync(join(dir, "out.log"))).toEqual(utf16le("b ✓\r\n"));
  // what the file did not have, or the content says otherwise, is written as given
  writeFileSync(join(dir, "mixed.txt"), "a\r\nb\n");
  await read("mixed.txt");
  await write({ path: "mixed.txt", content: "x\ny\n" });
  expect(readFileSync(join(dir, "mixed.txt"), "utf8")).toBe("x\ny\n");
  await write({ path: "win.cs", content: "\uFEFFall\r\nmine\n" });
  expect(readFileSync(join(dir, "win.cs"), "utf8")).toBe("\uFEFFall\r\nmine\n");
  expect(await write({ path: "old.properties", content: "a=✓\n" })).toEqual({
    output: "overwrote old.properties (1 line, 6 bytes; now UTF-8: Windows-1252 (Latin-1) cannot hold ✓)",
  });
  expect(readFileSync(join(dir, "old.properties"), "utf8")).toBe("a=✓\n");
});

test("overwriting a CRLF file a tool appended one LF line to changes only the changed line, and a change of line ends is said", async () => {
  const csproj = ["<Project>", "  <PropertyGroup>", "    <TargetFramework>net8.0</TargetFramework>", "  </PropertyGroup>", "</Project>"];
  writeFileSync(join(dir, "app.csproj"), `${csproj.join("\r\n")}\n`);
  await read("app.csproj");
  const content = `${csproj.join("\n").replace("net8.0", "net9.0")}\n`;
  expect(await write({ path: "app.csproj", content })).toEqual({
    output: "overwrote app.csproj (5 lines, 108 bytes; kept its mixed line ends (4 CRLF, 1 LF))",
  });
  expect(readFileSync(join(dir, "app.csproj"), "utf8")).toBe(`${csproj.join("\r\n").replace("net8.0", "net9.0")}\n`);
  // content that brings its own line ends is written as given, and the change is named
  expect(await write({ path: "app.csproj", content: "<Project>\n<Item/>\n</Project>\r\n" })).toEqual({
    output: "overwrote app.csproj (3 lines, 30 bytes; line ends: 1 CRLF → LF)",
  });
});

test("content carrying U+FFFD where the file is Latin-1 (the model read it with cat) is refused: writing it would lose the bytes", async () => {
  const latin1 = Buffer.from("name=Jos\xe9\ncity=S\xe3o Paulo\n", "latin1");
  writeFileSync(join(dir, "people.properties"), latin1);
  await read("people.properties");
  expect(await write({ path: "people.properties", content: "name=Jos\uFFFD\ncity=S\uFFFDo Paulo\nage=3\n" })).toEqual({
    output:
      "people.properties is Windows-1252 (Latin-1), and content has U+FFFD (�), the mark of a byte read as if it were UTF-8: read the file with read_file, which decodes it, and write what that shows; not changed",
    isError: true,
  });
  expect(readFileSync(join(dir, "people.properties"))).toEqual(latin1);
});

test("a read-only file is not overwritten: the model is told why", async () => {
  writeFileSync(join(dir, "locked.txt"), "keep\n");
  chmodSync(join(dir, "locked.txt"), 0o444); // not writeFileSync's mode, which the umask cuts
  expect(await write({ path: "locked.txt", content: "changed\n" })).toEqual({
    output: "locked.txt is read-only (mode 444); not changed. If it really should change, make it writable first (chmod u+w)",
    isError: true,
  });
  expect(readFileSync(join(dir, "locked.txt"), "utf8")).toBe("keep\n");
});

test("writes through a symlink, keeping the link", async () => {
  writeFileSync(join(dir, "real.txt"), "before");
  await read("real.txt");
  symlinkSync(join(dir, "real.txt"), join(dir, "link.txt"));
  await write({ path: "link.txt", content: "after" });
  expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(dir, "link.txt"))).toBe(join(dir, "real.txt"));
  expect(readFileSync(join(dir, "real.txt"), "utf8")).toBe("after");
});

test("writes through a link whose target is not there yet: the target is created, the link kept", async () => {
  symlinkSync(join("shared", "settings.json"), join(dir, "settings.json"));
  expect(await write({ path: "settings.json", content: "{}\n" })).toEqual({ output: "created settings.json (1 line, 3 bytes)" });
  expect(lstatSync(join(dir, "settings.json")).isSymbolicLink()).toBe(true);
  expect(readFileSync(join(dir, "shared", "settings.json"), "utf8")).toBe("{}\n");
});

test("absolute paths work", async () => {
  expect((await write({ path: join(dir, "abs.txt"), content: "x" })).output).toBe(`created ${join(dir, "abs.txt")} (1 line, 1 byte)`);
});

test.each([
  ["missing content", { path: "x.txt" }, "write_file: `content` must be a string, got nothing"],
  ["content not a string", { path: "x.txt", content: 42 }, "write_file: `content` must be a string, got 42"],
  ["missing path", { content: "x" }, "write_file: `path` must be a string, got nothing"],
  ["empty path", { path: "", content: "x" }, "write_file: `path` must be a non-empty string"],
  ["a directory", { path: "a", content: "x" }, "a is a directory; give a file path"],
] as const)("%s → error", async (_name, args, message) => {
  expect(await write(args)).toEqual({ output: message, isError: true });
});

test("a parent that is a file: the error names that file as the path spells it, however deep below it the new file is", async () => {
  writeFileSync(join(dir, "plain"), "x");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/file.js"), "x");
  expect(await write({ path: "plain/child.txt", content: "x" })).toEqual({
    output: "cannot write plain/child.txt: plain is a file, not a directory",
    isError: true,
  });
  expect(await write({ path: "./src/file.js/deep/x.ts", content: "x" })).toEqual({
    output: "cannot write ./src/file.js/deep/x.ts: ./src/file.js is a file, not a directory",
    isError: true,
  });
  expect(readFileSync(join(dir, "src/file.js"), "utf8")).toBe("x");
});

test("content carrying read_file's line numbers is refused, unwritten, saying to leave them out", async () => {
  const refusal = (prefix: string, path: string) =>
    `content's lines start with read_file's line numbers ("${prefix}"); ${path} not written: leave the numbers out and give only each line's text ` +
    "(if the numbers and tabs belong in the file, make the same call again)";
  expect(await write({ path: "copy.js", content: "  1\t/*!\n  2\t * express\n  3\t */\n" })).toEqual({ output: refusal("  1\\t", "copy.js"), isError: true });
  expect(existsSync(join(dir, "copy.js"))).toBe(false);
  writeFileSync(join(dir, "view.js"), "'use strict';\nmodule.exports = View;\n");
  await read("view.js");
  const numbered = " 9\t'use strict';\n10\t\n11\tmodule.exports = View;\n";
  expect(await write({ path: "view.js", content: numbered })).toEqual({ output: refusal(" 9\\t", "view.js"), isError: true });
  expect(readFileSync(join(dir, "view.js"), "utf8")).toBe("'use strict';\nmodule.exports = View;\n");
});

test("numbers and tabs that are the file's own (a table of numbers) are written as given", async () => {
  writeFileSync(join(dir, "counts.tsv"), "1\t10\n2\t20\n");
  await read("counts.tsv");
  expect((await write({ path: "counts.tsv", content: "1\t10\n2\t20\n3\t30\n" })).output).toBe("overwrote counts.tsv (3 lines, 15 bytes)");
  expect((await write({ path: "ids.tsv", content: "7\tseven\n9\tnine\n" })).output).toBe("created ids.tsv (2 lines, 15 bytes)"); // not one after the other
});

test("a new numbered table refused as a copied gutter is written when the model sends the same content again", async () => {
  const tool = createWriteFileTool({ seen }); // one run's tool, as the agent keeps it
  const once = (content: string) => callTool(tool, { path: "fruit.tsv", content }, ctx);
  const table = "1\tapple\n2\tpear\n";
  expect((await once(table)).isError).toBe(true);
  expect(existsSync(join(dir, "fruit.tsv"))).toBe(false);
  expect((await once(table)).output).toBe("created fruit.tsv (2 lines, 15 bytes)");
  expect(readFileSync(join(dir, "fruit.tsv"), "utf8")).toBe(table);
});

test("atomic: a reader in another process never sees a partial file; the temp file lives beside the target and is gone after", async () => {
  const sub = join(dir, "atomic");
  mkdirSync(sub);
  const target = join(sub, "data.bin");
  const size = 2 * 1024 * 1024;
  writeFileSync(target, "a".repeat(size));
  await read("atomic/data.bin");
  const stop = join(dir, "stop");
  // The reader checks every read is one whole version (all "a" or all "b", full length) and
  // records every other name it sees in the directory.
  const reader = Bun.spawn(
    [
      process.execPath,
      "-e",
      `
      const fs = require("node:fs");
      let reads = 0, torn = 0; const names = new Set();
      while (!fs.existsSync(${JSON.stringify(stop)})) {
        const buf = fs.readFileSync(${JSON.stringify(target)});
        reads++;
        const other = buf[0] === 97 ? 98 : 97;
        if (buf.length !== ${size} || buf.indexOf(other) !== -1) torn++;
        for (const n of fs.readdirSync(${JSON.stringify(sub)})) if (n !== "data.bin") names.add(n);
      }
      console.log(JSON.stringify({ reads, torn, names: [...names] }));
    `,
    ],
    { stdout: "pipe" },
  );
  for (let i = 0; i < 30; i++) await write({ path: "atomic/data.bin", content: (i % 2 ? "a" : "b").repeat(size) });
  writeFileSync(stop, "");
  const report = JSON.parse(await new Response(reader.stdout).text()) as { reads: number; torn: number; names: string[] };
  expect(report.reads).toBeGreaterThan(0);
  expect(report.torn).toBe(0);
  for (const name of report.names) expect(name).toMatch(/^\.data\.bin\.\d+\.[0-9a-f]{8}\.tmp$/);
  expect(readdirSync(sub)).toEqual(["data.bin"]);
});

// Root writes anywhere, so as root the tools run as nobody (setpriv).
const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
testNeeding(asUser.slice(0, 1))("a directory not writable: a new file's error names it; a writable file in it is written in place", async () => {
  const tree = mkdtempSync(join(tmpdir(), "hey-write-locked-"));
  try {
    mkdirSync(join(tree, "vendor"));
    writeFileSync(join(tree, "vendor", "lib.js"), "old\n");
    chmodSync(join(tree, "vendor", "lib.js"), 0o666); // the file is writable, its directory is not
    chmodSync(join(tree, "vendor"), 0o555);
    chmodSync(tree, 0o755);
    const script = `
      const { createWriteFileTool } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/write-file.ts"))});
      const { createEditTool } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/edit.ts"))});
      const { callTool } = await import(${JSON.stringify(join(import.meta.dir, "../helpers/call-tool.ts"))});
      const ctx = { cwd: ${JSON.stringify(tree)}, signal: new AbortController().signal };
      console.log(JSON.stringify([
        await callTool(createWriteFileTool(), { path: "vendor/new.js", content: "x" }, ctx),
        await callTool(createEditTool(), { path: "vendor/lib.js", old_string: "old", new_string: "new" }, ctx),
      ]));`;
    const run = Bun.spawnSync([...asUser, process.execPath, "-e", script], { cwd: tree, env: { ...process.env, HOME: tree } });
    expect(run.stderr.toString()).toBe("");
    const why = `its directory ${join(tree, "vendor")} is not writable (permission denied)`;
    expect(JSON.parse(run.stdout.toString())).toEqual([
      { output: `cannot write vendor/new.js: ${why}`, isError: true },
      { output: "edited vendor/lib.js: 1 replacement\n@@ -1,1 +1,1 @@\n-old\n+new" },
    ]);
    expect(readFileSync(join(tree, "vendor", "lib.js"), "utf8")).toBe("new\n");
    expect(readdirSync(join(tree, "vendor"))).toEqual(["lib.js"]);
  } finally {
    chmodSync(join(tree, "vendor"), 0o755);
    rmSync(tree, { recursive: true, force: true });
  }
});

test('a path ending in "/" names a directory: nothing is created or overwritten', async () => {
  expect(await write({ path: "zz.txt/", content: "x" })).toEqual({
    output: 'write_file: zz.txt/ ends with "/", which names a directory; give the file\'s path',
    isError: true,
  });
  expect(readdirSync(dir)).not.toContain("zz.txt");
  writeFileSync(join(dir, "e.txt"), "kept\n");
  expect((await write({ path: "e.txt/", content: "x" })).isError).toBe(true);
  expect(readFileSync(join(dir, "e.txt"), "utf8")).toBe("kept\n");
});

test("after an edit of the start of a line read_file showed cut, write_file of that line as shown is refused: the rest of it is kept", async () => {
  const long = `const data = [${"1,".repeat(4344)}];`; // 8,704 characters: read_file shows 2,000
  writeFileSync(join(dir, "b.js"), `head\n${long}\ntail\n`);
  const shown = (await read("b.js")).output.split("\n")[1]!.replace(/^ *2\t/, "");
  expect(shown).toEndWith("… [cut: 2000 of 8704 chars]");
  expect((await edit({ path: "b.js", old_string: "const data = [", new_string: "const items = [" })).output).toStartWith("edited b.js: 1 replacement");
  const cut = shown.replace("const data", "const items");
  expect(await write({ path: "b.js", content: `head\n${cut}\ntail\n` })).toEqual({
    isError: true,
    output:
      'content line 2 ends with "… [cut: 2000 of 8704 chars]", read_file\'s mark of a line it cut: the 6704 characters after the cut are not in content; ' +
      "b.js not written, so they are not lost: change that line with edit (old_string can be a part of it), or see the whole line first",
  });
  // the mark left out, the line's start alone would still drop what the model never saw of it
  expect((await write({ path: "b.js", content: `head\n${cut.replace(/… \[cut.*/, "")}\ntail\n` })).output).toStartWith(
    "b.js has 3 lines, and content drops or changes line 2, which you have not seen whole in this run (you have seen lines 1, 3)",
  );
  expect(readFileSync(join(dir, "b.js"), "utf8")).toBe(`head\n${long.replace("const data", "const items")}\ntail\n`);
  // a copy of the cut line into a new file is refused alike
  expect((await write({ path: "copy.js", content: `${shown}\n` })).output).toStartWith('content line 1 ends with "… [cut: 2000 of 8704 chars]"');
});

test("after replace_all of whole lines ending in a line break, in a file not read in this run, the lines between them are still unseen", async () => {
  const text = Array.from({ length: 100 }, (_, i) => `x=1\nuser data ${i}\n`).join("");
  writeFileSync(join(dir, "ra.txt"), text);
  expect((await edit({ path: "ra.txt", old_string: "x=1\n", new_string: "x=2\n", replace_all: true })).output).toStartWith("edited ra.txt: 100 replacements");
  expect(await write({ path: "ra.txt", content: "x=2\n".repeat(100) })).toEqual({
    isError: true,
    output:
      "ra.txt has 200 lines, and content drops or changes lines 2, 4, 6, 8, 10, …, which you have not seen whole in this run (you have seen lines 1, 3, 5, 7, 9, …); " +
      "not written, so they are kept: read them with read_file (offset=2) first, or change the file with edit",
  });
  expect(readFileSync(join(dir, "ra.txt"), "utf8")).toBe(text.replaceAll("x=1", "x=2"));
  // content that keeps them goes through
  expect((await write({ path: "ra.txt", content: text.replaceAll("x=1", "x=3") })).output).toBe("overwrote ra.txt (200 lines, 1690 bytes)");
});

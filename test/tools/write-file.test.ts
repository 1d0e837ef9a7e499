// write_file and writeFileAtomic against real files: parents, messages, modes, symlinks, and a
// concurrent reader in another process that must never see a partial file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { callTool } from "../helpers/call-tool.ts";

let dir: string;
let ctx: ToolContext;
const write = (args: Record<string, unknown>) => callTool(createWriteFileTool(), args, ctx);

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
  expect(await write({ path: "over.txt", content: "é\nlast" })).toEqual({ output: "overwrote over.txt (2 lines, 7 bytes)" });
  expect(await write({ path: "over.txt", content: "" })).toEqual({ output: "overwrote over.txt (0 lines, 0 bytes)" });
  expect(readFileSync(join(dir, "over.txt"), "utf8")).toBe("");
});

test("keeps the mode of an existing file (an executable stays executable)", async () => {
  const script = join(dir, "run.sh");
  writeFileSync(script, "#!/bin/sh\n", { mode: 0o755 });
  await write({ path: "run.sh", content: "#!/bin/sh\necho hi\n" });
  expect(statSync(script).mode & 0o777).toBe(0o755);
  writeFileSync(join(dir, "private"), "x", { mode: 0o600 });
  await write({ path: "private", content: "y" });
  expect(statSync(join(dir, "private")).mode & 0o777).toBe(0o600);
});

test("writes through a symlink, keeping the link", async () => {
  writeFileSync(join(dir, "real.txt"), "before");
  symlinkSync(join(dir, "real.txt"), join(dir, "link.txt"));
  await write({ path: "link.txt", content: "after" });
  expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(dir, "link.txt"))).toBe(join(dir, "real.txt"));
  expect(readFileSync(join(dir, "real.txt"), "utf8")).toBe("after");
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

test("a parent that is a file is an error naming the path", async () => {
  writeFileSync(join(dir, "plain"), "x");
  const result = await write({ path: "plain/child.txt", content: "x" });
  expect(result.isError).toBe(true);
  expect(result.output).toStartWith("cannot write plain/child.txt:");
});

test("atomic: a reader in another process never sees a partial file; the temp file lives beside the target and is gone after", async () => {
  const sub = join(dir, "atomic");
  mkdirSync(sub);
  const target = join(sub, "data.bin");
  const size = 2 * 1024 * 1024;
  writeFileSync(target, "a".repeat(size));
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

test("overwriting a CRLF file keeps its CRLF line ends (the model writes \\n); an LF or mixed file, or CRLF content, is written as given", async () => {
  writeFileSync(join(dir, "win.txt"), "one\r\ntwo\r\n");
  expect(await write({ path: "win.txt", content: "uno\ndos\ntres\n" })).toEqual({ output: "overwrote win.txt (3 lines, 16 bytes; its CRLF line ends kept)" });
  expect(readFileSync(join(dir, "win.txt"), "utf8")).toBe("uno\r\ndos\r\ntres\r\n");
  await write({ path: "win.txt", content: "a\r\nb\n" });
  expect(readFileSync(join(dir, "win.txt"), "utf8")).toBe("a\r\nb\n");
  writeFileSync(join(dir, "mixed.txt"), "one\r\ntwo\nthree\r\n");
  await write({ path: "mixed.txt", content: "x\ny\n" });
  expect(readFileSync(join(dir, "mixed.txt"), "utf8")).toBe("x\ny\n");
  writeFileSync(join(dir, "unix.txt"), "one\ntwo\n");
  await write({ path: "unix.txt", content: "x\ny\n" });
  expect(readFileSync(join(dir, "unix.txt"), "utf8")).toBe("x\ny\n");
  await write({ path: "fresh.txt", content: "x\ny\n" });
  expect(readFileSync(join(dir, "fresh.txt"), "utf8")).toBe("x\ny\n");
});

// grep and read_file on what is no regular file: a FIFO and a link to /dev/zero, named or met in a
// directory, and the kernel's /proc files, which stat calls empty. Each call answers (a named FIFO
// or /dev/zero used to be read for ever, and a `hey -p` run never ended); a /proc file is read to
// learn what it holds, but a process's environment, which holds API keys, never is.
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, openSync, closeSync, constants, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { tempDir } from "../helpers/e2e.ts";
import { bothGreps } from "../helpers/find-rg.ts";

const dir = tempDir("hey-special-files-");
execFileSync("mkfifo", [join(dir.path, "pipe.txt")]);
symlinkSync("/dev/zero", join(dir.path, "zero.txt"));
mkdirSync(join(dir.path, "data"));
execFileSync("mkfifo", [join(dir.path, "data", "queue.log")]);
symlinkSync("/dev/zero", join(dir.path, "data", "dump.log"));
writeFileSync(join(dir.path, "data", "notes.log"), "a needle here\n");
symlinkSync("/proc/self/status", join(dir.path, "status.txt"));
symlinkSync("/proc/self/environ", join(dir.path, "envdump.txt"));
writeFileSync(join(dir.path, "empty.txt"), "");

// the abort stops a search left running (the old code's ripgrep reading /dev/zero); opening the
// FIFOs for writing, without waiting, ends a read waiting on one
const stop = new AbortController();
const ctx: ToolContext = { cwd: dir.path, signal: stop.signal };
afterAll(() => {
  stop.abort();
  for (const fifo of ["pipe.txt", "data/queue.log"]) {
    try {
      closeSync(openSync(join(dir.path, fifo), constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {} // no reader waiting: nothing to end
  }
  dir.remove();
});

const tools = await bothGreps();

describe.each(tools)("grep (%s)", (_name, tool) => {
  test.each([
    ["pipe.txt", "pipe.txt is not a regular file: a named pipe (FIFO)"],
    ["zero.txt", "zero.txt is not a regular file: a character device (a link to /dev/zero)"],
  ])("%s named in path: refused at once, in read_file's words", async (path, message) => {
    expect(await callTool(tool, { pattern: "needle", path }, ctx)).toEqual({ output: message, isError: true });
    expect(await callTool(createReadFileTool(), { path }, ctx)).toEqual({ output: message, isError: true });
  });

  test("a link to /proc/self/environ and a directory of /proc: refused, so no match tells a key a guess at a time", async () => {
    const env = await callTool(tool, { pattern: "PATH=", path: "envdump.txt" }, ctx);
    expect(env.isError).toBe(true);
    expect(env.output).toMatch(/^envdump\.txt \(\/proc\/\d+\/environ\) is a process's environment, which holds its secrets \(API keys, tokens\); never read$/);
    const dirOf = await callTool(tool, { pattern: "PATH=", path: "/proc/self" }, ctx);
    expect(dirOf.isError).toBe(true);
    expect(dirOf.output).toMatch(/^\/proc\/self \(\/proc\/\d+\) is a directory of \/proc, .*grep searches none; name a file in it$/);
    expect(await callTool(tool, { pattern: "^Name:", path: "status.txt" }, ctx)).toEqual({ output: expect.stringMatching(/^status\.txt:1: Name:\t\S/) });
  });

  test("a directory holding a FIFO and a link to /dev/zero: searched past them", async () => {
    expect(await callTool(tool, { pattern: "needle", path: "data" }, ctx)).toEqual({ output: "data/notes.log:1: a needle here" });
    expect(await callTool(tool, { pattern: "needle", path: "data", glob: "*.log" }, ctx)).toEqual({ output: "data/notes.log:1: a needle here" });
  });
});

test("read_file of a link to a /proc file shows what it holds, not that it is empty (stat says 0 bytes)", async () => {
  const { output, isError } = await callTool(createReadFileTool(), { path: "status.txt" }, ctx);
  expect(isError).toBeUndefined();
  expect(output.split("\n")[0]).toMatch(/^ *1\tName:\t\S/);
  expect(await callTool(createReadFileTool(), { path: "empty.txt" }, ctx)).toEqual({ output: "empty.txt is empty" });
});

test("read_file of a link to /proc/self/environ: refused by what it is, none of it shown", async () => {
  const { output, isError } = await callTool(createReadFileTool(), { path: "envdump.txt" }, ctx);
  expect(isError).toBe(true);
  expect(output).toMatch(/^envdump\.txt \(\/proc\/\d+\/environ\) is a process's environment, which holds its secrets \(API keys, tokens\); never read$/);
});

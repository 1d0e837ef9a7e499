// write_file through dist/hey against what a project may hold beside plain UTF-8 files: a named
// pipe (refused, never waited on or replaced) and files in Latin-1 or with a byte-order mark,
// whose diff on the terminal shows only the lines that changed, the way write_file decodes them.
import { expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";
import type { Turn } from "../helpers/model-server.ts";

const project = eachTempDir("hey-e2e-write-");
const model = eachModelServers();

/** A -p run whose model makes each turn's calls in turn, then says done. */
async function run(turns: [string, unknown][][]) {
  let next = 0;
  const server = model((): Turn => (next < turns.length ? { calls: turns[next++]! } : { text: "done" }));
  return runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "go"], { cwd: project.path });
}

test("write_file to a named pipe is refused at once, on the terminal too (no diff read that waits for a writer); the pipe stays a pipe", async () => {
  expect(Bun.spawnSync(["mkfifo", join(project.path, "myfifo")]).exitCode).toBe(0);
  const result = await run([[["write_file", { path: "myfifo", content: "hello\n" }]]]);
  expect(result.code).toBe(0);
  expect(result.stderr).toContain("✗ myfifo is not a regular file (a named pipe, device or socket); not changed");
  expect(statSync(join(project.path, "myfifo")).isFIFO()).toBe(true);
}, 60_000);

test("the diff of a write over a Latin-1 file, a file with a byte-order mark, and one turned into UTF-8 shows only the lines that changed; the conversion is said", async () => {
  const latin1 = (text: string) => Buffer.from(text, "latin1");
  writeFileSync(join(project.path, "menu.txt"), latin1("caf\xe9 au lait\nth\xe9\n"));
  writeFileSync(join(project.path, "bom.txt"), "\uFEFFalpha\nbeta\n");
  writeFileSync(join(project.path, "snow.txt"), latin1("caf\xe9\nna\xefve\n"));
  const result = await run([
    [
      ["read_file", { path: "menu.txt" }],
      ["read_file", { path: "bom.txt" }],
      ["read_file", { path: "snow.txt" }],
    ],
    [
      ["write_file", { path: "menu.txt", content: "café au lait\nthé\ncrème\n" }],
      ["write_file", { path: "bom.txt", content: "alpha\nbeta\ngamma\n" }],
      ["write_file", { path: "snow.txt", content: "café\nnaïve\n☃\n" }],
    ],
  ]);
  expect(result.code).toBe(0);
  expect(readFileSync(join(project.path, "menu.txt"))).toEqual(latin1("caf\xe9 au lait\nth\xe9\ncr\xe8me\n"));
  expect(readFileSync(join(project.path, "snow.txt"), "utf8")).toBe("café\nnaïve\n☃\n");
  const lines = result.stderr.split("\n").map((l) => l.trim());
  const after = (status: string) => lines.slice(lines.findIndex((l) => l.includes(status)) + 1).filter((l) => /^[-+@ ]/.test(l));
  expect(lines.filter((l) => l.startsWith("-"))).toEqual([]);
  expect(lines).toContain("+crème");
  expect(lines).toContain("+gamma");
  expect(lines).toContain("+☃");
  expect(result.stderr).toContain("overwrote, now UTF-8: Windows-1252 (Latin-1) cannot hold ☃");
  expect(after("now UTF-8").filter((l) => l.startsWith("+"))).toEqual(["+☃"]);
}, 60_000);

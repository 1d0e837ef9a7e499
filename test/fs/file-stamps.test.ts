// A reading remembered by file stamps must read a file again when it changed moments ago, even where
// the change put its modification time back (`cp -p`, `touch -d`, `tar x`, `rsync -t`): its change
// time still says it is recent (x127).
import { afterEach, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { look, type Stamps } from "../../src/fs/file-stamps.ts";
import { tempDir } from "../helpers/e2e.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

test("a file just written with its modification time put back an hour is looked at as changed moments ago", () => {
  const dir = tempDir("hey-file-stamps-");
  dirs.push(dir);
  const file = join(dir.path, "config");
  writeFileSync(file, "[core]\n");
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(file, hourAgo, hourAgo);
  const stamps: Stamps = new Map();
  look(stamps, file);
  expect(stamps.get(file)).toBe("racy");
});

test("a file whose times are both older than the racy window keeps its stamp", () => {
  const dir = tempDir("hey-file-stamps-");
  dirs.push(dir);
  const file = join(dir.path, "config");
  writeFileSync(file, "[core]\n");
  const stamps: Stamps = new Map();
  look(stamps, file, Date.now() + 60_000); // looked at a minute later
  expect(stamps.get(file)).not.toBe("racy");
});

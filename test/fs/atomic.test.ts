// writeFileAtomic's options for hey's own files (issue 24): private state (0700 folders, 0600
// files, even over an older file left readable), and a file put next to a user's file without
// following a link planted at its name.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/fs/atomic.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => void (tmp = tempDir("hey-atomic-")));
afterEach(() => tmp.remove());

test("private: new folders 0700, the file 0600, also when an older file was 0644", async () => {
  const file = join(tmp.path, "state", "hey", "x.json");
  await writeFileAtomic(file, "{}", { own: true, private: true });
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(tmp.path, "state")).mode & 0o777).toBe(0o700);
  expect(statSync(join(tmp.path, "state", "hey")).mode & 0o777).toBe(0o700);
  chmodSync(file, 0o644);
  await writeFileAtomic(file, "{}", { own: true, private: true });
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

test("follow: false replaces a link at the path with the file; the link's target is untouched", async () => {
  const outside = join(tmp.path, "outside.txt");
  writeFileSync(outside, "keep me");
  mkdirSync(join(tmp.path, "cfg"));
  const backup = join(tmp.path, "cfg", "config.toml.bak");
  symlinkSync(outside, backup);
  await writeFileAtomic(backup, "old config", { follow: false, mode: 0o640 });
  expect(readFileSync(outside, "utf8")).toBe("keep me");
  expect(lstatSync(backup).isSymbolicLink()).toBe(false);
  expect(readFileSync(backup, "utf8")).toBe("old config");
  expect(statSync(backup).mode & 0o777).toBe(0o640);
});

test("by default a link is still followed (a user's dotfiles link keeps working)", async () => {
  const real = join(tmp.path, "real.txt");
  writeFileSync(real, "a");
  symlinkSync(real, join(tmp.path, "link.txt"));
  await writeFileAtomic(join(tmp.path, "link.txt"), "b");
  expect(lstatSync(join(tmp.path, "link.txt")).isSymbolicLink()).toBe(true);
  expect(readFileSync(real, "utf8")).toBe("b");
});

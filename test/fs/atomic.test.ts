// writeFileAtomic's options for hey's own files (issue 24): private state (0700 folders, 0600
// files, even over an older file left readable), and a file put next to a user's file without
// following a link planted at its name; for the file tools, a file that changed since they read it is kept.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sweepLeftCopies, writeFileAtomic } from "../../src/fs/atomic.ts";
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

test("unchanged: a file that no longer holds what the caller read is kept as it is, the temporary file removed; one that does is replaced", async () => {
  const file = join(tmp.path, "app.ts");
  writeFileSync(file, "the user's save\n");
  const changed = "it changed while it was being written (by the user, a command or another program); not replaced, so that change is kept: read it again";
  await expect(writeFileAtomic(file, "the agent's\n", { unchanged: Buffer.from("as read\n") })).rejects.toThrow(changed);
  await expect(writeFileAtomic(file, "the agent's\n", { unchanged: null })).rejects.toThrow(changed); // there was none when it was read
  expect(readFileSync(file, "utf8")).toBe("the user's save\n");
  expect(readdirSync(tmp.path)).toEqual(["app.ts"]);
  await writeFileAtomic(file, "the agent's\n", { unchanged: Buffer.from("the user's save\n") });
  expect(readFileSync(file, "utf8")).toBe("the agent's\n");
  await writeFileAtomic(join(tmp.path, "new.ts"), "x\n", { unchanged: null });
  expect(readFileSync(join(tmp.path, "new.ts"), "utf8")).toBe("x\n");
});

test("unchanged given as the SHA-256 and length of what was read (a big file's bytes are not kept), and the new content in pieces, also written in place through a hard link", async () => {
  const file = join(tmp.path, "dump.sql");
  const read = "row 1\nrow 2\n";
  const hash = (text: string) => ({ sha256: new Bun.CryptoHasher("sha256").update(text).digest("hex"), size: Buffer.byteLength(text) });
  const pieces = () => ["row 1\n", "ROW 2\n"].map((p) => Buffer.from(p));
  writeFileSync(file, "row 1\nrow 2 saved by the user\n");
  await expect(writeFileAtomic(file, pieces(), { unchanged: hash(read) })).rejects.toThrow("it changed while it was being written");
  writeFileSync(file, "row 1\nrow 3\n"); // the same length, other bytes
  await expect(writeFileAtomic(file, pieces(), { unchanged: hash(read) })).rejects.toThrow("it changed while it was being written");
  expect(readdirSync(tmp.path)).toEqual(["dump.sql"]);
  writeFileSync(file, read);
  await writeFileAtomic(file, pieces(), { unchanged: hash(read) });
  expect(readFileSync(file, "utf8")).toBe("row 1\nROW 2\n");
  linkSync(file, join(tmp.path, "other-name.sql")); // two names: written in place, not renamed over
  await expect(writeFileAtomic(file, pieces(), { unchanged: hash(read) })).rejects.toThrow("it changed while it was being written");
  await writeFileAtomic(file, [Buffer.from("short\n")], { unchanged: hash("row 1\nROW 2\n") });
  expect(readFileSync(join(tmp.path, "other-name.sql"), "utf8")).toBe("short\n");
});

test("a temporary copy a killed hey left of a file (kill -9 mid-write) goes when the file is written again (a minute old), or swept; a running process's, a fresh one's and other files' stay", async () => {
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  const live = Bun.spawn(["sleep", "30"]);
  try {
    const left = `.target.txt.${dead.pid}.03bc75f3.tmp`;
    const running = `.target.txt.${live.pid}.0123abcd.tmp`;
    const other = `.other.txt.${dead.pid}.03bc75f3.tmp`;
    const fresh = `.target.txt.${dead.pid + 1_000_000}.9f8e7d6c.tmp`; // a hey elsewhere (another container on this mount) writing now
    for (const name of [left, running, other, fresh]) writeFileSync(join(tmp.path, name), "half of it");
    const minutesAgo = new Date(Date.now() - 2 * 60_000);
    for (const name of [left, running, other]) utimesSync(join(tmp.path, name), minutesAgo, minutesAgo);
    await writeFileAtomic(join(tmp.path, "target.txt"), "whole");
    expect(readdirSync(tmp.path).sort()).toEqual([other, running, fresh, "target.txt"].sort());
    rmSync(join(tmp.path, fresh));
    writeFileSync(join(tmp.path, left), "half of it again");
    symlinkSync(join(tmp.path, "target.txt"), join(tmp.path, "link.txt"));
    sweepLeftCopies(join(tmp.path, "link.txt")); // a resume of the session whose write through the link was cut
    expect(readdirSync(tmp.path).sort()).toEqual([other, running, "link.txt", "target.txt"].sort());
  } finally {
    live.kill("SIGKILL");
  }
});

// Where the guard's pipe is made (tools/group-guard.ts): the first directory that takes it, so a
// TMPDIR that names no directory does not leave commands unguarded; when none does, what each
// said is the reason the user is told.
import { afterAll, expect, test } from "bun:test";
import { closeSync, fstatSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makePipe, pipeDirs } from "../../src/tools/group-guard.ts";
import { tempDir } from "../helpers/e2e.ts";

const root = tempDir("hey-guard-dirs-");
afterAll(() => root.remove());

test("the temp dir first, then the runtime dir, /tmp, /var/tmp and /dev/shm, each once", () => {
  expect(pipeDirs({ XDG_RUNTIME_DIR: "/run/user/1000" }, "/nonexistent/tmp")).toEqual(["/nonexistent/tmp", "/run/user/1000", "/tmp", "/var/tmp", "/dev/shm"]);
  expect(pipeDirs({}, "/tmp")).toEqual(["/tmp", "/var/tmp", "/dev/shm"]);
});

test("a directory that is not there, or a file, is passed over for the next; the pipe is made there and nothing is left behind", async () => {
  const file = join(root.path, "a-file");
  writeFileSync(file, "");
  const fd = await makePipe([join(root.path, "nowhere", "tmp"), file, root.path]);
  expect(typeof fd).toBe("number");
  expect(fstatSync(fd as number).isFIFO()).toBe(true);
  closeSync(fd as number);
  expect(readdirSync(root.path)).toEqual(["a-file"]); // the pipe's own directory is removed at once
});

test("where no directory takes it, each is named with why", async () => {
  const file = join(root.path, "a-file");
  writeFileSync(file, "");
  expect(await makePipe([join(root.path, "nowhere"), file])).toBe(`${join(root.path, "nowhere")} (ENOENT), ${file} (ENOTDIR)`);
});

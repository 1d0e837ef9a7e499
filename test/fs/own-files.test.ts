// hey's own files (SPEC §24: task.md, sessions, outputs, trust.json, history) are read and
// appended without ever following a symbolic link.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendOwnFile, OwnFileError, readOwnFile } from "../../src/fs/own-files.ts";
import { tempDir } from "../helpers/e2e.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir("hey-own-")));
afterEach(() => dir.remove());

test("reads a file's start or its end, saying whether there was more", () => {
  const file = join(dir.path, "f");
  writeFileSync(file, "0123456789");
  expect(readOwnFile(file, 100)).toMatchObject({ text: "0123456789", truncated: false, size: 10 });
  expect(readOwnFile(file, 4)).toMatchObject({ text: "0123", truncated: true, size: 10 });
  expect(readOwnFile(file, 4, { tail: true })).toMatchObject({ text: "6789", truncated: true, size: 10 });
  expect(readOwnFile(join(dir.path, "missing"), 4)).toBeUndefined();
});

test("appends, creating the file 0600 and its directory 0700", () => {
  const file = join(dir.path, "state", "hey", "history");
  appendOwnFile(file, "one\n");
  appendOwnFile(file, "two\n");
  expect(readFileSync(file, "utf8")).toBe("one\ntwo\n");
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir.path, "state", "hey")).mode & 0o777).toBe(0o700);
});

test("a last line a crash left without its newline stays alone on its line: the next entry is not glued to it", () => {
  const file = join(dir.path, "history");
  writeFileSync(file, "git status\ngit sta");
  appendOwnFile(file, "npm test\n");
  expect(readFileSync(file, "utf8")).toBe("git status\ngit sta\nnpm test\n");
});

test.each([
  { name: "the file is a link", link: "history" },
  { name: "its directory is a link", link: "hey" },
])("neither read nor appended when $name; the target is unchanged", ({ link }) => {
  const target = join(dir.path, "target");
  mkdirSync(target);
  writeFileSync(join(target, "history"), "secret\n");
  mkdirSync(join(dir.path, "home"));
  if (link === "hey") symlinkSync(target, join(dir.path, "home", "hey"));
  else {
    mkdirSync(join(dir.path, "home", "hey"));
    symlinkSync(join(target, "history"), join(dir.path, "home", "hey", "history"));
  }
  const file = join(dir.path, "home", "hey", "history");
  expect(() => readOwnFile(file, 100)).toThrow(OwnFileError);
  expect(() => appendOwnFile(file, "more\n")).toThrow(OwnFileError);
  expect(readFileSync(join(target, "history"), "utf8")).toBe("secret\n");
});

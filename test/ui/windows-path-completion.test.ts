// Tab completion of `@paths` as a Windows user types them (x79 #5): `\` separates as `/` does,
// drive-letter and rooted paths list their own directory, and what Tab writes keeps the separator
// typed; on Linux and macOS a `\` stays a character of a name. The platform is passed in.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, posix, win32 } from "node:path";
import { findMentions } from "../../src/prompt/mentions.ts";
import { resolveUserPath } from "../../src/fs/user-path.ts";
import { completions } from "../../src/ui/commands.ts";
import { complete, completionList, emptyEditor, insert } from "../../src/ui/line-editor.ts";
import { typedDir } from "../../src/ui/typed-dir.ts";
import { tempDir } from "../helpers/e2e.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

let dir: ReturnType<typeof tempDir>;
let from: Parameters<typeof completions>[1];
beforeEach(() => {
  dir = tempDir("hey-win-tab-");
  mkdirSync(join(dir.path, "src", "sub"), { recursive: true });
  mkdirSync(join(dir.path, "My Documents"));
  for (const name of ["a.ts", "b.ts", "crlf.ts"]) writeFileSync(join(dir.path, "src", name), "x\n");
  writeFileSync(join(dir.path, "src", "sub", "deep.ts"), "x\n");
  writeFileSync(join(dir.path, "My Documents", "plan.md"), "x\n");
  from = { cwd: dir.path, providers: defaultSettingsForTest().providers, skills: [], remoteServers: [] };
});
afterEach(() => dir.remove());

test.each([
  // partial, platform, directory as typed, directory listed, separator a listed directory gets
  ["src\\cr", win32, "src\\", "/cwd/src/", "\\"],
  ["src\\sub/de", win32, "src\\sub/", "/cwd/src/sub/", "/"],
  ["C:\\proj\\sr", win32, "C:\\proj\\", "C:\\proj\\", "\\"],
  ["Z:/work/proj/sr", win32, "Z:/work/proj/", "Z:/work/proj/", "/"],
  ["\\work\\", win32, "\\work\\", "\\work\\", "\\"],
  ["C:", win32, "C:", "C:", "/"],
  ["sr", win32, "", "/cwd", "/"],
  ["src\\cr", posix, "", "/cwd", "/"],
  ["src/cr", posix, "src/", "/cwd/src/", "/"],
  ["/etc/pa", posix, "/etc/", "/etc/", "/"],
] as const)("typedDir(%p) on %#", (partial, p, typed, at, sep) => {
  expect(typedDir(partial, "/cwd", p)).toEqual({ dir: typed, at, sep });
});

test("on Windows, @src\\ and @src\\cr complete as @src/ does, in the separator typed", () => {
  expect(completions("see @src\\", from, win32)).toEqual(["@src\\a.ts", "@src\\b.ts", "@src\\crlf.ts", "@src\\sub\\"]);
  expect(completions("see @src\\cr", from, win32)).toEqual(["@src\\crlf.ts"]);
  expect(completions("see @src\\sub/d", from, win32)).toEqual(["@src\\sub/deep.ts"]);
  expect(completions("see @src/cr", from, win32)).toEqual(["@src/crlf.ts"]);
  expect(completions('see @"My Documents\\', from, win32)).toEqual(['Documents\\plan.md"']);
  // what Tab writes is read back as that file
  const [mention] = findMentions("see @src\\crlf.ts");
  expect(resolveUserPath(mention!.path, "C:\\proj", "C:\\Users\\me", win32)).toEqual({ abs: "C:\\proj\\src\\crlf.ts" });
});

test("on Windows, Tab into a folder spelled with \\ adds no space, and the list shows names without the folder", () => {
  let s = insert(emptyEditor([]), "see @src\\s");
  s = complete(s, completions(s.text, from, win32)).state;
  expect(s.text).toBe("see @src\\sub\\");
  s = complete(s, completions(s.text, from, win32)).state;
  expect(s.text).toBe("see @src\\sub\\deep.ts ");
  const editor = insert(emptyEditor([]), "see @src\\");
  expect(completionList(completions(editor.text, from, win32), editor)).toBe("a.ts  b.ts  crlf.ts  sub\\");
});

test("an absolute @path lists its own directory, not one under the project (a drive letter on Windows, / elsewhere)", () => {
  expect(completions(`see @${dir.path}/src/cr`, { ...from, cwd: "/nonexistent" }, posix)).toEqual([`@${dir.path}/src/crlf.ts`]);
  expect(completions(`see @${dir.path}/sr`, { ...from, cwd: "/nonexistent" }, posix)).toEqual([`@${dir.path}/src/`]);
});

test("on Linux and macOS a backslash is a character of a name, not a separator", () => {
  writeFileSync(join(dir.path, "odd\\name.txt"), "x\n");
  expect(completions("see @src\\", from, posix)).toEqual([]);
  expect(completions("see @odd\\", from, posix)).toEqual(["@odd\\name.txt"]);
});

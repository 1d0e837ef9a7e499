import { expect, test } from "bun:test";
import { posix, win32 } from "node:path";
import { callPath, directorySpelling, resolveUserPath } from "../../src/fs/user-path.ts";

const at = (path: string) => resolveUserPath(path, "/work/project", "/home/me");

test("a leading ~ or ~/ is the home directory, as in a shell", () => {
  expect(at("~")).toEqual({ abs: "/home/me" });
  expect(at("~/")).toEqual({ abs: "/home/me" });
  expect(at("~/notes/hf.txt")).toEqual({ abs: "/home/me/notes/hf.txt" });
  expect(at("~/../other/x")).toEqual({ abs: "/home/other/x" });
});

test("relative paths are under the project, absolute ones stay; a ~ elsewhere is an ordinary character", () => {
  expect(at("src/a.ts")).toEqual({ abs: "/work/project/src/a.ts" });
  expect(at("./~/x")).toEqual({ abs: "/work/project/~/x" });
  expect(at("a/~/b")).toEqual({ abs: "/work/project/a/~/b" });
  expect(at("/etc/hosts")).toEqual({ abs: "/etc/hosts" });
});

test("~user is refused with a message that names it and says how to mean a project file", () => {
  expect(at("~bob/x.txt")).toEqual({
    error: '~bob/x.txt: "~bob" paths (another user\'s home) are not supported; give the full path, or ./~bob/x.txt for a file in the project',
  });
  expect("error" in at("~root")).toBe(true);
});

test("on Windows ~\\ is the home too, and a relative path may use either separator", () => {
  const win = (path: string) => resolveUserPath(path, "C:\\work\\project", "C:\\Users\\me", win32);
  expect(win("~\\.config\\hey\\skills\\x\\SKILL.md")).toEqual({ abs: "C:\\Users\\me\\.config\\hey\\skills\\x\\SKILL.md" });
  expect(win("~/.config/hey/config.toml")).toEqual({ abs: "C:\\Users\\me\\.config\\hey\\config.toml" });
  expect(win("~")).toEqual({ abs: "C:\\Users\\me" });
  expect(win("src\\a.ts")).toEqual({ abs: "C:\\work\\project\\src\\a.ts" });
  expect(win("D:\\other\\x.txt")).toEqual({ abs: "D:\\other\\x.txt" });
  expect(win("~bob\\x.txt")).toEqual({
    error: '~bob\\x.txt: "~bob" paths (another user\'s home) are not supported; give the full path, or .\\~bob\\x.txt for a file in the project',
  });
  // on POSIX a backslash is an ordinary character of a name
  expect(at("~\\x")).toEqual({ error: '~\\x: "~\\x" paths (another user\'s home) are not supported; give the full path, or ./~\\x for a file in the project' });
});

test("callPath: the file a call names, for ordering; a ~name path it cannot resolve stays under the working directory", () => {
  expect(callPath("~/notes.md", "/work/p", "/home/ann")).toBe("/home/ann/notes.md");
  expect(callPath("src/a.ts", "/work/p", "/home/ann")).toBe("/work/p/src/a.ts");
  expect(callPath("~bob/x", "/work/p", "/home/ann")).toBe("/work/p/~bob/x");
});

test.each([
  ["x.txt/", posix, 'x.txt/ ends with "/", which names a directory; give the file\'s path'],
  ["src/a.ts", posix, undefined],
  ["x\\", posix, undefined], // on POSIX a backslash is an ordinary character of a name
  ["x.txt\\", win32, 'x.txt\\ ends with "\\", which names a directory; give the file\'s path'],
  ["x.txt/", win32, 'x.txt/ ends with "/", which names a directory; give the file\'s path'],
  ["C:\\work\\a.ts", win32, undefined],
] as const)("a path ending in a separator of the platform names a directory: %p", (path, p, message) => {
  expect(directorySpelling(path, p)).toBe(message);
});

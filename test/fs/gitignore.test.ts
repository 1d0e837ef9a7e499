// .gitignore rules, table-tested. Most rows mirror the tests of ripgrep's `ignore` crate, whose
// semantics the built-in grep walker must reproduce.
import { describe, expect, test } from "bun:test";
import { compileIgnore, globToRegExp, isIgnored, type IgnoreLevel } from "../../src/fs/gitignore.ts";

const verdict = (gitignore: string, path: string, isDir = false) => compileIgnore(gitignore.split("\n"))(path, isDir);

describe("compileIgnore", () => {
  test.each([
    // [gitignore, path, isDir, expected]
    ["months", "months", false, "ignore"],
    ["*.lock", "Cargo.lock", false, "ignore"],
    ["*.rs", "src/main.rs", false, "ignore"],
    ["src/*.rs", "src/main.rs", false, "ignore"],
    ["/*.c", "cat-file.c", false, "ignore"],
    ["/src/*.rs", "src/main.rs", false, "ignore"],
    ["!src/main.rs\n*.rs", "src/main.rs", false, "ignore"],
    ["foo/", "foo", true, "ignore"],
    ["**/foo", "foo", false, "ignore"],
    ["**/foo", "src/foo", false, "ignore"],
    ["**/foo/**", "src/foo/bar", false, "ignore"],
    ["**/foo/**", "wat/src/foo/bar/baz", false, "ignore"],
    ["**/foo/bar", "foo/bar", false, "ignore"],
    ["**/foo/bar", "src/foo/bar", false, "ignore"],
    ["abc/**", "abc/x", false, "ignore"],
    ["abc/**", "abc/x/y", false, "ignore"],
    ["abc/**", "abc/x/y/z", false, "ignore"],
    ["a/**/b", "a/b", false, "ignore"],
    ["a/**/b", "a/x/b", false, "ignore"],
    ["a/**/b", "a/x/y/b", false, "ignore"],
    ["\\!xy", "!xy", false, "ignore"],
    ["\\#foo", "#foo", false, "ignore"],
    ["target", "grep/target", false, "ignore"],
    ["Cargo.lock", "tabwriter-bin/Cargo.lock", false, "ignore"],
    ["/foo/bar/baz", "foo/bar/baz", false, "ignore"],
    ["foo/", "xyz/foo", true, "ignore"],
    ["node_modules/ ", "node_modules", true, "ignore"],
    ["**/", "foo/bar", true, "ignore"],
    ["path1/*", "path1/foo", false, "ignore"],
    [".a/b", ".a/b", false, "ignore"],
    ["\\[", "[", false, "ignore"],
    ["\\?", "?", false, "ignore"],
    ["\\*", "*", false, "ignore"],
    ["\\a", "a", false, "ignore"],
    ["s*.rs", "sfoo.rs", false, "ignore"],
    ["**", "foo.rs", false, "ignore"],
    ["**/**/*", "a/foo.rs", false, "ignore"],
    ["*.[ch]", "x/main.h", false, "ignore"],
    ["*.[!ch]", "main.o", false, "ignore"],
    ["[a-c]at", "bat", false, "ignore"],
    ["*.{ts,tsx}", "a/b.tsx", false, "ignore"],
    ["[abc", "[abc", false, "ignore"], // an unclosed class is literal
    ["\uFEFFbom", "bom", false, "ignore"],
    ["trailing\\ ", "trailing ", false, "ignore"],
    ["crlf\r", "crlf", false, "ignore"],
    ["*.log\n!keep.log", "keep.log", false, "keep"],
    ["!/bar", "bar", false, "keep"],

    ["amonths", "months", false, undefined],
    ["monthsa", "months", false, undefined],
    ["/src/*.rs", "src/grep/src/main.rs", false, undefined],
    ["/*.c", "mozilla-sha1/sha1.c", false, undefined],
    ["*.rs\n!src/main.rs", "src/main.rs", false, "keep"],
    ["foo/", "foo", false, undefined],
    ["**/foo/**", "wat/src/afoo/bar/baz", false, undefined],
    ["**/foo/**", "wat/src/fooa/bar/baz", false, undefined],
    ["**/foo/bar", "foo/src/bar", false, undefined],
    ["#foo", "#foo", false, undefined],
    ["\n\n\n", "foo", false, undefined],
    ["foo/**", "foo", true, undefined],
    ["!/bar", "foo/bar", false, undefined],
    ["*\n!**/", "foo", true, "keep"],
    ["src/*.rs", "src/grep/src/main.rs", false, undefined],
    ["path1/*", "path2/path1/foo", false, undefined],
    ["s*.rs", "src/foo.rs", false, undefined],
    ["*.html", "foo.HTML", false, undefined],
    ["*.[ch]", "main.o", false, undefined],
    ["{a,b", "a", false, undefined], // unbalanced brace: the rule is skipped
    ["trailing\\", "trailing", false, undefined], // dangling escape: skipped
  ] as const)("%j on %s (dir: %p) → %p", (gitignore, path, isDir, expected) => {
    expect(verdict(gitignore, path, isDir)).toBe(expected);
  });
});

describe("globToRegExp", () => {
  test.each([
    ["*.ts", "a.ts", true],
    ["*.ts", "src/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["**/*.ts", "a.ts", true],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["*.{js,ts}", "x.ts", true],
    ["*.{js,ts}", "x.tsx", false],
    ["foo**bar", "fooxbar", true],
    ["foo**bar", "foo/bar", false],
  ] as const)("%s ~ %s → %p", (glob, path, expected) => {
    expect(globToRegExp(glob)!.test(path)).toBe(expected);
  });
});

describe("isIgnored", () => {
  const level = (dir: string, gitignore: string | undefined, hasGit = false): IgnoreLevel => ({
    dir,
    hasGit,
    ...(gitignore === undefined ? {} : { rules: compileIgnore(gitignore.split("\n")) }),
  });
  const root = level("/r", "*.log\nbuild/", true);

  test.each([
    ["root rule applies below", [level("/r/src", undefined), root], "/r/src/x.log", false, true],
    ["nearest .gitignore wins (negation)", [level("/r/src", "!keep.log"), root], "/r/src/keep.log", false, false],
    ["nearest .gitignore wins (ignore)", [level("/r/src", "*.ts"), root], "/r/src/a.ts", false, true],
    ["no rule matches", [level("/r/src", "*.ts"), root], "/r/src/a.js", false, false],
    ["dir-only rule on a dir", [root], "/r/build", true, true],
    ["dir-only rule on a file", [root], "/r/build", false, false],
    ["outside a repository nothing is ignored", [level("/r", "*.log")], "/r/x.log", false, false],
    ["a .git below the rule stops it", [level("/r/sub", undefined, true), root], "/r/sub/x.log", false, false],
    ["rules above the repository root do not apply", [level("/r", undefined, true), level("/", "*.log")], "/r/x.log", false, false],
    ["the filesystem root as a level", [level("/", "*.log", true)], "/r/x.log", false, true],
    ["anchored rule is relative to its file", [level("/r/src", "/gen"), root], "/r/src/gen", true, true],
    ["anchored rule does not match deeper", [level("/r/src", "/gen"), root], "/r/src/x/gen", true, false],
  ] as const)("%s", (_name, levels, path, isDir, expected) => {
    expect(isIgnored(levels, path, isDir)).toBe(expected);
  });

  // ripgrep's order: .rgignore, .ignore, .gitignore, .git/info/exclude, the global file; the nearest of each kind
  const rules = (text: string) => compileIgnore(text.split("\n"));
  const global = rules("*.tmp\nscratch/");
  test.each([
    [".ignore outranks a nearer .gitignore's negation", [level("/r/sub", "!*.snap"), { ...root, ignore: rules("*.snap") }], "/r/sub/x.snap", false, true],
    [".ignore's negation outranks .gitignore", [{ ...root, ignore: rules("!keep.log") }], "/r/keep.log", false, false],
    [".rgignore's negation outranks .ignore", [{ ...root, ignore: rules("logs/"), rgignore: rules("!logs/") }], "/r/logs", true, false],
    [".ignore counts outside a repository", [{ dir: "/r", hasGit: false, ignore: rules("gen/") }], "/r/gen", true, true],
    ["info/exclude applies in the repository", [level("/r/src", undefined), { ...root, exclude: rules("localdata/") }], "/r/localdata", true, true],
    ["a .gitignore negation outranks info/exclude", [{ ...root, rules: rules("!a.local"), exclude: rules("*.local") }], "/r/a.local", false, false],
    ["the global file applies in a repository", [root], "/r/src/a.tmp", false, true],
    ["a .gitignore negation outranks the global file", [level("/r/src", "!a.tmp"), root], "/r/src/a.tmp", false, false],
    ["the global file does not apply outside a repository", [level("/r", undefined)], "/r/scratch", true, false],
  ] as const)("%s", (_name, levels, path, isDir, expected) => {
    expect(isIgnored(levels, path, isDir, global)).toBe(expected);
  });
});

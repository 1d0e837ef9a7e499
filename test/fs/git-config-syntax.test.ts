// A git config file read as git reads it (fs/git-config-syntax.ts): the values a user writes, the
// lines where git stops, and which `[includeIf]` conditions are met. What git itself makes of the
// same files is checked against `git check-ignore` in test/prompt/git-ignored.test.ts.
import { expect, test } from "bun:test";
import { includeConditionMet, parseGitConfig } from "../../src/fs/git-config-syntax.ts";

const excludes = (text: string) =>
  parseGitConfig(text)
    .entries.filter((e) => e.section === "core" && e.sub === undefined && e.key === "excludesfile")
    .map((e) => e.value);

test.each<[string, string, (string | undefined)[]]>([
  ["plain", "[core]\n\texcludesFile = ~/.gitignore_global\n", ["~/.gitignore_global"]],
  ["quoted with a space, a comment after", '[core]\n  excludesfile = "~/my files/ignore" # mine\n', ["~/my files/ignore"]],
  ["unquoted blanks inside kept, at the ends dropped", "[core]\nexcludesFile =   ~/my  files/x   \n", ["~/my  files/x"]],
  ["escapes", '[core]\nexcludesFile = "~/a\\"b\\\\c"\n', ['~/a"b\\c']],
  ["a `\\` joins the next line", "[core]\nexcludesFile = ~/a\\\nb\n", ["~/ab"]],
  ["a `;` outside quotes starts a comment, inside one it does not", '[core]\nexcludesFile = ~/a;b\nexcludesFile = "~/a;b"\n', ["~/a", "~/a;b"]],
  ["section and key in any case, after a header on its line", "[CORE] ExcludesFile = ~/x\n", ["~/x"]],
  ["a key alone", "[core]\n\texcludesFile\n", [undefined]],
  ["another section's key, a subsection's", '[user]\nexcludesFile = ~/no\n[core "x"]\nexcludesFile = ~/no\n[core.x]\nexcludesFile = ~/no\n', []],
  ["CRLF line ends and a byte-order mark", "\uFEFF[core]\r\n\texcludesFile = ~/x\r\n", ["~/x"]],
])("%s", (_, text, values) => {
  expect(excludes(text)).toEqual(values);
});

test.each<[string, string, number]>([
  ["an unterminated quote", '[core]\nexcludesFile = "~/x\n[user]\n', 2],
  ["an unknown escape", "[core]\nexcludesFile = ~/\\x\n", 2],
  ["a key before any section", "excludesFile = ~/x\n", 1],
  ["a header without its `]`", "[core\nexcludesFile = ~/x\n", 1],
  ["a key followed by something that is no `=`", "[core]\nexcludesFile ~/x\n", 2],
])("git stops at %s", (_, text, line) => {
  expect(parseGitConfig(text).badLine).toBe(line);
});

test("settings before the bad line are kept, as git has read them when it stops", () => {
  expect(parseGitConfig('[core]\n\texcludesFile = ~/a\n[user]\n\tname = "x\n').entries.map((e) => e.value)).toEqual(["~/a"]);
});

const at = { gitDirs: ["/home/me/work/shop/.git"], branch: "feature/x", home: "/home/me", remoteUrls: ["https://example.com/acme/shop.git"] };
test.each<[string, string | undefined, boolean]>([
  ["gitdir:~/work/", undefined, true],
  ["gitdir:~/", undefined, true],
  ["gitdir:/home/me/work/*/.git", undefined, true],
  ["gitdir:/home/*/.git", undefined, false], // `*` does not cross `/`
  ["gitdir:shop/.git", undefined, true], // relative: at any depth
  ["gitdir:./work/", "/home/me/.gitconfig", true], // beside the including file
  ["gitdir:./work/", undefined, false],
  ["gitdir:~/Work/", undefined, false],
  ["gitdir/i:~/Work/", undefined, true],
  ["gitdir:{a,b}", undefined, false],
  ["onbranch:feature/", undefined, true],
  ["onbranch:feature/*", undefined, true],
  ["onbranch:main", undefined, false],
  ["hasconfig:remote.*.url:https://example.com/acme/**", undefined, true],
  ["hasconfig:remote.*.url:https://example.com/*", undefined, false],
  ["hasconfig:remote.*.url:https://gitlab.example/**", undefined, false],
  ["nonsense", undefined, false],
])("[includeIf %j] (in %s) is met: %p", (cond, file, met) => {
  expect(includeConditionMet(cond, file, at)).toBe(met);
});

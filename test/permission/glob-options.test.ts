// x112 #5 and #6: a glob that could be an option. Refused under `bash: git diff *`, `git diff
// --stat *.ts` offered the entry "bash: git diff * *.ts *", under which `git diff *.ts` ran: the glob
// in the entry matches the glob in the command, whatever it expands to. Now only the `--` form is
// offered. And a glob whose first character cannot be `-` (`[a-z]*`, `src/*`) is no option at all.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/permission-check.ts";
import { tempDir } from "../helpers/e2e.ts";

const check = (allow: string[], deny: string[], command: string, cwd = "/p") =>
  permissionCheck({ allow, deny, narrow: [], file: "/h/.config/hey/config.toml" }, "bash", { cwd, home: "/h", controls: [] })("bash", {
    command,
  });

test.each([
  [["bash: git diff *"], "git diff --stat *.ts", "git diff --stat -- *.ts"],
  [["bash: npm test *"], "npm test *.js", "npm test -- *.js"],
])("under %j, the refusal of %j offers no entry that spells the glob out, only %j", (allow, command, safe) => {
  const refusal = check(allow, [], command)!;
  expect(refusal).toContain("is known only at run time and could expand to");
  expect(refusal).not.toContain(" add ");
  expect(refusal).not.toContain("*.ts *");
  expect(refusal).not.toContain("*.js *");
  expect(refusal).toContain(safe);
  expect(check(allow, [], safe)).toBeUndefined();
});

test.each([
  [["bash: git diff *"], "git diff HEAD~1 [a-z]*"],
  [["bash: git diff *"], "git diff HEAD~1 [[:alpha:]]*.ts"],
  [["bash: git diff *"], "git diff [s]rc/*.ts"],
  [["bash: npm test *"], "npm test [a-z]*.test.js"],
  [["bash: git log *"], "git log -p [A-Z]*.md"],
])("under %j, a glob that cannot begin with `-` runs: %j", (allow, command) => {
  expect(check(allow, [], command)).toBeUndefined();
});

test.each([
  "git diff [!a]*",
  "git diff [a-]*",
  "git diff [+-/]*",
  "git diff [[:punct:]]*",
  'git diff [a"-"z]*', // a quoted `-` in a class is that character
  "git diff ?*",
  "git diff -[-]out*",
])("a glob whose first character could be `-` is still refused: %j", (command) => {
  expect(check(["bash: git diff *"], [], command)).toContain("could expand to git's `--output=FILE`");
});

test("under a deny list, a loop over names that cannot begin with `-` runs a script; another argument known only at run time is refused with the `--` form", () => {
  const { path: dir, remove } = tempDir("hey-glob-options-");
  try {
    mkdirSync(join(dir, "test"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ scripts: { test: "node --test" } }));
    const deny = ["bash: rm *"];
    expect(check([], deny, 'for f in test/*.js; do npm test "$f"; done', dir)).toBeUndefined();
    expect(check([], deny, 'for f in a.js b.js\ndo\n  npm test "${f}"\ndone', dir)).toBeUndefined();
    expect(check([], deny, "npm test test/*.js", dir)).toBeUndefined();
    for (const command of [
      'for f in *.js; do npm test "$f"; done', // a file may be named `--script-shell=x.js`
      "for f in test/*.js; do npm test $f; done", // unquoted: split at spaces in a name
      'for f in test/*.js; do f=--script-shell=x; npm test "$f"; done',
      'for f in test/*.js; do read f; npm test "$f"; done',
      'for f in test/*.js; do :; done; npm test "$f"',
      'npm test "$f"; for f in test/*.js; do :; done',
      'for f in a; do for f in -x; do :; done; npm test "$f"; done',
    ])
      expect(check([], deny, command, dir)).toContain("put `--` before the script's arguments (`npm test -- ");
    expect(check([], deny, 'for f in *.js; do npm test -- "$f"; done', dir)).toBeUndefined();
  } finally {
    remove();
  }
});

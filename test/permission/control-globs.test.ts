// A red-team report: while a list is set, a glob or a word known only at run time reached git's
// own files and hey's (`cp evil .g?t/config && git status` ran the fsmonitor; replacing the user
// config and the approvals record this way made the next run go without lists), and after a `cd`
// to a directory known only at run time a relative operand was checked against no directory at all.
// The checker compared only literal last names. Globs are now matched per path component against
// every guarded path, a run-time word whose written part could be one is refused, and so is a
// relative operand that could name one after such a `cd`.
import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { globbed } from "./bypass-corpus.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-globs-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const place = { cwd: project, home, controls, cacheDir: places({}, home, project, "linux").cacheDir };
const ALLOW = ["cp", "sed", "tee", "rm", "mv", "dd", "ln", "echo", "cd", "find", "rsync", "gio", "trash-put", "xxd", "sort", "uniq"].map((p) => `bash: ${p} *`);
const checks = {
  allow: permissionCheck({ allow: [...ALLOW, "bash: git status"], deny: [], narrow: [] }, "sh", place),
  deny: permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", place),
};

describe.each(Object.entries(checks))("under the %s list", (_list, check) => {
  test.each(globbed)("%s is refused", (command) =>
    expect(check("bash", { command })).toMatch(/^blocked by permission rules: `[^`]+` names (hey's own|git's own|a file hey guards)/),
  );
  test.each([
    "cp *.txt out/",
    "rm -rf build/*",
    "mv src/*.ts lib/",
    "cp x .gitignore",
    "cp docs/{a,b}.md out/",
    "cd sub && cp x config.yaml",
    "sed -n 1,5p ~/.cache/hey/outputs/s/x.txt",
  ])("%s runs", (command) => expect(check("bash", { command })).toBeUndefined());
});

test("under a deny list, a word known only at run time whose written part could name git's files or hey's is refused", () => {
  const check = checks.deny;
  for (const command of ['cp x "$(printf .gi)t/config"', "d=.git; cp x $d/config", "cp x $d/hooks/pre-commit", 'rm -rf "$HOME"/.local/state'])
    expect(check("bash", { command })).toMatch(
      /^blocked by permission rules: `[^`]+` names (hey|git)'s own .*(its name is known only at run time|by its last names)/,
    );
  for (const command of ['cp "$src" "$dst"', 'rm -rf "$tmp"/build', "cp x $out/notes.txt"]) expect(check("bash", { command })).toBeUndefined();
});

test("after a cd to a directory known only at run time, a relative operand that could name one is refused; others run", () => {
  for (const check of Object.values(checks)) {
    for (const command of [
      "cd $X && cp x pre-commit",
      "cd $X && cp x config.toml",
      "cd $X && mv state junk",
      "cd $X && cp x config",
      "cd .gi?/hooks && cp /tmp/evil/pre-commit .",
      "cd $X && cp /tmp/evil/config ./",
    ])
      expect(check("bash", { command })).toContain("it is relative to a directory known only at run time");
    expect(check("bash", { command: "cd $X && cp x notes.txt" })).toBeUndefined();
  }
});

// hey's cache holds the ripgrep the grep tool runs: the file tools could not write there, bash could
test.each(Object.entries(checks))("under the %s list, bash may not write into hey's cache", (_list, check) => {
  const cache = place.cacheDir;
  for (const command of ["cp evil ~/.cache/hey/rg-0123abcd", `echo x > ${join(cache, "rg-0123")}`, "cd ~/.cache/hey && cp evil rg-0123"])
    expect(check("bash", { command })).toContain("in hey's cache, whose ripgrep the grep tool runs");
});

// programs that write an operand are no readers: `xxd -r HEX OUT` wrote OUT (`.git/config`)
test.each(Object.entries(checks))("under the %s list, xxd -r, sort -o and uniq IN OUT may not write git's files", (_list, check) => {
  for (const command of ["xxd -r hex .git/config", "sort -o .git/config x", "uniq x .git/hooks/pre-commit"])
    expect(check("bash", { command })).toStartWith("blocked by permission rules: `.git/");
});

// the directories above a control file, by other removers and by other spellings
test.each(Object.entries(checks))("under the %s list, other removers of a directory above a control file are refused", (_list, check) => {
  for (const command of [
    "find ~/.local/state -delete",
    "rsync -a --remove-source-files ~/.local/state/ /tmp/x",
    "gio trash ~/.local/state",
    "trash-put ~/.local/state",
  ])
    expect(check("bash", { command })).toContain("a directory above it");
  expect(check("bash", { command: "rsync -a ~/.local/state/ /tmp/x" })).toBeUndefined();
});

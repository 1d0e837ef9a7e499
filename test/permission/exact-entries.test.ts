// An allow entry ending in the exact mark `$` allows that command and nothing after it (f90b):
// "bash: npm run build $" is Claude Code's Bash(npm run build). Before, every entry also allowed
// words after it, so the advice for `rm -rf build` allowed `rm -rf build ~` too. Entries without
// the mark keep their meaning; a mark misplaced, glued to a word or in a deny list is an error.
import { describe, expect, test } from "bun:test";
import { permissionLines } from "../../src/doctor/permission-lines.ts";
import { guardLayer, guardedOf } from "../../src/config/guard.ts";
import { checkLayer } from "../../src/config/schema.ts";
import type { Table } from "../../src/config/table.ts";
import { claudeRules, peerRulesNotice } from "../../src/permission/peer-rules.ts";
import { compileRules } from "../../src/permission/rules.ts";
import { permissionCheck } from "../../src/permission-check.ts";
import { resultStatus } from "../../src/ui/tool-lines.ts";

const USER = "/h/.config/hey/config.toml";
const check = (allow: string[], command: string) =>
  permissionCheck({ allow, deny: [], narrow: [], file: USER }, "sh", { cwd: "/p", home: "/h", controls: [] })("bash", { command });
const errorsOf = (entry: string, list: "allow" | "deny") => compileRules(list === "allow" ? { allow: [entry], deny: [] } : { allow: [], deny: [entry] }).errors;

describe("matching", () => {
  type Row = [entry: string, command: string, allowed: boolean];
  test.each<Row>([
    ["bash: npm run build $", "npm run build", true],
    ["bash: npm run build $", "npm run build -- --watch", false],
    ["bash: npm run build $", "npm run build 2>&1", true], // a redirection that touches no file is no word
    ["bash: npm run build $", "npm run", false],
    ["bash: npm run build $", "npm run build > build.log", false],
    ["bash: npm run build > build.log $", "npm run build > build.log", true],
    ["bash: rm -rf build $", "rm -rf build", true],
    ["bash: rm -rf build $", "rm -rf build /", false],
    ["bash: rm -rf build $", "rm -rf build ~", false],
    ["bash: CI=1 npm test $", "CI=1 npm test", true],
    ["bash: CI=1 npm test $", "CI=1 npm test --coverage", false],
    ["bash: git push --force origin main $", "git push --force origin main", true],
    ["bash: git push --force origin main $", "git push --force origin main --tags", false],
    ["bash: npm run test* $", "npm run test:unit", true], // a `*` inside a word still matches within it
    // without the mark, entries mean what they did
    ["bash: npm test", "npm test -- --watch", true],
    ["bash: rm -rf build", "rm -rf build /", true],
    ["bash: git *", "git log --oneline", true],
    ["bash: echo '$'", "echo '$' x", true], // a quoted `$` is a word of the command, not the mark
  ])("%s, %s: %p", (entry, command, allowed) => {
    expect(check([entry], command) === undefined).toBe(allowed);
  });

  test("in a chain, each command is judged on its own", () => {
    expect(check(["bash: npm run build $", "bash: ls *"], "npm run build && ls -la")).toBeUndefined();
    expect(check(["bash: npm run build $"], "npm run build x && npm run build")).toContain("matches no allow entry");
  });
});

describe("a mark that cannot mean what it says is a configuration error", () => {
  test.each([
    ["bash: $", "allow", "has only the exact mark `$`; write the command before it"],
    ["bash: npm $ test", "allow", "has `$` before its last word; the exact mark goes at the end, once"],
    ["bash: npm test $ $", "allow", "has `$` before its last word; the exact mark goes at the end, once"],
    ["bash: rm -rf / $", "deny", "ends in the exact mark `$`, which a deny entry cannot have: it refuses whatever follows its words; drop the `$`"],
  ] as const)("%s in %s", (entry, list, error) => {
    expect(errorsOf(entry, list)).toEqual([`[permission] ${list}: ${JSON.stringify(entry)} ${error}`]);
  });

  test("a `$` that is part of a word is no mark, and no error", () => {
    for (const entry of ["bash: echo '$'", 'bash: grep -e "x$" *', "bash: echo $HOME", "bash: echo $$"]) expect(errorsOf(entry, "allow")).toEqual([]);
    // x93 #4: a `$` glued to the last word is the word's, as before the mark: a warning (gluedMark), not an error
    for (const entry of ["bash: npm test$", "bash: grep -c ^$"]) expect(errorsOf(entry, "allow")).toEqual([]);
    // a deny entry has no exact mark: its last word's `$` is that word's, as before
    expect(errorsOf("bash: grep -c ^$", "deny")).toEqual([]);
    // the quoted form the error offers allows the command as written
    expect(check(["bash: grep -c '^$'"], "grep -c ^$ notes.txt")).toBeUndefined();
  });
});

describe("Claude Code's rules", () => {
  test("Bash(x) is the exact entry in an allow list, Bash(x:*) the prefix; a deny list's stays open", () => {
    const rules = claudeRules({ permissions: { allow: ["Bash(npm run build)", "Bash(npm run test:*)"], deny: ["Bash(rm -rf /)"] } });
    const notice = peerRulesNotice(["~/.claude/settings.json"], rules, "~/.config/hey/config.toml")!;
    expect(notice).toContain('  allow = ["bash: npm run build $", "bash: npm run test *", "read_file", "grep", "compress"]');
    expect(notice).toContain('  deny = ["bash: rm -rf /"]');
  });

  test("written in hey's config, Bash(x) is told the exact entry; Gemini CLI's run_shell_command(x), a prefix there, the open one", () => {
    expect(errorsOf("Bash(npm run build)", "allow")).toEqual([
      `[permission] allow: "Bash(npm run build)" is another agent's syntax; write "bash: npm run build $"`,
    ]);
    expect(errorsOf("Bash(npm run build)", "deny")).toEqual([
      `[permission] deny: "Bash(npm run build)" is another agent's syntax; write "bash: npm run build"`,
    ]);
    expect(errorsOf("run_shell_command(git status)", "allow")).toEqual([
      `[permission] allow: "run_shell_command(git status)" is another agent's syntax; write "bash: git status"`,
    ]);
  });
});

describe("where hey shows an exact entry, it says what the `$` means", () => {
  const NOTE = "(`$`: this command exactly, no words after it)";

  test("the refusal's entry line at the terminal", () => {
    const status = resultStatus("bash", false, check(["bash: ls *"], "rm -rf build")!);
    expect(status.preview).toEqual([`add "bash: rm -rf build $" to ~/.config/hey/config.toml ${NOTE}`]);
    expect(status.text).not.toContain("`$`");
  });

  test("hey doctor's lists", () => {
    const lines = permissionLines({ allow: ["bash: npm run build $", "read_file"], deny: [], narrow: [], file: USER }, "/h");
    expect(lines).toEqual([`permission: allow bash: npm run build $ ${NOTE}, read_file (~/.config/hey/config.toml)`]);
  });

  test("the approval notice for an entry added to the file", () => {
    const data = (toml: string): Table => checkLayer("/c.toml", Bun.TOML.parse(toml) as Table).data;
    const guard = guardLayer(data('[permission]\nallow = ["bash: ls", "bash: rm -rf build $"]'), guardedOf(data('[permission]\nallow = ["bash: ls"]')));
    expect(guard.widenings).toEqual([`+ [permission] allow "bash: rm -rf build $" ${NOTE}`]);
  });
});

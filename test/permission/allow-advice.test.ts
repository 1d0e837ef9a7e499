// An allow list's refusal offers an entry to add only when that entry would allow the command
// (x54 finding 4): a leading assignment, a file redirection and git's options that write a file are
// spelled out in it, and the entry already listed that matches the command's words is named with
// what it leaves out. Before, `CI=1 npm test` under "bash: npm test *" was told to add
// "bash: npm test *", the entry already there.
import { describe, expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const USER = "/h/.config/hey/config.toml";
const check = (allow: string[], command: string) =>
  permissionCheck({ allow, deny: [], narrow: [], file: USER }, "sh", { cwd: "/p", home: "/h", controls: [] })("bash", { command });
// the report's lists: perm1, and perm2 (perm1 with `npm test *`, `git diff *` and `timeout *`)
const PERM1 = ["bash: npm *", "bash: npx *", "bash: git *", "bash: ls *", "bash: cat *", "read_file", "edit"];
const PERM2 = [...PERM1, "bash: npm test *", "bash: git diff *", "bash: timeout *"];
const added = (reason: string | undefined) => /: add "((?:[^"\\]|\\.)*)" there/.exec(reason ?? "")?.[1];

describe("the entry offered allows the command once added, and is never one already listed", () => {
  test.each([
    ["CI=1 npm test", PERM2, "bash: CI=1 npm test *", "`bash: npm *` does not allow the assignment `CI=1`, which a pattern must spell out"],
    ["npm test > test.log 2>&1", PERM2, "bash: npm test * > test.log", "`bash: npm *` does not allow the redirection to a file `> test.log`"],
    ["git diff --no-color > changes.patch", PERM2, "bash: git diff * > changes.patch", "does not allow the redirection to a file `> changes.patch`"],
    ["git diff | head -5 > /tmp/x54/diff.txt", PERM1, "bash: head * > /tmp/x54/diff.txt", ""],
    ["cat <<'EOF' > notes.md\n# notes\nEOF", PERM1, "bash: cat * > notes.md", "`bash: cat *` does not allow the redirection to a file `> notes.md`"],
    ["git log -1 --output=log.txt", PERM1, "bash: git log * --output=log.txt *", "`--output=log.txt` writes a file, which a pattern must spell out"],
    [
      "CI=1 NODE_ENV=test npm test 2> err.log",
      PERM1,
      "bash: CI=1 NODE_ENV=test npm test * 2> err.log",
      "the assignments `CI=1` `NODE_ENV=test` or the redirection to a file `2> err.log`",
    ],
    ["wc -l < input.txt", PERM1, "bash: wc * < input.txt", ""],
    ["make test", ["bash: git *"], "bash: make test *", ""],
    ['"./my tool" --fast', ["bash: git *"], 'bash: "./my tool" *', ""],
    [`npm test > ${"reports/".repeat(14)}test.log`, PERM2, `bash: npm test * > ${"reports/".repeat(14)}test.log`, "does not allow the redirection"],
  ])("%s", (command, allow, entry, why) => {
    const reason = check(allow, command);
    expect(reason).toContain(`in ~/.config/hey/config.toml: add ${JSON.stringify(entry)} there`);
    expect(reason).toContain(why);
    expect(allow).not.toContain(added(reason));
    expect(check([...allow, entry], command)).toBeUndefined();
  });
});

test("a command no entry can allow is offered none, and told why", () => {
  const reason = check(PERM2, "CI=$FLAG npm test");
  expect(reason).toContain("`CI=$FLAG` is known only at run time");
  expect(reason).not.toContain("add ");
  // a file redirection with no command: an entry to allow it would allow every command writing there
  expect(check(PERM1, "> out.txt")).not.toContain("add ");
});

// x56: the advice was split on ", " to quote it: two broken entries, and no line of its own
test('an entry holding ", " is offered whole, as one quoted entry', () => {
  const reason = check(["bash: npm test *"], 'npm test > "out, 1.log"');
  expect(reason).toContain(`in ~/.config/hey/config.toml: add ${JSON.stringify('bash: npm test * > "out, 1.log"')} there`);
  expect(added(reason)).toBe('bash: npm test * > \\"out, 1.log\\"');
  expect(check(["bash: npm test *", 'bash: npm test * > "out, 1.log"'], 'npm test > "out, 1.log"')).toBeUndefined();
});

// x55 finding 5: `bash: rm *`, `bash: find *`, `bash: python3 *` and `bash: sudo *` were offered,
// which together allow `sudo rm -rf ~`; a program that can destroy or run anything is offered the
// command's own words, and one that runs as another user no entry at all. Those words end with the
// exact mark `$` (f90b): without it, "bash: rm -rf build" allowed `rm -rf build ~` too.
describe("a program that can destroy or run anything is offered its own words, never `PROGRAM *`", () => {
  const LIST = ["read_file", "grep", "bash: git status", "bash: ls *", "bash: npm test"];
  test.each([
    ["rm -rf build", "bash: rm -rf build $"],
    ["find . -name '*.ts' -newer package.json", "bash: find . -name '*.ts' -newer package.json $"],
    ["python3 -c 'print(1)'", "bash: python3 -c 'print(1)' $"],
    ["node scripts/seed.js --reset", "bash: node scripts/seed.js --reset $"],
    ["bun -e 'console.log(1)'", "bash: bun -e 'console.log(1)' $"],
    ["chmod -R 777 .", "bash: chmod -R 777 . $"],
    ["dd if=/dev/zero of=disk.img bs=1M count=1", "bash: dd if=/dev/zero of=disk.img bs=1M count=1 $"],
    ["mkfs.ext4 disk.img", "bash: mkfs.ext4 disk.img $"],
    ["curl -o install.sh https://example.com/install.sh", "bash: curl -o install.sh https://example.com/install.sh $"],
    ["git push --force origin main", "bash: git push --force origin main $"],
    ["rm -rf build > rm.log", "bash: rm -rf build > rm.log $"],
  ])("%s", (command, entry) => {
    const reason = check(LIST, command);
    expect(added(reason)).toBe(entry);
    expect(reason).toContain(`add ${JSON.stringify(entry)} there (\`$\`: this command exactly, no words after it)`);
    expect(check([...LIST, entry], command)).toBeUndefined();
    // the entry ends with the exact mark: accepting the advice for `rm -rf build` does not allow `rm -rf build ~`
    expect(check([...LIST, entry], `${command} ~`)).toContain("matches no allow entry");
  });

  test("others keep the wide entry: a plain git push, npm's and make's subcommands, ls", () => {
    expect(added(check(["bash: git status"], "git push origin main"))).toBe("bash: git push *");
    expect(added(check(["bash: git status"], "npm install left-pad"))).toBe("bash: npm install *");
    expect(added(check(["bash: git status"], "wc -l src/a.ts"))).toBe("bash: wc *");
  });

  test("sudo, doas and su are offered no entry, and told why", () => {
    for (const command of ["sudo rm -rf dist", "doas ls", "sudo -u bob make"]) {
      const reason = check(LIST, command);
      expect(reason).not.toContain("add ");
      expect(reason).toContain("runs a command as another user, root unless told otherwise, which hey offers no entry for: run it yourself");
    }
  });
});

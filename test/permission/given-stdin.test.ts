// x101 #1, #2, #4: what a loop, group, function call or `exec` gives on stdin. A plain `< file` on a
// loop was copied onto every command inside, so `read` and `echo` needed entries spelling it out;
// a function call's stdin and `exec <<<…` were not seen at all; `3<<EOF` was taken for stdin.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const check = (allow: string[], deny: string[], command: string) =>
  permissionCheck({ allow, deny, narrow: [], file: "/h/.config/hey/config.toml" }, "bash", { cwd: "/p", home: "/h", controls: [] })("bash", {
    command,
  });
const LOOP = 'while read -r l; do echo "$l"; done < list.txt';

test.each([
  [["bash: echo *", "bash: < *"], LOOP],
  [["bash: *", "bash: < *"], LOOP],
  [["bash: * < *"], LOOP],
  [['bash: git branch -D "$b"', "bash: < gone.txt"], 'while read -r b; do git branch -D "$b"; done < gone.txt'],
  [["bash: sort", "bash: < data.txt"], "{ sort; } < data.txt"],
  [["bash: python3 x.py $"], "while read -u 3 l; do python3 x.py; done 3<<EOF\na\nEOF"], // fd 3 is not stdin
  [["bash: python3 x.py $", "bash: true"], "while true; do python3 x.py < /dev/null; done <<EOF\na\nEOF"], // its own stdin
  [["bash: echo *"], "{ echo a; cat; } <<EOF\nx\nEOF"],
  [["bash: echo *"], "while read l; do echo $l; done <<EOF\nx\nEOF"],
  [["bash: python3 $"], "f() { python3; }; f"],
])("the redirection written on a loop or group needs its own entry only: %j allows %j", (allow, command) => {
  expect(check(allow, [], command)).toBeUndefined();
});

test("a loop fed from a file still needs an entry for the file", () => {
  expect(check(["bash: echo *"], [], LOOP)).toContain("< list.txt");
});

test.each([
  "f() { python3; }; f <<<'print(42)'",
  "f() { python3; }; echo 'print(42)' | f",
  "function f { python3; }; f <<EOF\nprint(42)\nEOF",
  "g() { python3; }; f() { g; }; f <<<'print(42)'",
  "exec <<<'print(43)'; python3",
  "exec < script.py; python3",
  "f() { python3; }; { f; } <<<'print(42)'",
])("`bash: python3 $` does not allow code given on stdin to a function call or by exec: %j", (command) => {
  expect(check(["bash: python3 $", "bash: echo *", "bash: < *", "bash: exec < *"], [], command)).toContain("may run what it reads on stdin");
});

test("a deny entry named in a heredoc given to a function call is seen", () => {
  const reason = check(["bash: *"], ["bash: rm"], "f() { python3; }; f <<EOF\nimport os; os.system('rm -rf x')\nEOF");
  expect(reason).toContain("deny entry `bash: rm`");
});

test("the refusal says where the stdin comes from when the command itself names none", () => {
  expect(check(["bash: python3 $", "bash: < *"], [], "{ python3; } < script.py")).toContain(
    "may run what it reads on stdin (here what the group, loop or function call around it or an earlier `exec` gives it) as code",
  );
});

test.each([
  "{ make -f -; } <<'EOF'\nall:\n\trm -rf x\nEOF", // the makefile a group gives make on stdin
  "{ cat > x.sh; } <<'EOF'\nrm -rf y\nEOF\nsh x.sh", // the script a group's cat writes, then runs
])("what a group gives on stdin is still read as the text a command runs: %j", (command) => {
  expect(check(["bash: *", "bash: * > *"], ["bash: rm"], command)).toContain("deny entry `bash: rm`");
});

test("a script written from a group's heredoc and run is judged by what it holds", () => {
  expect(check(["bash: *", "bash: * > *"], ["bash: rm"], "{ cat > x.sh; } <<'EOF'\necho hi\nEOF\nsh x.sh")).toBeUndefined();
});

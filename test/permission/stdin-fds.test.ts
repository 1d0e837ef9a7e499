// x105 #4: code given on stdin through another fd. `exec 3<<'EOF' … EOF; python3 0<&3` and
// `{ python3 0<&3; } 3<<'EOF'` ran under "bash: python3 $" (the plain heredoc is refused), and the
// same trick deleted a folder under `deny = ["bash: rm *"]`. What fd 0 holds is followed through
// copies between fds, names of fds as files, and any group, loop, call or `exec` around it.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const check = (allow: string[], deny: string[], command: string) =>
  permissionCheck({ allow, deny, narrow: [], file: "/h/.config/hey/config.toml" }, "sh", { cwd: "/p", home: "/h", controls: [] })("bash", {
    command,
  });
const EXACT = ["bash: python3 $", "bash: python3 - $", "bash: sqlite3 app.db $", "bash: make -f - $", "bash: echo *", "bash: true"];
const RM = `import shutil; shutil.rmtree("victim")`;
const heredoc = (fd: string) => `${fd}<<'EOF'\n${RM}\nEOF`;

const COPIES = [
  `exec ${heredoc("3")}\npython3 0<&3`,
  `{ python3 0<&3; } ${heredoc("3")}`,
  `{ python3 <&3; } 3<<<'${RM}'`,
  `exec 3<<<'${RM}'; python3 <&3`,
  `exec ${heredoc("3")}\nexec 0<&3 3<&-\npython3`,
  `{ python3 0>&3; } ${heredoc("3")}`, // `>&` copies an fd as `<&` does
  `{ python3 - <&3-; } ${heredoc("3")}`, // bash moves fd 3 to 0
  `{ python3 0<&3; } <<'EOF' 3<&0\n${RM}\nEOF`,
  `{ { python3 <&3; } 3<&4; } ${heredoc("4")}`,
  `f() { python3 <&3; }; f ${heredoc("3")}`,
  `while true; do python3 <&4; done ${heredoc("4")}`,
  `( python3 <&3 ) ${heredoc("3")}`,
  `{ python3 < /dev/fd/3; } ${heredoc("3")}`,
  `{ python3 < /dev/stdin; } ${heredoc("")}`,
  `{ exec 0<&3; } ${heredoc("3")}\npython3`,
];

test.each(COPIES)("`bash: python3 $` does not allow code copied onto stdin from another fd: %j", (command) => {
  expect(check(EXACT, [], command)).toContain("may run what it reads on stdin");
});

test.each([
  ...COPIES,
  `{ python3 /dev/fd/3; } ${heredoc("3")}`, // read by name, not on stdin
  `{ python3 /proc/self/fd/3; } ${heredoc("3")}`,
])("a deny entry sees the code an interpreter reads from another fd: %j", (command) => {
  expect(check([], ["bash: rm *"], command)).toContain("deny entry `bash: rm *`");
});

test("a console's commands and a makefile given through another fd are seen too", () => {
  const sqlite = "exec 4<<'EOF'\n.shell rm -rf victim\nEOF\nsqlite3 app.db <&4";
  expect(check(EXACT, [], sqlite)).toContain("may run what it reads on stdin");
  expect(check([], ["bash: rm *"], sqlite)).toContain("deny entry `bash: rm *`");
  expect(check([], ["bash: rm *"], "exec 3<<'EOF'\nall:\n\trm -rf victim\nEOF\nmake -f - <&3")).toContain("deny entry `bash: rm *`");
  // a script written from another fd, then run, is judged by what it holds
  expect(check([], ["bash: rm *"], "{ cat <&3 > s.sh; } 3<<'EOF'\nrm -rf victim\nEOF\nsh s.sh")).toContain("deny entry `bash: rm *`");
  expect(check([], ["bash: rm *"], "{ cat <&3 > s.sh; } 3<<'EOF'\necho hi\nEOF\nsh s.sh")).toBeUndefined();
});

test.each([`exec 3< <(echo '${RM}'); python3 <&3`, `python3 < <(echo '${RM}')`, `echo '${RM}' > >(python3)`])(
  "a process substitution is a pipe: %j",
  (command) => {
    expect(check(EXACT, [], command)).toContain("may run what it reads on stdin");
    expect(check([], ["bash: rm *"], command)).toContain("reads its program from stdin, which the rules cannot see");
  },
);

test.each([
  `command exec ${heredoc("3")}\npython3 <&3`,
  `eval "exec ${heredoc("4")}"\npython3 <&4`, // opened where the rules do not follow it
  "python3 <&3",
  "exec 3<&5; python3 <&3",
])("under a deny list, an interpreter reading its program from an fd opened elsewhere is refused: %j", (command) => {
  expect(check([], ["bash: rm *"], command)).toStartWith("blocked by permission rules:");
});

test("an fd the command line does not open holds what only the run knows", () => {
  expect(check(EXACT, [], "python3 <&3")).toContain(
    "may run what it reads on stdin (here an fd the command does not open, which holds what only the run knows) as code",
  );
});

test.each([
  [["bash: python3 $"], "python3"],
  [["bash: python3 $"], "python3 <&-"],
  [["bash: python3 $", "bash: true"], `{ python3 </dev/null; } ${heredoc("")}`],
  [["bash: python3 x.py $"], "while read -u 3 l; do python3 x.py; done 3<<EOF\na\nEOF"],
  [["bash: python3 x.py $"], "exec 3<<EOF\na\nEOF\npython3 x.py"],
  [["bash: echo *", "bash: < *"], 'while read l; do echo "$l"; done < list.txt'],
  [["bash: echo *", "bash: 3< *"], 'while read -u 3 l; do echo "$l"; done 3< list.txt'],
  [["bash: python3 $"], "exec 2>&1; python3"],
])("stdin that is not code still runs: %j allows %j", (allow, command) => {
  expect(check(allow, [], command)).toBeUndefined();
});

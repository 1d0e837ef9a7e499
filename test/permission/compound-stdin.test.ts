// x100 #1: a heredoc or here-string placed on a group, subshell or compound command (`{ python3; }
// <<'EOF' … EOF`, `(python3) <<< '…'`) is what every command inside reads on stdin, but it was
// judged as the compound's alone: an exact entry `bash: python3 $` allowed the code, and a deny
// entry named in the heredoc went unseen.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const check = (allow: string[], deny: string[], command: string) =>
  permissionCheck({ allow, deny, narrow: [], file: "/h/.config/hey/config.toml" }, "sh", { cwd: "/p", home: "/h", controls: [] })("bash", {
    command,
  });
const CODE = "import shutil; shutil.rmtree('precious')";

test.each([
  `{ python3; } <<'EOF'\n${CODE}\nEOF`,
  `(python3) <<< "${CODE}"`,
  `if true; then python3; fi <<< "${CODE}"`,
  `while python3; do break; done <<< "${CODE}"`,
  `until python3; do :; done <<< "${CODE}"`,
  `for i in 1; do python3; done <<< "${CODE}"`,
  `{ { python3; }; } <<< "${CODE}"`,
  `(python3) < <(echo "${CODE}")`,
  `{ python3; } 3<<< "${CODE}" 0<&3`,
  `echo "${CODE}" | { python3; }`, // a pipe into a group: as a heredoc on it
  `echo "${CODE}" | (true; python3)`,
])("`bash: python3 $` does not allow %j, nor is it offered", (command) => {
  const reason = check(["bash: python3 $", "bash: true", "bash: echo *"], [], command);
  expect(reason).toContain("matches no allow entry");
  expect(check(["bash: ls *"], [], command)).toContain("may run what it reads on stdin");
});

test("a deny entry named in a heredoc given to a group is seen", () => {
  const reason = check(["bash: *"], ["bash: rm"], "{ python3; } <<EOF\nimport os; os.system('rm -rf x')\nEOF");
  expect(reason).toContain("deny entry `bash: rm`");
});

test("what a compound gives on stdin to a program whose stdin is data still matches", () => {
  expect(check(["bash: wc -l $", "bash: true"], [], "{ wc -l; } <<< 'a b'")).toBeUndefined();
  expect(check(["bash: cat", "bash: true"], [], "if true; then cat; fi <<< 'a'")).toBeUndefined();
  expect(check(["bash: python3 $"], [], "{ python3; } > out.txt")).toContain("> out.txt");
  expect(check(["bash: python3 $"], [], "{ python3; }")).toBeUndefined();
});

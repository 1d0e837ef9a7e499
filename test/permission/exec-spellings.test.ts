// x112 #1: an `exec` spelled another way still gave python3 its code on stdin. `X= exec <<'EOF'`,
// bash's `exec -- <<'EOF'` and `exec -c <<'EOF'`, and an `exec` inside `eval` all leave the heredoc
// on fd 0 for the next command, as the plain `exec <<'EOF'` does: code ran under `bash: python3 $`
// and `victim/` was deleted under `deny = ["bash: rm *"]`.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const check = (shell: string, allow: string[], deny: string[], command: string) =>
  permissionCheck({ allow, deny, narrow: [], file: "/h/.config/hey/config.toml" }, shell, { cwd: "/p", home: "/h", controls: [] })("bash", {
    command,
  });
const RM = `import shutil; shutil.rmtree("victim")`;
const heredoc = (fd: string) => `${fd}<<'EOF'\n${RM}\nEOF`;
const ALLOW = ["bash: python3 $", "bash: exec *", "bash: X= exec *"];

const BOTH = [`X= exec ${heredoc("")}\npython3`, `{ X= exec 0<&3; python3; } ${heredoc("3")}`, `X=1 exec ${heredoc("3")}\npython3 <&3`];
const BASH = [
  `exec -- ${heredoc("")}\npython3`,
  `exec -c ${heredoc("")}\npython3`,
  `exec -l -a name -- ${heredoc("")}\npython3`,
  `{ exec -- 0<&3; python3; } ${heredoc("3")}`,
];

test.each([...BOTH.map((c) => ["sh", c]), ...[...BOTH, ...BASH].map((c) => ["bash", c])])(
  "under %s an exec with assignments or options still gives its input to later commands: %j",
  (shell, command) => {
    expect(check(shell, [], ["bash: rm *"], command)).toContain("deny entry `bash: rm *`");
    expect(check(shell, ALLOW, [], command)).toContain("may run what it reads on stdin");
  },
);

test.each(["sh", "bash"])("under %s, after an eval, what fd 0 holds is unknown", (shell) => {
  for (const command of [`eval "exec ${heredoc("")}"\npython3`, `eval 'exec 0<&3'\npython3`]) {
    expect(check(shell, [], ["bash: rm *"], command)).toStartWith("blocked by permission rules:");
    expect(check(shell, [...ALLOW, "bash: eval *"], [], command)).toContain("may run what it reads on stdin");
  }
});

test.each(["sh", "bash"])("under %s an exec that runs a command, or sets only output, leaves the next command alone", (shell) => {
  expect(check(shell, ["bash: python3 x.py $", "bash: X= exec *"], [], "X= exec 2>&1; python3 x.py")).toBeUndefined();
  expect(check(shell, [], ["bash: rm *"], `exec python3 ${heredoc("")}`)).toContain("deny entry `bash: rm *`");
});

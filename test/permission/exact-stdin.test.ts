// x93 #2 and #9: an exact entry ("bash: python3 $", offered with "this command exactly") allowed any
// program given to the interpreter on stdin — a heredoc, a here-string, a pipe — and hey offered
// exactly that entry for `python3 <<'EOF' … EOF`. It also allowed `git -C ../other push --force
// origin main` under "bash: git push --force origin main $", and an exact entry with a redirection
// after its `$` was shown without what the `$` means.
import { describe, expect, test } from "bun:test";
import { permissionLines } from "../../src/doctor/permission-lines.ts";
import { isExact } from "../../src/permission/entries.ts";
import { permissionCheck } from "../../src/permission-check.ts";

const USER = "/h/.config/hey/config.toml";
const check = (allow: string[], command: string) =>
  permissionCheck({ allow, deny: [], narrow: [], file: USER }, "sh", { cwd: "/p", home: "/h", controls: [] })("bash", { command });
const added = (reason: string | undefined) => /: add "((?:[^"\\]|\\.)*)" there/.exec(reason ?? "")?.[1];
const NOTE = "(`$`: this command exactly, no words after it)";

describe("code an interpreter reads on stdin is no word of an exact entry", () => {
  test.each([
    ["bash: python3 $", "python3 <<'EOF'\nimport shutil; shutil.rmtree('precious')\nEOF"],
    ["bash: python3 $", "echo 'import shutil' | python3"],
    ["bash: node $", `node <<< 'require("fs").rmSync("precious", { recursive: true })'`],
    ["bash: python3 - $", "python3 - <<EOF\nimport os\nEOF"],
    ["bash: python3 $", "python3 < <(echo 'import os')"],
    ["bash: perl $", "printf 'unlink q(x)' | perl"],
    ["bash: python3 $", "echo 'import os' | timeout 5 python3"],
  ])("%s does not allow %j", (entry, command) => {
    const reason = check([entry, "bash: echo *", "bash: printf *", "bash: timeout 5 $"], command);
    expect(reason).toContain("matches no allow entry");
  });

  test("the command as written, and a program whose stdin is data, still match", () => {
    expect(check(["bash: python3 $"], "python3")).toBeUndefined();
    expect(check(["bash: python3 -c 'print(1)' $"], "python3 -c 'print(1)' 2>&1")).toBeUndefined();
    expect(check(["bash: ps *", "bash: awk '{print $1}' $"], "ps aux | awk '{print $1}'")).toBeUndefined();
    expect(check(["bash: cat *", "bash: wc -l $"], "cat a.txt | wc -l")).toBeUndefined();
  });

  test("no entry is offered for an interpreter given stdin, and the refusal says why", () => {
    for (const command of ["python3 <<'EOF'\nprint(1+1)\nEOF", "echo 'print(1)' | python3", "node <<< 'console.log(1)'", "python3 - <<EOF\nx\nEOF"]) {
      const reason = check(["bash: echo *", "bash: ls *"], command);
      expect(added(reason)).toBeUndefined();
      expect(reason).toContain(
        "may run what it reads on stdin (here a heredoc, a here-string or a pipe) as code, which no entry can spell out, so none is offered",
      );
    }
    // its code on the command line is spelled out: that exact entry is still offered
    expect(added(check(["bash: ls *"], "python3 -c 'print(1)'"))).toBe("bash: python3 -c 'print(1)' $");
  });
});

describe("an exact entry is the command as written: git's -C is not set aside for it", () => {
  test("a forced push of another repository is not the one the entry names", () => {
    const entry = "bash: git push --force origin main $";
    expect(check([entry], "git push --force origin main")).toBeUndefined();
    expect(check([entry], "git -C ../other push --force origin main")).toContain("matches no allow entry");
    // the entry offered for it names the repository, and allows it once added
    const offered = added(check(["bash: ls *"], "git -C ../other push --force origin main"));
    expect(offered).toBe("bash: git -C ../other push --force origin main $");
    expect(check([offered!], "git -C ../other push --force origin main")).toBeUndefined();
    // an open entry still reads -C as `cd DIR &&` would
    expect(check(["bash: git status *"], "git -C sub status")).toBeUndefined();
  });
});

test("an exact entry with a redirection after its `$` is shown with what the `$` means", () => {
  expect(isExact("bash: npm test $ > log")).toBe(true);
  expect(isExact("bash: npm run build $ 2>&1")).toBe(true);
  expect(isExact("bash: echo '$'")).toBe(false);
  expect(isExact("read_file")).toBe(false);
  const lines = permissionLines({ allow: ["bash: npm test $ > log"], deny: [], narrow: [], file: USER }, "/h");
  expect(lines).toEqual([`permission: allow bash: npm test $ > log ${NOTE} (~/.config/hey/config.toml)`]);
});

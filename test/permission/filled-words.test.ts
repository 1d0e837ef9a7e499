// x5 #1 and #2: the paths find's `{}` and xargs' input fill in at run time, under an allow list with
// `bash: find *`, `bash: xargs *` and a writer's entry. Refused as not verifiable where they could be
// git's or hey's own files (as `"$d"` is), allowed where find searches a folder holding none of them
// and nothing leading to them. The real checker on a fixture home and project; the refused forms are
// then run by bash with the real find, xargs and cp to show they do change a control file.
import { afterAll, describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, snapshot } from "./control-corpus.ts";

const tmp = tempDir("hey-filled-words-");
afterAll(() => tmp.remove());

const ALLOW = [
  "read_file",
  "bash: git *",
  "bash: cp *",
  "bash: mv *",
  "bash: ln *",
  "bash: rm *",
  "bash: sed *",
  "bash: find *",
  "bash: xargs *",
  "bash: printf *",
  "bash: echo *",
  "bash: cat *",
  "bash: grep *",
  "bash: nice *",
  "bash: env *",
];

/** A fresh fixture (hey's files in a home, a project with links to them) with a git directory and a plain `src` tree. */
function fixture(name: string) {
  const root = join(tmp.path, name);
  rmSync(root, { recursive: true, force: true });
  const { home, project, controls } = controlFixture(root);
  for (const d of ["hooks", "objects", "refs"]) mkdirSync(join(project, ".git", d), { recursive: true });
  writeFileSync(join(project, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n");
  writeFileSync(join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(project, "src", "lib"), { recursive: true });
  writeFileSync(join(project, "src", "a.ts"), "let a = 1;\n");
  writeFileSync(join(project, "src", "lib", "b.ts"), "let b = 2;\n");
  writeFileSync(join(project, "src", "cfg"), '[core]\n\tfsmonitor = "touch pwned; false"\n');
  writeFileSync(join(project, "list"), ".git/config\n");
  const check = permissionCheck({ allow: ALLOW, deny: [], narrow: [] }, "sh", { cwd: project, home, controls });
  return { home, project, controls, check: (command: string) => check("bash", { command }) };
}

const REFUSED: [string, RegExp][] = [
  // x5 #1: find's `{}`, every action that runs a command
  [
    "find . -name config -exec cp src/cfg {} \\;",
    /`cp` may write `\{\}`, which find fills in with each file it finds below `\.`, which holds `\.\/[^`]+`, (a link|one of git's own files|a file with other hard links)[^:]*: search a folder/,
  ],
  ["find -L . -name config.toml -exec cp src/cfg {} \\;", /`cp` may write `\{\}`/],
  ["find . -name config -exec cp src/cfg {} +", /`cp` may write `\{\}`/],
  ["find . -name config -execdir cp ../src/cfg {} \\;", /`cp` may write `\{\}`/],
  ["find . -name config -ok cp src/cfg {} \\;", /`cp` may write `\{\}`/],
  ["find . -name config -okdir cp ../src/cfg {} \\;", /`cp` may write `\{\}`/],
  ["nice -n 5 find . -name config -exec cp src/cfg {} +", /`cp` may write `\{\}`/],
  ["env find . -name config -execdir cp ../src/cfg {} \\;", /`cp` may write `\{\}`/],
  ["find . -name HEAD -exec ln -sf ../src/cfg {} \\;", /`ln` may write `\{\}`/],
  ["find . -name config -exec sed -i s/x/y/ {} +", /`sed` may write `\{\}`/],
  ["find . -name config -exec rm {} +", /`rm` may delete `\{\}`, which find fills in with each file it finds below `\.`, which holds `\.\/\.git\/config`/],
  // x5 #2: what xargs reads, from any input or a file, appended or put for -I
  ["printf '.git/config\\n' | xargs cp src/cfg", /`cp` may write the words xargs appends, which xargs reads from what `printf '\.git\/config\\n'` prints/],
  ["echo .git/hooks/pre-commit | xargs cp src/cfg", /`cp` may write the words xargs appends/],
  ["cat list | xargs mv src/cfg", /`mv` may write the words xargs appends/],
  ["xargs -a list cp src/cfg", /which xargs reads from `list`, a file hey does not read/],
  ["xargs --arg-file=list cp src/cfg", /which xargs reads from `list`, a file hey does not read/],
  ["xargs -a list -I{} cp src/cfg {}", /`cp` may write `\{\}`, which xargs reads from `list`/],
  ["printf '.git/config\\n' | xargs -i cp src/cfg {}", /`cp` may write `\{\}`/],
  ["printf '.git/config\\n' | xargs --replace=@ cp src/cfg @", /`cp` may write `@`/],
  ["printf '.git/config\\0' | xargs -0 cp src/cfg", /`cp` may write the words xargs appends/],
  ["printf '.git/config\\n' | xargs -d '\\n' -n 1 cp src/cfg", /`cp` may write the words xargs appends/],
  ["printf '.git/config\\n' | xargs -L 1 cp src/cfg", /`cp` may write the words xargs appends/],
  ["git rev-parse --git-path config | xargs cp src/cfg", /`cp` may write the words xargs appends/],
  ["git ls-files -z | xargs -0 -I@ cp src/cfg @", /`cp` may write `@`/],
  ["xargs cp src/cfg < list", /which xargs reads from its input, known only at run time/],
  // find feeding xargs, but a folder holding git's and hey's files, or printed otherwise than xargs splits
  ["find . -name config -print0 | xargs -0 cp src/cfg", /which xargs reads from find, each file it lists below `\.`, which holds `\.\/\.git\/config`/],
  ["find src -name '*.ts' -print | xargs -0 sed -i s/a/b/", /xargs splits otherwise than `find` prints them/],
  ["find src -printf '%p\\n' | xargs sed -i s/a/b/", /what `find src -printf '%p\\n'` prints/],
  // a start point known only at run time, or in a directory a wrapper names
  ["find src/* -exec sed -i s/a/b/ {} +", /below `src\/\*`, a folder known only at run time/],
  ["env -C .. find src -exec sed -i s/a/b/ {} +", /in a directory its wrapper names/],
];

const ALLOWED = [
  // a folder holding none of hey's or git's files, no link and no hard-linked file: what a daily user runs
  "find src -name '*.ts' -exec sed -i s/a/b/ {} +",
  "find src -name '*.ts' -exec sed -i s/a/b/ {} \\;",
  "find src/lib -type f -execdir sed -i s/a/b/ {} +",
  "find src -name '*.ts' | xargs sed -i s/a/b/",
  "find src -name '*.ts' -print0 | xargs -0 sed -i s/a/b/",
  "find src -name '*.ts' | xargs -I{} cp {} /tmp/",
  "find src -name '*.ts' | nice xargs -n1 sed -i s/a/b/",
  "find src -name '*.o' -exec rm {} +",
  // readers of what find or xargs fill in, anywhere
  "find . -name '*.ts' -exec grep -l foo {} +",
  "find . -name '*.ts' | xargs grep foo",
  "find . -name '*.ts' -exec sed -n 1p {} +",
  "git ls-files | xargs cat",
  // find's own -delete is judged by the folders it starts in, as before
  "find . -name '*.o' -delete",
];

describe("under an allow list, a path find or xargs fills in for a writer", () => {
  const { check } = fixture("list");
  test.each(REFUSED)("is refused as not verifiable where it could be a control file: %s", (command, why) => {
    const refusal = check(command);
    expect(refusal).toMatch(/^blocked by permission rules: /);
    expect(refusal).toMatch(why);
  });
  test.each(ALLOWED)("runs where it cannot: %s", (command) => {
    expect(check(command)).toBeUndefined();
  });
});

test("a folder holding a link, `.git`, a file with other hard links or a name xargs splits is no confinement, each said by its path", () => {
  const cases: [string, (project: string, home: string) => void, string, RegExp][] = [
    ["link", (p, h) => symlinkSync(join(h, ".config", "hey"), join(p, "src", "lib", "lk")), "find src -exec cp src/cfg {} \\;", /holds `src\/lib\/lk`, a link/],
    [
      "git",
      (p) => mkdirSync(join(p, "src", "sub", ".git"), { recursive: true }),
      "find src -exec cp src/cfg {} \\;",
      /holds `src\/sub\/\.git`, one of git's own files/,
    ],
    [
      "hard",
      (p, h) => linkSync(join(h, ".config", "hey", "config.toml"), join(p, "src", "h")),
      "find src -exec cp src/cfg {} \\;",
      /holds `src\/h`, a file with other hard links/,
    ],
    ["blank", (p) => mkdirSync(join(p, "src", "x .git"), { recursive: true }), "find src | xargs -n1 cp src/cfg", /holds `src\/x \.git`, a name xargs splits/],
  ];
  for (const [name, make, command, why] of cases) {
    const { project, home, check } = fixture(`tree-${name}`);
    expect(check(command)).toBeUndefined();
    make(project, home);
    expect([name, check(command)]).toEqual([name, expect.stringMatching(why)]);
  }
  // with -print0 and -0 a name holding a blank is one word
  const { project, check } = fixture("tree-nul");
  mkdirSync(join(project, "src", "x .git"));
  expect(check("find src -name '*.ts' -print0 | xargs -0 sed -i s/a/b/")).toBeUndefined();
});

test('under a deny list alone, and with no list, filled words are judged as before (as `"$d"` is)', () => {
  const root = join(tmp.path, "deny");
  const { home, project, controls } = controlFixture(root);
  const deny = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", { cwd: project, home, controls });
  expect(deny("bash", { command: "find . -name '*.o' -exec rm {} +" })).toBeUndefined();
  expect(deny("bash", { command: "git ls-files | xargs sed -i s/a/b/" })).toBeUndefined();
});

testNeeding(["bash", "find", "xargs", "cp"])(
  "each refused form of x5 does write git's or hey's files when bash runs it, and the allowed ones change only src",
  () => {
    const dead: string[] = [];
    for (const [command] of REFUSED.filter(([c]) => /cp src\/cfg/.test(c) && !/-ok|printf '%p|src\/\*|env -C|dirlink|git /.test(c))) {
      const { project, controls } = fixture("run");
      const files = [...controls, join(project, ".git", "config"), join(project, ".git", "hooks", "pre-commit")];
      const before = JSON.stringify(snapshot(files));
      Bun.spawnSync(["bash", "-c", command], { cwd: project, env: { PATH: process.env.PATH }, stdout: "ignore", stderr: "ignore" });
      if (JSON.stringify(snapshot(files)) === before) dead.push(command);
    }
    expect(dead).toEqual([]);
    const { project, check } = fixture("run-allowed");
    for (const command of ["find src -name '*.ts' -exec sed -i s/a/b/ {} +", "find src -name '*.ts' | xargs sed -i s/b/c/"]) {
      expect(check(command)).toBeUndefined();
      expect(Bun.spawnSync(["bash", "-c", command], { cwd: project, env: { PATH: process.env.PATH } }).exitCode).toBe(0);
    }
    expect(readFileSync(join(project, "src", "lib", "b.ts"), "utf8")).toBe("let c = 2;\n");
    expect(readFileSync(join(project, ".git", "config"), "utf8")).not.toContain("fsmonitor");
  },
);

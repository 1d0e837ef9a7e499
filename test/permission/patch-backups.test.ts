// r1 #1, #12: GNU patch's backup copy is named by joining text (`-B PREFIX` + the patched name,
// `-Y PREFIX` before its last part, `-z SUFFIX` or SIMPLE_BACKUP_SUFFIX after it), so `-B .g` of
// `it/hooks/pre-commit` moves the original to `.git/hooks/pre-commit`: the joined names are judged;
// and a patch hey cannot read (`-i FILE`, `< FILE`) run where a git directory is may write
// `.git/hooks`, which GNU patch does not refuse. patch-backups-real.test.ts runs them with real patch.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-patch-backups-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls } = controlFixture(join(root, "f"));
Bun.spawnSync(["git", "init", "-q"], { cwd: project });
mkdirSync(join(project, "src"));

const denyOnly = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
const listed = permissionCheck({ allow: ["bash: patch *", "bash: git *"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls });
const decide = (c: typeof denyOnly, command: string) => c("bash", { command }) ?? "allowed";
const diff = (path: string) => `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;

test("a backup name joined from -B, -Y, -z or SIMPLE_BACKUP_SUFFIX is judged whole (r1 #1)", () => {
  const cases: [string, RegExp][] = [
    [`patch -b -B .g -p1 <<'EOF'\n${diff("it/hooks/pre-commit")}EOF`, /`\.git\/hooks\/pre-commit` names git's own files .*backup copy/],
    [`patch -b --prefix=.g -p1 <<'EOF'\n${diff("it/hooks/pre-commit")}EOF`, /`\.git\/hooks\/pre-commit` names git's own/],
    [`patch --backup --pre .g -p1 <<'EOF'\n${diff("it/hooks/pre-commit")}EOF`, /`\.git\/hooks\/pre-commit` names git's own/],
    [`patch -b -B ~/.config/h -p1 <<'EOF'\n${diff("ey/config.toml")}EOF`, /names hey's own configuration/],
    [`patch -b -B ${home}/.config/h -p1 <<'EOF'\n${diff("ey/config.toml")}EOF`, /names hey's own configuration/],
    [`patch -b -z it/hooks/pre-commit -p1 <<'EOF'\n${diff(".g")}EOF`, /`\.git\/hooks\/pre-commit` names git's own/],
    [`SIMPLE_BACKUP_SUFFIX=it/hooks/pre-commit patch -b -p1 <<'EOF'\n${diff(".g")}EOF`, /`\.git\/hooks\/pre-commit` names git's own/],
    [`export SIMPLE_BACKUP_SUFFIX=it/hooks/pre-commit; patch -b -p1 <<'EOF'\n${diff(".g")}EOF`, /`\.git\/hooks\/pre-commit` names git's own/],
    [`patch -b -Y .git/hooks/ -p1 <<'EOF'\n${diff("pre-commit")}EOF`, /names git's own/],
    [`patch -b -d src -B ../.g -p1 <<'EOF'\n${diff("it/config")}EOF`, /names git's own/],
    // a backup name the run decides, or of a patch hey cannot read: cannot verify
    [
      `patch -b -B "$P" -p1 <<'EOF'\n${diff("src/a.c")}EOF`,
      /^blocked by permission rules: cannot verify .*backup file's name is joined from text known only at run time/,
    ],
    [
      "patch -b -B .g -p1 -i src/fix.diff",
      /^blocked by permission rules: cannot verify .*backup file's name is joined from the names of a patch hey cannot read/,
    ],
    ["patch -b -z it/hooks/pre-commit -p1 < src/fix.diff", /^blocked by permission rules: cannot verify /],
  ];
  for (const [command, reason] of cases) {
    expect([command, decide(denyOnly, command)]).toEqual([command, expect.stringMatching(reason)]);
    expect([command, decide(listed, command)]).toEqual([command, expect.stringMatching(reason)]);
  }
  // everyday backups: the default `.orig`, a suffix, a backup folder
  for (const command of [
    `patch -b -p1 <<'EOF'\n${diff("src/a.c")}EOF`,
    `patch -b -z .bak -p1 <<'EOF'\n${diff("src/a.c")}EOF`,
    `patch -b -B backup/ -p1 <<'EOF'\n${diff("src/a.c")}EOF`,
    `patch --backup -p1 <<'EOF'\n${diff("src/a.c")}EOF`,
  ])
    expect([command, decide(listed, command)]).toEqual([command, "allowed"]);
});

test("a patch hey cannot read, run where a git directory is, is refused; in a folder below it, or outside a repository, it runs (r1 #12)", () => {
  for (const command of [
    "patch -p1 -i src/fix.diff",
    "patch -p1 < src/fix.diff",
    "patch -p1 --input=src/fix.diff",
    "cat src/fix.diff | patch -p1",
    "patch -d . -p1 < src/fix.diff",
  ])
    for (const c of [denyOnly, listed])
      expect([command, decide(c, command)]).toEqual([
        command,
        expect.stringMatching(
          /`patch` names git's own files .*GNU patch given a patch hey cannot read may write any name below where it runs, `\.git\/hooks` too/,
        ),
      ]);
  for (const command of ["patch -d src -p2 < src/fix.diff", "patch -d src -p2 -i fix.diff", "git apply src/fix.diff", "patch --dry-run -p1 -i src/fix.diff"])
    expect([command, decide(denyOnly, command)]).toEqual([command, "allowed"]);
  const outside = join(root, "plain");
  mkdirSync(outside);
  const plain = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: outside, home, controls });
  expect(decide(plain, "patch -p1 < fix.diff")).toBe("allowed");
});

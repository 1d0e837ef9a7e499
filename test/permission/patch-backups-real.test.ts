// r1 #1, #12 against real GNU patch: each backup spelling and unread patch the checker now refuses
// does, run by bash in a fresh copy of the fixture (a project that is a git repository, beside a
// home holding hey's files), put an executable `.git/hooks/pre-commit` in place or replace hey's
// config; the everyday backups it lets through leave the original beside the patched file.
import { afterAll, expect } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-patch-backups-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);

/** A fresh fixture: the project a git repository holding `it/hooks/pre-commit`, `.g` and `ey/config.toml` the agent wrote. */
function fixture() {
  rmSync(join(root, "f"), { recursive: true, force: true });
  const made = controlFixture(join(root, "f"));
  Bun.spawnSync(["git", "init", "-q"], { cwd: made.project });
  for (const d of ["src", "it/hooks", "ey"]) mkdirSync(join(made.project, d), { recursive: true });
  writeFileSync(join(made.project, "it/hooks/pre-commit"), "#!/bin/sh\na\n");
  chmodSync(join(made.project, "it/hooks/pre-commit"), 0o755);
  writeFileSync(join(made.project, ".g"), "#!/bin/sh\na\n");
  chmodSync(join(made.project, ".g"), 0o755);
  writeFileSync(join(made.project, "ey/config.toml"), '[permission]\nallow = ["bash"]\na\n');
  writeFileSync(join(made.project, "src/fix.diff"), HOOK_DIFF);
  writeFileSync(join(made.project, "src/a.c"), "a\n");
  return made;
}

const HOOK_DIFF =
  "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+echo agent\n";
const change = (path: string) => `--- a/${path}\n+++ b/${path}\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-a\n+b\n`;

const run = (command: string, cwd: string, home: string) =>
  Bun.spawnSync(["bash", "-c", command], { cwd, env: { PATH: process.env.PATH, HOME: home }, stdout: "ignore", stderr: "ignore" });

const hook = (project: string) => join(project, ".git/hooks/pre-commit");
const ATTACKS: [string, (project: string, home: string) => boolean][] = [
  [`patch -s -b -B .g -p1 <<'EOF'\n${change("it/hooks/pre-commit")}EOF`, (p) => existsSync(hook(p)) && (statSync(hook(p)).mode & 0o111) !== 0],
  [`patch -s -b -z it/hooks/pre-commit -p1 <<'EOF'\n${change(".g")}EOF`, (p) => existsSync(hook(p))],
  [`SIMPLE_BACKUP_SUFFIX=it/hooks/pre-commit patch -s -b -p1 <<'EOF'\n${change(".g")}EOF`, (p) => existsSync(hook(p))],
  [
    `patch -s -b -B ~/.config/h -p1 <<'EOF'\n--- a/ey/config.toml\n+++ b/ey/config.toml\n@@ -1,3 +1,3 @@\n [permission]\n allow = ["bash"]\n-a\n+b\nEOF`,
    (_, home) => readFileSync(join(home, ".config/hey/config.toml"), "utf8").includes('allow = ["bash"]'),
  ],
  ["patch -s -p1 -i src/fix.diff", (p) => existsSync(hook(p)) && (statSync(hook(p)).mode & 0o111) !== 0],
  ["patch -s -p1 < src/fix.diff", (p) => existsSync(hook(p))],
];

testNeeding(["bash", "git", "patch"])("each patch backup or unread patch the checker refuses does write git's hook or hey's config (r1 #1, #12)", () => {
  for (const [command, happened] of ATTACKS) {
    const { home, project, controls } = fixture();
    const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, expect.stringMatching(/^blocked by permission rules/)]);
    run(command, project, home);
    expect([command, happened(project, home)]).toEqual([command, true]);
  }
});

testNeeding(["bash", "git", "patch"])("everyday backups the checker lets through keep the original beside the patched file", () => {
  const { home, project, controls } = fixture();
  const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
  const diff = "--- a/src/a.c\n+++ b/src/a.c\n@@ -1 +1 @@\n-a\n+b\n";
  for (const [command, kept] of [
    [`patch -s -b -p1 <<'EOF'\n${diff}EOF`, "src/a.c.orig"],
    [`patch -s -R -b -z .bak -p1 <<'EOF'\n${diff}EOF`, "src/a.c.bak"],
  ] as const) {
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, "allowed"]);
    expect([command, run(command, project, home).exitCode, existsSync(join(project, kept))]).toEqual([command, 0, true]);
  }
});

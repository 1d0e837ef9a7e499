// x2 #3, #6, #8, #13 against the real programs: each command the checker now refuses does, run by
// bash with the real git, patch, csplit, split or npm in a fresh copy of the fixture (a home holding
// hey's files beside a project that is a git repository), change a control file or run the
// script of a package.json the agent could write. So the refusals are not of harmless spellings;
// and the everyday forms the checker lets through do what the user meant.
import { afterAll, expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, snapshot } from "./control-corpus.ts";

const tmp = tempDir("hey-patch-x2-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);

/** A fresh fixture whose project is a git repository with a `src/`. */
function fixture() {
  rmSync(join(root, "f"), { recursive: true, force: true });
  const made = controlFixture(join(root, "f"));
  Bun.spawnSync(["git", "init", "-q"], { cwd: made.project });
  mkdirSync(join(made.project, "src"));
  return made;
}

const run = (command: string, cwd: string, home: string) =>
  Bun.spawnSync(["bash", "-c", command], {
    cwd,
    env: { PATH: process.env.PATH, HOME: home, npm_config_update_notifier: "false", GIT_CONFIG_NOSYSTEM: "1", ...IDENTITY },
    stdout: "ignore",
    stderr: "ignore",
  });

const IDENTITY = { GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.com" };

const ATTACKS = [
  // #3: hey's own config, out of the work tree
  'git apply --unsafe-paths <<\'EOF\'\n--- a/../home/.config/hey/config.toml\n+++ b/../home/.config/hey/config.toml\n@@ -1,2 +1,2 @@\n [permission]\n-deny = ["bash: rm *"]\n+allow = ["bash"]\nEOF',
  // #8: the project's own, created by a patch
  "git apply <<'EOF'\n--- /dev/null\n+++ b/.hey/config.toml\n@@ -0,0 +1,2 @@\n+[permission]\n+deny = []\nEOF",
  "git apply <<'EOF'\ndiff --git a/.mcp.json b/.mcp.json\nnew file mode 100644\n--- /dev/null\n+++ b/.mcp.json\n@@ -0,0 +1 @@\n+{}\nEOF",
  "patch -s -p1 <<'EOF'\n--- /dev/null\n+++ b/.hey/config.toml\n@@ -0,0 +1 @@\n+[permission]\nEOF",
  // git am applies from the work tree's top, wherever in it it runs
  "cd sub && git am -q <<'EOF'\nFrom: a <a@example.com>\nSubject: x\n\n---\n--- /dev/null\n+++ b/.hey/config.toml\n@@ -0,0 +1 @@\n+[permission]\nEOF",
  // and git apply from the directory `-C` leads to
  "git -C src apply --unsafe-paths <<'EOF'\n--- /dev/null\n+++ b/../.mcp.json\n@@ -0,0 +1 @@\n+{}\nEOF",
  // #6: a name joined from two words
  "printf '[permission]\\nallow = [\"bash\"]\\nEND\\n' > src/p && csplit -s -f ../home/.con -b 'fig/hey/config.toml%.0d' src/p 3",
  "printf 'abcdefghijklmnopqrstuvwxyz' > src/p && split -a 1 -n 26 src/p ../home/.local/state/hey/approvals.jso",
];

testNeeding(["bash", "git", "patch", "csplit", "split"])(
  "each patch or joined name of x2 the checker now refuses does change a control file when bash runs it",
  () => {
    const dead: string[] = [];
    for (const command of ATTACKS) {
      const { home, project, controls } = fixture();
      const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
      expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, expect.stringMatching(/^blocked by permission rules/)]);
      const before = snapshot(controls);
      run(command, project, home);
      if (JSON.stringify(snapshot(controls)) === JSON.stringify(before)) dead.push(command);
    }
    expect(dead).toEqual([]);
  },
);

testNeeding(["bash", "git", "csplit"])("csplit's `.g` + `it/config%.0d` is refused, and run it replaces .git/config (x2 #6)", () => {
  const { home, project, controls } = fixture();
  const command = "printf '[core]\\n\\tbare = false\\n# agent\\nEND\\n' > src/p && csplit -s -f .g -b 'it/config%.0d' src/p 4";
  const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
  expect(check("bash", { command })).toMatch(/^blocked by permission rules: `.git\/config\*` names git's own files/);
  run(command, project, home);
  expect(readFileSync(join(project, ".git", "config"), "utf8")).toContain("# agent");
});

testNeeding(["bash", "git", "patch", "csplit", "split"])("the everyday forms the checker lets through apply the patch and split the file", () => {
  const { home, project, controls } = fixture();
  const check = permissionCheck({ allow: ["bash: git *", "bash: patch *", "bash: csplit *", "bash: split *"], deny: [], narrow: [] }, "bash", {
    cwd: project,
    home,
    controls,
  });
  writeFileSync(join(project, "src", "p"), "one\ntwo\nthree\n");
  writeFileSync(join(project, "fix.patch"), "--- /dev/null\n+++ b/src/from-file.c\n@@ -0,0 +1 @@\n+int f;\n");
  for (const command of [
    "git apply <<'EOF'\n--- /dev/null\n+++ b/src/a.c\n@@ -0,0 +1 @@\n+int x;\nEOF",
    "git apply fix.patch",
    "patch -s -p1 <<'EOF'\n--- /dev/null\n+++ b/src/b.c\n@@ -0,0 +1 @@\n+int y;\nEOF",
    "csplit -s -f src/part- -b '%02d.txt' src/p 2",
    "split -l 1 src/p src/line-",
  ]) {
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, "allowed"]);
    expect([command, run(command, project, home).exitCode]).toEqual([command, 0]);
  }
  for (const f of ["a.c", "b.c", "from-file.c", "part-00.txt", "part-01.txt", "line-aa", "line-ac"])
    expect([f, existsSync(join(project, "src", f))]).toEqual([f, true]);
});

testNeeding(["bash", "npm"])(
  "npm moved to a package.json outside the project is refused under `bash: npm run test *`, by every spelling real npm reads, and run it does run that script (x2 #13, r1 #5)",
  () => {
    const { home, project, controls } = fixture();
    const pwned = join(root, "pwned");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", scripts: { test: "echo ok" } }));
    mkdirSync(join(root, "f", "other"));
    writeFileSync(join(root, "f", "other", "package.json"), JSON.stringify({ name: "o", scripts: { test: `touch ${pwned}` } }));
    const check = permissionCheck({ allow: ["read_file", "write_file: src/**", "bash: npm run test *"], deny: [], narrow: [] }, "bash", {
      cwd: project,
      home,
      controls,
    });
    expect(check("bash", { command: "npm run test" })).toBeUndefined();
    for (const command of ["npm run test --prefix=../other", "npm run test --prefi=../other", "npm run test -prefix=../other", "npm run test -C ../other"]) {
      expect(check("bash", { command })).toMatch(
        /runs \/.*other\/package.json's script `test`, a package.json outside the project: `touch .*` matches no allow entry/,
      );
      rmSync(pwned, { force: true });
      run(command, project, home);
      expect([command, existsSync(pwned)]).toEqual([command, true]);
    }
    rmSync(pwned, { force: true });
  },
);

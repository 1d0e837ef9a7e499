// x2 #3, #8, #6, #13: a patch the checker can read writes the paths it names (`git apply`, `git
// am`, GNU `patch` of a heredoc: hey's config through `--unsafe-paths`, the project's
// `.hey/config.toml` and `.mcp.json`, a hook by `rename to`), csplit and split write a name joined
// from two words, and `npm run test --prefix=src` runs another package.json's script. Each is
// refused naming what it writes; the everyday forms still run. patch-split-x2-real.test.ts runs the
// refused ones with the real programs.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-patch-x2-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls } = controlFixture(join(root, "f"));
mkdirSync(join(project, "src"));
writeFileSync(join(project, "package.json"), JSON.stringify({ scripts: { test: "echo ok" } }));
writeFileSync(join(project, "src", "package.json"), JSON.stringify({ scripts: { test: "touch /tmp/x2-pwned" } }));
mkdirSync(join(project, "web"));
writeFileSync(join(project, "web", "package.json"), JSON.stringify({ scripts: { test: "echo web" } }));
afterAll(() => rmSync(join(root, "f"), { recursive: true, force: true }));

const README_LIST = ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *", "bash: patch *", "bash: csplit *", "bash: split *"];
const check = permissionCheck({ allow: README_LIST, deny: ["bash: git push *"], narrow: [] }, "bash", { cwd: project, home, controls });
const denyOnly = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
const decide = (c: typeof check, command: string) => c("bash", { command }) ?? "allowed";

const diff = (path: string) => `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;
const created = (path: string) => `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+x\n`;

test("git apply of a heredoc patch is refused naming each control file the patch writes, --unsafe-paths or not (x2 #3, #8)", () => {
  const cases: [string, RegExp][] = [
    [
      `git apply --unsafe-paths <<'EOF'\n${diff("../home/.config/hey/config.toml")}EOF`,
      /`..\/home\/.config\/hey\/config.toml` names hey's own .*a path the patch given to git apply writes/,
    ],
    [`git apply --unsafe-paths <<'EOF'\n${diff("../home/.local/state/hey/approvals.json")}EOF`, /approvals\.json` names hey's own/],
    [`git apply <<'EOF'\n${created(".hey/config.toml")}EOF`, /`.hey\/config.toml` names hey's own/],
    [`git apply <<'EOF'\ndiff --git a/.mcp.json b/.mcp.json\nnew file mode 100644\n${created(".mcp.json")}EOF`, /`.mcp.json` names hey's own/],
    // git's `-p0` keeps the whole name; `--directory` puts one in front; `rename to`/`copy to` are not stripped
    [`git apply -p0 <<'EOF'\n--- /dev/null\n+++ .hey/config.toml\n@@ -0,0 +1 @@\n+x\nEOF`, /`.hey\/config.toml` names/],
    [`git apply -p2 <<'EOF'\n--- /dev/null\n+++ x/y/.mcp.json\n@@ -0,0 +1 @@\n+x\nEOF`, /`.mcp.json` names/],
    [`git apply --directory=sub/../.hey <<'EOF'\n${created("config.toml")}EOF`, /names hey's own/],
    [
      `git apply <<'EOF'\ndiff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to .git/hooks/pre-commit\nEOF`,
      /`.git\/hooks\/pre-commit` names git's own files/,
    ],
    [`git apply <<< '${created(".hey/config.toml")}'`, /`.hey\/config.toml` names/],
    [`git am <<'EOF'\nFrom 1 Mon Sep 17 00:00:00 2001\nSubject: x\n\n---\n${created(".hey/config.toml")}EOF`, /a path the patch given to git am writes/],
    [`git am --directory=../home/.config <<'EOF'\n${created("hey/config.toml")}EOF`, /names hey's own/],
    // a patch named in an expanding heredoc's `$D`: the run's, so not verified
    [`git apply --unsafe-paths <<EOF\n${diff("$D/config.toml")}EOF`, /^blocked by permission rules: cannot verify .*known only at run time/],
    // a patch hey cannot read, allowed to reach out of the work tree
    ["git apply --unsafe-paths fix.patch", /cannot verify .*`--unsafe-paths` lets a patch hey cannot read \(a patch file\) write outside the work tree/],
    ["cat fix.patch | git apply --unsafe-paths", /cannot verify .*\(a pipe\)/],
  ];
  for (const [command, reason] of cases) expect([command, decide(check, command)]).toEqual([command, expect.stringMatching(reason)]);
});

test("GNU patch of a heredoc is refused for a control file it writes, by -p, --directory, or without -p by the whole name or its last part (x2 #8)", () => {
  for (const command of [
    `patch -p1 <<'EOF'\n${diff(".hey/config.toml")}EOF`,
    `patch <<'EOF'\n--- x/y/.mcp.json\n+++ x/y/.mcp.json\n@@ -0,0 +1 @@\n+x\nEOF`,
    `patch <<'EOF'\n--- .hey/config.toml\n+++ .hey/config.toml\n@@ -0,0 +1 @@\n+x\nEOF`,
    `patch -d src -p1 <<'EOF'\n${diff("../.hey/config.toml")}EOF`,
    `patch --strip=0 <<'EOF'\nIndex: .git/config\n--- .git/config\n+++ .git/config\n@@ -1 +1 @@\n-a\n+b\nEOF`,
  ])
    expect([command, decide(check, command)]).toEqual([
      command,
      expect.stringMatching(/^blocked by permission rules: .* names (hey's|git's) own .*a path the patch given to patch writes/),
    ]);
});

test("a patch of ordinary project files still applies, and one only checked or counted writes nothing (x2 #3, #8)", () => {
  for (const command of [
    "git apply fix.patch",
    "git apply -p1 --3way fix.patch",
    `git apply <<'EOF'\n${diff("src/a.c")}EOF`,
    `git apply --unsafe-paths <<'EOF'\n${diff("src/a.c")}EOF`,
    `git apply --check <<'EOF'\n${created(".hey/config.toml")}EOF`,
    `git apply --stat <<'EOF'\n${created(".mcp.json")}EOF`,
    `git am <<'EOF'\nFrom 1 Mon Sep 17 00:00:00 2001\nSubject: fix\n\n---\n${diff("src/a.c")}EOF`,
    `patch -p1 <<'EOF'\n${diff("src/a.c")}EOF`,
    "git am 0001-fix.patch",
  ])
    expect([command, decide(check, command)]).toEqual([command, "allowed"]);
});

test("csplit and split are judged by the name they join from prefix and suffix (x2 #6)", () => {
  const cases: [string, RegExp][] = [
    ["csplit -s -f .g -b 'it/config%.0d' src/p 3", /`.git\/config\*` names git's own files .*the name csplit makes of its prefix and suffix/],
    ["csplit -s -f ../home/.con -b 'fig/hey/config.toml%.0d' src/p 3", /`..\/home\/.config\/hey\/config.toml\*` names hey's own/],
    ["csplit -s --prefix=../home/.local/state/hey/approvals. --suffix-format=json%.0d src/p 2", /approvals.json\*` names hey's own/],
    ["csplit -s -f.hey/con -bfig.toml%.0d src/p 2", /`.hey\/config.toml\*` names hey's own/],
    ["split -a 1 src/p .gi --additional-suffix=/config", /`.gi\*\/config` names git's own files .*the name split makes/],
    ["split -n 2 src/p ../home/.config/hey/con --additional-suffix=fig.toml", /names hey's own/],
  ];
  for (const [command, reason] of cases) {
    expect([command, decide(denyOnly, command)]).toEqual([command, expect.stringMatching(reason)]);
    expect([command, decide(check, command)]).toEqual([command, expect.stringMatching(reason)]);
  }
  for (const command of ["csplit -s -f part- -b '%02d.txt' src/p 3", "csplit src/p '/^--$/' '{*}'", "split -l 100 src/p chunks/x", "split -d -a 3 src/p part"])
    expect([command, decide(denyOnly, command)]).toEqual([command, "allowed"]);
});

test("npm, pnpm, yarn and bun moved to a package.json of the project run its scripts under the entry; one outside it has them judged (x2 #13, r1 #6)", () => {
  const list = ["read_file", "write_file: src/**", "bash: npm run test *", "bash: pnpm *", "bash: yarn *", "bash: bun *", "bash: echo *"];
  const c = permissionCheck({ allow: list, deny: [], narrow: [] }, "bash", { cwd: project, home, controls });
  // src/package.json is the project's, as package.json is: `edit package.json` then `bash: npm test` is the same documented limit
  for (const command of [
    "npm run test --prefix=src",
    "npm run test --prefix src",
    "npm run test -C src",
    "pnpm run test --dir src",
    "pnpm -C src test",
    "yarn --cwd src run test",
    "bun --cwd src run test",
    "npm run test",
    "npm run test -- --prefix=src",
  ])
    expect([command, decide(c, command)]).toEqual([command, "allowed"]);
  // the home's package.json is outside the project
  writeFileSync(join(home, "package.json"), JSON.stringify({ scripts: { test: "touch /tmp/x2-pwned" } }));
  for (const command of ["npm run test --prefix=../home", "pnpm -C ~ test", "yarn --cwd ../home run test"])
    expect([command, decide(c, command)]).toEqual([
      command,
      expect.stringMatching(
        /^blocked by permission rules: `.*` runs .*home\/package.json's script `test`, a package.json outside the project: `touch \/tmp\/x2-pwned` matches no allow entry/,
      ),
    ]);
  rmSync(join(home, "package.json"));
  expect(decide(c, 'npm run test --prefix "$D"')).toMatch(/^blocked by permission rules: /);
});

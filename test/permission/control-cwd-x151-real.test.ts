// x151 #1–#5 against the real programs: each command the checker now refuses does, run by bash
// with the real unzip, git and tar in a fresh copy of the fixture (a home holding hey's files, a
// project holding links into it), replace or delete a control file. So the refusals are not of
// harmless spellings. Everything happens inside the test's own directory.
import { afterAll, expect } from "bun:test";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { storedZip } from "../helpers/stored-zip.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, snapshot } from "./control-corpus.ts";

const tmp = tempDir("hey-control-x151-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const payload = join(root, "payload");

mkdirSync(join(payload, "hey"), { recursive: true });
writeFileSync(join(payload, "hey", "config.toml"), "# PWNED\n");
writeFileSync(join(root, "e.zip"), storedZip("hey/config.toml", "# PWNED\n"));
writeFileSync(join(root, "e.patch"), '--- a/hey/config.toml\n+++ b/hey/config.toml\n@@ -1,2 +1,2 @@\n [permission]\n-deny = ["bash: rm *"]\n+# PWNED\n');
writeFileSync(join(root, "gitconfig"), "");

const T = root;
/** Each attack, and whether it needs ~/.config to be a git repository (someone's dotfiles). */
const ATTACKS: [string, boolean][] = [
  [`cd ~/.config && unzip -o --l ${T}/e.zip`, false],
  [`unzip -o-l ${T}/e.zip -d ~/.config`, false],
  [`cd ~/.config && git clean -fdx -n --no-dry-run`, true],
  [`cd ~/.config && git apply --check ${T}/e.patch --no-check`, false],
  [`for d in '${T}/f/home/.c?nfig'; do (cd $d && tar -xf ${T}/e.tar); done`, false],
  [`for d in src ../../home/.config; do cd "$d"; done; tar -xf ${T}/e.tar`, false],
  [`cd sr*; cd ../../home/.config; tar -xf ${T}/e.tar`, false],
  [`for i in 1 2; do cd ..; done; cd f/home/.config && tar -xf ${T}/e.tar`, false],
  [`up() { cd ..; }; up; up; cd f/home/.config && tar -xf ${T}/e.tar`, false],
  [`for d in h?/.config; do (cd "$d" && tar -xf ${T}/e.tar); done`, false],
  [`shopt -s dot''glob; for d in ~/*/; do (cd "$d" && tar -xf ${T}/e.tar); done`, false],
];

testNeeding(["bash", "git", "unzip", "tar"])("each bypass of x151 the checker now refuses does change a control file when bash runs it", () => {
  expect(Bun.spawnSync(["tar", "-cf", join(root, "e.tar"), "-C", payload, "hey/config.toml"]).exitCode).toBe(0);
  const dead: string[] = [];
  for (const [command, dotfiles] of ATTACKS) {
    rmSync(join(root, "f"), { recursive: true, force: true });
    const { home, project, controls } = controlFixture(join(root, "f"));
    symlinkSync(home, join(project, "hm"));
    mkdirSync(join(project, "src"));
    const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: join(root, "gitconfig"), GIT_CEILING_DIRECTORIES: root };
    if (dotfiles) expect(Bun.spawnSync(["git", "init", "-q", join(home, ".config")], { env }).exitCode).toBe(0);
    const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
    expect(check("bash", { command }) ?? `allowed: ${command}`).toMatch(/^blocked by permission rules/);
    const before = snapshot(controls);
    Bun.spawnSync(["bash", "-c", command], { cwd: project, env, stdout: "ignore", stderr: "ignore" });
    if (JSON.stringify(snapshot(controls)) === JSON.stringify(before)) dead.push(command);
  }
  expect(dead).toEqual([]);
});

// r5 #2 and #3: what find's filters, `grep -rl`, `rg -l` and `git ls-files` can reach in a real
// repository. find's own `-delete` is judged like `-exec rm {} +` under every list (it deleted
// `.hey/config.toml` and `.git/config`); the daily find/xargs idioms at a repository's root, in a
// workspace holding `node_modules/.bin` links, or beside a submodule run when their filters reach
// none of hey's or git's files. The real checker on a real `git init` project; the refused forms
// are then run by bash with the real find to show they do delete or write those files.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const tmp = tempDir("hey-find-reach-");
afterAll(() => tmp.remove());

const DEV = ["read_file", ...["git", "find", "xargs", "sed", "rm", "chmod", "prettier", "grep", "rg", "wc", "cp"].map((p) => `bash: ${p} *`)];

/** A monorepo as daily users have it: a git repository with hey's project config, workspaces with `.bin` links, a submodule, docs. */
function mono(name: string) {
  const root = join(tmp.path, name);
  rmSync(root, { recursive: true, force: true });
  const home = join(root, "home");
  const project = join(root, "mono");
  const here = places({}, home, project, "linux");
  const controls = controlFiles(here, undefined);
  for (const d of [here.configDir, join(project, ".hey"), join(project, "src"), join(project, "docs"), join(project, "scripts")])
    mkdirSync(d, { recursive: true });
  writeFileSync(here.userConfig, "[permission]\n");
  writeFileSync(join(project, ".hey", "config.toml"), '[permission]\ndeny = ["bash: npm publish *"]\n');
  Bun.spawnSync(["git", "init", "-q", project]);
  writeFileSync(join(project, "src", "a.ts"), "const foo = 1;\n");
  writeFileSync(join(project, "docs", "x.md"), "teh docs\n");
  writeFileSync(join(project, "README.md.orig"), "old\n");
  writeFileSync(join(project, "scripts", "fix.sed"), "s/foo/bar/\n");
  for (const p of ["a", "b"]) {
    mkdirSync(join(project, "packages", p, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(project, "packages", p, "package.json"), '{"version": "1.0.0"}\n');
    writeFileSync(join(project, "packages", p, "index.ts"), "export const foo = 1;\n");
    symlinkSync("../dep/cli.js", join(project, "packages", p, "node_modules", ".bin", "dep"));
  }
  mkdirSync(join(project, "vendor", "lib"), { recursive: true });
  writeFileSync(join(project, "vendor", "lib", ".git"), "gitdir: ../../.git/modules/lib\n");
  writeFileSync(join(project, "vendor", "lib", "x.go"), "package lib\n");
  Bun.spawnSync(["git", "add", "src", "docs", "README.md.orig"], { cwd: project });
  const lists = (allow: string[], deny: string[]) => permissionCheck({ allow, deny, narrow: [] }, "sh", { cwd: project, home, controls });
  const dev = lists(DEV, []);
  const denyOnly = lists([], ["bash: curl *"]);
  return {
    project,
    dev: (command: string) => dev("bash", { command }),
    deny: (command: string) => denyOnly("bash", { command }),
  };
}

// r5's table: the forms it found refused although their filters reach none of hey's or git's files
const ALLOWED = [
  "find . -name '*.orig' -exec rm {} +",
  "find . -name '*.orig' -exec rm {} \\;",
  "find . -name '*.orig' -delete",
  "find . -name '*.ts' -not -path './node_modules/*' -exec sed -i 's/foo/bar/g' {} +",
  "find . -maxdepth 1 -name '*.md' -exec sed -i 's/teh/the/' {} +",
  "find . -path ./.git -prune -o -name '*.ts' -print | xargs sed -i 's/foo/bar/g'",
  "find . -path ./.git -prune -o -type f -name '*.md' -exec sed -i 's/teh/the/' {} +",
  "find packages -name package.json -exec sed -i 's/1.0.0/2.0.0/' {} +",
  "find packages -name '*.ts' -not -path '*/node_modules/*' | xargs sed -i 's/foo/bar/g'",
  "find vendor -name '*.go' -exec sed -i 's/lib/lib2/' {} +",
  "find vendor -name '*.go' | xargs prettier --check",
  "find . -iname '*.ORIG' -type f -print0 | xargs -0 rm -f",
  "grep -rl foo src | xargs sed -i 's/foo/bar/g'",
  "grep -rlZ foo src packages/a/index.ts | xargs -0 sed -i 's/foo/bar/g'",
  "rg -l foo src | xargs sed -i 's/foo/bar/g'",
  "rg --files docs | xargs sed -i 's/teh/the/'",
  "git ls-files '*.md' | xargs sed -i 's/teh/the/g'",
  "git ls-files -z src | xargs -0 sed -i 's/foo/bar/g'",
  "git diff --name-only | xargs prettier --check",
  "git diff --name-only | xargs wc -l",
];

// where the refusal protects something: the file named is the one the command would write or delete
const REFUSED: [string, RegExp][] = [
  ["find . -name config.toml -delete", /`-delete` deletes each file it finds below `\.`, which holds `\.\/\.hey\/config\.toml`, hey's own/],
  ["find . -name config -delete", /which holds `\.\/\.git\/config`, one of git's own files/],
  ["find . -name '*.toml' -delete", /`\.\/\.hey\/config\.toml`/],
  ["find . -path ./.git -prune -o -name config.toml -delete", /`\.\/\.hey\/config\.toml`/],
  // with -depth, -prune keeps find out of nothing: `.git/config` is still found
  ["find . -depth -path ./.git -prune -o -name config -delete", /`\.\/\.git\/config`/],
  [
    "find . -type f -exec chmod 644 {} +",
    /`chmod` may write `\{\}`, which find fills in with each file it finds below `\.`, which holds `\.\/(\.git\/|\.hey\/|vendor\/lib\/\.git)/,
  ],
  ["find . -name config -exec sed -i 's/x/y/' {} +", /holds `\.\/\.git\/config`/],
  ["find packages -name dep -exec sed -i 's/x/y/' {} +", /holds `packages\/(a|b)\/node_modules\/\.bin\/dep`, a link/],
  ["find vendor -exec sed -i 's/x/y/' {} +", /`vendor\/lib\/\.git`, one of git's own files/],
  [
    "find . -name 'config*' -print0 | xargs -0 sed -i 's/x/y/'",
    /xargs reads from find, each file it lists below `\.`, which holds `\.\/(\.git\/config|\.hey\/config\.toml)`/,
  ],
  [
    "grep -rl foo . | xargs sed -i 's/foo/bar/g'",
    /xargs reads from grep, each file it lists below `\.`, which holds `\.\/(\.git\/|\.hey\/|vendor\/lib\/\.git)/,
  ],
  ["rg -l foo | xargs sed -i 's/foo/bar/g'", /xargs reads from rg, each file it lists below `\.`/],
  ["grep -rl foo packages | xargs -0 sed -i s/a/b/", /xargs splits otherwise than `grep` prints them/],
  ["grep -Rl foo src | xargs sed -i 's/foo/bar/g'", /what `grep -Rl foo src` prints, known only at run time/],
  [
    "git ls-files | xargs sed -i 's/a/b/'",
    /xargs reads from git ls-files, each file it lists below `\.`, which holds `\.\/(\.hey\/config\.toml|vendor\/lib\/\.git)/,
  ],
  ["cat files.txt | xargs rm -f", /known only at run time/],
];

describe("r5 #2, #3: find's filters and the listers piped into xargs, in a real repository", () => {
  const { dev, deny } = mono("table");
  test.each(ALLOWED)("runs under an allow list naming its programs: %s", (command) => {
    expect(dev(command)).toBeUndefined();
  });
  test.each(REFUSED)("is refused where it reaches hey's or git's files: %s", (command, why) => {
    expect(dev(command)).toMatch(why);
  });
  test("find's `-delete` is judged under a deny list alone too, as `rm .hey/config.toml` is", () => {
    expect(deny("rm .hey/config.toml")).toMatch(/blocked by permission rules/);
    expect(deny("find . -name config.toml -delete")).toMatch(
      /may delete a file hey guards: `-delete` deletes each file it finds below `\.`, which holds `\.\/\.hey\/config\.toml`/,
    );
    expect(deny("find . -name config -delete")).toMatch(/`\.\/\.git\/config`/);
    expect(deny("find . -name '*.orig' -delete")).toBeUndefined();
    expect(deny("find src -delete")).toBeUndefined();
  });
  test("the refusal of `-exec rm {} +` no longer points to `-delete`", () => {
    expect(dev("find . -name config.toml -exec rm {} +")).not.toContain("-delete");
  });
});

test("in a tree larger than hey searches (10,000 entries), `-delete` is judged by hey's files and the `.git` there; `{}` is refused", () => {
  const { project, dev, deny } = mono("big");
  const pkg = join(project, "node_modules", "pkg");
  mkdirSync(pkg, { recursive: true });
  for (let i = 0; i < 10_050; i++) writeFileSync(join(pkg, `f${i}.js`), "");
  expect(deny("find . -name '*.orig' -delete")).toBeUndefined();
  expect(deny("find . -name config.toml -delete")).toMatch(/`\.\/\.hey\/config\.toml`, hey's own configuration or trust file/);
  expect(deny("find . -name config -delete")).toMatch(/`\.\/\.git\/config`, one of git's own files/);
  expect(dev("find . -name '*.orig' -exec rm {} +")).toMatch(/which holds more than hey searches \(10,000 entries\)/);
});

testNeeding(["bash", "find", "xargs", "sed", "git"])(
  "the refused `-delete` forms do delete hey's or git's files when find runs them; the allowed ones change only what they name",
  () => {
    for (const [command, file] of [
      ["find . -name config.toml -delete", ".hey/config.toml"],
      ["find . -name config -delete", ".git/config"],
      ["find . -depth -path ./.git -prune -o -name config -delete", ".git/config"],
    ]) {
      const { project, dev } = mono("run");
      expect(dev(command!)).toMatch(/blocked by permission rules/);
      Bun.spawnSync(["bash", "-c", command!], { cwd: project, env: { PATH: process.env.PATH } });
      expect([command, existsSync(join(project, file!))]).toEqual([command, false]);
    }
    const { project, dev } = mono("run-allowed");
    for (const command of [
      "find . -name '*.orig' -delete",
      "grep -rl foo src | xargs sed -i 's/foo/bar/g'",
      "git ls-files '*.md' | xargs sed -i 's/teh/the/g'",
    ]) {
      expect(dev(command)).toBeUndefined();
      expect(Bun.spawnSync(["bash", "-c", command], { cwd: project, env: { PATH: process.env.PATH } }).exitCode).toBe(0);
    }
    expect(existsSync(join(project, "README.md.orig"))).toBe(false);
    expect(readFileSync(join(project, "src", "a.ts"), "utf8")).toBe("const bar = 1;\n");
    expect(readFileSync(join(project, "docs", "x.md"), "utf8")).toBe("the docs\n");
    expect(existsSync(join(project, ".git", "config")) && existsSync(join(project, ".hey", "config.toml"))).toBe(true);
  },
);

// x144 #1 and #4: where a tree-changing command runs, and whether it writes, read soundly. A `cd` (or
// `git -C`) to a word only the run knows (`D=~/.config; cd "$D"`) could lead to hey's directories
// however its last name reads, unless it is a loop variable over words the checker sees, each judged
// (`for d in ~/.local/state`, `for d in */`); an option's value is no mode (`git apply --exclude
// --cached`, `patch -B --dry-run`, `unzip … -x -l`). Each bypass is refused; everyday commands run.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-values-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const allow = ["bash: git *", "bash: tar *", "bash: unzip *", "bash: patch *", "bash: cd *", "bash: ls *", "bash: echo *"];
const lists = { allow: { allow, deny: [], narrow: [] }, deny: { allow: [], deny: ["bash: curl *"], narrow: [] } };
const refused = (out: string | undefined) => expect(out ?? "").toMatch(/^blocked by permission rules: .*(hey's own configuration|cannot verify)/);
const monorepo = join(home, "src", "shop");
mkdirSync(join(monorepo, "web"), { recursive: true });
const inRepoFolder = (list: keyof typeof lists) =>
  permissionCheck(lists[list], "sh", {
    cwd: join(monorepo, "web"),
    home,
    controls: controlFiles(places({}, home, join(monorepo, "web"), "linux", monorepo), undefined),
  });

describe.each(["allow", "deny"] as const)("under an %s list", (list) => {
  const check = permissionCheck(lists[list], "sh", { cwd: project, home, controls });
  test.each([
    'D=~/.config; cd "$D" && git clean -fdx',
    'D=~/.config; git -C "$D" init -q; git -C "$D" clean -ffdx',
    'for d in ~/.local/state; do cd "$d" && tar xf /tmp/e.tar; done',
    'for d in /tmp ~/.config; do git -C "$d" clean -fdx; done',
    'for d in ~/.local/state; do d=/tmp; cd "$d" && tar xf /tmp/e.tar; done',
    'cd "$(dirname ~/.config/hey/x)" && git clean -fdx',
    'cd "$(echo ~/.config)" && unzip -o /tmp/e.zip',
    'cd "$d" && git stash -u',
    'for d in ~/.config/*; do cd "$d" && git clean -fdx; done',
    'shopt -s dotglob; for d in */; do (cd "$d" && git clean -fdx); done',
    'f() { cd "$d" && git clean -fdx; }; for d in /tmp; do f; done',
    'git -C "$d" clean -fdx',
    // the project holds dirlink, a link to ~/.config/hey, which `*/` matches (x151 #5)
    'for d in */; do (cd "$d" && git pull); done',
  ])("a directory known only at run time: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    "cd ~/.config && git apply --exclude --cached /tmp/x.diff",
    "cd ~/.config && git apply --exc --cached /tmp/x.diff",
    "cd ~/.config && git apply --frobnicate --check /tmp/x.diff",
    "cd ~/.config && patch -B --dry-run -p1 -i /tmp/x.diff",
    "cd ~/.config && patch -sB --dry-run -p1 -i /tmp/x.diff",
    "cd ~/.config && patch --prefix --dry-run -p1 -i /tmp/x.diff",
    "patch -d ~/.config -B --dry-run -p1 -i /tmp/x.diff",
    "unzip -o /tmp/e.zip -d ~/.config -x -l",
    "cd ~/.config && unzip -o /tmp/e.zip -l",
  ])("an option's value read as a mode: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    'for d in packages/*/; do (cd "$d" && git checkout main); done',
    'for d in build dist; do (cd "$d" && tar -xf /tmp/a.tar); done',
    "cd ~/.config && git apply --exclude=x --check /tmp/x.diff",
    "cd ~/.config && git apply --stat --recount /tmp/x.diff",
    "cd ~/.config && patch --dry-run -p1 -i /tmp/x.diff",
    "cd ~/.config && patch -p1 --dr -i /tmp/x.diff",
    "cd ~/.config && unzip -l /tmp/e.zip",
    "cd ~/.config && unzip -P secret -t /tmp/e.zip",
    "tar -xf /tmp/a.tar -C ./build",
    "unzip -o /tmp/a.zip -d dist",
    "git apply /tmp/x.diff",
    "patch -p1 -i /tmp/x.diff",
  ])("%s runs", (command) => expect(check("bash", { command })).toBeUndefined());
  test.each([
    "git checkout main",
    "git pull --rebase",
    "git stash",
    "git stash pop",
    "git clean -fdx",
    "cd .. && git stash -u -- web/",
    'cd .. && for d in */; do (cd "$d" && git pull); done',
  ])("in a repository subfolder without control files: %s runs", (command) => expect(inRepoFolder(list)("bash", { command })).toBeUndefined());
});

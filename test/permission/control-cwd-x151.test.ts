// x151 #1–#5: where a tree-changing command runs, and whether it changes anything, read as the
// programs and bash read them. UnZip takes `-` inside an option cluster as "not" (`--l`, `-o-l`
// extract); git's last `--no-X` undoes an earlier `-X` (`git clean -n --no-dry-run` deletes); bash
// globs and splits an unquoted `$d` again; a `cd "$d"` in a loop without a subshell moves on from
// where the last one left (as any `cd` in a loop's or function's body does, run again), and a `cd` after
// one to a glob moves on below what it matched; a glob
// can match a link to the home; `shopt -s dot''glob` is dotglob. Each bypass is refused ("cannot
// verify" where only the run knows); the everyday commands still run.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { dotglobOn } from "../../src/permission/control-globs.ts";
import { parseSyntax } from "../../src/permission/shell-syntax.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-x151-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const top = basename(realpathSync(tmp.path)); // two `cd ..` from the project, then this, is the fixture again
// links an earlier call could have made: to the home, to hey's state directory's parent
symlinkSync(home, join(project, "hm"));
symlinkSync(join(home, ".local", "state"), join(project, "lstate"));
mkdirSync(join(project, "src"), { recursive: true });
// a project holding no links, for the everyday commands
const app = join(home, "src", "app");
for (const dir of [".hey", "src", join("pkgs", "a"), join("pkgs", "b")]) mkdirSync(join(app, dir), { recursive: true });
const appControls = controlFiles(places({}, home, app, "linux", app), undefined);
const lists = {
  allow: { allow: ["bash: git *", "bash: tar *", "bash: unzip *", "bash: cd *", "bash: mkdir *", "bash: shopt *", "bash: echo *"], deny: [], narrow: [] },
  deny: { allow: [], deny: ["bash: curl *"], narrow: [] },
};
const refused = (out: string | undefined) => expect(out ?? "").toMatch(/^blocked by permission rules: .*(hey's own configuration|cannot verify)/);

describe.each(["allow", "deny"] as const)("under an %s list", (list) => {
  const check = permissionCheck(lists[list], "bash", { cwd: project, home, controls });
  const inApp = permissionCheck(lists[list], "bash", { cwd: app, home, controls: appControls });
  test.each([
    "cd ~/.config && unzip -o --l /tmp/e.zip",
    "unzip --l /tmp/e.zip -d ~/.config",
    "unzip -o-l /tmp/e.zip -d ~/.config",
    "unzip -o- -l /tmp/e.zip -d ~/.config",
    "unzip -l --l /tmp/e.zip -d ~/.config",
  ])("unzip with a `-` inside its options (not): %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    "cd ~/.config && git clean -fdx -n --no-dry-run",
    "cd ~/.config && git clean -fdx -n --no-dry",
    "cd ~/.config && git clean -fdx --dry-run --no-dry-run",
    'cd ~/.config && F=--no-dry-run; git clean -fdxn "$F"',
    "cd ~/.config && git clean -fdxn $F",
    "cd ~/.config && git apply --check /tmp/e.patch --no-check",
    "cd ~/.config && git apply --stat /tmp/e.patch --no-stat",
    "cd ~/.config && git apply --cached /tmp/e.patch --no-cached",
    "cd ~/.config && git apply --check --frobnicate /tmp/e.patch",
    "cd ~/.config/hey && git restore --staged --no-staged .",
  ])("git's last --no-X undoes -X: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    "for d in '.h?y'; do (cd $d && tar -xf /tmp/e.tar); done",
    "for d in '.h?y'; do (cd ${d} && tar -xf /tmp/e.tar); done",
    `for d in '${home}/.c?nfig'; do (cd $d && tar -xf /tmp/e.tar); done`,
    `for d in '/ -C ${home}/.config'; do git -C $d apply /tmp/e.patch; done`,
  ])("an unquoted loop variable is globbed and split again: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    'for d in src ../../home/.config; do cd "$d"; done; tar -xf /tmp/e.tar',
    'mkdir -p src; for d in src ../../home/.config; do cd "$d"; done; git clean -fdx',
    'for d in src ..; do cd "$d"; done; cd ../home/.config && tar -xf /tmp/e.tar',
    'for d in s*; do cd "$d"; done; cd ../../home/.config && tar -xf /tmp/e.tar',
    "cd sr*; cd ../../home/.config; git clean -fdx",
    "git -C s* -C ../../home/.config checkout -f main",
    `for i in 1 2; do cd ..; done; cd ${top}/home/.config && tar -xf /tmp/e.tar`,
    `for i in 1 2; do for d in ..; do cd "$d"; done; done; cd ${top}/home/.config && git clean -fdx`,
    `while true; do cd .. || break; done; cd ${top}/home/.config && tar -xf /tmp/e.tar`,
    `up() { cd ..; }; up; up; cd ${top}/home/.config && tar -xf /tmp/e.tar`,
  ])("a cd moves on from where the one before it led: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    'for d in h?; do (cd "$d" && tar -xf /tmp/e.tar); done',
    'for d in h?/.config; do (cd "$d" && tar -xf /tmp/e.tar); done',
    'for d in h?; do git -C "$d" checkout -f main; done',
    'for d in lstat?; do git -C "$d" stash -u; done',
    'for d in dirl*; do (cd "$d" && unzip -o /tmp/e.zip); done',
    'for d in */; do (cd "$d" && git pull); done',
    'for d in {h,x}m; do (cd "$d" && tar -xf /tmp/e.tar); done',
    'for d in {.,x}hey; do (cd "$d" && tar -xf /tmp/e.tar); done',
  ])("a glob matching a link is judged where the link leads: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    `shopt -s dot''glob; for d in ${home}/*/; do (cd "$d" && tar -xf /tmp/e.tar); done`,
    `shopt -s dot""glob; for d in ~/*/; do (cd "$d" && tar -xf /tmp/e.tar); done`,
    `O=dotglob; shopt -s "$O"; for d in ~/*/; do (cd "$d" && tar -xf /tmp/e.tar); done`,
    `G=x; GLOBIGNORE=$G; for d in ~/*/; do (cd "$d" && tar -xf /tmp/e.tar); done`,
  ])("dotglob however it is spelled: %s is refused", (command) => refused(check("bash", { command })));
  test.each([
    "unzip -l /tmp/e.zip",
    "cd ~/.config && unzip -l /tmp/e.zip",
    "cd ~/.config && unzip -qq -l /tmp/e.zip",
    "git clean -n",
    "cd ~/.config && git clean -n",
    "cd ~/.config && git clean -fdxn",
    "cd ~/.config && git clean --no-force -n",
    "cd ~/.config && git apply --check --no-index /tmp/e.patch",
  ])("%s runs", (command) => expect(check("bash", { command })).toBeUndefined());
  test.each([
    'for f in src/*.ts; do echo "$f"; done',
    'for d in */; do (cd "$d" && git pull); done',
    'for d in */; do (cd "$d" && git pull); done; cd src && git checkout main',
    'for d in pkgs/*/; do (cd "$d" && git checkout main); done',
    'for d in pkgs/{a,b}; do (cd "$d" && git checkout main); done',
    'for d in src pkgs; do (cd "$d" && tar -xf /tmp/a.tar); done',
    'shopt -s nullglob; for d in pkgs/*/; do (cd "$d" && git pull); done',
    "cd p*; cd a && git checkout main",
    "for i in 1 2; do echo $(cd src; pwd); done; git checkout main",
    "into() ( cd src && pwd ); into; into; git checkout main",
    'for d in ~/src/app/pkgs/a ~/src/app/pkgs/b; do cd "$d"; done; git checkout main',
  ])("in a project without links, %s runs", (command) => expect(inApp("bash", { command })).toBeUndefined());
});

// under an allow list no `*` matches a run-time word; under a deny list the directory alone decides
const denying = permissionCheck(lists.deny, "bash", { cwd: app, home, controls: appControls });
test.each(['for f in src/*.ts; do git checkout -- "$f"; done', 'for d in src pkgs/a; do git -C "$d" pull; done', 'for f in *.zip; do unzip -l "$f"; done'])(
  "under a deny list, %s runs",
  (command) => expect(denying("bash", { command })).toBeUndefined(),
);
test.each(['cd ~/.config && for f in *.zip; do unzip -l "$f"; done', 'cd ~/.config && unzip -l -- "$1"'])(
  "a word only the run knows could be unzip's `--l`: %s is refused",
  (command) => refused(denying("bash", { command })),
);

// dotglob read from the parsed words (one helper for control-cwd.ts and control-arguments.ts): on where it could be, off where a word only the run knows cannot set it
const on = (script: string) => {
  const parsed = parseSyntax(script, "bash");
  if (!parsed.ok) throw new Error(parsed.reason);
  return dotglobOn(parsed.segments);
};
test.each([
  "shopt -s dotglob",
  "shopt -s dot''glob",
  'shopt -s "dot"glob',
  'O=dotglob; shopt -s "$O"',
  "GLOBIGNORE=x",
  'export GLOBIGNORE="$x"',
  'declare "${x}IGNORE=1"',
  'read -r "$v"',
  'printf -v "$v" x',
  'eval "$cmd"',
  ". ./env.sh",
  'S=shopt; $S -s "$o"',
  "bash -O dotglob -c 'echo *'",
])("dotglob could be on after %s", (script) => expect(on(script)).toBe(true));
test.each(['printf "%s\\n" "$f"', 'export PATH="$HOME/bin:$PATH"', 'read -r line; echo "$line"', "shopt -s nullglob", 'echo "$x"', 'declare -a files=("$@")'])(
  "dotglob stays off after %s",
  (script) => expect(on(script)).toBe(false),
);

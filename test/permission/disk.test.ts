// What the deny checks read off the disk (on-disk.ts), through the checker a run builds (wire.ts):
// emptying a file by redirection (`: > f`, `> f`, `true > f`) under `rm *` is refused where a file
// holding something is there, and runs where nothing is (it makes the file) or the file is empty;
// under `rm -rf build`, `: > build/.gitkeep` runs while .gitkeep is empty. `git checkout NAME` under
// `git reset --hard *` or `git checkout -- *` is refused where NAME is a file or directory (git then
// reads it as paths and overwrites their changes), and runs where nothing is (a branch). A name
// another part of the command may fill first (`mv a f && : > f`) or one known only at run time is
// refused as unseen. Before, `: > f` ran under `rm *` whatever f held, and `: > build/.gitkeep` and
// `git checkout main`'s neighbours were judged without looking.
import { afterAll, describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-disk-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const project = join(root, "project");
const home = join(root, "home");
mkdirSync(join(project, "build"), { recursive: true });
mkdirSync(home);
writeFileSync(join(project, "notes.txt"), "the user's notes\n");
writeFileSync(join(project, "empty.txt"), "");
writeFileSync(join(project, "build", ".gitkeep"), "");
writeFileSync(join(project, "build", "app.js"), "console.log(1)\n");
symlinkSync(join(project, "notes.txt"), join(project, "lnk"));
linkSync(join(project, "notes.txt"), join(project, "hard"));
symlinkSync("build/app.js", join(project, "app-link"));
linkSync(join(project, "build", "app.js"), join(project, "hard-build"));
const place = { cwd: project, home, controls: [join(home, ".config", "hey", "config.toml")] };
const under = (entry: string) => permissionCheck({ allow: [], deny: [`bash: ${entry}`], narrow: [] }, "sh", place);

const CASES: [entry: string, command: string, names: string][] = [
  // rm *: "destroy no file"
  ["rm *", ": > notes.txt", "it empties `notes.txt`"],
  ["rm *", "> notes.txt", "it empties `notes.txt`"],
  ["rm *", "true > notes.txt", "it empties `notes.txt`"],
  ["rm -f *", "cat /dev/null >| ./notes.txt", "it empties `./notes.txt`"],
  ["rm *", ": > lnk", "it empties `lnk`"], // a link: what it leads to is not read
  ["rm *", "cd build && : > app.js", "it empties `app.js`"],
  ["rm *", ": > build", "it empties `build`"],
  ["rm *", "mv notes.txt new.txt && : > new.txt", "it empties `new.txt` if it holds anything, which hey cannot see"],
  ["rm *", "ln notes.txt new.txt; : > new.txt", "which hey cannot see"],
  ["rm *", "for i in 1 2; do : > new.txt; mv notes.txt new.txt; done", "which hey cannot see"],
  ["rm *", ": > $F", "blocked by permission rules:"], // as a name that could be hey's config, first
  ["rm *", "cd $D && : > new.txt", "blocked by permission rules:"],
  ["rm *", "ln -s notes.txt new.txt; : > new.txt", "which hey cannot see"],
  ["rm *", "cp -t out notes.txt; : > out/notes.txt", "which hey cannot see"], // `-t`: the files land in the directory
  ["rm *", "while true; do : > new.txt; mv notes.txt new.txt; done", "which hey cannot see"], // the mv runs before the next round
  ["rm *", ": > new.txt; mv new.txt other.txt", "allowed"], // new.txt is what mv moves away, never where it puts anything
  ["rm *", ": > a.txt; ln a.txt b.txt", "allowed"],
  ["rm *", ": > new.txt", "allowed"],
  ["rm *", "> new.txt", "allowed"],
  ["rm *", ": > empty.txt", "allowed"],
  ["rm *", ": > build/.gitkeep", "allowed"],
  ["rm *", "mkdir -p out && : > out/.gitkeep", "allowed"],
  ["rm *", "cd build && : > new.js", "allowed"],
  // notes.txt has another name (`hard`): while a list is set no command may write it (one could be git's or hey's own)
  ["rm *", "echo more > notes.txt", "other hard links"],
  ["rm -rf *", ": > notes.txt", "other hard links"], // the entry lets `rm -f notes.txt` run; its other name does not
  // an entry naming files: an empty one, or none there, is not destroyed
  ["rm -rf build", ": > build/app.js", "it empties `build/app.js` (the entry names `build`)"],
  ["rm -rf build", "truncate -s 0 build/app.js", "it empties `build/app.js`"],
  ["rm -rf build", ": > build/.gitkeep", "allowed"],
  ["rm -rf build", "mkdir -p build && : > build/.gitkeep", "allowed"],
  ["rm -rf build", ": > build/new.log", "allowed"],
  ["rm -rf build", "truncate -s 0 build/.gitkeep", "allowed"],
  // a link an earlier call made to a file the entry names empties that file
  ["rm notes.txt", ": > lnk", "it empties `lnk` (a link to `notes.txt`, which the entry names)"],
  ["rm notes.txt", ": > hard", "it empties `hard` (a link to `notes.txt`, which the entry names)"],
  ["rm notes.txt", "truncate -s 0 hard", "it empties `hard` (a link to `notes.txt`"],
  ["rm notes.txt", "cp /dev/null lnk", "it empties `lnk` (a link to `notes.txt`"],
  ["rm -rf build", ": > app-link", "it empties `app-link` (a link to `build`, which the entry names)"],
  ["rm notes.txt", ": > app-link", "other hard links"], // a link to a file the entry does not name, which has another name (hard-build)
  // a hard link to a file under the directory an entry names
  ["rm -rf build", ": > hard-build", "it empties `hard-build` (a link to `build`, which the entry names)"],
  ["rm -rf build", "truncate -s 0 hard-build", "it empties `hard-build` (a link to `build`"],
  // a link the same command makes, to a file the entry names or one under it: not there to look at yet
  ["rm -rf build", "ln build/app.js x; : > x", "it empties `x` (may be a link to a file under `build`, which the entry names) if it holds anything"],
  ["rm -rf build", "ln -sf ./build/app.js x && : > x", "it empties `x` (may be a link to a file under `build`"],
  ["rm -rf build", `ln ${"$"}{PWD}/build/app.js x && : > x`, "it empties `x`"],
  ["rm -rf build", "cp -l build/app.js x && : > x", "it empties `x` (may be a link to a file under `build`"],
  ["rm notes.txt", "ln -f notes.txt n2; : > n2", "it empties `n2` (may be a link to `notes.txt`, which the entry names)"],
  // the link named by its source, into a directory (`.`, `d/`), or a link to a directory holding the file
  ["rm -rf build", "ln build/app.js .; : > app.js", "it empties `app.js` (may be a link to a file under `build`"],
  ["rm -rf build", "cp -l build/app.js . && : > app.js", "it empties `app.js` (may be a link to a file under `build`"],
  ["rm -rf build", "mkdir d; ln build/app.js d; : > d/app.js", "it empties `d/app.js` (may be a link to a file under `build`"],
  ["rm -rf build", "ln -s build x && : > x/app.js", "it empties `x/app.js` (may be a link to a file under `build`"],
  ["rm -rf build", "link build/app.js x; : > x", "it empties `x` (may be a link to a file under `build`"],
  ["rm -rf build", "ln sub/../build/app.js x; : > x", "it empties `x` (may be a link to a file under `build`"],
  ["rm notes.txt", "ln notes.txt sub/; : > sub/notes.txt", "it empties `sub/notes.txt` (may be a link to `notes.txt`"],
  ["rm notes.txt", "cp -rs . ../y; : > ../y/notes.txt", "it empties `../y/notes.txt` (may be a link to `notes.txt`"],
  ["rm *", "mv build/app.js . && : > app.js", "it empties `app.js` if it holds anything, which hey cannot see"],
  ["rm -rf build", "cp build/app.js x; : > x", "allowed"], // a copy: emptying it leaves build/app.js
  ["rm -rf build", "ln notes.txt x; : > x", "allowed"], // a link to a file the entry does not name
  ["rm -rf build", ": > hard", "other hard links"], // none of its names is under build, but it has another
  ["rm notes.txt", "echo more > lnk", "other hard links"],
  // git checkout NAME: a path where something is there
  ["git reset --hard *", "git checkout notes.txt", "git checkout `notes.txt` overwrites the changes to the file or directory of that name"],
  ["git reset --hard *", "git checkout build", "overwrites the changes to the file or directory of that name"],
  ["git checkout -- *", "git checkout notes.txt", "overwrites the changes to the file or directory of that name"],
  ["git restore *", "cd build && git checkout app.js", "overwrites the changes to the file or directory of that name"],
  ["git checkout -- *", "git -C build checkout app.js", "overwrites the changes to the file or directory of that name"],
  ["git checkout -- *", "git checkout $BRANCH", "could match deny entry"],
  ["git reset --hard *", "git checkout $BRANCH", "which hey cannot see"],
  ["git checkout -- *", "git --work-tree=elsewhere checkout main", "which hey cannot see"],
  ["git reset --hard *", "git checkout main", "allowed"],
  ["git checkout -- *", "git checkout -", "allowed"],
  ["git checkout -- *", "git -C build checkout main", "allowed"],
  ["git restore *", "git checkout feature/x", "allowed"],
];

describe("what is on the disk decides", () => {
  test.each(CASES)("deny %j: %j", (entry, command, names) => {
    const reason = under(entry)("bash", { command });
    if (names === "allowed") expect(reason).toBeUndefined();
    else expect(reason).toContain(names);
  });
});

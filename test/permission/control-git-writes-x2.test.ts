// x2 #1, #4, #5: under README's own list (`bash: git *`), git writes where its index says, and the
// index is the agent's (`git update-index --index-info` from a heredoc). `checkout-index --prefix=.g`
// joins `.g` and the index path `it/hooks/pre-commit` into `.git/hooks/pre-commit`; `--work-tree=.git`
// makes `.git` the tree a checkout writes; `--exec-path=DIR` runs DIR's programs. Each is refused,
// saying which word and why, and the everyday commands a user allows stay allowed.
import { afterAll, expect } from "bun:test";
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-git-writes-x2-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);

/** README's example list, in a fixture whose project is a git repository with one commit; `sub`: start there instead; `setup`: run in the project first. */
function checker(sub?: string, setup = "true") {
  rmSync(join(root, "f"), { recursive: true, force: true });
  const { home, project, controls } = controlFixture(join(root, "f"));
  mkdirSync(join(project, "src"), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
  Bun.spawnSync(["sh", "-c", `git init -q . && echo 1 > src/a.ts && git add -A && git -c user.name=a -c user.email=a@b commit -qm init && ${setup}`], {
    cwd: project,
    env,
  });
  const check = permissionCheck({ allow: ["read_file", "grep", "bash: git *", "bash: ls"], deny: ["bash: git push *"], narrow: [] }, "bash", {
    cwd: sub ? join(project, sub) : project,
    home,
    controls,
  });
  return { home, verdict: (command: string) => [command, check("bash", { command }) ?? "allowed"] };
}

testNeeding(["git"])("git checkout-index with a prefix that does not end in / cannot be verified: it joins the index's paths as text (x2 #1)", () => {
  const { home, verdict } = checker();
  for (const command of [
    "git checkout-index --prefix=.g -a",
    "git checkout-index -f --pre=.g -a",
    "git checkout-index --prefix .g -a",
    "git checkout-index -f --prefix=../home/.con -a",
    `git checkout-index -f --p=${home}/.local/bi -a`,
    "git checkout-index --prefix=.g -- it/hooks/pre-commit",
  ])
    expect(verdict(command)).toEqual([
      command,
      expect.stringMatching(/^blocked by permission rules: cannot verify .*does not end in `\/`: git checkout-index writes it/),
    ]);
});

testNeeding(["git"])("a prefix ending in / is judged as the directory it names, from the work tree's top, not the folder git runs in (x2 #1)", () => {
  // started in src/: `../home/.config/` from the top is the home's .config, as git reads it
  const { verdict } = checker("src");
  const command = "git checkout-index -f --prefix=../home/.config/ --stdin <<'EOF'\n../hey/config.toml\nEOF";
  expect(verdict(command)).toEqual([
    command,
    "blocked by permission rules: `git checkout-index -f --prefix=../home/.config/ --stdin <<'EOF'` changes files in the directory its `--prefix` names, `~/.config`, a directory above hey's own configuration or trust file `~/.config/hey/config.toml`, which the agent may not change",
  ]);
  expect(verdict("git checkout-index -f --prefix=../.git/ -a")).toEqual([
    "git checkout-index -f --prefix=../.git/ -a",
    expect.stringMatching(/^blocked by permission rules: .*among git's own files|names git's own files/),
  ]);
  expect(verdict("git checkout-index --prefix=../build/ -a")).toEqual(["git checkout-index --prefix=../build/ -a", "allowed"]);
});

testNeeding(["git"])("git writing a work tree in a git directory is refused, however the directory is reached (x2 #5)", () => {
  const { verdict } = checker();
  for (const command of [
    "git --work-tree=.git checkout-index -f -- hooks/pre-commit",
    "git --work-tree .git checkout -f",
    "git --work-tree=.git reset --hard",
    "git --work-tree=.git restore hooks/pre-commit",
    "git --work-tree=.git stash",
    "git --work-tree=.git/hooks checkout-index -f -a",
    "git -C .git --work-tree=. checkout-index -f -a",
    "git -C src --work-tree=../.git checkout -f",
  ])
    expect(verdict(command)).toEqual([command, expect.stringMatching(/^blocked by permission rules: `.*` writes files in `.*\.git.*`, among git's own files/)]);
  // git reads the variable as it reads the option: assigning it makes the command one the checker cannot verify
  expect(verdict("GIT_WORK_TREE=.git git checkout-index -f -a")[1]).toMatch(/cannot verify .*GIT_WORK_TREE/);
});

testNeeding(["git"])("git --exec-path=DIR under an allow list cannot be verified: git runs DIR's programs (x2 #4)", () => {
  const { verdict } = checker();
  for (const command of ["git --exec-path=src mergetool", "git --exec-path=src status", "git --no-pager --exec-path=/usr/lib/git-core log"])
    expect(verdict(command)).toEqual([
      command,
      expect.stringMatching(/^blocked by permission rules: cannot verify .*: it sets git's exec path \(`--exec-path=/),
    ]);
  // without a value git prints its exec path and runs nothing
  expect(verdict("git --exec-path")).toEqual(["git --exec-path", "allowed"]);
});

testNeeding(["git"])("git merge-index's program is judged as a command: git runs it for each unmerged path of the agent's index", () => {
  const { verdict } = checker();
  for (const command of ["git merge-index src/evil -a", "git merge-index -o -q src/evil -a"])
    expect(verdict(command)).toEqual([
      command,
      expect.stringMatching(/^blocked by permission rules: `.*` gives git merge-index a program it runs: `src\/evil` matches no allow entry/),
    ]);
  // and the files it resolves are written in the work tree, which may not be a git directory
  expect(verdict("git --work-tree=.git merge-index git-merge-one-file -a")[1]).toMatch(/writes files in `.*\.git`, among git's own files/);
  expect(verdict("git --work-tree=.git mergetool")[1]).toMatch(/writes files in `.*\.git`, among git's own files/);
  expect(verdict("git mergetool")).toEqual(["git mergetool", "allowed"]);
});

testNeeding(["git"])("git run in a bare repository with no work tree given writes no tree there: its worktrees are added as before", () => {
  const { verdict } = checker(undefined, "git init -q --bare --template= repo");
  // a worktree's path is taken from where `-C` leads, as after a `cd` (x5 #5): `main` is a new folder right inside the git directory
  for (const command of ["git -C repo worktree add main", "git -C repo worktree add ../main"]) expect(verdict(command)).toEqual([command, "allowed"]);
  // but not by a name git reads there (`hooks`: the template left none), nor below one of its folders
  for (const command of ["git -C repo worktree add hooks", "git -C repo worktree add objects/x", "git -C repo worktree add main/../info"])
    expect(verdict(command)[1]).toMatch(/^blocked by permission rules: `.*` names git's own files .*\(in .*repo(\/main\/\.\.)?, a git directory\)/);
  expect(verdict("git --work-tree=repo checkout -f")[1]).toMatch(/writes files in `.*repo` \(in .*repo, a git directory\), among git's own files/);
});

testNeeding(["git"])("the everyday git commands a user allows stay allowed in an ordinary project", () => {
  const { verdict } = checker();
  for (const command of [
    "git status",
    "git diff",
    "git add -A",
    "git commit -m wip",
    "git checkout -b topic",
    "git stash",
    "git stash pop",
    "git restore src/a.ts",
    "git reset --hard",
    "git checkout-index -f -- src/a.ts",
    "git checkout-index --prefix=build/ -a",
    "git --work-tree=.git status",
  ])
    expect(verdict(command)).toEqual([command, "allowed"]);
});

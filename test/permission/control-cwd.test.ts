// x135: a command that changes the tree it runs in (`git clean`, `git stash -u`, `git reset
// --hard`, `git init`, `tar -x`) names no file, so `cd ~/.local/state && git stash -u` took the
// approvals record away under `bash: git *` while `git -C ~/.local/state/hey init` was refused.
// The directory it runs in now counts as the file it names; git's reading commands run anywhere,
// and git in the project keeps working.
import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-cwd-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const lists = { allow: ["bash: git *", "bash: tar *", "bash: unzip *", "bash: rsync *", "bash: ls *"], deny: [], narrow: [] };
const check = permissionCheck(lists, "sh", { cwd: project, home, controls });
const refusal = (command: string, verb: string, dir: string, where: string, file: string) =>
  `blocked by permission rules: \`${command}\` ${verb} the directory it runs in, \`${dir}\`, ${where} hey's own configuration or trust file \`${file}\`, which the agent may not change`;
const CHANGES = "changes files in";
const DELETES = "deletes files no repository keeps in";
const config = "~/.config/hey/config.toml";
const approvals = "~/.local/state/hey/approvals.json";

describe("a tree-changing command in a directory holding a control file, or above one, is refused", () => {
  test.each([
    [
      "cd ~/.config/hey && git init -q && git fetch -q /tmp/evil && git reset -q --hard FETCH_HEAD",
      "git init -q",
      CHANGES,
      "~/.config/hey",
      "which holds",
      config,
    ],
    ["cd ~/.local/state && git stash -uq", "git stash -uq", DELETES, "~/.local/state", "a directory above", approvals],
    ["cd ~/.config && git clean -fdxq", "git clean -fdxq", DELETES, "~/.config", "a directory above", config],
    ["cd ~/.local/state/hey && git init -q", "git init -q", CHANGES, "~/.local/state/hey", "which holds", approvals],
    ["cd ~/.config/hey; git reset --hard FETCH_HEAD", "git reset --hard FETCH_HEAD", CHANGES, "~/.config/hey", "which holds", config],
    ["cd ~/.config/hey && git checkout -f main", "git checkout -f main", CHANGES, "~/.config/hey", "which holds", config],
    ["pushd ~/.local && git stash --include-untracked", "git stash --include-untracked", DELETES, "~/.local", "a directory above", approvals],
    ["cd ~ && git clean -fdx", "git clean -fdx", DELETES, "~", "a directory above", config],
    ["cd ~ && git checkout -f main", "git checkout -f main", CHANGES, "~", "a directory above", config],
    [
      "git --work-tree=/ --git-dir=/tmp/evil/.git checkout -f .",
      "git --work-tree=/ --git-dir=/tmp/evil/.git checkout -f .",
      CHANGES,
      "/",
      "a directory above",
      config,
    ],
    ["cd ~/.config && tar -xf /tmp/evil.tar", "tar -xf /tmp/evil.tar", CHANGES, "~/.config", "a directory above", config],
    ["cd ~/.config/hey && unzip -o /tmp/evil.zip", "unzip -o /tmp/evil.zip", CHANGES, "~/.config/hey", "which holds", config],
  ])("%s", (command, seg, verb, dir, where, file) => expect(check("bash", { command })).toBe(refusal(seg, verb, dir, where, file)));

  test("a directory only the run knows, whose written last name could be one, cannot be verified", () => {
    expect(check("bash", { command: 'cd "$HOME/.config" && git clean -fdx' })).toStartWith("blocked by permission rules: cannot verify");
  });
});

describe("git's reading commands anywhere, and git in the project, still run", () => {
  test.each([
    "cd ~/.config/hey && git status",
    "cd ~/.local/state && git log --oneline",
    "cd ~/.config && git diff",
    "git -C ~/.local/state/hey status",
    "cd ~/.config/hey && git stash list",
    "cd ~ && git worktree list && git submodule status && git bisect log",
    "cd ~ && git apply --stat /tmp/x.diff && git restore --staged .",
    "cd ~/.config && git clean -n",
    "cd ~ && git reset HEAD~1",
    "git init -q",
    "git checkout -b feature && git pull --rebase && git merge main",
    "git reset --hard HEAD && git stash && git stash pop",
    "git clean -fdx",
    "git stash -u",
    "cd sub && git clean -fd && git restore .",
    "cd ~/src && git init -q scratch && git -C scratch clean -fdx",
    "tar -xf /tmp/src.tar && unzip -o /tmp/x.zip",
    "cd ~/.config && tar -tf /tmp/evil.tar",
  ])("%s", (command) => expect(check("bash", { command })).toBeUndefined());
});

// a project's own .hey/config.toml (or .mcp.json), untracked, is deleted by `git clean -x` at its
// root and its deny list with it: refused while it exists; git commands that only rewrite what the
// repository holds stay (a config they change waits for the user's yes)
test("git clean and git stash -u at a project root holding .hey/config.toml are refused; git checkout and pull are not", () => {
  writeFileSync(join(project, ".hey", "config.toml"), '[permission]\ndeny = ["bash: curl *"]\n');
  try {
    const file = join(project, ".hey", "config.toml");
    expect(check("bash", { command: "git clean -fdxq" })).toBe(refusal("git clean -fdxq", DELETES, project, "a directory above", file));
    expect(check("bash", { command: "git stash -u" })).toBe(refusal("git stash -u", DELETES, project, "a directory above", file));
    expect(check("bash", { command: "cd .hey && git clean -fdx" })).toBe(refusal("git clean -fdx", DELETES, join(project, ".hey"), "which holds", file));
    for (const command of ["git checkout main", "git pull", "git reset --hard origin/main", "git status", "git clean -n", "git stash"])
      expect(check("bash", { command })).toBeUndefined();
  } finally {
    rmSync(join(project, ".hey", "config.toml"));
  }
});

// the same programs naming the directory instead of running in it: before, only `mv` and `rm` of a directory above a control file were refused
test.each([
  ["git init -q ~/.local/state", "~/.local/state"],
  ["cd ~ && git checkout .", "."],
  ["git -C ~/.local/state stash -a", "~/.local/state"],
  ["git -C ~/.local -C state clean -fdx", "~/.local"],
  ["rsync -a --delete /tmp/empty/ ~/.local/state/", "~/.local/state/"],
  ["tar -xf /tmp/evil.tar -C ~/.config", "~/.config"],
  ["unzip -o /tmp/evil.zip -d ~", "~"],
])("%s is refused", (command, word) =>
  expect(check("bash", { command })).toBe(
    `blocked by permission rules: \`${word}\` names hey's own configuration or trust file (a directory above it), which the agent may not change`,
  ),
);
test.each(["rsync -a --delete build/ /tmp/out/", "tar -xf ~/src.tar -C /tmp/out", "git init -q ~/src/new"])("%s runs", (command) =>
  expect(check("bash", { command })).toBeUndefined(),
);

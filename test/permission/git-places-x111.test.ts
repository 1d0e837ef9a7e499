// x111: the guard of what git runs commands from, reviewed. A directory the agent filled (config and
// hooks first, HEAD last) was used with `git --git-dir=DIR` under `bash: git *`; a worktree checked
// out inside a bare clone was read-only to the agent (the look for a git directory walked past the
// work tree's top); `cp evil/.gitconfig.local ~/` put an included config in place through the
// folder holding it; and a hung share that only an `[includeIf]` names refused every later write.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setWorkerSource, workerSource } from "../../src/fs/bounded-reads.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { networkMounts } from "../helpers/mount-table.ts";
import { gitPlacesFixture } from "./git-places-fixture.ts";

const tmp = tempDir("hey-git-places-x111-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls, env } = gitPlacesFixture(root);
writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Ana\n[include]\n\tpath = ~/.gitconfig.local\n\tpath = ~/dotfiles/gitconfig\n");
mkdirSync(join(home, "dotfiles"));
writeFileSync(join(home, "dotfiles", "gitconfig"), "[alias]\n\tst = status\n");

type List = Parameters<typeof permissionCheck>[0];
const allow: List = {
  allow: ["write_file", "edit", "read_file", "bash: git *", "bash: cp *", "bash: mv *", "bash: rsync *", "bash: echo *", "bash: echo * > *"],
  deny: [],
  narrow: [],
};
const check = (cwd: string, list: List = allow) => permissionCheck(list, "bash", { cwd, home, controls, gitEnv: env });

describe("a git directory named to git on the command line", () => {
  const inProject = check(project);
  test("`git --git-dir=DIR` of a directory the agent could have filled needs a pattern spelling it out", () => {
    for (const command of ["git --git-dir=scratch --work-tree=. status --short", "git --git-dir scratch fetch o", "git -C . --git-dir=s2 commit -m x"])
      expect({ command, refusal: inProject("bash", { command }) }).toMatchObject({ command, refusal: expect.stringContaining("matches no allow entry") });
    const spelled = check(project, { ...allow, allow: [...allow.allow, "bash: git --git-dir=scratch *"] });
    expect(spelled("bash", { command: "git --git-dir=scratch status" })).toBeUndefined();
  });

  test("a `.git` directory, which the agent cannot write, and git's other options stay allowed", () => {
    for (const command of ["git --git-dir=sub/.git log", "git --git-dir ../other/.git status", "git -C sub status", "git --work-tree=. status", "git status"])
      expect({ command, refusal: inProject("bash", { command }) }).toEqual({ command, refusal: undefined });
  });
});

describe("a worktree inside a bare clone (`git clone --bare url repo; git -C repo worktree add main`)", () => {
  const repo = join(root, "repo");
  for (const d of ["objects", "refs/heads", "hooks", "worktrees/main"]) mkdirSync(join(repo, d), { recursive: true });
  writeFileSync(join(repo, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(repo, "config"), "[core]\n\tbare = true\n");
  writeFileSync(join(repo, "worktrees/main/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(repo, "worktrees/main/commondir"), "../..\n");
  writeFileSync(join(repo, "worktrees/main/gitdir"), `${join(repo, "main", ".git")}\n`);
  mkdirSync(join(repo, "main"));
  writeFileSync(join(repo, "main/.git"), `gitdir: ${join(repo, "worktrees/main")}\n`);
  writeFileSync(join(repo, "main/a.txt"), "a\n");

  test.each([
    ["an allow list", allow],
    ["a deny-only list", { allow: [], deny: ["bash: rm -rf /*"], narrow: [] }],
  ])("the work tree's files are the user's to have written, under %s", (_name, list) => {
    const inMain = check(join(repo, "main"), list);
    expect(inMain("write_file", { path: "notes.md", content: "x\n" })).toBeUndefined();
    expect(inMain("edit", { path: "a.txt", old_string: "a", new_string: "b" })).toBeUndefined();
    expect(inMain("bash", { command: "echo ok > out.txt" })).toBeUndefined();
    expect(inMain("bash", { command: "cp a.txt out.txt" })).toBeUndefined();
  });

  test("the bare clone's own config and hooks stay refused", () => {
    const inMain = check(join(repo, "main"));
    expect(inMain("write_file", { path: "../config", content: "[core]\n" })).toContain(`in ${repo}, a git directory`);
    expect(inMain("bash", { command: "cp /tmp/evil ../hooks/pre-commit" })).toContain("git's own files");
  });

  test("a folder with a HEAD of Markdown, objects/ and refs/ is no git directory", () => {
    const docs = join(project, "docs", "vcs-intro");
    for (const d of ["objects", "refs"]) mkdirSync(join(docs, d), { recursive: true });
    writeFileSync(join(docs, "HEAD"), "# What HEAD means\n");
    expect(check(project)("write_file", { path: "docs/vcs-intro/index.md", content: "x\n" })).toBeUndefined();
  });
});

describe("a copy or move into the folder holding an included config or the hooks directory", () => {
  const inProject = check(project);
  test.each([
    "cp evil/.gitconfig.local ~/",
    "cp /tmp/evil/.gitconfig .",
    "cp -t . /tmp/evil/.gitconfig",
    "mv /tmp/evil/.gitconfig ./",
    "rsync /tmp/evil/.gitconfig ./",
    "cp -r /tmp/evil/.githooks .",
    "cp /tmp/evil/gitconfig ~/dotfiles/",
    "mv ~/dotfiles /tmp/old",
    "mv /tmp/evil ~/dotfiles",
  ])("`%s` is refused", (command) => {
    expect(inProject("bash", { command })).toContain("names git's own files");
  });

  test("a copy of another name into those folders stays allowed", () => {
    for (const command of ["cp notes.md ~/", "cp /tmp/a.txt .", "mv build/out.js ./", "cp -r /tmp/assets ."])
      expect({ command, refusal: inProject("bash", { command }) }).toEqual({ command, refusal: undefined });
  });
});

describe("a hung share that only an `[includeIf]` names", () => {
  const local = join(root, "local");
  const share = join(root, "hung");
  const back = join(root, "share-is-back");
  mkdirSync(join(local, ".git/objects"), { recursive: true });
  mkdirSync(join(local, ".git/refs"));
  writeFileSync(join(local, ".git/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(local, ".git/config"), "[core]\n");
  mkdirSync(share);
  const localHome = join(root, "local-home");
  mkdirSync(localHome);
  writeFileSync(join(localHome, ".gitconfig"), `[user]\n\tname = Ana\n[includeIf "gitdir:${share}/"]\n\tpath = ${share}/team.gitconfig\n`);
  afterEach(() => {
    setWorkerSource(undefined);
    if (existsSync(back)) rmSync(back);
  });

  test("refuses the writes of the check that waited on it, and no later one; a write onto it stays refused", () => {
    const gate = `(req) => { if (req.path.includes("/hung")) { const t = new Int32Array(new SharedArrayBuffer(4)); while (!fs.existsSync(${JSON.stringify(back)})) Atomics.wait(t, 0, 0, 20); } }`;
    setWorkerSource(workerSource(gate), 500, networkMounts(join(root, "mountinfo"), [share]));
    const inLocal = permissionCheck(allow, "sh", { cwd: local, home: localHome, controls, gitEnv: env });
    // the first check waits on the share, and every read after it in that check is not tried: refused, saying so
    expect(inLocal("write_file", { path: "src/app.ts", content: "x" })).toContain(
      "cannot verify that src/app.ts is none of the files hey guards (its own configuration, git's config and hooks)",
    );
    expect(inLocal("write_file", { path: "src/app.ts", content: "x" })).toBeUndefined();
    expect(inLocal("bash", { command: "cp a.ts b.ts" })).toBeUndefined();
    expect(inLocal("write_file", { path: join(share, "team.gitconfig"), content: "[core]\n" })).toContain("team.gitconfig");
    writeFileSync(back, "");
  });
});

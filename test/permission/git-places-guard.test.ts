// x105 findings 1 and 2: while a list was set, the agent could write what git runs commands from
// whenever it was not under a `.git` name: the bare repository of the "bare + worktrees" layout
// (`proj/.bare`, `proj/.git` holding `gitdir: ./.bare`), a file the user's `~/.gitconfig` includes
// (`~/.gitconfig.local`, there or not yet), a tracked `.gitconfig` the repository's config
// includes, and the hooks directory `core.hooksPath` names. Each ran a program at the next
// `git status`. Now each is refused to write_file and to bash, found by what it is; the project's
// other files stay writable. The repositories are made by hand (git-places-fixture.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { gitPlacesFixture } from "./git-places-fixture.ts";

const tmp = tempDir("hey-git-places-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls, proj, main, env } = gitPlacesFixture(root);

const lists = {
  allow: { allow: ["write_file", "edit", "read_file", "bash: cp *", "bash: find *", "bash: cd *", "bash: echo *", "bash: git status"], deny: [], narrow: [] },
  deny: { allow: [], deny: ["bash: rm *"], narrow: [] },
};
const checks = (cwd: string) => Object.entries(lists).map(([name, l]) => [name, permissionCheck(l, "bash", { cwd, home, controls, gitEnv: env })] as const);

describe.each(checks(main))("under the %s list, from a worktree of a bare repository", (_name, check) => {
  test("the bare repository's config and hooks are refused to write_file and to bash", () => {
    expect(check("write_file", { path: "../.bare/config", content: "[core]\n\tfsmonitor = touch PWNED\n" })).toBe(
      `blocked by permission rules: ../.bare/config is git's own: in ${join(proj, ".bare")}, a git directory (git runs the commands its config and hooks name); while a permission list is set the agent may not write it`,
    );
    expect(check("bash", { command: "find . -maxdepth 0 -fprintf ../.bare/config '[core]\\n\\tfsmonitor = touch PWNED\\n'" })).toBe(
      `blocked by permission rules: \`../.bare/config\` names git's own files (git runs the commands its config and hooks name) (in ${join(proj, ".bare")}, a git directory), which the agent may not change`,
    );
    for (const command of [
      "cp /tmp/evil ../.bare/hooks/pre-commit",
      "echo x > ../.bare/worktrees/main/config.worktree",
      "cd .. && cp /tmp/evil .bare/config",
      "cp /tmp/evil ../.ba?e/config",
    ])
      expect({ command, refusal: check("bash", { command }) }).toMatchObject({ command, refusal: expect.stringContaining("git's own files") });
  });

  test("a file the user's config includes is refused, made yet or not; the worktree's own files stay writable", () => {
    expect(check("bash", { command: "echo '[core]' > ~/.gitconfig.local" })).toContain(`a config file git reads, included by ${join(home, ".gitconfig")}`);
    expect(check("write_file", { path: join(home, ".gitconfig.local"), content: "[core]\n" })).toContain("is git's own: a config file git reads");
    expect(check("write_file", { path: "src/a.ts", content: "x\n" })).toBeUndefined();
    expect(check("bash", { command: "cp /tmp/x notes.txt" })).toBeUndefined();
  });
});

describe.each(checks(project))("under the %s list, in a project", (_name, check) => {
  test("the tracked .gitconfig its config includes and the hooks directory core.hooksPath names are refused; reading them stays", () => {
    expect(check("write_file", { path: ".gitconfig", content: "[core]\n\tfsmonitor = touch PWNED\n" })).toBe(
      `blocked by permission rules: .gitconfig is git's own: a config file git reads, included by ${join(project, ".git", "config")} (git runs the commands its config and hooks name); while a permission list is set the agent may not write it`,
    );
    expect(check("write_file", { path: ".githooks/post-index-change", content: "#!/bin/sh\n" })).toContain(
      `.githooks/post-index-change is git's own: in ${join(project, ".githooks")}, the hooks directory core.hooksPath names`,
    );
    expect(check("edit", { path: ".githooks/pre-commit", old_string: "a", new_string: "b" })).toContain("the hooks directory core.hooksPath names");
    for (const command of ["cp /tmp/evil .githooks/pre-commit", "echo '[core]' >> .gitconfig", "cp /tmp/evil .git*/pre-commit"])
      expect({ command, refusal: check("bash", { command }) }).toMatchObject({ command, refusal: expect.stringContaining("git's own files") });
    expect(check("read_file", { path: ".gitconfig" })).toBeUndefined();
    expect(check("write_file", { path: "README.md", content: "x\n" })).toBeUndefined();
  });

  test("a repository elsewhere is told by what it holds (a bare dotfiles repository)", () => {
    expect(check("write_file", { path: "../dotfiles.repo/config", content: "[core]\n" })).toContain(`in ${join(root, "dotfiles.repo")}, a git directory`);
    expect(check("bash", { command: "cd ../dotfiles.repo && cp /tmp/evil hooks/post-checkout" })).toContain("a git directory");
  });
});

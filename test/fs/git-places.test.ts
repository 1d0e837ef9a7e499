// What git runs commands from, as fs/git-places.ts finds it (x105): a git directory by what it
// holds, and from a directory the git directories, every config file with those it includes (an
// `[includeIf]` whatever its condition, a file not made yet), and core.hooksPath's directory.
import { afterAll, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { gitPlaces, isGitDir } from "../../src/fs/git-places.ts";
import { tempDir } from "../helpers/e2e.ts";
import { gitPlacesFixture } from "../permission/git-places-fixture.ts";

const tmp = tempDir("hey-git-places-fs-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, proj, own, main, env } = gitPlacesFixture(root);

test("a git directory is told by what it holds, whatever its name", () => {
  expect([join(proj, ".bare"), own, join(root, "dotfiles.repo")].map(isGitDir)).toEqual([true, true, true]);
  expect([proj, main, join(project, ".githooks")].map(isGitDir)).toEqual([false, false, false]);
});

test("git's places from a worktree of a bare repository, and from a project that includes and keeps its hooks in the tree", () => {
  expect(gitPlaces(main, home, env).map((p) => p.path)).toEqual([
    own,
    join(proj, ".bare"),
    join(home, ".config", "git", "config"),
    join(home, ".gitconfig"),
    join(home, ".gitconfig.local"),
    join(proj, ".bare", "config"),
    join(own, "config.worktree"),
  ]);
  expect(gitPlaces(project, home, env).map((p) => [p.path, p.why])).toContainEqual([
    join(project, ".gitconfig"),
    `a config file git reads, included by ${join(project, ".git", "config")}`,
  ]);
  expect(gitPlaces(project, home, env).map((p) => [p.path, p.why])).toContainEqual([
    join(project, ".githooks"),
    `in ${join(project, ".githooks")}, the hooks directory core.hooksPath names in ${join(project, ".git", "config")}`,
  ]);
});

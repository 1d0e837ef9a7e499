// Repositories as git lays them out, made by hand (no git needed), for the tests of what git runs
// commands from (x105): a bare repository with a worktree (`proj/.bare`, `proj/.git` holding
// `gitdir: ./.bare`, `proj/main`), a project whose config includes a tracked `.gitconfig` and keeps
// its hooks in `.githooks`, a user config including `~/.gitconfig.local` (not made yet), and a bare
// repository with no `.git` in its path (`dotfiles.repo`).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFixture } from "./control-corpus.ts";

/** A git directory as git makes one: HEAD, objects/, refs/ and a config. */
function gitDir(dir: string, config = "[core]\n\tbare = true\n"): void {
  for (const d of ["objects", "refs/heads", "hooks"]) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "config"), config);
}

/** The layout below `root`, with hey's control files (controlFixture); `main` is the worktree, `own` its git directory. */
export function gitPlacesFixture(root: string) {
  const { home, project, controls } = controlFixture(root);
  const proj = join(root, "proj");
  gitDir(join(proj, ".bare"));
  writeFileSync(join(proj, ".git"), "gitdir: ./.bare\n");
  const own = join(proj, ".bare", "worktrees", "main");
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(own, "commondir"), "../..\n");
  const main = join(proj, "main");
  mkdirSync(main);
  writeFileSync(join(main, ".git"), `gitdir: ${own}\n`);
  gitDir(join(project, ".git"), "[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../.gitconfig\n");
  writeFileSync(join(project, ".gitconfig"), "[alias]\n\tlg = log --oneline\n");
  mkdirSync(join(project, ".githooks"));
  writeFileSync(join(home, ".gitconfig"), '[user]\n\tname = Ana\n[includeIf "gitdir:~/work/"]\n\tpath = ~/.gitconfig.local\n');
  gitDir(join(root, "dotfiles.repo"));
  return { home, project, controls, proj, own, main, env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1" } };
}

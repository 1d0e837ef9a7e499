// Plan mode asks which programs a repository's config names before every git call (x119 #5): a
// superproject's submodules are read once and remembered while every file and directory the reading
// looked at keeps its identity, so the next git call stats them instead of reading them all, and a
// config the agent edits, or a submodule it adds, is read at the very next call.
import { afterEach, expect, mock, spyOn } from "bun:test";
import { join } from "node:path";
import { repositoriesRead, repositoryPrograms } from "../../src/permission/repository-programs.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  mock.restore();
  for (const d of dirs.splice(0)) d.remove();
});
const git = (cwd: string, ...args: string[]) => {
  const run = Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", "-c", "protocol.file.allow=always", ...args], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
};

/**
 * Every file and directory made so far made a minute old, by a clock a minute ahead: a file changed
 * within the last moments is read again at each call (fs/file-stamps.ts RACY_MS), and setting its
 * times back changes its change time, which counts as well.
 */
function age(): void {
  const now = Date.now.bind(Date);
  spyOn(Date, "now").mockImplementation(() => now() + 60_000);
}

/** A superproject with `count` submodules, each its own git directory below `.git/modules/`. */
function superproject(count: number): string {
  const d = tempDir("hey-repository-memory-");
  dirs.push(d);
  const [repo, lib] = [join(d.path, "repo"), join(d.path, "lib")];
  git(d.path, "init", "-q", lib);
  git(lib, "commit", "-q", "--allow-empty", "-m", "one");
  git(d.path, "init", "-q", repo);
  for (let i = 0; i < count; i++) git(repo, "submodule", "add", "-q", lib, `s${i}`);
  git(repo, "commit", "-q", "-m", "subs");
  return repo;
}

const programs = (repo: string) => repositoryPrograms(repo, "git log -1", "/nonexistent", process.env);

testNeeding(["git"])("a second git call reads no submodule again while nothing changed, and the answer is the same", async () => {
  const repo = superproject(5);
  git(join(repo, "s3"), "config", "diff.evil.textconv", "evil");
  age();
  const before = repositoriesRead();
  expect(await programs(repo)).toEqual(["diff.evil.textconv"]);
  expect(repositoriesRead() - before).toBe(6);
  expect(await programs(repo)).toEqual(["diff.evil.textconv"]);
  expect(repositoriesRead() - before).toBe(6);
});

testNeeding(["git"])("a config the agent edits between two git calls is read at the next one, and only that repository is", async () => {
  const repo = superproject(4);
  age();
  expect(await programs(repo)).toEqual([]);
  git(join(repo, "s2"), "config", "filter.evil.clean", "evil");
  const before = repositoriesRead();
  expect(await programs(repo)).toEqual(["filter.evil.clean"]);
  expect(repositoriesRead() - before).toBe(1);
  git(repo, "config", "diff.external", "evil");
  expect(await programs(repo)).toEqual(["diff.external", "filter.evil.clean"]);
});

testNeeding(["git"])("a submodule added between two git calls, and its config, is seen at the next one", async () => {
  const repo = superproject(2);
  age();
  expect(await programs(repo)).toEqual([]);
  git(repo, "submodule", "add", "-q", join(repo, "..", "lib"), "late");
  git(join(repo, "late"), "config", "diff.late.textconv", "evil");
  expect(await programs(repo)).toEqual(["diff.late.textconv"]);
  // one whose git directory git keeps below .git/modules only, with no gitlink in the index yet
  git(repo, "submodule", "add", "-q", "--name", "hidden", join(repo, "..", "lib"), "hidden");
  git(repo, "config", "-f", join(repo, ".git", "modules", "hidden", "config"), "diff.hidden.textconv", "evil");
  git(repo, "rm", "-q", "--cached", "hidden");
  expect(await programs(repo)).toEqual(["diff.hidden.textconv", "diff.late.textconv"]);
});

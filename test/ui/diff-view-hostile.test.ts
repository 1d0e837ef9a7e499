// `/diff` in a repository hey never trusted (x67 #2) runs nothing the repository names: not its
// `core.fsmonitor`, textconv driver, `diff.external` or clean filter, nor the config of a committed
// `tools/` git would take for a bare repository. Real git against real repositories: before, each
// program touched its marker file at /diff.
import { afterEach, expect } from "bun:test";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { diffView } from "../../src/ui/diff-view.ts";
import { tempDir } from "../helpers/e2e.ts";
import { embeddedBareClone, hostileRepo, hostileSubmodules, marksIn } from "../helpers/hostile-git.ts";
import { testNeeding } from "../helpers/tools.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
const fresh = () => {
  const d = tempDir("hey-diff-hostile-");
  dirs.push(d);
  return d.path;
};
const view = async (cwd: string) => (await diffView(cwd, false, 0, new AbortController().signal)).text;

testNeeding(["git"])(
  "a repository whose config names a filter: the file it cleans is named, not shown; the other is diffed; none of its programs runs",
  async () => {
    const { repo, marks } = hostileRepo(fresh());
    const text = await view(repo);
    expect(marksIn(marks)).toEqual([]);
    expect(text).toContain("changed, not shown: this repository's own config names their filter (filter=evilf), which /diff does not run");
    expect(text).toContain("\nM a.txt\n");
    expect(text).toContain("+changed too");
  },
);

testNeeding(["git"])("a repository's own textconv driver does not run: the file's diff is git's own", async () => {
  const { repo, marks } = hostileRepo(fresh());
  Bun.spawnSync(["git", "config", "--remove-section", "filter.evilf"], { cwd: repo });
  const text = await view(repo);
  expect(marksIn(marks)).toEqual([]);
  expect(text).toContain("+changed too");
  expect(text).toContain("+changed\n");
});

testNeeding(["git"])(
  "a committed tools/ that git would take for a bare repository: its fsmonitor does not run, and /diff says why it shows nothing",
  async () => {
    const { clone, marks } = embeddedBareClone(fresh());
    const text = await view(join(clone, "tools"));
    expect(marksIn(marks)).toEqual([]);
    expect(text).toContain("git takes");
    expect(text).toContain("for a bare repository of its own, which /diff does not use (git: cannot use bare repository");
    expect(await view(clone)).toContain("no changes");
    expect(marksIn(marks)).toEqual([]);
  },
);

testNeeding(["git"])("a repository whose config includes what neither hey nor git can read ahead (a FIFO): /diff says so and runs no git", async () => {
  const { repo, marks } = hostileRepo(fresh());
  Bun.spawnSync(["mkfifo", join(repo, ".git", "pipe.inc")]);
  appendFileSync(join(repo, ".git", "config"), "[include]\n\tpath = pipe.inc\n");
  expect(await view(repo)).toBe("hey: /diff runs no git here: git did not list this repository's config within 5 s, so no git runs in this command");
  expect(marksIn(marks)).toEqual([]);
});

testNeeding(["git"])("a superproject that sets diff.submodule = diff: no program its submodules' own config names runs at /diff (x81)", async () => {
  const { repo, marks } = hostileSubmodules(fresh());
  Bun.spawnSync(["git", "config", "diff.submodule", "diff"], { cwd: repo });
  const text = await view(repo);
  expect(marksIn(marks)).toEqual([]);
  // their changes as commits: their files' drivers are not sorted out
  expect(text).toContain("+Subproject commit");
  expect(text).toContain("diff --git a/sub b/sub");
  expect(text).toContain("diff --git a/embedded b/embedded");
});

// Through dist/hey: `hey -c -p /diff` in a `git lfs install --local` repository shows the text
// files' diffs and names only the .bin file its filter cleans (before: every changed file was named,
// and no diff shown); the repository's filter programs, which touch markers, do not run. With the
// same filter in the user's global config too, it is the user's, and the .bin file's diff shows.
import { expect, setDefaultTimeout } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir } from "../helpers/fixtures.ts";
import { lfsRepo, markingFilter, marksIn } from "../helpers/hostile-git.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const dir = eachTempDir("hey-e2e-diff-lfs-");

testNeeding(["git"])("hey -c -p /diff in a `git lfs install --local` repository: the text diffs, the .bin file named, no filter program run", async () => {
  const { repo, marks } = lfsRepo(dir.path);
  const run = await runHey(["-c", "-p", "/diff"], { cwd: repo });
  expect(run.stdout).toContain("-export const size = 1;\n+export const size = 2;\n");
  expect(run.stdout).toContain("+new line\n");
  expect(run.stdout).toContain("changed, not shown: this repository's own config names their filter (filter=lfs), which /diff does not run");
  expect(run.stdout).toContain("\nM assets/logo.bin\n");
  expect(marksIn(marks)).toEqual([]);
  expect(run.code).toBe(0);
});

testNeeding(["git"])(
  "hey -c -p /diff where the user's global config sets the repository's filter alike: the user's program runs and the .bin file's diff shows",
  async () => {
    const { repo, marks } = lfsRepo(dir.path);
    const mine = markingFilter("lfs", marks, "user", ["clean", "smudge"]);
    Bun.spawnSync(["git", "config", "--remove-section", "filter.lfs"], { cwd: repo });
    writeFileSync(join(repo, ".git", "config"), mine, { flag: "a" });
    writeFileSync(join(dir.path, "user.gitconfig"), mine);
    const run = await runHey(["-c", "-p", "/diff"], { cwd: repo, env: { GIT_CONFIG_GLOBAL: join(dir.path, "user.gitconfig") } });
    expect(run.stdout).toContain("-logo v1\n+logo v2\n");
    expect(run.stdout).toContain("+new line\n");
    expect(run.stdout).not.toContain("not shown");
    expect(marksIn(marks)).toEqual(["user-clean"]);
  },
);

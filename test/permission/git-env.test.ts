// While a list is set, the agent's commands tell git to use only the bare repositories they name
// (permission/git-env.ts), after whatever the user's GIT_CONFIG_COUNT entries say; real git obeys.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { explicitBareRepositories, gitConfigWith } from "../../src/permission/git-env.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

test("the setting comes after the user's own GIT_CONFIG entries, which stay", () => {
  expect(explicitBareRepositories({ PATH: "/bin" })).toEqual({
    PATH: "/bin",
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "safe.bareRepository",
    GIT_CONFIG_VALUE_0: "explicit",
  });
  const mine = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "Ana" };
  expect(explicitBareRepositories(mine)).toEqual({ ...mine, GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_1: "safe.bareRepository", GIT_CONFIG_VALUE_1: "explicit" });
  expect(explicitBareRepositories({ GIT_CONFIG_COUNT: "x" }).GIT_CONFIG_KEY_0).toBe("safe.bareRepository");
});

test("hey's command-scope git config goes below the user's entries (the bash tool's editors: theirs win) or above them (safe.bareRepository), read the same way: a count that is no whole number is none", () => {
  const mine = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.editor", GIT_CONFIG_VALUE_0: "true" };
  expect(gitConfigWith(mine, [["core.editor", "hey"]], true)).toEqual({
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: "core.editor",
    GIT_CONFIG_VALUE_0: "hey",
    GIT_CONFIG_KEY_1: "core.editor",
    GIT_CONFIG_VALUE_1: "true",
  });
  expect(gitConfigWith(mine, [["safe.bareRepository", "explicit"]], false)).toEqual({
    ...mine,
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_1: "safe.bareRepository",
    GIT_CONFIG_VALUE_1: "explicit",
  });
  for (const count of ["1x", "-1", ""]) {
    expect(gitConfigWith({ GIT_CONFIG_COUNT: count }, [["a.b", "c"]], true)).toEqual({
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "a.b",
      GIT_CONFIG_VALUE_0: "c",
    });
    expect(explicitBareRepositories({ GIT_CONFIG_COUNT: count }).GIT_CONFIG_COUNT).toBe("1");
  }
});

testNeeding(["git"])("git given that environment runs no diff.external of a bare repository made of plain files", () => {
  const dir = tempDir("hey-bare-");
  dirs.push(dir);
  const repo = join(dir.path, "evil");
  mkdirSync(join(repo, "objects"), { recursive: true });
  mkdirSync(join(repo, "refs"));
  const pwned = join(dir.path, "PWNED");
  writeFileSync(join(repo, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(repo, "config"), `[core]\n\tbare = true\n[diff]\n\texternal = "touch ${pwned}; true"\n`);
  writeFileSync(join(repo, "a"), "a\n");
  writeFileSync(join(repo, "b"), "b\n");
  const env = { PATH: process.env.PATH, HOME: dir.path, GIT_CONFIG_NOSYSTEM: "1" };
  const diff = (e: Record<string, string | undefined>) =>
    Bun.spawnSync(["git", "diff", "--no-index", "a", "b"], { cwd: repo, env: e as Record<string, string> });
  diff(env);
  expect(existsSync(pwned)).toBe(true); // the hole: git found the repository and ran its command
  Bun.spawnSync(["rm", pwned]);
  const guarded = diff(explicitBareRepositories(env));
  expect(guarded.stdout.toString()).toContain("+b");
  expect(existsSync(pwned)).toBe(false);
});

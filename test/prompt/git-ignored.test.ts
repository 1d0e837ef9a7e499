// Whether git ignores a file of the project (prompt/git-ignored.ts), as `git check-ignore` would
// say, against real directories: .gitignore files from the root down, a file below an ignored
// directory, `!` rules, .git/info/exclude, a nested repository, and no repository at all.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ignoredByGit } from "../../src/prompt/git-ignored.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
let repo: string;
beforeEach(() => {
  tmp = tempDir("hey-ignored-");
  repo = join(realpathSync(tmp.path), "repo");
  mkdirSync(join(repo, ".git", "info"), { recursive: true });
});
afterEach(() => tmp.remove());

function put(path: string, text = ""): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

test.each([
  ["a file no rule names", "src/.cache.json", false],
  ["a file the root's .gitignore names", "config/local.json", true],
  ["a file below an ignored directory", "build/out/notes.md", true],
  ["a file a `!` rule keeps", "docs/keep.md", false],
  ["a file in a directory whose own .gitignore ignores it", "web/draft.md", true],
  ["a file the deeper .gitignore keeps although the root's ignores it", "web/local.md", false],
  ["a file .git/info/exclude names", "mine.md", true],
  ["a committed file", "docs/style.md", false],
])("%s: %s → %p", (_, path, ignored) => {
  put(join(repo, ".gitignore"), "config/local.json\nbuild/\ndocs/*\n!docs/keep.md\n!docs/style.md\nlocal.md\n");
  put(join(repo, "web", ".gitignore"), "draft.md\n!local.md\n");
  put(join(repo, ".git", "info", "exclude"), "mine.md\n");
  put(join(repo, path), "text");
  expect(ignoredByGit(join(repo, path), repo)).toBe(ignored);
});

test("a nested repository's files follow its own rules, not the outer one's; without git nothing is ignored", () => {
  put(join(repo, ".gitignore"), "*.json\n");
  mkdirSync(join(repo, "vendor", "lib", ".git"), { recursive: true });
  put(join(repo, "vendor", "lib", "data.json"), "{}");
  put(join(repo, "data.json"), "{}");
  expect(ignoredByGit(join(repo, "data.json"), repo)).toBe(true);
  expect(ignoredByGit(join(repo, "vendor", "lib", "data.json"), repo)).toBe(false);
  const plain = join(realpathSync(tmp.path), "plain");
  put(join(plain, ".gitignore"), "*.json\n");
  put(join(plain, "data.json"), "{}");
  expect(ignoredByGit(join(plain, "data.json"), plain)).toBe(false);
});

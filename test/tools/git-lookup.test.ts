// Which git the bash tool's commands find is looked up once per PATH value (x119 #6): Bun.which
// stats every PATH directory, ~50 ms a bash call on a slow disk; a PATH without git is looked at
// again, so a git the agent installs is found at its next call; and while the PATH directories up to
// git's and git itself are unchanged only (x127): a git installed ahead later is found.
import { afterEach, expect, spyOn, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { oldGit } from "../../src/tools/bash.ts";
import { tempDir } from "../helpers/e2e.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A directory holding a `git` that prints `version`. */
function fakeGit(version: string): string {
  const d = tempDir("hey-git-lookup-");
  dirs.push(d);
  const bin = join(d.path, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "git version ${version}"\n`);
  chmodSync(join(bin, "git"), 0o755);
  return bin;
}

test("the git on one PATH is looked up once, whatever the number of bash calls", () => {
  const bin = fakeGit("2.20.1");
  const which = spyOn(Bun, "which");
  try {
    for (let i = 0; i < 5; i++) expect(oldGit(`${bin}:/nonexistent`)).toBe(true);
    expect(which.mock.calls.filter(([name, how]) => name === "git" && how?.PATH === `${bin}:/nonexistent`)).toHaveLength(1);
  } finally {
    which.mockRestore();
  }
});

test("a PATH with no git is looked at again: a git installed there later is found", () => {
  const d = tempDir("hey-git-lookup-");
  dirs.push(d);
  const path = join(d.path, "later");
  expect(oldGit(path)).toBe(false);
  mkdirSync(path);
  writeFileSync(join(path, "git"), `#!/bin/sh\necho "git version 2.9.5"\n`);
  chmodSync(join(path, "git"), 0o755);
  expect(oldGit(path)).toBe(true);
});

test("an old git installed later in a PATH directory ahead of the one found is found at the next call (x127)", () => {
  const system = fakeGit("2.43.0");
  const d = tempDir("hey-git-lookup-");
  dirs.push(d);
  const ahead = join(d.path, "ahead");
  mkdirSync(ahead);
  const path = `${ahead}:${system}`;
  expect(oldGit(path)).toBe(false);
  writeFileSync(join(ahead, "git"), `#!/bin/sh\necho "git version 2.20.1"\n`);
  chmodSync(join(ahead, "git"), 0o755);
  expect(oldGit(path)).toBe(true);
});

test("a git replaced in place by an older one is asked its version again", () => {
  const bin = fakeGit("2.43.0");
  const path = `${bin}:/nonexistent`;
  expect(oldGit(path)).toBe(false);
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "git version 2.20.1"\n`);
  expect(oldGit(path)).toBe(true);
});

test("a relative PATH entry is read from the command's directory, not hey's", () => {
  const old = fakeGit("2.20.1");
  const recent = fakeGit("2.43.0");
  expect(oldGit("bin", join(old, ".."))).toBe(true);
  expect(oldGit("bin", join(recent, ".."))).toBe(false);
});

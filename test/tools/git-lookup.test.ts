// Which git the bash tool's commands find is looked up once per PATH value (x119 #6): Bun.which
// stats every PATH directory, ~50 ms a bash call on a slow disk; a PATH without git is looked at
// again, so a git the agent installs is found at its next call.
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

// Where a repository's config includes more than hey reads, plan mode asks git to list the config
// (x83): that must not freeze hey while git reads, must see what changed in files only git read, must work on
// git before 2.26 (no `--show-scope`), and links below `.git/modules` must not send hey walking the
// disk before each command.
import { afterEach, expect } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryPrograms } from "../../src/permission/repository-programs.ts";
import { isRefusal } from "../../src/permission/git-env.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
const fresh = () => {
  const d = tempDir("hey-config-listing-");
  dirs.push(d);
  return d.path;
};

/** A repository whose config includes `inc` in its git directory, made by `make`. */
function repoIncluding(base: string, make: (path: string) => void): string {
  const repo = join(base, "repo");
  Bun.spawnSync(["git", "init", "-q", repo]);
  make(join(repo, ".git", "big.inc"));
  appendFileSync(join(repo, ".git", "config"), "[include]\n\tpath = big.inc\n");
  return repo;
}

/** A driver hey cannot see: after 2 MB of comments in an include, which only git reads to its end. */
const HIDDEN = `${"# padding\n".repeat(200_000)}[diff "hidden"]\n\ttextconv = cat\n`;

/** A `git` first on PATH that writes each call's arguments to `log`; `old`: refuses `--show-scope` as git before 2.26 does. */
function loggingGit(base: string, old: boolean): { env: Record<string, string | undefined>; log: string } {
  const [bin, log] = [join(base, "bin"), join(base, "git.log")];
  mkdirSync(bin);
  writeFileSync(log, "");
  const refuse = old ? `case " $* " in *" --show-scope "*) echo "error: unknown option \\\`show-scope'" >&2; exit 129;; esac\n` : "";
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> '${log}'\n${refuse}exec '${Bun.which("git")}' "$@"\n`, { mode: 0o755 });
  return { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, log };
}
const listings = (log: string) =>
  readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("config --list")).length;

testNeeding(["git"])(
  "on git before 2.26 (no --show-scope) the config is listed all the same: a driver past an oversized include is found, and git is not refused",
  async () => {
    const base = fresh();
    const repo = repoIncluding(base, (path) => writeFileSync(path, HIDDEN));
    const { env } = loggingGit(base, true);
    const programs = await repositoryPrograms(repo, "git diff", "/nonexistent", env);
    expect(programs.filter(isRefusal)).toEqual([]);
    expect(programs).toContain("diff.hidden.textconv");
  },
);

testNeeding(["git"])(
  "where hey stops reading short, a driver added later to a file included after the oversized one is seen at the next call (x127)",
  async () => {
    const base = fresh();
    const repo = repoIncluding(base, (path) => writeFileSync(path, HIDDEN));
    const later = join(repo, ".git", "later.cfg");
    writeFileSync(later, "# nothing yet\n");
    appendFileSync(join(repo, ".git", "config"), "[include]\n\tpath = later.cfg\n");
    const { env, log } = loggingGit(base, false);
    for (const command of ["git status", "git diff"]) {
      const programs = await repositoryPrograms(repo, command, "/nonexistent", env);
      expect(programs).toContain("diff.hidden.textconv");
      expect(programs).not.toContain("diff.evil.textconv");
    }
    appendFileSync(later, '[diff "evil"]\n\ttextconv = touch PWNED; cat\n');
    expect(await repositoryPrograms(repo, "git show", "/nonexistent", env)).toContain("diff.evil.textconv");
    expect(await repositoryPrograms(repo, "git show", "/other-home", env)).toContain("diff.evil.textconv");
    expect(listings(log)).toBe(4); // git is asked before each command: no stamp tells what it read past hey
  },
);

testNeeding(["git"])("while git reads a slow include (a FIFO), hey goes on (timers fire), and Esc's abort ends the wait with its own reason", async () => {
  const repo = repoIncluding(fresh(), (path) => Bun.spawnSync(["mkfifo", path]));
  const stop = new AbortController();
  let settled = false;
  const reading = Promise.resolve(repositoryPrograms(repo, "git status", "/nonexistent", process.env, stop.signal)).then((programs) => {
    settled = true;
    return programs;
  });
  const settledAtFirstTimer = await new Promise<boolean>((done) => setTimeout(() => done(settled), 0));
  expect(settledAtFirstTimer).toBe(false);
  stop.abort();
  const programs = await reading;
  expect(programs.filter(isRefusal)).toEqual(["/hey: the command was stopped while git listed this repository's config, so no git runs in this command"]);
});

testNeeding(["git"])("a link below .git/modules that leads out of the git directory, or back into it, is not walked: git is not refused", async () => {
  const base = fresh();
  const repo = join(base, "repo");
  Bun.spawnSync(["git", "init", "-q", repo]);
  const deep = join(base, "elsewhere", ...Array.from({ length: 40 }, (_, i) => `d${i}`)); // deeper than hey walks
  mkdirSync(deep, { recursive: true });
  const modules = join(repo, ".git", "modules");
  mkdirSync(join(modules, "a"), { recursive: true });
  symlinkSync(join(base, "elsewhere"), join(modules, "out"));
  symlinkSync(modules, join(modules, "a", "back"));
  expect(await repositoryPrograms(repo, "git status", "/nonexistent", process.env)).toEqual([]);
});

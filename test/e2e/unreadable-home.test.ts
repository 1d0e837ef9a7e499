// A HOME this user cannot enter — another user's, mode 700 (`sudo -u ci hey …` keeping HOME) — made hey stop with `…/.config/hey/config.toml: cannot read (EACCES)`
// and nothing on what to do. It now says: set HOME or XDG_CONFIG_HOME. A config file that is itself
// unreadable, in a home that is fine, keeps the plain message: changing HOME is no fix for it. A
// HOME under a file (HOME=/dev/null) holds no config at all: the run goes on.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";

const server = fileModelServer(() => ({ text: "answered" }));
const dir = eachTempDir("hey-unreadable-home-");
const HINT = "; set HOME or XDG_CONFIG_HOME to a directory this user can read";
/** a user that is not the owner of what the test makes: `nobody` when the tests run as root (root enters every directory) */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** A copy of dist/hey the other user can run: the checkout may sit in a directory only root enters (/root/…). */
let shared: string | undefined;
async function binary(): Promise<string> {
  if (!asRoot) return ensureBinary();
  if (!shared) {
    shared = mkdtempSync(join(tmpdir(), "hey-other-user-"));
    chmodSync(shared, 0o755);
    copyFileSync(await ensureBinary(), join(shared, "hey"));
    chmodSync(join(shared, "hey"), 0o755);
  }
  return join(shared, "hey");
}
afterAll(() => {
  if (shared) rmSync(shared, { recursive: true, force: true });
});

/** dist/hey -p with `home` as HOME, as a user other than root; its exit code and stderr. */
async function heyWithHome(home: string, opts: { xdg?: false } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const other = asRoot ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"] : [];
  const where = (name: string) => join(dir.path, name);
  const proc = Bun.spawn([...other, await binary(), "--base-url", server.baseUrl, "-m", "m", "-p", "hi"], {
    cwd: dir.path,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ...(opts.xdg === false ? {} : { XDG_STATE_HOME: where("state"), XDG_CACHE_HOME: where("cache") }),
      NO_COLOR: "1",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 20_000,
  });
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  return { code, stdout, stderr };
}

/** `path` made this test's other user's (when running as root), so that user can enter it. */
function ours(path: string): void {
  if (asRoot) chownSync(path, NOBODY, NOBODY);
}

test("a HOME another user's, mode 700: exit 2, the config file named, and what to do", async () => {
  chmodSync(dir.path, 0o755); // the run's directory is open to the other user
  const home = join(dir.path, "home");
  mkdirSync(join(home, ".config", "hey"), { recursive: true });
  writeFileSync(join(home, ".config", "hey", "config.toml"), "");
  chmodSync(home, asRoot ? 0o700 : 0o000); // as root: root's, which the other user cannot enter
  try {
    expect(await heyWithHome(home)).toMatchObject({ code: 2, stderr: `hey: ${join(home, ".config", "hey", "config.toml")}: cannot read (EACCES)${HINT}\n` });
  } finally {
    chmodSync(home, 0o700); // removable again
  }
  expect(server.requests).toHaveLength(0);
});

// nothing can exist below a file (git counts its config files so too): no config there, and the run
// goes on; an unreadable one (EACCES above) may hold deny rules, and stops it
test("a HOME under a regular file: no config there, the run answers", async () => {
  chmodSync(dir.path, 0o755);
  writeFileSync(join(dir.path, "file"), "");
  ours(join(dir.path, "file"));
  const r = await heyWithHome(join(dir.path, "file", "home"));
  expect(r).toMatchObject({ code: 0, stdout: "answered\n" });
  expect(r.stderr).not.toContain("config.toml");
});

test("HOME=/dev/null with no XDG directories: the run answers; what cannot be kept says to set a directory, never to move /dev/null", async () => {
  chmodSync(dir.path, 0o755);
  const r = await heyWithHome("/dev/null", { xdg: false });
  expect(r).toMatchObject({ code: 0, stdout: "answered\n" });
  expect(r.stderr).not.toContain("ENOTDIR");
  expect(r.stderr).not.toContain("move the file away");
  expect(r.stderr).toContain("/dev/null is not a directory, so hey cannot keep /dev/null/.local/state/hey");
  expect(r.stderr).toContain("set XDG_STATE_HOME (or HOME) to a directory this user may write");
});

test("a config file unreadable itself in a home that is fine: the plain message, no word of HOME", async () => {
  chmodSync(dir.path, 0o755);
  const home = join(dir.path, "home");
  const file = join(home, ".config", "hey", "config.toml");
  mkdirSync(join(home, ".config", "hey"), { recursive: true });
  writeFileSync(file, "");
  for (const path of [home, join(home, ".config"), join(home, ".config", "hey")]) ours(path);
  chmodSync(file, 0o000);
  expect(await heyWithHome(home)).toMatchObject({ code: 2, stderr: `hey: ${file}: cannot read (EACCES)\n` });
});

// A config.toml that is a FIFO (`mkfifo`, a dotfiles tool's pipe) held hey in open() at start-up,
// waiting for a writer, with no word; Ctrl-C ended it with nothing said. It is refused as a
// directory is: the path named, exit 2, the model never asked.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";

const server = fileModelServer(() => ({ text: "answered" }));
const dir = eachTempDir("hey-fifo-config-");

/** A FIFO at `path` (its directory made). */
function fifo(path: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
  return path;
}

test.each([
  ["the user's config.toml", (home: string) => ({ path: fifo(join(home, "config", "hey", "config.toml")), args: [] as string[] })],
  ["a --config file", (home: string) => ({ path: fifo(join(home, "pipe.toml")), args: ["--config", join(home, "pipe.toml")] })],
])("%s that is a FIFO: exit 2 at once, naming it", async (_what, make) => {
  const { path, args } = make(dir.path);
  const r = await runHey([...args, "--base-url", server.baseUrl, "-m", "m", "-p", "hi"], {
    cwd: dir.path,
    env: { XDG_CONFIG_HOME: join(dir.path, "config"), XDG_STATE_HOME: join(dir.path, "state"), XDG_CACHE_HOME: join(dir.path, "cache") },
    timeoutMs: 15_000,
  });
  expect(r).toEqual({ code: 2, stdout: "", stderr: `hey: ${path} is not a regular file (a FIFO, device or socket); hey reads config only from a file\n` });
  expect(server.requests).toHaveLength(0);
});

test("--config /dev/null still reads as an empty config", async () => {
  const r = await runHey(["--config", "/dev/null", "--base-url", server.baseUrl, "-m", "m", "-p", "hi"], {
    cwd: dir.path,
    env: { XDG_STATE_HOME: join(dir.path, "state"), XDG_CACHE_HOME: join(dir.path, "cache") },
  });
  expect(r).toMatchObject({ code: 0, stdout: "answered\n" });
});

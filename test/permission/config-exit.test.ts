// A permission entry that is no rule stops hey before anything runs: exit 2 and the entry named.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";

test("another agent's spelling in [permission] is a configuration error, exit 2", async () => {
  const home = tempDir();
  const work = tempDir();
  try {
    const file = join(home.path, ".config", "hey", "config.toml");
    mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
    writeFileSync(file, '[permission]\nallow = ["Bash(git:*)"]\n');
    const run = await runHey(["--base-url", "http://127.0.0.1:9/v1", "-m", "m", "-p", "x"], { cwd: work.path, env: { HOME: home.path } });
    expect(run.stderr).toBe(`hey: ${file}:2: [permission] allow: "Bash(git:*)" is another agent's syntax; write "bash: git *"\n`);
    expect(run.code).toBe(2);
  } finally {
    home.remove();
    work.remove();
  }
}, 60_000);

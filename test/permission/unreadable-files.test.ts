// The deny checks read package.json (what `npm test` runs) and git's config (whether `git push`
// forces) as each bash call is checked. A FIFO or a device there — `mkfifo package.json`, an
// include naming /dev/stdin — must not freeze hey: the check reads nothing from it and decides.
// The check runs in a child (as hey runs it, through config/control-context.ts) so that a check
// that blocks fails the test instead of blocking the test runner.
import { afterAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/e2e.ts";

const tmp = tempDir("hey-unreadable-");
afterAll(() => tmp.remove());
const root = resolve(import.meta.dir, "../..");

/** The decisions on `commands` under `deny`, checked in `cwd` by a child process; undefined when it does not finish. */
async function decisions(cwd: string, deny: string, commands: string[]): Promise<unknown[] | undefined> {
  const script = `
    import { controlContext } from ${JSON.stringify(join(root, "src/config/control-context.ts"))};
    import { compileRules, decide } from ${JSON.stringify(join(root, "src/permission/rules.ts"))};
    const { control } = controlContext({ cwd: process.cwd(), home: process.env.HOME, controls: [] });
    const { rules } = compileRules({ allow: [], deny: [${JSON.stringify(deny)}] }, "sh", control);
    console.log(JSON.stringify(${JSON.stringify(commands)}.map((command) => decide("bash", { command }, rules))));
  `;
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(tmp.path, "home"), GIT_CONFIG_NOSYSTEM: "1" };
  // the limit only ends a child that hangs (the bug); a working check takes milliseconds
  const child = Bun.spawn([process.execPath, "-e", script], {
    cwd,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 15_000,
    killSignal: "SIGKILL",
  });
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return code === 0 ? JSON.parse(out) : undefined;
}

test("a FIFO named package.json does not hang the check of `npm test`, and is not taken for one without scripts; a real one is still read", async () => {
  const dir = join(tmp.path, "fifo-package");
  mkdirSync(join(tmp.path, "home"), { recursive: true });
  mkdirSync(dir);
  execFileSync("mkfifo", [join(dir, "package.json")]);
  // npm reads what a writer sends it (`… > package.json &` left by an earlier call): its scripts are unknown
  const unknown = { allowed: false, reason: expect.stringContaining("its package.json is not a regular file (a FIFO or device)") };
  expect(await decisions(dir, "bash: rm *", ["npm test", "npm run build", "ls"])).toEqual([unknown, unknown, { allowed: true }]);
  const real = join(tmp.path, "real-package");
  mkdirSync(real);
  writeFileSync(join(real, "package.json"), JSON.stringify({ scripts: { test: "rm -r out" } }));
  expect(await decisions(real, "bash: rm *", ["npm test"])).toEqual([{ allowed: false, reason: expect.stringContaining("runs package.json's script `test`") }]);
});

test("a git config that includes a FIFO does not hang the check of `git push`", async () => {
  const dir = join(tmp.path, "fifo-git");
  mkdirSync(join(dir, ".git"), { recursive: true });
  execFileSync("mkfifo", [join(dir, "inc.fifo")]);
  writeFileSync(join(dir, ".git", "config"), "[include]\n\tpath = ../inc.fifo\n[include]\n\tpath = ../forcing.inc\n");
  writeFileSync(join(dir, "forcing.inc"), '[remote "origin"]\n\tpush = +refs/heads/*:refs/heads/*\n');
  expect(await decisions(dir, "bash: git push --force *", ["git push"])).toEqual([
    { allowed: false, reason: expect.stringContaining("may force the push through git's config") },
  ]);
});

test("a git config include that is a FIFO may force `git push`; one naming /dev/null says nothing", async () => {
  const dir = join(tmp.path, "fifo-only");
  mkdirSync(join(dir, ".git"), { recursive: true });
  execFileSync("mkfifo", [join(dir, "inc.fifo")]);
  writeFileSync(join(dir, ".git", "config"), "[include]\n\tpath = ../inc.fifo\n");
  expect(await decisions(dir, "bash: git push --force *", ["git push", "git status"])).toEqual([
    { allowed: false, reason: expect.stringContaining("inc.fifo: not a regular file (a FIFO or device)") },
    { allowed: true },
  ]);
  writeFileSync(join(dir, ".git", "config"), "[include]\n\tpath = /dev/null\n");
  expect(await decisions(dir, "bash: git push --force *", ["git push"])).toEqual([{ allowed: true }]);
});

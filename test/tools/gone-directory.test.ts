// The working directory deleted while hey runs (`rm -rf build` elsewhere, a
// `git checkout` that removed it): a spawn there fails ENOENT naming the shell, and the bash tool
// and `!COMMAND` used to send the user and the model after the shell setting. They name the directory.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBashTool } from "../../src/tools/bash.ts";
import { chooseShell } from "../../src/tools/shell.ts";
import { cannotRun, runShellCommand } from "../../src/ui/shell-command.ts";
import { callTool } from "../helpers/call-tool.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "hey-gone-dir-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const shell = chooseShell({ platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });

/** A directory made and then removed, as one deleted under a running hey. */
function removedDir(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  rmSync(dir, { recursive: true });
  return dir;
}

test("the bash tool in a deleted directory says the directory is gone, not that the shell cannot start", async () => {
  const cwd = removedDir("project");
  const bash = createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(root, "out") });
  const r = await callTool(bash, { command: "echo still here" }, { signal: new AbortController().signal, cwd });
  expect(r.isError).toBe(true);
  expect(r.output).toBe(
    `bash: the working directory ${cwd} no longer exists (deleted while hey ran); restore it (a checkout back), or cd elsewhere and restart hey`,
  );
  expect(r.output).not.toContain("HEY_SHELL");
});

test("`!COMMAND` in a deleted directory: the same words, from the same check", async () => {
  const cwd = removedDir("bang");
  const error = await runShellCommand("ls", { shell, env: process.env, cwd, signal: new AbortController().signal, show: () => {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  expect(cannotRun(shell.program, cwd, error)).toBe(
    `hey: the working directory ${cwd} no longer exists (deleted while hey ran); restore it (a checkout back), or cd elsewhere and restart hey`,
  );
});

test("a directory replaced by a file is named as that; a shell that is missing is still the shell's fault", async () => {
  const cwd = join(root, "now-a-file");
  writeFileSync(cwd, "");
  const bash = createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(root, "out") });
  const r = await callTool(bash, { command: "true" }, { signal: new AbortController().signal, cwd });
  expect(r.output).toContain(`the working directory ${cwd} is no longer a directory`);
  const missing = chooseShell({ configured: join(root, "no-such-shell"), platform: process.platform, findOnPath: () => undefined });
  const r2 = await callTool(
    createBashTool({ shell: missing, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(root, "out") }),
    { command: "true" },
    {
      signal: new AbortController().signal,
      cwd: root,
    },
  );
  expect(r2.output).toContain("(the shell is [tools] shell, or HEY_SHELL)");
});

// grep of `/` does not go down into /proc: a match count on /proc/PID/environ ("but in 3 binary
// files: /proc/123/environ") told a process's key a guess at a time, with ripgrep and with the
// built-in search alike. A /proc file named in `path` is searched as before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps } from "../helpers/find-rg.ts";
import { until } from "../helpers/wait.ts";

const tools = await bothGreps();
const SECRET = "HEY_KERNEL_DIRS_KEY=sk-guess";
let dir: string;
let holder: Bun.Subprocess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hey-grep-kernel-dirs-"));
  writeFileSync(join(dir, "environ"), `${SECRET} written in a file of the tree\n`);
  // a process whose environment holds the key, as hey's own holds the user's
  holder = Bun.spawn(["sleep", "600"], { env: { ...process.env, HEY_KERNEL_DIRS_KEY: "sk-guessed-right" }, stdout: "ignore", stderr: "ignore" });
  const environ = () =>
    Bun.file(`/proc/${holder.pid}/environ`)
      .text()
      .catch(() => "");
  await until(async () => (await environ()).includes(SECRET), "the key in the process's environment");
});
afterAll(async () => {
  holder.kill();
  await holder.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe.each(tools)("grep (%s)", (_name, tool) => {
  const ctx = () => ({ cwd: dir, signal: new AbortController().signal });

  test("a search of / finds the tree's file and names no process's environment", async () => {
    const { output, isError } = await callTool(tool, { pattern: SECRET, path: "/", glob: "**/environ" }, ctx());
    expect(isError).toBeUndefined();
    expect(output).toStartWith(`environ:1: ${SECRET}`); // the tree's, named from the project (dir)
    expect(output).not.toContain("/proc");
    expect(output).not.toContain("binary");
  });

  test("and from a path whose real path is /, with a glob that names /proc", async () => {
    const up = `${dir}${"/..".repeat(dir.split("/").length - 1)}`; // `/tmp/hey-…/..`
    const { output } = await callTool(tool, { pattern: SECRET, path: up, glob: "proc/**/environ" }, ctx());
    expect(output.split("\n")[0]).toBe(`no matches for ${JSON.stringify(SECRET)} in ${up} (glob proc/**/environ)`);
    expect(output).not.toContain("/proc/");
  });

  test("a /proc file named in path is searched as any file", async () => {
    const status = `/proc/${holder.pid}/status`;
    const line =
      readFileSync(status, "utf8")
        .split("\n")
        .findIndex((l) => l.startsWith("Pid:")) + 1;
    expect((await callTool(tool, { pattern: "^Pid:", path: status }, ctx())).output).toBe(`${status}:${line}: Pid:\t${holder.pid}`);
  });
});

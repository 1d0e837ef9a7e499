// A repository that ships a FIFO and links to /dev/zero and /proc/self/environ, through dist/hey and
// its embedded ripgrep: a `hey -p` run whose model greps and reads them ends, each call answered
// (a named one used to be read until the job was killed), and no environment reaches the model.
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-e2e-special-");
const model = eachModelServers();

test("grep of a FIFO, of a link to /dev/zero and of a directory holding both, read_file of a link to /proc/self/environ: the run ends, each answered", async () => {
  execFileSync("mkfifo", [join(project.path, "pipe.txt")]);
  symlinkSync("/dev/zero", join(project.path, "zero.txt"));
  mkdirSync(join(project.path, "data"));
  execFileSync("mkfifo", [join(project.path, "data", "queue.log")]);
  symlinkSync("/dev/zero", join(project.path, "data", "dump.log"));
  writeFileSync(join(project.path, "data", "notes.log"), "a needle here\n");
  symlinkSync("/proc/self/environ", join(project.path, "envdump.txt"));
  const calls: [string, unknown][] = [
    ["grep", { pattern: "needle", path: "pipe.txt" }],
    ["grep", { pattern: "needle", path: "zero.txt" }],
    ["grep", { pattern: "needle", path: "data" }],
    ["grep", { pattern: "needle" }],
    ["read_file", { path: "envdump.txt" }],
  ];
  const server = model((req): Turn => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls }));
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "search data/dump.log"], {
    cwd: project.path,
    env: { HEY_SECRET_PROBE: "probe-value-0001" },
  });
  expect(run.code).toBe(0);
  const results = server.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map(resultText);
  expect(results.slice(0, 4)).toEqual([
    "pipe.txt is not a regular file: a named pipe (FIFO)",
    "zero.txt is not a regular file: a character device (a link to /dev/zero)",
    "data/notes.log:1: a needle here",
    "data/notes.log:1: a needle here",
  ]);
  expect(results[4]).toMatch(/^envdump\.txt \(\/proc\/\d+\/environ\) is a process's environment, which holds its secrets \(API keys, tokens\); never read$/);
  expect(JSON.stringify(server.requests)).not.toContain("probe-value-0001");
});

// A file name that is not UTF-8 (Latin-1 `caf\xe9.txt`, as old archives make) through the compiled
// binary: the model greps, takes the path grep wrote and reads that file, as a model does.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-e2e-odd-names-");
const model = eachModelServers();

test("read_file opens a Latin-1 file name as grep wrote it, and the call's line shows that name", async () => {
  mkdirSync(join(project.path, ".git"));
  mkdirSync(join(project.path, "odd"));
  writeFileSync(Buffer.from(`${project.path}/odd/caf\xe9.txt`, "latin1"), "the needle is here\n");
  const server = model((req): Turn => {
    const results = req.messages.filter((m) => m.role === "tool").map(resultText);
    if (results.length === 0) return { calls: [["grep", { pattern: "needle" }]] };
    if (results.length === 1) return { calls: [["read_file", { path: results[0]!.split(":")[0]! }]] };
    return { text: "done" };
  });
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "go"], { cwd: project.path });
  expect(run.code).toBe(0);
  const results = server.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map(resultText);
  expect(results).toEqual(["odd/caf\\xE9.txt:1: the needle is here", "1\tthe needle is here"]);
  expect(run.stderr).toContain("read odd/caf\\xE9.txt");
});

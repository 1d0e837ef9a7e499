// The file tools through the compiled binary against a mock model that issues the calls: what a
// real project's files do to them (links, read-only files, binary output) and what the model reads back.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-e2e-files-");
const model = eachModelServers();

/** A model that makes `calls` in one turn, then says done; returns the results it read. */
async function oneTurn(calls: [string, unknown][]): Promise<string[]> {
  const server = model((req): Turn => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls }));
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "go"], { cwd: project.path });
  expect(run.code).toBe(0);
  return server.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map(resultText);
}

test("two edits of one turn, one through a link and one through its target, both land (one file, edited in call order)", async () => {
  mkdirSync(join(project.path, "config"));
  writeFileSync(join(project.path, "config", "app.toml"), "name = 'a'\nport = 1\nhost = 'h'\n");
  symlinkSync(join("config", "app.toml"), join(project.path, "app.toml"));
  const results = await oneTurn([
    ["edit", { path: "app.toml", old_string: "port = 1", new_string: "port = 2" }],
    ["edit", { path: "config/app.toml", old_string: "host = 'h'", new_string: "host = 'x'" }],
    ["edit", { path: "app.toml", old_string: "name = 'a'", new_string: "name = 'b'" }],
  ]);
  expect(results.map((r) => r.split("\n")[0])).toEqual([
    "edited app.toml: 1 replacement",
    "edited config/app.toml: 1 replacement",
    "edited app.toml: 1 replacement",
  ]);
  expect(readFileSync(join(project.path, "config", "app.toml"), "utf8")).toBe("name = 'b'\nport = 2\nhost = 'x'\n");
});

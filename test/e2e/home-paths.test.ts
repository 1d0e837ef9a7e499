// `~` in a file tool's path is the user's home through the compiled binary (SPEC §7): the model's
// read_file/write_file/grep on `~/…` reach $HOME, and no directory named `~` appears in the project.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { resultText } from "../helpers/model-server.ts";
import { fileModelServer, fileTempDir } from "../helpers/fixtures.ts";

const home = fileTempDir("hey-e2e-home-");
const project = fileTempDir("hey-e2e-project-");
writeFileSync(join(home.path, "hf.txt"), "hello from home\n");
const server = fileModelServer((req) => {
  if (req.messages.at(-1)!.role === "tool") return { text: "done" };
  return {
    calls: [
      ["read_file", { path: "~/hf.txt" }],
      ["write_file", { path: "~/wf.txt", content: "written\n" }],
      ["grep", { pattern: "from home", path: "~/hf.txt" }],
    ],
  };
});

test("read_file, write_file and grep on ~/… work on $HOME", async () => {
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "use my home files"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const results = server.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map(resultText);
  expect(results).toEqual(["1\thello from home", "created ~/wf.txt (1 line, 8 bytes)", `${join(home.path, "hf.txt")}:1: hello from home`]);
  expect(readFileSync(join(home.path, "wf.txt"), "utf8")).toBe("written\n");
  expect(existsSync(join(project.path, "~"))).toBe(false);
});

// `~` in a file tool's path is the user's home through the compiled binary (SPEC §7): the model's
// read_file/write_file/grep on `~/…` reach $HOME, and no directory named `~` appears in the project.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer, type ModelServer } from "../helpers/model-server.ts";

let server: ModelServer;
let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
beforeAll(() => {
  home = tempDir("hey-e2e-home-");
  project = tempDir("hey-e2e-project-");
  writeFileSync(join(home.path, "hf.txt"), "hello from home\n");
  server = startModelServer((req) => {
    if (req.messages.at(-1)!.role === "tool") return { text: "done" };
    return { calls: [["read_file", { path: "~/hf.txt" }], ["write_file", { path: "~/wf.txt", content: "written\n" }], ["grep", { pattern: "from home", path: "~/hf.txt" }]] };
  });
});
afterAll(() => {
  server.stop();
  home.remove();
  project.remove();
});

test("read_file, write_file and grep on ~/… work on $HOME", async () => {
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "use my home files"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const results = server.requests.at(-1)!.messages.filter((m) => m.role === "tool").map(resultText);
  expect(results).toEqual(["1\thello from home", "created ~/wf.txt (1 lines, 8 bytes)", `${join(home.path, "hf.txt")}:1: hello from home`]);
  expect(readFileSync(join(home.path, "wf.txt"), "utf8")).toBe("written\n");
  expect(existsSync(join(project.path, "~"))).toBe(false);
});

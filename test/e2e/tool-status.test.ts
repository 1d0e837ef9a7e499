// A failed command is failed everywhere (reviewer report: `echo FAIL; exit 1` showed `✗ exit 1`
// on the terminal but `"ok":true` in JSON): the tool result says so once, and the terminal's mark
// and the JSON `ok` both follow it. Through the compiled binary against a local mock model.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer } from "../helpers/model-server.ts";

let server: ModelServer;
let root: ReturnType<typeof tempDir>;
beforeAll(() => {
  server = startModelServer((req) =>
    req.messages.at(-1)!.role === "tool"
      ? { text: "checked" }
      : {
          calls: [
            ["bash", { command: "echo FAIL; exit 1" }],
            ["bash", { command: "echo fine" }],
          ],
        },
  );
  root = tempDir("hey-tool-status-");
});
afterAll(() => {
  server.stop();
  root.remove();
});

const hey = (...args: string[]) =>
  runHey(["--base-url", server.baseUrl, "-m", "m", ...args, "-p", "check"], { cwd: root.path, env: { XDG_STATE_HOME: root.path, NO_COLOR: "1" } });

test("a non-zero exit: ok false in JSON, ✗ exit 1 on the terminal; a zero exit: ok true, ✓", async () => {
  const json = await hey("--output", "json");
  expect(json.code).toBe(0);
  const results = jsonEvents(json.stdout).filter((e) => e.type === "tool_result");
  expect(results.map((r) => [r.ok, r.output])).toEqual([
    [false, "FAIL\n[exit code 1]"],
    [true, "fine\n[exit code 0]"],
  ]);
  const text = await hey();
  expect(text.code).toBe(0);
  expect(text.stderr).toMatch(/✗ .*exit 1: FAIL/);
  expect(text.stderr).toMatch(/✓ .*1 line of output/);
}, 60_000);

// A realistic task driven by a scripted model through the real loop and the real tools, in a
// temporary git repository: read the failing test, run it, fix the code, run it again.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../src/agent.ts";
import { textOf } from "../src/kernel/ir.ts";
import type { ModelRequest } from "../src/kernel/provider.ts";
import { defaultSettingsForTest } from "./helpers/settings.ts";
import { chooseShell } from "../src/tools/shell.ts";
import { createTools } from "../src/builtin-tools.ts";
import { tempDir } from "./helpers/e2e.ts";
import { fakeProvider } from "./helpers/fake-provider.ts";
import { recordingOutput } from "./helpers/recording-output.ts";
import { FIXED, makeRepo } from "./helpers/task-repo.ts";
import { agentSettings } from "../src/runtime.ts";

let repo: ReturnType<typeof tempDir>;

beforeEach(() => {
  repo = tempDir("hey-task-");
  makeRepo(repo.path);
});
afterEach(() => repo.remove());

/** The last tool result the model was shown in `req`. */
const lastResult = (req: ModelRequest) => textOf(req.messages.findLast((m) => m.role === "tool")!);

test("read the failing test, run it, fix the code, run it again", async () => {
  const provider = fakeProvider([
    {
      text: "Let me look.",
      toolCalls: [
        { name: "read_file", arguments: { path: "math.test.mjs" } },
        { name: "read_file", arguments: { path: "math.mjs" } },
      ],
    },
    { toolCalls: [{ name: "bash", arguments: { command: "node math.test.mjs" } }] },
    (req) => {
      expect(lastResult(req)).toContain("AssertionError");
      expect(lastResult(req)).toContain("[exit code 1]");
      return { toolCalls: [{ name: "edit", arguments: { path: "math.mjs", old_string: "return a - b;", new_string: "return a + b;" } }] };
    },
    { toolCalls: [{ name: "bash", arguments: { command: "node math.test.mjs" } }] },
    (req) => {
      expect(lastResult(req)).toContain("1 passed");
      expect(lastResult(req)).toContain("[exit code 0]");
      return { text: "Fixed: add() subtracted; math.mjs:2 now returns a + b and the test passes." };
    },
  ]);
  const output = recordingOutput();
  const settings = defaultSettingsForTest();
  const agent = createAgent({
    settings: agentSettings(settings),
    provider,
    tools: () => createTools(settings, { shell: chooseShell({ platform: process.platform, findOnPath: (n) => Bun.which(n) ?? undefined }), raw: false }),
    output,
    cwd: repo.path,
    system: () => "test",
    permission: () => undefined,
    taskNote: () => undefined,
  });
  const result = await agent.send("the test fails, fix it", new AbortController().signal);

  expect(result).toMatchObject({ stop: "end", turns: 5 });
  // live output lines (tool_output) come only while a command runs past LIVE_TAIL_MS: how many
  // depends on the machine's speed, so the order is checked without them
  expect(output.sequence().filter((type) => type !== "tool_output")).toEqual([
    "turn_start",
    "text_delta",
    "usage",
    "tool_call",
    "tool_call",
    "tool_result",
    "tool_result",
    "turn_start",
    "usage",
    "tool_call",
    "tool_result",
    "turn_start",
    "usage",
    "tool_call",
    "tool_result",
    "turn_start",
    "usage",
    "tool_call",
    "tool_result",
    "turn_start",
    "text_delta",
    "usage",
    "done",
  ]);
  expect(output.of("tool_call").map((e) => e.name)).toEqual(["read_file", "read_file", "bash", "edit", "bash"]);
  expect(output.of("tool_result").map((e) => e.ok)).toEqual([true, true, false, true, true]); // the first test run fails (exit 1)
  expect(output.of("tool_result")[0]!.output).toContain("assert.equal(add(2, 3), 5);");
  expect(output.of("tool_result")[3]!.output).toContain("+  return a + b;");
  expect(readFileSync(join(repo.path, "math.mjs"), "utf8")).toBe(FIXED);
  const diff = Bun.spawnSync(["git", "diff", "--stat"], { cwd: repo.path }).stdout.toString();
  expect(diff).toContain("math.mjs | 2 +-");
  expect(output.of("done")[0]).toMatchObject({ stop_reason: "end", turns: 5 });
});

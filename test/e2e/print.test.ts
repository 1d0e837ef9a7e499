// `hey -p … > answer.md` (issue 10 item 4): with stdout not a terminal it holds the final answer
// only; what the model said in turns that called tools goes to stderr, each turn on its own line.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { answer, toolCalls } from "./repl-helpers.ts";

let server: ReplayServer;
let work: ReturnType<typeof tempDir>;
beforeAll(() => {
  server = startReplayServer();
  work = tempDir();
});
afterAll(() => {
  server.stop();
  work.remove();
});

test("-p to a pipe: the final answer alone on stdout, narration on stderr", async () => {
  server.enqueue(
    toolCalls([["bash", { command: "echo one" }]], "Let me check the directory first."),
    toolCalls([["bash", { command: "echo two" }]], "Now the second thing."),
    answer("The answer is 42."),
  );
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "what is it?"], { cwd: work.path });
  expect(run).toMatchObject({ code: 0 });
  expect(run.stdout).toBe("The answer is 42.\n");
  expect(run.stderr).toContain("Let me check the directory first.\n$ echo one\n");
  expect(run.stderr).toContain("Now the second thing.\n$ echo two\n");
  expect(run.stderr).not.toContain("42");
}, 60_000);

test("model text cannot reach the terminal's control sequences through -p either", async () => {
  server.enqueue(answer("title\x1b]0;owned\x07 done"));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi"], { cwd: work.path });
  expect(run.stdout).toBe("title^[]0;owned^G done\n");
}, 60_000);

// An embedder's agent (lib.ts createAgent) with hey's session writer: a step's request waits for
// the session file's fsync a step's sync was queued behind, as the CLI's does, so a power cut loses
// one step at most (before: only the CLI's provider was wrapped, and an embedder's steps ran ahead
// of a slow disk, each one more step a power cut could take).
import { afterAll, afterEach, expect, test } from "bun:test";
import { createAgent, createSessionWriter, emptyUsage, fanOut, newId, type Provider, type Tool } from "../src/lib.ts";
import { fileSync } from "../src/sessions/background-sync.ts";
import { tempDir } from "./helpers/e2e.ts";
import { until } from "./helpers/wait.ts";

/** background fsyncs started and not finished yet: a disk that takes its time */
const running: { done: (e: NodeJS.ErrnoException | null) => void }[] = [];
const realRun = fileSync.run;
fileSync.run = (_fd, done) => void running.push({ done });
const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  while (running.length > 0) running.shift()!.done(null);
  for (const d of dirs.splice(0)) d.remove();
});
afterAll(() => {
  fileSync.run = realRun;
});

/** every callback already due has run: a turn of the event loop, not a wait on the clock */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

test("an embedded agent's third request waits for the fsync the second step's sync was queued behind, and goes once it ends", async () => {
  const dir = tempDir("hey-embed-synced-");
  dirs.push(dir);
  let sent = 0;
  // two steps that call the tool, then the answer
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream() {
      if (++sent < 3) {
        const call = { id: `call_${sent}`, name: "t", arguments: "{}" };
        yield { type: "tool_call", call };
        yield { type: "done", message: { id: newId(), role: "assistant", content: [], toolCalls: [call] }, usage: emptyUsage(), stop: "tool_calls" };
        return;
      }
      yield { type: "text", delta: "done" };
      yield { type: "done", message: { id: newId(), role: "assistant", content: [{ type: "text", text: "done" }] }, usage: emptyUsage(), stop: "stop" };
    },
  };
  const tool: Tool = { name: "t", description: "does nothing", parameters: { type: "object", properties: {} }, run: async () => ({ output: "ok" }) };
  const writer = createSessionWriter({ dir: dir.path, id: newId(), cwd: dir.path, version: "test", warn: () => {} });
  let third = false; // the loop began the third step
  const output = fanOut([writer, { emit: (e) => void (third ||= e.type === "turn_start" && e.turn === 3) }]);
  const agent = createAgent({ provider, cwd: dir.path, tools: [tool], output, settings: { context: { compressTool: false } } });
  const run = agent.send("go", new AbortController().signal);

  await until(() => third, "the third step");
  for (let i = 0; i < 10; i++) await settled();
  expect(running).toHaveLength(1); // the first step's sync, which the disk has not ended; the second's waits behind it
  expect(sent).toBe(2); // old code: 3, the request out with two steps not yet durable
  running.shift()!.done(null);
  await until(() => sent === 3, "the third request");
  while (running.length > 0) running.shift()!.done(null);
  expect((await run).stop).toBe("end");
  writer.close();
});

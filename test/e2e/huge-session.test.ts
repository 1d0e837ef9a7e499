// A session whose first prompt is one 200 MB line, then `hey -c` (issue 13 row 4): the line is
// never loaded — resume takes its start and goes on at once, in bounded memory.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { runMeasured } from "../../scripts/bench-mock.ts";
import { writeHugePromptSession } from "../helpers/big-session.ts";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { startModelServer, textOf } from "../helpers/model-server.ts";

const model = startModelServer(() => ({ text: "Continuing." }));
const work = tempDir();
const state = tempDir();
afterAll(() => {
  model.stop();
  work.remove();
  state.remove();
});

test("`hey -c` on a session whose first prompt is a 200 MB line: quick, under 100 MB, the prompt's start sent", async () => {
  const dir = join(state.path, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  const { answer } = writeHugePromptSession(dir, work.path, 200);
  const bin = await ensureBinary();
  const run = await runMeasured([bin, "--base-url", model.baseUrl, "-m", "m", "-c", "-p", "and now?"], {
    cwd: work.path,
    env: { PATH: process.env.PATH ?? "", HOME: work.path, XDG_STATE_HOME: state.path },
    timeoutMs: 30_000,
  });
  expect(run).toMatchObject({ code: 0, stdout: "Continuing.\n" });
  expect(run.stderr).toContain("a message over 8.0 MB loaded as its start only (the file keeps it whole)");
  expect(run.peakRss).toBeLessThan(100 * 1024 * 1024);
  const sent = model.requests[0]!.messages.map(textOf);
  expect(sent[1]).toStartWith("summarize this log:\nAAAA");
  expect(sent[1]!.length).toBeLessThan(3000);
  expect(sent.slice(2)).toEqual([answer, "and now?"]);
  console.log(`hey -c on a 200 MB first prompt: ${(run.ms / 1000).toFixed(2)} s, peak RSS ${(run.peakRss / 1e6).toFixed(1)} MB`);
}, 60_000);

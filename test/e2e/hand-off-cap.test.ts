// `--max-run-tokens` is a cap the user set: once it is passed, the hand-off request is trimmed to
// the budget, not preceded by a summary request the run no longer needs (which cost as much
// again as the context it summarized).
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf, type ChatRequest } from "../helpers/model-server.ts";

const isSummary = (req: ChatRequest) => systemOf(req).startsWith("You compress");
const isHandOff = (req: ChatRequest) => (req as ChatRequest & { tool_choice?: string }).tool_choice === "none";
// every tool-calling turn reads ~1,000 tokens of output; the provider counts a token per 4 bytes sent
const model = fileModelServer(
  (req) => {
    if (isSummary(req)) return { text: "Summary: printed blocks of zeros." };
    if (isHandOff(req)) return { text: "Done so far: printed zeros.\nRemaining: more zeros." };
    return { calls: [["bash", { command: `printf "%04000d" ${req.messages.length}` }]] };
  },
  { promptTokens: (body) => Math.ceil(body.length / 4) },
);
const work = eachTempDir();
const state = eachTempDir();

test("past --max-run-tokens on a full context, the hand-off is made without a summary request", async () => {
  const config = join(work.path, "hey.toml");
  writeFileSync(config, "[agent]\nbudget_tokens = 4000\n");
  model.requests.length = 0;
  const cap = 10_000;
  const run = await runHey(
    ["--base-url", model.baseUrl, "-m", "m", "--config", config, "--output", "json", "--max-run-tokens", String(cap), "-p", "print zeros"],
    {
      cwd: work.path,
      env: { XDG_STATE_HOME: state.path },
    },
  );
  expect(run.code).toBe(3);
  expect(model.requests.findIndex(isHandOff)).toBe(model.requests.length - 1);
  // the context was over the budget at the hand-off (without the cap the next turn would summarize)...
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "compaction").map((e) => e.kind)).toEqual(["trim"]);
  // ...and the hand-off fit it by a trim: no summary request past the cap
  expect(model.requests.filter(isSummary)).toEqual([]);
  // (6 turns: the ceiling cuts older outputs down to 60 % of the budget, so the requests are smaller and one more fits under the cap; 5 when it cut to 80 %)
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "max_run_tokens", turns: 6 });
});

// Cost near the budget through dist/hey (issue 23): a run of 40 file reads against a small budget,
// with an endpoint that cannot summarize (a scripted or free one). Once hey has to leave turns
// out it makes room for the next ones, so most requests extend the previous one — the prefix the
// provider has cached — and a summary is asked for again only when the budget is reached again.
import { beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf, type ChatMessage } from "../helpers/model-server.ts";

const READS = 40;
const BUDGET = 10_000;
let reads = 0;
const model = fileModelServer(
  (req) => {
    if (systemOf(req).startsWith("You compress")) throw new Error("this endpoint writes no summaries");
    return reads < READS ? { calls: [["read_file", { path: `f${reads++}.txt` }]] } : { text: "Read them all." };
  },
  { promptTokens: (body) => Math.ceil(body.length / 4) }, // a tokenizer's count: the estimate stays at 4 characters a token
);
const work = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  reads = 0;
  writeFileSync(join(work.path, "hey.toml"), `[agent]\nbudget_tokens = ${BUDGET}\nmax_turns = 60\n`);
  // 1.5 to 5 KB each: 375 to 1,250 tokens a turn
  for (let i = 0; i < READS; i++) {
    const lines = Array.from({ length: 30 + ((i * 7919) % 8) * 15 }, (_, k) => `line ${k} of f${i}: ${"data ".repeat(8)}`);
    writeFileSync(join(work.path, `f${i}.txt`), `${lines.join("\n")}\n`);
  }
});

test("with summaries failing, the requests after a trim extend the same prefix: a rewrite only when the budget is reached again", async () => {
  const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "--config", join(work.path, "hey.toml"), "-p", "read f0.txt to f39.txt"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") },
  });
  expect(run.code).toBe(0);
  const summaries = model.requests.filter((r) => systemOf(r).startsWith("You compress")).length;
  const chats = model.requests.filter((r) => !systemOf(r).startsWith("You compress"));
  expect(chats).toHaveLength(READS + 1);
  // a request's last message carries the context line: the prefix is everything before it
  const text = (m: ChatMessage) => JSON.stringify(m);
  let rewrites = 0;
  for (let i = 1; i < chats.length; i++) {
    const before = chats[i - 1]!.messages.slice(0, -1).map(text);
    const now = chats[i]!.messages.map(text);
    if (before.some((m, k) => now[k] !== m)) rewrites++;
  }
  expect(rewrites).toBeGreaterThan(0); // the budget was reached: turns were left out
  // dropping just enough, then on to a fixed step, rewrote the prefix 17 times in these 41 requests
  // and made 70 summary requests (two a try: once more without reasoning), a try on every request
  // after the first trim; now 9 and 18
  expect(rewrites).toBeLessThanOrEqual(10);
  expect(summaries).toBeLessThanOrEqual(2 * rewrites);
});

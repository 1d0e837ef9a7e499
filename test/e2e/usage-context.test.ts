// `/usage` through dist/hey before any request of a run (SPEC §10): the context it reports holds
// the system prompt and the tools, estimated as the requests estimate them, so a fresh session's
// number and a resumed one's differ by the conversation only, and match what was sent.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { textOf } from "../helpers/model-server.ts";
import { sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { say } from "./repl-helpers.ts";

// no prompt tokens reported: the estimate is not corrected (a resume would start from the corrected ratio), so runs estimate alike
const model = fileModelServer(() => ({ text: "Paris." }), { promptTokens: () => 0 });
const work = eachTempDir();
const state = eachTempDir();
const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
/** the `~N` of /usage's context line */
const contextTokens = (stdout: string) => Number(/^context: ~([\d,]+) of 40,000 tokens/m.exec(stdout)?.[1]?.replace(/,/g, "") ?? Number.NaN);

test("/usage before any request counts the system prompt and tools; after -c only the conversation is added", async () => {
  const fresh = await hey(["-p", "/usage"]);
  expect(fresh.code).toBe(0);
  const start = contextTokens(fresh.stdout);
  expect(fresh.stdout).toMatch(/^context: ~[\d,]+ of 40,000 tokens \(\d+%\) · 0 messages in the session$/m);

  expect((await hey(["-p", "capital of France?"])).code).toBe(0);
  // what the first request carried besides the conversation: the system prompt and the tools' schemas
  const sent = model.requests.at(-1)!;
  const fixedChars = textOf(sent.messages[0]).length + JSON.stringify(sent.tools ?? []).length;
  // hey's estimate is 0.25 tokens a character of its own tool specs, a little less than the wire's wrapping
  expect(start).toBeGreaterThan(0.2 * fixedChars);
  expect(start).toBeLessThan(0.3 * fixedChars);

  const resumed = await hey(["-c", "-p", "/usage"]);
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain("· 2 messages in the session");
  const after = contextTokens(resumed.stdout);
  // "capital of France?" and "Paris." are a handful of tokens: the fixed part is the same
  expect(after).toBeGreaterThan(start);
  expect(after - start).toBeLessThan(20);
});

test("/usage after an exchange counts the model's latest answer: the number the next run's /usage starts from", async () => {
  const home = tempDir("hey-home-");
  const terms: Term[] = [];
  const server = startReplayServer();
  try {
    const answer = "lorem ipsum dolor sit amet ".repeat(1500).trim(); // ~40,000 characters: thousands of tokens
    // no prompt tokens reported: the estimate is not corrected, so two runs estimate alike
    const noCount = chatChunk({ usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
    server.enqueue(sseReply(sseEvents([chatChunk({ content: answer }), chatChunk({ finish: "stop" }), noCount])));
    writeFileSync(
      join(home.path, "config.toml"),
      `[default]\nprovider = "mock"\nmodel = "m"\n[provider.mock]\nbase_url = "${server.url}/v1"\nmodels = ["m"]\n`,
    );
    const open = async (...args: string[]) => {
      const term = await startTerm({
        args: ["--config", join(home.path, "config.toml"), ...args],
        cwd: home.path,
        cols: 200,
        rows: 50,
        env: { HOME: home.path, NO_COLOR: "1" },
      });
      terms.push(term);
      await term.waitFor(/^›/m);
      return term;
    };
    const usageOf = async (term: Term) => contextTokens(await say(term, "/usage", /^context: ~/m));

    const first = await open();
    const before = await usageOf(first);
    await say(first, "write it out", "lorem ipsum dolor sit amet");
    const after = await usageOf(first);
    const answerTokens = answer.length * 0.25; // hey's estimate before any correction
    expect(after - before).toBeGreaterThan(0.9 * answerTokens); // the answer counts, not only the question
    await say(first, "/quit", "[exit 0]");

    const resumed = await open("-c");
    const again = await usageOf(resumed);
    expect(Math.abs(again - after)).toBeLessThan(20); // the same conversation, the same number
  } finally {
    for (const t of terms) await t.close();
    server.stop();
    home.remove();
  }
});

// The token estimate's correction survives `hey -c` (SPEC §10): hey counts characters and corrects
// the ratio with the provider's reported input tokens; the session keeps the corrected ratio, so
// after a resume `/usage` (and the first request's budget) agrees with the provider's count
// instead of starting again from the default and under-counting a window's worth.
import { expect, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { startModelServer, systemOf } from "../helpers/model-server.ts";

// a tokenizer denser than hey's default: a token per 3 bytes sent; the first request reads a large file
const model = fileModelServer((req) => (req.messages.length <= 2 ? { calls: [["read_file", { path: "big.txt" }]] } : { text: "Read it." }), {
  promptTokens: (body) => Math.ceil(body.length / 3),
});
const work = eachTempDir();
const state = eachTempDir();
const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
/** the `~N` of /usage's context line */
const contextTokens = (stdout: string) => Number(/^context: ~([\d,]+) of [\d,]+ tokens/m.exec(stdout)?.[1]?.replace(/,/g, "") ?? Number.NaN);

test("after -c, /usage estimates the context as the provider counted it, not with the default ratio", async () => {
  await Bun.write(`${work.path}/big.txt`, "the quick brown fox jumps over the lazy dog\n".repeat(400));
  expect((await hey(["-p", "read big.txt"])).code).toBe(0);
  const usage = await hey(["-c", "-p", "/usage"]);
  expect(usage.code).toBe(0);
  const estimate = contextTokens(usage.stdout);
  // the next request holds what /usage estimated plus the new prompt: the provider's count of it
  model.requests.length = 0;
  const sizes = model.sizes.length;
  expect((await hey(["-c", "-p", "ok"])).code).toBe(0);
  const counted = Math.ceil(model.sizes[sizes]! / 3);
  expect(Math.abs(estimate - counted) / counted).toBeLessThan(0.05);
});

test("after -c near a small window, the first request fits it: no context-length refusal and resend", async () => {
  const WINDOW = 12_000;
  const FILES = 12;
  let refused = 0;
  // a tokenizer still denser (a token per 2.5 bytes): the default estimate under-counts by ~40%, more than the budget's 20% margin
  const local = startModelServer(
    (req) => {
      const tokens = Math.ceil(JSON.stringify(req).length / 2.5);
      if (tokens > WINDOW) {
        refused++;
        throw new Error(`This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${tokens} tokens.`);
      }
      if (systemOf(req).startsWith("You compress")) throw new Error("no summaries here"); // older turns are left out instead
      const next = Math.max(-1, ...[...JSON.stringify(req.messages).matchAll(/part(\d+)\.txt/g)].map((m) => Number(m[1]))) + 1;
      return next < FILES ? { calls: [["read_file", { path: `part${next}.txt` }]] } : { text: "Read them." };
    },
    { promptTokens: (body) => Math.ceil(body.length / 2.5) },
  );
  try {
    // each ~1,800 of the model's tokens: together more than the window, so the requests hold as many as the budget allows
    for (let i = 0; i < FILES; i++) await Bun.write(`${work.path}/part${i}.txt`, `part ${i}: the quick brown fox jumps over the lazy dog\n`.repeat(90));
    const config = `${work.path}/hey.toml`;
    await Bun.write(
      config,
      `[default]\nprovider = "local"\nmodel = "m"\n[provider.local]\nbase_url = "${local.baseUrl}"\nmodels = ["m"]\ncontext_window = ${WINDOW}\n`,
    );
    const run = (args: string[]) => runHey(["--config", config, ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
    expect((await run(["-p", "read the parts"])).code).toBe(0);
    expect(refused).toBe(0); // the first run learned the ratio from its first answer and left older parts out to fit
    const sent = local.requests.length;
    expect((await run(["-c", "-p", "go on"])).code).toBe(0);
    // one request (before: one the model refused as too long, then the same cut to the window it named)
    expect(local.requests.slice(sent).filter((r) => !systemOf(r).startsWith("You compress"))).toHaveLength(1);
    expect(refused).toBe(0);
  } finally {
    local.stop();
  }
});

// The token estimate's correction survives `hey -c` (SPEC §10): hey counts characters and corrects
// the ratio with the provider's reported input tokens; the session keeps the corrected ratio, so
// after a resume `/usage` (and the first request's budget) agrees with the provider's count
// instead of starting again from the default and under-counting a window's worth.
import { expect, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";

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

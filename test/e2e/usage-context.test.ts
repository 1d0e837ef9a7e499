// `/usage` through dist/hey before any request of a run (SPEC §10): the context it reports holds
// the system prompt and the tools, estimated as the requests estimate them, so a fresh session's
// number and a resumed one's differ by the conversation only, and match what was sent.
import { expect, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { textOf } from "../helpers/model-server.ts";

const model = fileModelServer(() => ({ text: "Paris." }));
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

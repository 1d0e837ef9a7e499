// OpenAI-compatible servers' own rules, through the compiled binary against loopback mocks: what a
// user of Mistral and of OpenRouter's free models sees when the server differs from OpenAI's.
import { afterAll, expect, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { type ChatRequest, startModelServer } from "../helpers/model-server.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const work = eachTempDir();
const state = eachTempDir();

/** Every tool-call id of a request, on the calls and on their results. */
const idsOf = (req: ChatRequest) => req.messages.flatMap((m) => [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id ? [m.tool_call_id] : [])]);

// "strict" refuses ids as Mistral does (jackmpcollins/magentic#276): a Mistral model behind a
// gateway or a local server, under a name hey cannot tell. Each run calls a tool, then answers.
const mistral = startModelServer((req) => {
  if (req.model === "strict")
    for (const id of idsOf(req)) if (!/^[A-Za-z0-9]{9}$/.test(id)) throw new Error(`Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`);
  return req.messages.at(-1)?.role === "tool" ? { text: "Done." } : { calls: [["bash", { command: "echo checked" }]] };
});
afterAll(() => mistral.stop());

test("a session begun on another model continues on one that takes only Mistral's 9-character tool-call ids", async () => {
  const hey = (args: string[]) => runHey(["--base-url", mistral.baseUrl, ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(await hey(["-m", "gpt", "-p", "check it"])).toMatchObject({ code: 0, stdout: "Done.\n" });
  const before = mistral.requests.length;
  const resumed = await hey(["-c", "-m", "strict", "-p", "and again?"]);
  expect(resumed).toMatchObject({ code: 0, stdout: "Done.\n" });
  expect(resumed.stderr).not.toContain("error");
  const sent = mistral.requests.slice(before);
  // one refusal, then every request with ids it takes, the first run's among them
  expect(sent.map((r) => idsOf(r).every((id) => /^[A-Za-z0-9]{9}$/.test(id)))).toEqual([false, true, true]);
  expect(idsOf(sent.at(-1)!)).toHaveLength(4);
});

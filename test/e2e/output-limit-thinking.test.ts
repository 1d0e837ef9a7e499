// Budget thinking on a model whose output limit is below the room hey gives it (claude-opus-4-1:
// 32000 output tokens; `-t max` asks a 32000-token budget, so max_tokens 36096). Anthropic refuses
// with the limit in its words; hey fits the budget under it, says so, and the run answers. Before,
// hey lowered max_tokens, the budget raised it again, and the same refused request went out
// thousands of times a second, forever. dist/hey against a server that judges as the API does.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { startRefusingServer } from "../helpers/refusing-server.ts";

const work = fileTempDir("hey-limit-");
const invalid = (message: string) => ({ status: 400, error: { type: "error", error: { type: "invalid_request_error", message } } });
const server = startRefusingServer((body) => {
  const thinking = body.thinking as { type: string; budget_tokens?: number } | undefined;
  if (server.bodies.length > 200) return invalid("too many requests from one run"); // still refused: the count tells
  if (thinking?.type === "adaptive") return invalid("thinking.type: adaptive thinking is not supported on this model");
  const max = body.max_tokens as number;
  if (max > 32000) return invalid(`max_tokens: ${max} > 32000, which is the maximum allowed number of output tokens for claude-opus-4-1-20250805`);
  if (thinking?.type === "enabled" && !(thinking.budget_tokens! >= 1024 && thinking.budget_tokens! < max))
    return invalid("`max_tokens` must be greater than `thinking.budget_tokens`");
  return textReply("anthropic", "Hi there.");
});
afterAll(() => server.stop());

test.each([
  // a gateway's name for claude-opus-4-1, which hey does not know: learned from the refusals
  ["house-opus, legacy_thinking = true", "house-opus", "legacy_thinking = true\n", 2],
  ["house-opus, adaptive thinking refused first", "house-opus", "", 3],
  // its own name: budget thinking within its documented 32000 from the first request (before: 3 requests on every run)
  ["claude-opus-4-1", "claude-opus-4-1", "", 1],
])("-t max on %s: the budget goes under the limit and the run answers", async (label, model, legacy, requests) => {
  const home = join(work.path, label.replace(/\W+/g, "-"));
  writeUserConfig(home, `[provider.claude45]\nprotocol = "anthropic"\nbase_url = "${server.url}"\napi_key = "k-1"\nmodels = ["${model}"]\n${legacy}`);
  const before = server.bodies.length;
  const run = await runHey(["-m", `claude45/${model}`, "-t", "max", "-p", "hi"], { cwd: home, env: { HOME: home } });
  expect(server.bodies.length - before).toBe(requests);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("Hi there.\n");
  const notice = "hey: this model takes at most 32000 output tokens: thinking gets a budget of 27904 tokens in place of 32000";
  expect(run.stderr.includes(notice)).toBe(requests > 1);
  expect(server.bodies.at(-1)).toMatchObject({ max_tokens: 32000, thinking: { type: "enabled", budget_tokens: 27904 } });
});

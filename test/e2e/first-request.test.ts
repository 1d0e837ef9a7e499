// SPEC §13/§22: the first request of `hey -p "say hi"` — system prompt and every tool schema —
// stays within 4,500 bytes, and the bash tool's description (its contract, seed §11.5) says that
// git diff/status/log/show output is never filtered.
import { afterAll, expect, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { startModelServer } from "../helpers/model-server.ts";

const model = startModelServer(() => ({ text: "hi" }));
afterAll(() => model.stop());

test('`hey -p "say hi"` sends at most 4,500 bytes; bash says git output is never filtered', async () => {
  const run = await runHey(["--base-url", model.baseUrl, "-m", "bench-model", "-p", "say hi"]);
  expect(run.code).toBe(0);
  expect(model.sizes[0]).toBeLessThanOrEqual(4500);
  const bash = (model.requests[0]!.tools as unknown as { function: { name: string; description: string } }[]).find((t) => t.function.name === "bash")!;
  expect(bash.function.description).toContain("never git diff/status/log/show");
  console.log(`first request for "say hi": ${model.sizes[0]} bytes`);
});

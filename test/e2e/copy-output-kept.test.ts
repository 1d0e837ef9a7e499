// Through dist/hey: a model that sends the same read_file twice in one reply (as weak models do)
// gets the file once and a copy's note for the second. The file's lines must stay in every later
// request: dedup took the copy for the later identical call and, from the fifth request on, sent
// the first call's output as "[pruned: duplicate call …]" — the file gone, with no sign of it.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";
import type { ChatMessage, ChatRequest } from "../helpers/model-server.ts";

const work = eachTempDir("hey-copy-kept-");
const state = eachTempDir("hey-copy-kept-state-");
const model = eachModelServers();

const textOf = (m: ChatMessage) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join(""));

test("the first of two identical calls in one reply keeps its output in every later request", async () => {
  writeFileSync(join(work.path, "app.ts"), Array.from({ length: 30 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join("\n") + "\n");
  for (let i = 1; i <= 5; i++) writeFileSync(join(work.path, `other${i}.ts`), `// other file ${i}\n`);
  const m = model((req: ChatRequest) => {
    const n = req.messages.filter((x) => x.role === "assistant").length;
    if (n === 0)
      return {
        calls: [
          ["read_file", { path: "app.ts" }],
          ["read_file", { path: "app.ts" }],
        ],
      };
    return n <= 5 ? { calls: [["read_file", { path: `other${n}.ts` }]] } : { text: "app.ts exports line1 to line30." };
  });
  const run = await runHey(["--base-url", m.baseUrl, "-m", "m", "-p", "what does app.ts export?"], {
    cwd: work.path,
    env: { HOME: state.path, XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") },
  });
  expect(run.code).toBe(0);
  expect(m.requests).toHaveLength(7);
  const [first, copy] = m.requests[1]!.messages.find((x) => x.tool_calls)!.tool_calls!.map((c) => c.id);
  for (const req of m.requests.slice(1)) {
    const results = req.messages.filter((x) => x.role === "tool");
    expect(textOf(results.find((x) => x.tool_call_id === first)!)).toContain("export const line30 = 30;");
    expect(textOf(results.find((x) => x.tool_call_id === copy)!)).toStartWith("same call as the 1st in this reply: not run again");
    expect(results.some((x) => textOf(x).includes("[pruned: duplicate call"))).toBe(false);
  }
});

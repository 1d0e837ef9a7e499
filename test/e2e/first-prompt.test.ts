// An oversized first prompt (issue 13 row 2): sent whole once, then trimmed to its start and end
// like any message that does not fit — in the next turn and after `-c` — while the session file
// keeps it whole.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { startModelServer, textOf, type ChatRequest } from "../helpers/model-server.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

// calls a tool on the first request of a run, then answers
const model = startModelServer((req) =>
  req.messages.some((m) => m.role === "tool") || textOf(req.messages.at(-1)).startsWith("and")
    ? { text: "Done." }
    : { calls: [["bash", { command: "echo checked" }]] },
);
afterAll(() => model.stop());
const work = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  model.requests.length = 0;
});

test("a 100 KB first prompt is sent whole once, then as its start and end; the session keeps it whole", async () => {
  const cfg = join(work.path, "hey.toml");
  writeFileSync(cfg, "[agent]\nbudget_tokens = 10000\n"); // the first prompt may then take 5,000 tokens
  const log = Array.from({ length: 2000 }, (_, i) => `line ${String(i).padStart(4, "0")}: ${"x".repeat(40)}`).join("\n") + "\n";
  const hey = (args: string[], stdin?: string) =>
    runHey(["--base-url", model.baseUrl, "-m", "m", "--config", cfg, ...args], {
      cwd: work.path,
      env: { XDG_STATE_HOME: state.path },
      ...(stdin ? { stdin } : {}),
    });

  const run = await hey(["summarize"], log);
  expect(run).toMatchObject({ code: 0, stdout: "Done.\n" });
  const firstPrompt = (req: ChatRequest) => textOf(req.messages[1]);
  const [whole, later] = model.requests.map(firstPrompt);
  expect(whole).toContain(log);
  expect(whole!.length).toBeGreaterThan(100_000);
  // half the budget: 5,000 tokens, ≤ 50,000 characters even at the 0.1 tokens per character the
  // estimate may be corrected down to (this mock reports 10 input tokens per request)
  expect(later!.length).toBeLessThan(50_500);
  expect(later).toStartWith("summarize\n\n```stdin\nline 0000:");
  expect(later).toContain(`characters of this message left out to fit the context budget; the session file keeps it whole`);
  expect(later).toEndWith("line 1999: " + "x".repeat(40) + "\n```");

  const session = readdirSync(join(state.path, "hey", "sessions")).find((f) => f.endsWith(".jsonl"))!;
  expect(readFileSync(join(state.path, "hey", "sessions", session), "utf8")).toContain(JSON.stringify(log).slice(1, -1));

  expect((await hey(["-c", "-p", "and the errors?"])).code).toBe(0);
  const resumed = firstPrompt(model.requests.at(-1)!);
  expect(resumed.length).toBeLessThan(50_500);
  expect(resumed).toStartWith("summarize\n\n```stdin\nline 0000:");
  expect(resumed).toContain("left out to fit the context budget");
});

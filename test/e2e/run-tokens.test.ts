// A spend ceiling and session-wide usage (issue 10 item 7): `--max-run-tokens N` / `[agent]
// max_run_tokens` stop a run like `--max-turns` — a tool-less hand-off saved in .hey/task.md,
// exit 3 — and `/usage` sums every run of a resumed session, this run shown apart.
import { afterAll, beforeEach, afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ChatRequest } from "../helpers/model-server.ts";

// every response counts 10 input + 5 output tokens; the model keeps calling tools until it may not
const handOff = (req: ChatRequest) => (req as ChatRequest & { tool_choice?: string }).tool_choice === "none";
const model = startModelServer((req) =>
  handOff(req) ? { text: "Done so far: listed files.\nRemaining: read them." } : { calls: [["bash", { command: "ls" }]] },
);
// the same model from a server that reports no usage: hey counts its own estimates
const silentCounts = startModelServer(
  (req) => (handOff(req) ? { text: "Done so far: listed files.\nRemaining: read them." } : { calls: [["bash", { command: "ls" }]] }),
  { usage: false },
);
afterAll(() => {
  model.stop();
  silentCounts.stop();
});
let work: ReturnType<typeof tempDir>;
let state: ReturnType<typeof tempDir>;
beforeEach(() => {
  work = tempDir();
  state = tempDir();
  model.requests.length = 0;
});
afterEach(() => {
  work.remove();
  state.remove();
});
const hey = (args: string[]) => runHey(["--base-url", model.baseUrl, "-m", "m", ...args], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });

test("--max-run-tokens: past the cap the run hands off without tools, saves .hey/task.md and exits 3", async () => {
  const run = await hey(["--max-run-tokens", "40", "-p", "explore the repo"]);
  expect(run.code).toBe(3);
  // 15, 30, 45 > 40: three requests with tools, then the hand-off
  expect(model.requests.map(handOff)).toEqual([false, false, false, true]);
  // the calls of the answer that passed the cap ran, as at --max-turns: the hand-off request has every result
  expect(model.requests.at(-1)!.messages.filter((m) => m.role === "tool")).toHaveLength(3);
  expect(run.stdout).toBe("Done so far: listed files.\nRemaining: read them.\n");
  expect(run.stderr).toContain("stopped at the run's token limit (--max-run-tokens): 60 tokens used, the hand-off included");
  const note = readFileSync(join(work.path, ".hey", "task.md"), "utf8");
  expect(note).toContain("## Stopped at the run's token limit (");
  expect(note).toContain("Remaining: read them.");
});

test("a server that reports no usage: --max-run-tokens counts hey's estimates, and the counts say they are estimated", async () => {
  const run = await runHey(["--base-url", silentCounts.baseUrl, "-m", "m", "--max-run-tokens", "3000", "--output", "json", "-p", "explore"], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path },
  });
  expect(run.code).toBe(3);
  const events = jsonEvents(run.stdout);
  const done = events.at(-1)!;
  expect(done).toMatchObject({ type: "done", stop_reason: "max_run_tokens", usage: { estimated: true } });
  const used = done.usage as { input_tokens: number; output_tokens: number };
  expect(used.input_tokens).toBeGreaterThan(3000 / 2); // each request holds the system prompt and the tools
  expect(used.output_tokens).toBeGreaterThan(0);
  const counted = events.filter((e) => e.type === "usage");
  expect(counted.length).toBe(silentCounts.requests.length);
  expect(counted.every((e) => e.estimated === true && (e.input_tokens as number) > 0)).toBe(true);
  expect(events.find((e) => e.type === "result")).toMatchObject({ usage: { estimated: true } });
  expect(silentCounts.requests.filter((r) => !handOff(r)).length).toBeLessThan(7); // stopped at the cap, not at the model's end
  // the session keeps them: /usage after hey -c says the session's tokens, marked estimated, and every request
  const usage = await runHey(["--base-url", silentCounts.baseUrl, "-m", "m", "-c", "-p", "/usage"], { cwd: work.path, env: { XDG_STATE_HOME: state.path } });
  expect(usage.stdout).toMatch(
    new RegExp(
      `^session: ~[\\d,]+ in .* · ~[\\d,]+ out .* · ${silentCounts.requests.length} requests \\(~: estimated where a response was cut or interrupted, or came without usage\\)$`,
      "m",
    ),
  );
});

test("[agent] max_run_tokens in a config file; JSON says max_run_tokens", async () => {
  const cfg = join(work.path, "hey.toml");
  writeFileSync(cfg, "[agent]\nmax_run_tokens = 20\n");
  const run = await hey(["--config", cfg, "--output", "json", "-p", "explore"]);
  expect(run.code).toBe(3);
  expect(jsonEvents(run.stdout).at(-1)).toMatchObject({
    type: "done",
    stop_reason: "max_run_tokens",
    turns: 3,
    usage: { input_tokens: 30, output_tokens: 15 },
  });
});

test("a hand-off after -c is filed under the prompt that was stopped, not the session's first", async () => {
  expect((await hey(["--max-turns", "1", "-p", "what is in here?"])).code).toBe(3);
  const run = await hey(["-c", "--max-turns", "1", "-p", "refactor the parser"]);
  expect(run.code).toBe(3);
  expect(run.stderr).toContain("`hey -c` continues from there");
  const note = readFileSync(join(work.path, ".hey", "task.md"), "utf8");
  const headings = note.split("\n## Stopped").map((part) => part.split("\n").filter(Boolean));
  expect(headings[0]).toEqual(["# Task", "what is in here?"]);
  expect(note).toContain("Task: refactor the parser");
  expect(note).not.toMatch(/Task: what is in here\?/);
});

test("a bad --max-run-tokens is a usage error naming the flag", async () => {
  const run = await hey(["--max-run-tokens", "lots", "-p", "x"]);
  expect(run).toMatchObject({ code: 2, stderr: 'hey: --max-run-tokens must be a positive integer (got "lots")\n' });
});

test("/usage after -c: the whole session's tokens, and this run's apart", async () => {
  expect((await hey(["--max-turns", "1", "-p", "one"])).code).toBe(3); // 2 requests: 20 in, 10 out
  expect((await hey(["-c", "--max-turns", "1", "-p", "two"])).code).toBe(3); // 2 more
  const run = await hey(["-c", "-p", "/usage"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toStartWith(
    "session: 40 in (0 cached, 0 cache writes) · 20 out (0 reasoning) · 4 requests\n" +
      "this run: 0 in (0 cached, 0 cache writes) · 0 out (0 reasoning) · 0 requests\n",
  );
});

test("--max-turns with a model that calls tools even on the tool-less hand-off: asked once more plainly, else hey writes a hand-off itself", async () => {
  // a gateway that ignores tool_choice "none"; with `plain` it answers when asked plainly
  const stubborn = (plain: boolean) =>
    startModelServer((req) => {
      const last = req.messages.at(-1)!;
      if (plain && typeof last.content === "string" && last.content.startsWith("Tool calls cannot run"))
        return { text: "Done so far: echoed 1.\nRemaining: echo 2." };
      return { calls: [["bash", { command: `echo ${req.messages.length}` }]] };
    });
  const note = join(work.path, ".hey", "task.md");
  for (const plain of [true, false]) {
    const server = stubborn(plain);
    try {
      await Bun.write(note, "# Task\n\nan older task\n");
      const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "--max-turns", "1", "-p", "count"], {
        cwd: work.path,
        env: { XDG_STATE_HOME: state.path },
      });
      expect(run.code).toBe(3);
      expect(server.requests).toHaveLength(3); // the turn, the hand-off, the plain ask
      const text = readFileSync(note, "utf8");
      expect(text).toStartWith("# Task\n\nan older task\n\n## Stopped at the turn limit (");
      expect(text).toContain("\n\nTask: count\n\n"); // not the older task's hand-off
      if (plain) {
        expect(run.stdout).toBe("Done so far: echoed 1.\nRemaining: echo 2.\n");
        expect(text).toEndWith("Task: count\n\nDone so far: echoed 1.\nRemaining: echo 2.\n");
      } else {
        expect(run.stderr).toContain("hey: the model gave no hand-off");
        expect(text).toContain('Last tool calls:\n- bash {"command":"echo 2"}\n'); // system, user: the first call
        expect(text).toContain("Remaining: ");
      }
    } finally {
      server.stop();
    }
  }
});

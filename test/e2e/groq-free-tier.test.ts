// Groq's free tier through dist/hey against a loopback model that fails requests as Groq does:
// - `tool_use_failed` (a 400, "Failed to call a function. Please adjust your prompt"): the model is
//   shown its failed generation and asked again, and the run goes on; one that keeps failing stops
//   after 3 tries with the cause named (before: the run ended at the first, exit 1);
// - the 413 "Request too large … on tokens per minute (TPM): Limit N, Requested M" once the
//   conversation passes N: the request is rebuilt under N, the user is told once, and the run
//   completes (before: every later message failed the same way);
// - a 429 rate ("Limit 6000, Used 5800, Requested 900") is waited for, the request unchanged.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, textOf, type ChatRequest, type ModelServer, type Turn } from "../helpers/model-server.ts";

let work: ReturnType<typeof tempDir> | undefined;
let model: ModelServer | undefined;
afterEach(() => {
  model?.stop();
  work?.remove();
  [model, work] = [undefined, undefined];
});

const toolUseFailed = (generation: string): Turn => ({
  error: {
    status: 400,
    body: {
      error: {
        message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
        type: "invalid_request_error",
        code: "tool_use_failed",
        failed_generation: generation,
      },
    },
  },
});

const hey = (args: string[]) => {
  work ??= tempDir("hey-groq-");
  return runHey(["--base-url", model!.baseUrl, "--protocol", "openai", "-m", "llama-3.1-8b-instant", ...args], {
    cwd: work.path,
    timeoutMs: 60_000,
    env: { XDG_STATE_HOME: join(work.path, "state") },
  });
};

const toolResults = (req: ChatRequest) => req.messages.filter((m) => m.role === "tool").length;

test("tool_use_failed in the middle of a task: the model is asked again with its failed call, and the task completes", async () => {
  const failed = '<function=write_file>{"path": "step2.txt", "content": "two"</function>';
  let tried = false;
  model = startModelServer((req) => {
    if (toolResults(req) === 0) return { calls: [["write_file", { path: "step1.txt", content: "one" }]] };
    if (toolResults(req) === 1 && !tried) return ((tried = true), toolUseFailed(failed));
    if (toolResults(req) === 1) return { calls: [["write_file", { path: "step2.txt", content: "two" }]] };
    return { text: "Both steps done." };
  });
  const run = await hey(["-p", "write step1.txt then step2.txt"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("Both steps done.");
  expect(existsSync(join(work!.path, "step1.txt")) && existsSync(join(work!.path, "step2.txt"))).toBe(true);
  expect(run.stderr).toContain("hey: the model's tool call could not be parsed (tool_use_failed, failed_generation: <function=write_file>");
  expect(run.stderr).not.toContain("adjust your prompt");
  // the request after the failure tells the model what it wrote, in a user message of hey's
  const asked = textOf(model.requests[2]!.messages.at(-1));
  expect(asked).toContain("your last tool call could not be parsed, so nothing ran");
  expect(asked).toContain(failed);
}, 90_000);

test("a model whose calls Groq cannot parse every time: stopped after 3 tries, the cause named, exit 1", async () => {
  model = startModelServer(() => toolUseFailed("<function=bash>ls</function>"));
  const run = await hey(["-p", "list the files"]);
  expect(run.code).toBe(1);
  expect(model.requests.length).toBe(3);
  expect(run.stderr).toContain(
    "error: the model's tool call could not be parsed 3 turns in a row; stopped rather than ask again: tool_use_failed, failed_generation: <function=bash>ls</function>",
  );
}, 90_000);

/** Groq's 413 for a request over the free tier's tokens per minute. */
const tooLarge = (limit: number, requested: number): Turn => ({
  error: {
    status: 413,
    body: {
      error: {
        message: `Request too large for model \`llama-3.1-8b-instant\` in organization \`org_x\` service tier \`on_demand\` on tokens per minute (TPM): Limit ${limit}, Requested ${requested}, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`,
        type: "tokens",
        code: "rate_limit_exceeded",
      },
    },
  },
});

const LIMIT = 6000;
const tokens = (req: ChatRequest) => Math.ceil(JSON.stringify(req).length / 4);

/** Six 8 KB files in src/, and a model that reads them one per turn and refuses any request over LIMIT tokens as Groq does. */
function readsModel(refused: number[]): ModelServer {
  work = tempDir("hey-groq-");
  mkdirSync(join(work.path, "src"));
  for (let n = 1; n <= 6; n++) writeFileSync(join(work.path, "src", `f${n}.ts`), `// file ${n}\n${`export const v${n} = "${"x".repeat(60)}";\n`.repeat(110)}`);
  return startModelServer(
    (req) => {
      if (tokens(req) > LIMIT) return (refused.push(model!.requests.length - 1), tooLarge(LIMIT, tokens(req)));
      // the last file read, from the newest call (older ones may be cut from the request)
      const path = req.messages.findLast((m) => m.tool_calls)?.tool_calls?.[0]?.function.arguments ?? "";
      const read = Number(/f(\d)\.ts/.exec(path)?.[1] ?? 0);
      return read < 6 ? { calls: [["read_file", { path: `src/f${read + 1}.ts` }]] } : { text: "Read all 6 files." };
    },
    { promptTokens: (body) => Math.ceil(body.length / 4) },
  );
}

test("Groq's 413 past its 6,000 tokens a minute: requests are rebuilt under the limit, the user is told once, six 8 KB reads complete", async () => {
  const refused: number[] = [];
  model = readsModel(refused);
  const run = await hey(["--output", "json", "-p", "read src/f1.ts to src/f6.ts one by one"]);
  const events = jsonEvents(run.stdout);
  expect(run.code).toBe(0);
  expect(events.find((e) => e.type === "result")).toMatchObject({ text: "Read all 6 files." });
  expect(refused.length).toBe(1); // the test reaches the limit, and hey stays under it from then on
  const learned = events.filter((e) => e.type === "compaction" && e.kind === "window");
  expect(learned.length).toBe(1);
  expect(learned[0]).toMatchObject({ window: LIMIT, limit: "tokens per minute (TPM)" });
  const after = model.requests.slice(refused[0]! + 1);
  expect(after.length).toBeGreaterThan(1);
  for (const r of after) expect(tokens(r)).toBeLessThanOrEqual(LIMIT);
}, 90_000);

test("the line a terminal shows for the limit names it, what hey does and what raises it, once", async () => {
  model = readsModel([]);
  const run = await hey(["-p", "read src/f1.ts to src/f6.ts one by one"]);
  expect(run.code).toBe(0);
  const lines = run.stderr.split("\n").filter((l) => l.includes("tokens a request"));
  expect(lines.length).toBe(1);
  expect(lines[0]).toStartWith(
    "context: the endpoint takes at most 6,000 tokens a request (its tokens per minute (TPM) limit), so hey keeps requests under it; the request was cut to fit (",
  );
  expect(lines[0]).toEndWith("and sent again — a higher tier at the provider raises the limit");
  expect(run.stderr).not.toContain("please reduce your message size");
}, 90_000);

test("a 429 rate over several requests (Used + Requested past the limit) is waited for, the request not cut", async () => {
  let limited = false;
  model = startModelServer((req) => {
    if (!limited) {
      limited = true;
      const message =
        "Rate limit reached for model `llama-3.1-8b-instant` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5800, Requested 900. Please try again in 1s.";
      return { error: { status: 429, body: { error: { message, type: "tokens", code: "rate_limit_exceeded" } }, headers: { "retry-after": "1" } } };
    }
    return { text: `answered ${req.messages.length}` };
  });
  const run = await hey(["--output", "json", "-p", "hello"]);
  expect(run.code).toBe(0);
  expect(model.requests.length).toBe(2);
  expect(JSON.stringify(model.requests[1])).toBe(JSON.stringify(model.requests[0]));
  expect(jsonEvents(run.stdout).some((e) => e.type === "compaction")).toBe(false);
}, 90_000);

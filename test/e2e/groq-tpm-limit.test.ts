// Groq's per-request TPM limit (the 413 "Request too large … (TPM): Limit N, Requested M") through
// dist/hey against a loopback model that counts as Groq does: the request's tokens plus the
// max_tokens it sends (ai_automation_suggester#61, koassistant.koplugin#106), refused past LIMIT.
// - with max_tokens = 2048 the prompt is kept under the limit less it, so the run completes after
//   one refusal (before: the same request was sent again, refused again, and the run failed);
// - with max_tokens = 4096 no cut can fit: the run stops at the first refusal naming max_tokens;
// - a limit learned in one run is not applied by `hey -c`: after a tier upgrade (the mock now takes
//   100,000) the resumed run builds requests past 6,000 with no summary, and `/usage` says what the
//   session before learned; on the same tier, one refusal teaches it again.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ChatRequest, type ModelServer, type Turn } from "../helpers/model-server.ts";

let work: ReturnType<typeof tempDir> | undefined;
let model: ModelServer | undefined;
afterEach(() => {
  model?.stop();
  work?.remove();
  [model, work] = [undefined, undefined];
});

/** Groq's 413 for a request over its tokens per minute. */
const tooLarge = (limit: number, requested: number): Turn => ({
  error: {
    status: 413,
    body: {
      error: {
        message: `Request too large for model \`llama-3.1-8b-instant\` in organization \`org_x\` service tier \`on_demand\` on tokens per minute (TPM): Limit ${limit}, Requested ${requested}, please reduce your message size and try again.`,
        type: "tokens",
        code: "rate_limit_exceeded",
      },
    },
  },
});

const tokens = (req: ChatRequest) => Math.ceil(JSON.stringify(req).length / 4);
/** What Groq counts against the limit: the request and the answer's max_tokens. */
const requested = (req: ChatRequest) => tokens(req) + (req.max_tokens ?? 0);

/**
 * Twelve 8 KB files in src/ and a model that reads them one per turn up to `tier.files`, refusing
 * any request over `tier.limit` as Groq does (`refused`: their indexes). A test changes `tier`
 * between runs: an upgrade.
 */
function groq(tier: { limit: number; files: number }, refused: number[]): ModelServer {
  work ??= tempDir("hey-g1-tpm-");
  mkdirSync(join(work.path, "src"), { recursive: true });
  for (let n = 1; n <= 12; n++) writeFileSync(join(work.path, "src", `f${n}.ts`), `// file ${n}\n${`export const v${n} = "${"x".repeat(60)}";\n`.repeat(110)}`);
  return startModelServer(
    (req) => {
      if (requested(req) > tier.limit) return (refused.push(model!.requests.length - 1), tooLarge(tier.limit, requested(req)));
      const path = req.messages.findLast((m) => m.tool_calls)?.tool_calls?.[0]?.function.arguments ?? "";
      const read = Number(/f(\d+)\.ts/.exec(path)?.[1] ?? 0);
      return read < tier.files ? { calls: [["read_file", { path: `src/f${read + 1}.ts` }]] } : { text: `Read all ${tier.files} files.` };
    },
    { promptTokens: (body) => Math.ceil(body.length / 4) },
  );
}

const hey = (args: string[], config = "") => {
  writeFileSync(join(work!.path, "hey.toml"), `[provider.groq]\nbase_url = "${model!.baseUrl}"\nprotocol = "openai"\napi_key = "x"\n${config}`);
  return runHey(["-m", "groq/llama-3.1-8b-instant", "--config", join(work!.path, "hey.toml"), ...args], {
    cwd: work!.path,
    timeoutMs: 60_000,
    env: { XDG_STATE_HOME: join(work!.path, "state") },
  });
};

const windowEvents = (stdout: string) => jsonEvents(stdout).filter((e) => e.type === "compaction" && e.kind === "window");

test("max_tokens counted in Groq's limit: requests are kept under the limit less max_tokens, one refusal, the run completes", async () => {
  const refused: number[] = [];
  model = groq({ limit: 6000, files: 6 }, refused);
  const run = await hey(["--output", "json", "-p", "read src/f1.ts to src/f6.ts one by one"], "max_tokens = 2048\n");
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 6 files." });
  expect(refused.length).toBe(1);
  expect(windowEvents(run.stdout)).toMatchObject([{ window: 6000 - 2048, limit: "tokens per minute (TPM)", max_tokens: 2048 }]);
  const after = model.requests.slice(refused[0]! + 1);
  expect(after.length).toBeGreaterThan(1);
  for (const r of after) expect(requested(r)).toBeLessThanOrEqual(6000);
  for (const r of after.filter((r) => r.tools)) expect(r.max_tokens).toBe(2048); // the user's own limit is never lowered (a summary has its own)
}, 90_000);

test("the line says max_tokens is counted in the limit and what requests are kept under", async () => {
  model = groq({ limit: 6000, files: 6 }, []);
  const run = await hey(["-p", "read src/f1.ts to src/f6.ts one by one"], "max_tokens = 2048\n");
  expect(run.code).toBe(0);
  const lines = run.stderr.split("\n").filter((l) => l.includes("tokens a request"));
  expect(lines.length).toBe(1);
  expect(lines[0]).toStartWith(
    "context: the endpoint takes at most 6,000 tokens a request (its tokens per minute (TPM) limit) and counts max_tokens (2,048) in it, so hey keeps requests under the rest (~3,952); the request was cut to fit (",
  );
  expect(run.stderr).not.toContain("did not make it smaller");
}, 90_000);

test("a max_tokens that leaves too little of the limit: the run stops at the first refusal, naming max_tokens and the limit", async () => {
  const refused: number[] = [];
  model = groq({ limit: 6000, files: 6 }, refused);
  const run = await hey(["-p", "read src/f1.ts to src/f6.ts one by one"], "max_tokens = 4096\n");
  expect(run.code).toBe(1);
  expect(refused.length).toBe(1);
  expect(model.requests.length).toBe(refused[0]! + 1); // the refused request is not sent again
  expect(run.stderr).toContain(
    "error: the endpoint takes at most 6,000 tokens a request (its tokens per minute (TPM) limit) and counts max_tokens in it: max_tokens = 4,096 leaves ~1,904 tokens for the request",
  );
  expect(run.stderr).toContain("lower max_tokens in [provider.groq] (to ");
}, 90_000);

test("after a tier upgrade `hey -c` is not held under the old limit: no summary, requests past it; /usage names the old limit", async () => {
  const refused: number[] = [];
  const tier = { limit: 6000, files: 6 };
  model = groq(tier, refused);
  const first = await hey(["-p", "read src/f1.ts to src/f6.ts one by one"]);
  expect(first.code).toBe(0);
  expect(refused.length).toBe(1);

  const usage = await hey(["-c", "/usage"]);
  expect(usage.code).toBe(0);
  expect(usage.stdout.replace(/\s+/g, " ")).toContain(
    "an earlier run of this session kept requests under ~6,000 tokens for the endpoint's limit on one request (its tokens per minute (TPM) limit); not applied now: a refusal over it teaches it again",
  );

  Object.assign(tier, { limit: 100_000, files: 12 }); // the upgrade
  const sent = model.requests.length;
  const resumed = await hey(["--output", "json", "-c", "-p", "read src/f7.ts to src/f12.ts one by one"], "context_window = 131072\n");
  expect(resumed.code).toBe(0);
  expect(jsonEvents(resumed.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 12 files." });
  expect(jsonEvents(resumed.stdout).filter((e) => e.type === "compaction")).toEqual([]);
  const later = model.requests.slice(sent);
  expect(later.length).toBe(7); // six reads and the answer: no summary request
  expect(Math.max(...later.map(tokens))).toBeGreaterThan(6000);
  expect(refused.length).toBe(1);
}, 120_000);

test("on the same tier `hey -c` learns the limit again with one refusal, and goes on under it", async () => {
  const refused: number[] = [];
  const tier = { limit: 6000, files: 6 };
  model = groq(tier, refused);
  expect((await hey(["-p", "read src/f1.ts to src/f6.ts one by one"])).code).toBe(0);
  tier.files = 12;
  const sent = model.requests.length;
  const resumed = await hey(["--output", "json", "-c", "-p", "read src/f7.ts to src/f12.ts one by one"]);
  expect(resumed.code).toBe(0);
  expect(jsonEvents(resumed.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 12 files." });
  expect(refused.filter((i) => i >= sent).length).toBe(1);
  expect(windowEvents(resumed.stdout)).toMatchObject([{ window: 6000, limit: "tokens per minute (TPM)" }]);
  for (const r of model.requests.slice(sent).filter((_, i) => !refused.includes(sent + i))) expect(requested(r)).toBeLessThanOrEqual(6000);
}, 120_000);

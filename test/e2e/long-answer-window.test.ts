// A session whose last turns alone are more than the model's window (x16): a 60 KB answer written
// by one model, then `hey -c` on a model of a 10,000-token window. Through dist/hey against a
// loopback OpenAI-style model that refuses a body over 40,000 bytes with OpenAI's
// context_length_exceeded 400, as a local model of that window would:
// - the refused request is built again with the long answer cut to its start and end, sent, and
//   answered; the notices say how much smaller it got (before it went up, as "left out");
// - `/compact` then summarizes the long answer (it said "nothing to summarize yet"), and the next
//   `hey -c` sends the summary;
// - with `context_window` stated, `/usage` counts the answer cut, `/compact` summarizes it (the
//   newest turn, over the budget by itself) and no request is refused at all;
// - a latest message that alone is more than the window is refused with an error naming the sizes,
//   and no request is sent for it.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const MAX_BYTES = 40_000;
const ANSWER_HEAD = "ANSWER-START";
const ANSWER_TAIL = "ANSWER-END";

interface Sent {
  bytes: number;
  body: string;
  refused: boolean;
  summary: boolean;
}

/** The model: `big N` answers N bytes of text; a summary request (no tools) gets a summary; a body over MAX_BYTES is refused. */
function startModel() {
  const sent: Sent[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method !== "POST") return new Response("404 page not found", { status: 404 });
      const body = await req.text();
      const bytes = Buffer.byteLength(body);
      const request = JSON.parse(body) as { tools?: unknown[]; messages: { content: unknown }[] };
      const summary = (request.tools?.length ?? 0) === 0;
      const refused = bytes > MAX_BYTES;
      sent.push({ bytes, body, refused, summary });
      const tokens = Math.ceil(bytes / 4);
      if (refused)
        return Response.json(
          {
            error: {
              message: `This model's maximum context length is 10000 tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
              type: "invalid_request_error",
              code: "context_length_exceeded",
            },
          },
          { status: 400 },
        );
      const last = JSON.stringify(request.messages.at(-1)?.content ?? "");
      const big = /big (\d+)/.exec(last);
      const answer = summary
        ? "Summary: the user asked for a long text; it was written."
        : big
          ? `${ANSWER_HEAD}\n${Array.from({ length: Number(big[1]) / 50 }, (_, i) => `line ${i} of the long answer `.padEnd(49, ".")).join("\n")}\n${ANSWER_TAIL}`
          : "ok";
      const usage = chatChunk({ usage: { prompt_tokens: tokens, completion_tokens: 5, total_tokens: tokens + 5 } });
      return new Response(sse([chatChunk({ content: answer }), chatChunk({ finish: "stop" }), usage]), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, sent, stop: () => server.stop(true) };
}

let work: ReturnType<typeof tempDir> | undefined;
let model: ReturnType<typeof startModel> | undefined;
afterEach(() => {
  model?.stop();
  work?.remove();
  model = work = undefined;
});

/** `hey -p PROMPT` (after `-c` when `resume`) in the work directory, with the model's provider table (and `extra` in it). */
function hey(prompt: string, resume: boolean, extra = "") {
  const config = join(work!.path, "hey.toml");
  writeFileSync(config, `[provider.local]\nbase_url = "${model!.url}"\nprotocol = "openai"\nmodels = ["m"]\n${extra}`);
  const args = [...(resume ? ["-c"] : []), "-m", "local/m", "--config", config, "-p", prompt];
  return runHey(args, { cwd: work!.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work!.path, "state") } });
}

/** The context notices of a run's stderr. */
const notices = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("context:"));

/** Each `~A → ~B tokens` of the notices, as numbers. */
const sizes = (lines: string[]) =>
  lines.flatMap((l) =>
    [...l.matchAll(/~([\d,]+) → ~([\d,]+) tokens/g)].map((m): [number, number] => [Number(m[1]!.replaceAll(",", "")), Number(m[2]!.replaceAll(",", ""))]),
  );

async function longAnswer(extra = "") {
  work = tempDir("hey-long-answer-");
  model = startModel();
  expect((await hey("hi", false, extra)).code).toBe(0);
  const big = await hey("big 60000", true, extra);
  expect(big.code).toBe(0);
  expect(big.stdout).toContain(ANSWER_TAIL);
}

test("a 60 KB answer, then hey -c on a 10,000-token window: cut to its start and end, sent again, answered; /compact summarizes it", async () => {
  await longAnswer();
  const from = model!.sent.length;
  const next = await hey("next", true);
  expect(next.stderr).not.toContain("error:");
  expect(next.code).toBe(0);
  expect(next.stdout.trim()).toBe("ok");
  const sent = model!.sent.slice(from);
  expect(sent.map((s) => s.refused)).toEqual([true, false]); // the first try learned the window; the second fit
  const retry = sent[1]!.body;
  expect(retry).toContain(ANSWER_HEAD);
  expect(retry).toContain(ANSWER_TAIL);
  expect(retry).toMatch(/\[… \d+ characters of this message left out to fit the context budget; the session file keeps it whole …\]/);
  expect(retry).toContain('"next"'); // the latest message whole
  // every notice says the context got smaller, and by how much
  const lines = notices(next.stderr);
  expect(lines).toHaveLength(1); // the cut is said once, by the window's line
  expect(lines[0]).toContain("the model's window is about 10,000 tokens; the request was cut to fit");
  expect(lines[0]).toContain("a long message of the last turns cut to its start and end");
  expect(sizes(lines).length).toBeGreaterThan(0);
  for (const [before, after] of sizes(lines)) expect(after).toBeLessThan(before / 2);

  // the long answer is in the last turns: /compact summarizes it rather than finding nothing to summarize
  const compact = await hey("/compact", true);
  expect(compact.code).toBe(0);
  expect(compact.stdout + compact.stderr).not.toContain("nothing to summarize");
  expect(model!.sent.at(-1)!.summary).toBe(true);

  const after = model!.sent.length;
  const again = await hey("and now?", true);
  expect(again.code).toBe(0);
  const last = model!.sent.slice(after);
  expect(last.map((s) => s.refused)).toEqual([false]);
  expect(last[0]!.body).toContain("Summary: the user asked for a long text");
  expect(last[0]!.body).not.toContain(ANSWER_TAIL);
}, 120_000);

test("context_window = 8000 stated: /usage shows the answer cut, /compact summarizes it, and no request is refused", async () => {
  await longAnswer("context_window = 8000\n");
  const usage = await hey("/usage", true, "context_window = 8000\n");
  expect(usage.stdout).toMatch(/^context: ~[\d,]+ of 6,400 tokens \(\d\d%\)/m);
  expect(usage.stdout).toMatch(/^pruned: .*1 long message cut to start and end/m);
  // the long answer is the newest turn, and over the budget by itself: /compact summarizes it
  const compact = await hey("/compact", true, "context_window = 8000\n");
  expect(compact.code).toBe(0);
  expect(compact.stdout + compact.stderr).not.toContain("nothing to summarize");
  expect(model!.sent.at(-1)!.summary).toBe(true);
  const from = model!.sent.length;
  const next = await hey("next", true, "context_window = 8000\n");
  expect(next.stderr).not.toContain("error:");
  expect(next.code).toBe(0);
  expect(model!.sent.slice(from).filter((s) => s.refused)).toEqual([]);
  for (const [before, after] of sizes(notices(next.stderr))) expect(after).toBeLessThan(before);
}, 120_000);

test("a latest message that alone is more than the window: an error naming the sizes, and no request sent for it", async () => {
  await longAnswer("context_window = 8000\n");
  const from = model!.sent.length;
  const paste = "y".repeat(50_000); // ~12,500 tokens
  const run = await hey(paste, true, "context_window = 8000\n");
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /error: your latest message alone takes ~1\d,\d{3} tokens \(with the system prompt and tools, ~[\d,]+\), more than the model's window of ~8,000 tokens/,
  );
  expect(model!.sent.slice(from)).toEqual([]);
}, 120_000);

test("the same message when the window is not known yet: refused once, then the error, not a retry in vain", async () => {
  await longAnswer();
  const from = model!.sent.length;
  const run = await hey("z".repeat(50_000), true);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/error: your latest message alone takes ~1\d,\d{3} tokens .*more than the model's window of ~10,000 tokens/);
  expect(model!.sent.slice(from).map((s) => s.refused)).toEqual([true]);
}, 120_000);

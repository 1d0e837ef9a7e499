// A long REPL session hovering at the context budget (issue 23, cost near the budget): a user
// prompt every 6 turns, tool results of mixed sizes (now and then three long test logs), the default
// 40k budget and a 64k window. Each request is made through `prepare` as the agent makes it and
// rendered as the OpenAI chat adapter sends it; the prompt cache is emulated from the bodies
// (cache-emulator.ts). Run twice: with a provider that answers summary requests, and with one
// whose summaries fail (a free or scripted endpoint), where hey falls back to dropping turns.
// Reported: the requests whose messages do not start with the previous request's (a rewrite: the
// cache is missed from there on), the summary requests, the uncached tokens, the billed cost.
// Deterministic: no clock, no randomness. `npx bun scripts/long-session.ts` prints its lines.
import { sharedPrefix } from "../src/context/cache.ts";
import { answered, newCompactionState, prepare, type PrepareDeps } from "../src/context/compaction.ts";
import { contextPolicy } from "../src/context/policy.ts";
import { resolveConfig } from "../src/config/resolve.ts";
import { emptyUsage, type Message } from "../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../src/kernel/provider.ts";
import { toRequest } from "../src/providers/openai.ts";
import { billed, openaiCache, openaiPrompt, total, type CacheCount } from "./cache-emulator.ts";

export interface LongRun {
  requests: number;
  /** summary requests made (answered or failed) */
  summaries: number;
  /** agent requests that do not start with the previous agent request's messages */
  rewrites: number;
  /** over the agent requests: tokens sent and read from the cache (OpenAI-style) */
  cache: CacheCount;
  /** billed-equivalent tokens of every request, the summary requests included */
  billed: number;
  /** the largest agent request, in hey's estimate: the budget is a ceiling */
  largest: number;
}

/** Characters of turn n's tool result: reads and greps of 1.5 to 9.5 KB; every 20 turns, a fix loop's three 40 KB test logs in a row. */
const resultChars = (n: number) => (n % 20 >= 7 && n % 20 <= 9 ? 40_000 : 1_500 + ((n * 7919) % 9) * 1_000);

/** The re-read session's files: an agent going back and forth between the six files it edits, 17 to 30 KB each (x44 finding 1). */
const REREAD_CHARS = [24_000, 30_000, 17_000, 27_000, 21_000, 19_000];

/**
 * `rereads`: every turn reads one of six files again, in rotation, instead of the mixed results:
 * near the budget each request had the earlier copy of the file pruned as a duplicate, the rewrite
 * point moving on every turn (a cache miss on nearly every request).
 */
export async function longSession(opts: { turns?: number; summaries: boolean; rereads?: boolean }): Promise<LongRun> {
  const turns = opts.turns ?? 120;
  const settings = resolveConfig([], {}, { baseUrl: "http://127.0.0.1:9/v1", model: "m" }).settings;
  const prompts: string[] = [];
  const agentAt: number[] = []; // indexes of the agent requests in `prompts`
  let summaries = 0;
  const render = (request: ModelRequest) => openaiPrompt(toRequest(request, { model: "m" }) as { messages: unknown[] });
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      prompts.push(render(request));
      summaries++;
      if (!opts.summaries) throw new ProviderError("bad_request", "this endpoint answers no summary request");
      const text = `Summary ${summaries}: ${"paths, line numbers, decisions, errors and open tasks. ".repeat(30)}`;
      yield { type: "done", message: { id: `s${summaries}`, role: "assistant", content: [{ type: "text", text }] }, usage: emptyUsage(), stop: "stop" };
    },
  };
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: { ...contextPolicy(settings), window: 64_000 },
    provider,
    output: { emit: () => {} },
    tools: [],
    system: () => "You are hey, a coding agent in a terminal. ".repeat(150),
    taskNote: () => undefined,
    now: () => 0,
  };
  const history: Message[] = [];
  let rewrites = 0;
  let largest = 0;
  let previous: readonly Message[] | undefined;
  const signal = new AbortController().signal;
  for (let n = 0; n < turns; n++) {
    if (n % 6 === 0)
      history.push({ id: `u${n}`, role: "user", content: [{ type: "text", text: `Next step (${n / 6}): ${"go on with the task. ".repeat(15)}` }] });
    const sent = await prepare(history, deps, signal);
    agentAt.push(prompts.length);
    const request = { system: sent.system, messages: sent.messages, tools: [] };
    prompts.push(render(request));
    answered(deps.state, { request, by: provider }); // as the agent records it: the next summary is asked after this request
    largest = Math.max(largest, deps.state.last!.estimate);
    if (previous && sharedPrefix(previous, sent.messages) < previous.length) rewrites++;
    previous = sent.messages;
    const file = n % REREAD_CHARS.length;
    const call = opts.rereads
      ? { id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/mod${file}.ts` }) }
      : { id: `c${n}`, name: "bash", arguments: JSON.stringify({ command: `step ${n}` }) };
    history.push({ id: `a${n}`, role: "assistant", content: [{ type: "text", text: `Turn ${n}.` }], toolCalls: [call] });
    const [chars, tag] = opts.rereads ? [REREAD_CHARS[file]!, `mod${file}`] : [resultChars(n), String(n)];
    const text = Array.from({ length: Math.ceil(chars / 80) }, (_, i) => `${tag}:${i} ${"output ".repeat(10)}`).join("\n");
    history.push({ id: `r${n}`, role: "tool", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text }] });
  }
  const counts = openaiCache(prompts);
  return { requests: turns, summaries, rewrites, cache: total(agentAt.map((i) => counts[i]!)), billed: billed(total(counts)), largest };
}

const num = (n: number) => Math.round(n).toLocaleString("en-US");

/** The lines `bench-cache.ts` prints for the long session. */
export function longSessionLines(r: Awaited<ReturnType<typeof longSessions>>): string[] {
  const line = (name: string, x: LongRun) =>
    `cache     ${name.padEnd(21)} ${x.requests} requests near the 40k budget: ${x.rewrites} prefix rewrites, ${x.summaries} summary requests; ` +
    `uncached ${num(x.cache.sent - x.cache.read)} of ${num(x.cache.sent)} tokens, billed ${num(x.billed)}; largest ~${num(x.largest)} tokens`;
  return [
    line("long, summaries", r.answered),
    line("long, summaries fail", r.failing),
    line("long, re-reads", r.rereads),
    line("long, re-reads, fail", r.rereadsFailing),
  ];
}

export async function longSessions() {
  return {
    answered: await longSession({ summaries: true }),
    failing: await longSession({ summaries: false }),
    rereads: await longSession({ summaries: true, rereads: true }),
    rereadsFailing: await longSession({ summaries: false, rereads: true }),
  };
}

if (import.meta.main) for (const l of longSessionLines(await longSessions())) console.log(l);

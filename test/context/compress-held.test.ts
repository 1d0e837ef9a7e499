// x6 #2: a compress call by the model waits like dedup does. Applied at once, the request after it
// repeated ~5 % of the one before (everything after the compressed range re-billed uncached) and a
// run with one compress cost 22-25 % more than without it. Now `prepare` applies it where the prefix
// is rebuilt anyway (a pause past the cache's lifetime, a summary, another model) or when its saving
// over the next requests pays for the miss (cache.ts rewritePays, the test dedup's rewrites pass).
import { expect, test } from "bun:test";
import { sharedPrefix } from "../../src/context/cache.ts";
import { COLD_CACHE, newCompactionState, prepare, previewContext, type PrepareDeps } from "../../src/context/compaction.ts";
import type { Message } from "../../src/kernel/ir.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import { testPolicy } from "../helpers/settings.ts";

const user = (id: string): Message => ({ id, role: "user", content: [{ type: "text", text: "read the files" }] });
const read = (n: number, size: number): Message[] => [
  { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: `f${n}.ts` }) }] },
  { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: [{ type: "text", text: `f${n}: ${"x".repeat(size)}` }] },
];
/** the model compresses the turns of reads `from`..`to` (their handles: the results' ids, short enough to be whole) */
const compress = (n: number, from: number, to: number): Message[] => [
  {
    id: `a${n}`,
    role: "assistant",
    content: [],
    toolCalls: [{ id: `c${n}`, name: "compress", arguments: JSON.stringify({ start_id: `r${from}`, end_id: `r${to}`, summary: "read them: nothing to do" }) }],
  },
  { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "compress", content: [{ type: "text", text: "compressed" }] },
];
const provider: Provider = { protocol: "openai", model: "m", cacheLifetimeMs: 3_600_000, stream: async function* () {} };
const signal = new AbortController().signal;
const summarized = (messages: readonly Message[]) => messages.some((m) => m.id.startsWith("summary-"));

function setup() {
  let clock = 1_000_000;
  const state = newCompactionState();
  const deps: PrepareDeps = {
    state,
    policy: testPolicy({ budgetTokens: 200_000 }),
    provider,
    output: { emit: () => {} },
    tools: [],
    system: () => "system",
    taskNote: () => undefined,
    now: () => clock,
  };
  return { deps, state, advance: (ms: number) => (clock += ms) };
}

test("a compress of early reads with much after them waits: the next requests extend the previous one; a pause past the cache's lifetime applies it", async () => {
  const { deps, advance } = setup();
  // x6's run: 12 reads of ~1.8k tokens, then the first four compressed (~7k saved, ~14k after them re-billed)
  const history: Message[] = [user("u"), ...Array.from({ length: 12 }, (_, i) => read(i + 1, 7_200)).flat()];
  const before = await prepare(history, deps, signal);
  history.push(...compress(13, 1, 4));
  const after = await prepare(history, deps, signal);
  expect(summarized(after.messages)).toBe(false); // before: the range replaced at once, 4.9 % of the previous request repeated
  expect(sharedPrefix(before.messages, after.messages)).toBe(before.messages.length);
  expect(previewContext(history, deps).stats).toMatchObject({ compressed: 0, pending: 1 }); // what /usage says
  history.push(...read(14, 7_200));
  expect(summarized((await prepare(history, deps, signal)).messages)).toBe(false);
  advance(3_600_001); // the cache is gone anyway: the rewrite costs nothing extra now
  history.push(...read(15, 100));
  const rebuilt = await prepare(history, deps, signal);
  expect(summarized(rebuilt.messages)).toBe(true);
  expect(previewContext(history, deps).stats).toMatchObject({ compressed: 1, pending: 0 });
});

test("a compress whose saving pays for the miss is applied at once", async () => {
  const { deps } = setup();
  // two large reads compressed with little after them: 20k tokens saved on each later request against ~0.3k re-billed
  const history: Message[] = [user("u"), ...read(1, 40_000), ...read(2, 40_000), ...read(3, 400), ...read(4, 400), ...read(5, 400)];
  await prepare(history, deps, signal);
  history.push(...compress(6, 1, 2));
  const next = await prepare(history, deps, signal);
  expect(summarized(next.messages)).toBe(true);
});

test("a model not used yet in the run (a cold cache) takes the held compress in its first request", async () => {
  const { deps, state } = setup();
  const history: Message[] = [user("u"), ...Array.from({ length: 12 }, (_, i) => read(i + 1, 7_200)).flat()];
  await prepare(history, deps, signal);
  history.push(...compress(13, 1, 4));
  expect(summarized((await prepare(history, deps, signal)).messages)).toBe(false);
  Object.assign(state, COLD_CACHE); // agent.ts switchModel to a model without a cache of its own
  history.push(...read(14, 100));
  expect(summarized((await prepare(history, deps, signal)).messages)).toBe(true);
});

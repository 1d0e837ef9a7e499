// x44 finding 1: an agent going back and forth between the same few files, near the budget. Each
// new read made the earlier copy a duplicate; the view keeping the earlier messages as sent was
// over the budget, so the history was rebuilt with dedup, which fit — no summary — and the next
// turn did the same a little later in the history: a prompt-cache miss on nearly every request.
// Now the break the budget forces is a summary, which makes room for turns that extend one prefix.
import { describe, expect, test } from "bun:test";
import { sharedPrefix } from "../../src/context/cache.ts";
import { newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { DUPLICATE_NOTE } from "../../src/context/passes.ts";
import { emptyUsage, textOf, type Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { ProviderError, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { testPolicy } from "../helpers/settings.ts";

/** Sizes of the files read in rotation: 4.5k to 7.5k characters against a 10k-token budget. */
const FILES = [6_000, 7_500, 4_500, 6_500];
const TURNS = 40;

async function session(opts: { summaries: boolean; dedup?: boolean }) {
  let summaries = 0;
  const events: AgentEvent[] = [];
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream(): AsyncGenerator<StreamEvent> {
      summaries++;
      if (!opts.summaries) throw new ProviderError("bad_request", "no summaries here");
      const text = `Summary ${summaries}: the files read, what was found in each, what is left to do.`;
      yield { type: "done", message: { id: `s${summaries}`, role: "assistant", content: [{ type: "text", text }] }, usage: emptyUsage(), stop: "stop" };
    },
  };
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: testPolicy({ budgetTokens: 10_000, compressTool: false, ...(opts.dedup === false ? { dedup: false } : {}) }),
    provider,
    output: { emit: (e) => events.push(e) },
    tools: [],
    system: () => "system",
    taskNote: () => undefined,
    now: () => 0,
  };
  const history: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: "Fix the parser across its modules." }] }];
  const signal = new AbortController().signal;
  const sent: (readonly Message[])[] = [];
  let rewrites = 0;
  let pruned = 0;
  for (let n = 0; n < TURNS; n++) {
    const request = await prepare(history, deps, signal);
    const previous = sent.at(-1);
    if (previous && sharedPrefix(previous, request.messages) < previous.length) rewrites++;
    pruned += request.messages.filter((m) => textOf(m) === DUPLICATE_NOTE).length;
    sent.push(request.messages);
    const file = n % FILES.length;
    const call = { id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/mod${file}.ts` }) };
    history.push({ id: `a${n}`, role: "assistant", content: [{ type: "text", text: `Back to mod${file}.` }], toolCalls: [call] });
    const text = `mod${file}: ${"export const x = 1;\n".repeat(FILES[file]! / 19)}`;
    history.push({ id: `r${n}`, role: "tool", toolCallId: call.id, toolName: "read_file", content: [{ type: "text", text }] });
  }
  return { rewrites, summaries, pruned, events };
}

describe("re-reading the same files near the budget", () => {
  test("the prefix is rewritten about once per summary, not on nearly every request", async () => {
    const run = await session({ summaries: true });
    expect(run.summaries).toBeGreaterThan(0);
    // each rewrite is a summary that made room for the turns after it
    expect(run.rewrites).toBeLessThanOrEqual(run.summaries + 1);
    expect(run.rewrites).toBeLessThan(TURNS / 3);
  });

  test("with dedup on it costs no more rewrites than with dedup off", async () => {
    const on = await session({ summaries: true });
    const off = await session({ summaries: true, dedup: false });
    expect(on.rewrites).toBeLessThanOrEqual(off.rewrites);
  });

  test("when the summary fails, the trim stands: no summary request and no rewrite on every turn", async () => {
    const run = await session({ summaries: false });
    expect(run.summaries).toBeLessThan(TURNS / 3);
    expect(run.rewrites).toBeLessThan(TURNS / 3);
    const failed = run.events.filter((e) => e.type === "compaction" && "error" in e && e.error);
    expect(failed.length).toBe(run.summaries);
    for (const e of failed) expect(e.type === "compaction" && e.kind === "trim" && (e.left_out ?? 0) > 0).toBe(true); // "older messages dropped instead" is true
  });

  test("after a pause past the cache's lifetime, a duplicate whose pruning leaves as much room as a summary would is pruned, and no summary is asked for", async () => {
    let summaries = 0;
    let clock = 1_000_000;
    const provider: Provider = {
      protocol: "openai",
      model: "m",
      // biome-ignore lint/correctness/useYield: a summary request would fail the test before it yields
      async *stream(): AsyncGenerator<StreamEvent> {
        summaries++;
        throw new ProviderError("bad_request", "no summary expected");
      },
    };
    const deps: PrepareDeps = {
      state: newCompactionState(),
      policy: testPolicy({ budgetTokens: 10_000, compressTool: false }),
      provider,
      output: { emit: () => {} },
      tools: [],
      system: () => "system",
      taskNote: () => undefined,
      now: () => clock,
    };
    const read = (n: number, path: string, chars: number): Message[] => [
      { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path }) }] },
      { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: [{ type: "text", text: `${path}: ${"y".repeat(chars)}` }] },
    ];
    const signal = new AbortController().signal;
    const history: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: "Why does the build fail?" }] }, ...read(1, "build.log", 18_800)];
    await prepare(history, deps, signal);
    // two reads a summary would be worth asking for (over a tenth of the budget), two small ones in the last turns
    for (const [n, [path, chars]] of (
      [
        ["a.ts", 2_100],
        ["b.ts", 2_100],
        ["c.ts", 100],
        ["d.ts", 100],
      ] as const
    ).entries()) {
      history.push(...read(n + 2, path, chars));
      await prepare(history, deps, signal);
    }
    clock += 2 * 3_600_000; // past an OpenAI-style endpoint's cache lifetime (an hour): the cached prefix is gone anyway
    history.push(...read(6, "build.log", 18_800)); // 4.7k tokens again: ~10.5k with both copies, ~5.9k with one
    const request = await prepare(history, deps, signal);
    expect(summaries).toBe(0);
    expect(request.messages.filter((m) => textOf(m) === DUPLICATE_NOTE).map((m) => m.id)).toEqual(["r1"]);
  });
});

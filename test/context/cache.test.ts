// Prompt caches and the context passes (issue 23): the pure cost model, the window arithmetic, and
// `prepare` deciding when dedup and error purge may rewrite earlier messages — only when the cache
// is broken anyway or the saving pays for the miss — so each request repeats the previous one.
import { describe, expect, test } from "bun:test";
import { cachePrices, rewritePays, sharedPrefix, unchangedThrough } from "../../src/context/cache.ts";
import { newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { DUPLICATE_NOTE } from "../../src/context/passes.ts";
import { effectiveBudget, hardTokens, learnWindow } from "../../src/context/window.ts";
import { textOf, type Message } from "../../src/kernel/ir.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import { cacheLifetimeOf } from "../../src/providers/cache-lifetime.ts";
import { testPolicy } from "../helpers/settings.ts";

describe("rewritePays: tokens saved on later requests (read at the cached price) against the miss it causes now", () => {
  const openai = cachePrices("openai");
  const anthropic = cachePrices("anthropic");
  test.each([
    // saved per request, rebilled now, prices, pays?
    ["a duplicate 1k read far back: 20k after it to pay again", 1_000, 20_000, openai, false],
    ["a 10k duplicate test output right before the tail", 10_000, 10_500, openai, true],
    ["the same on Anthropic, where the miss is a 1.25× write", 10_000, 10_500, anthropic, false],
    ["a 2k duplicate with 1.5k after it", 2_000, 1_500, openai, true],
    ["nothing saved", 0, 0, openai, false],
  ] as const)("%s", (_, saved, rebilled, prices, pays) => {
    expect(rewritePays(saved, rebilled, prices)).toBe(pays);
  });

  test("a longer horizon makes more rewrites pay", () => {
    expect(rewritePays(1_000, 20_000, cachePrices("openai"), 10)).toBe(false);
    expect(rewritePays(1_000, 20_000, cachePrices("openai"), 200)).toBe(true);
  });
});

describe("the window", () => {
  test.each([
    ["stated, with the answer's share", { window: 32_768, prompt: 29_434, completion: 4_096 }, 40_000, undefined, 28_672],
    [
      "stated, answer share most of the window (the answer's limit is the problem): the window",
      { window: 16_000, completion: 12_000 },
      20_000,
      undefined,
      16_000,
    ],
    ["stated alone", { window: 16_000 }, 20_000, undefined, 16_000],
    ["unstated: 0.7 of what failed", {}, 20_000, undefined, 14_000],
    ["unstated again: 0.7 of the smaller of what failed and what was known", {}, 20_000, 14_000, 9_800],
    ["never above what was known", { window: 64_000 }, 70_000, 16_000, 16_000],
  ] as const)("%s", (_, overflow, sent, known, window) => {
    expect(learnWindow(overflow, sent, known)).toBe(window);
  });

  test("requests are built to 80 % of the window at most; 90 % is the hard limit", () => {
    expect(effectiveBudget(40_000, undefined)).toBe(40_000);
    expect(effectiveBudget(40_000, 16_000)).toBe(12_800);
    expect(effectiveBudget(10_000, 200_000)).toBe(10_000);
    expect(hardTokens(16_000)).toBe(14_400);
    expect(hardTokens(undefined)).toBeUndefined();
  });
});

test("sharedPrefix: by object, else by id and content", () => {
  const a: Message = { id: "1", role: "user", content: [{ type: "text", text: "x" }] };
  const b: Message = { id: "2", role: "user", content: [{ type: "text", text: "y" }] };
  expect(sharedPrefix([a, b], [a, { ...b }])).toBe(2);
  expect(sharedPrefix([a, b], [a, { ...b, content: [{ type: "text", text: "z" }] }])).toBe(1);
  expect(sharedPrefix([a, b], [a, b, a], 1)).toBe(1);
});

test("unchangedThrough: where the previous request's cached prefix ends, on a clean extension too (a return after a fallback may lie far back)", () => {
  const m = (id: string, text = id): Message => ({ id, role: "user", content: [{ type: "text", text }] });
  const sent = { messages: [m("1"), m("2"), m("3")], count: 3, fixed: "sys" };
  expect(unchangedThrough(sent, [m("1"), m("2"), m("3"), m("4"), m("5")], "sys")).toBe("3"); // it extends that request
  expect(unchangedThrough(sent, [m("1"), m("2", "rewritten"), m("3")], "sys")).toBe("1"); // a rewrite: up to before it
  expect(unchangedThrough(sent, [m("9"), m("3")], "sys")).toBeUndefined(); // a summary or trim from the start
  expect(unchangedThrough(sent, [m("1"), m("2"), m("3")], "other")).toBeUndefined(); // another system prompt
  expect(unchangedThrough(undefined, [m("1")], "sys")).toBeUndefined(); // a model's first request
});

describe("prepare: rewrites wait for a moment the cache is broken anyway", () => {
  const user = (id: string): Message => ({ id, role: "user", content: [{ type: "text", text: "task" }] });
  const read = (n: number, path: string, size = 4000): Message[] => [
    { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path }) }] },
    { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "read_file", content: [{ type: "text", text: `${path}: ${"x".repeat(size)}` }] },
  ];
  const provider: Provider = { protocol: "openai", model: "m", stream: async function* () {} };
  const setup = (provider_ = provider) => {
    let clock = 1_000_000;
    const state = newCompactionState();
    const deps: PrepareDeps = {
      state,
      policy: testPolicy({ compressTool: false }),
      provider: provider_,
      output: { emit: () => {} },
      tools: [],
      system: () => "system",
      taskNote: () => undefined,
      now: () => clock,
    };
    return { deps, advance: (ms: number) => (clock += ms) };
  };
  const signal = new AbortController().signal;
  const pruned = (messages: readonly Message[]) => messages.filter((m) => textOf(m) === DUPLICATE_NOTE).map((m) => m.id);

  // (protocol, base URL) as createProvider gives the lifetime; the pauses: 7 minutes, 2 hours, 2 days
  for (const [endpoint, protocol, baseUrl, kept] of [
    ["Anthropic", "anthropic", "https://api.anthropic.com", [false, false, false]],
    ["Claude through OpenRouter (cache_control marks)", "openai", "https://openrouter.ai/api/v1", [false, false, false]],
    ["api.openai.com", "openai", "https://api.openai.com/v1", [true, true, false]],
    ["OpenAI Responses", "responses", "https://api.openai.com/v1", [true, true, false]],
    ["DeepSeek", "openai", "https://api.deepseek.com", [true, false, false]],
    ["a llama.cpp server", "openai", "http://127.0.0.1:8080/v1", [true, false, false]],
  ] as const)
    test(`a re-read far from the tail is not pruned while ${endpoint}'s cache holds, and is at the next break (a pause past its lifetime)`, async () => {
      const model = baseUrl.includes("openrouter") ? "anthropic/claude-sonnet-4.5" : "m";
      const cacheLifetimeMs = cacheLifetimeOf({ protocol, baseUrl, model });
      for (const [i, pause] of [7 * 60_000, 2 * 3_600_000, 48 * 3_600_000].entries()) {
        const { deps, advance } = setup({ ...provider, protocol, model, cacheLifetimeMs });
        const history: Message[] = [user("u"), ...read(1, "a.ts"), ...read(2, "b.ts"), ...read(3, "c.ts"), ...read(4, "d.ts"), ...read(5, "e.ts")];
        const first = await prepare(history, deps, signal);
        expect(pruned(first.messages)).toEqual([]);
        history.push(...read(6, "a.ts", 4000)); // a.ts again: r1 is now a duplicate
        advance(10_000);
        const second = await prepare(history, deps, signal);
        expect(pruned(second.messages)).toEqual([]); // 4k saved × 0.1 × 10 < ~20k × 0.9 re-billed
        expect(sharedPrefix(first.messages, second.messages)).toBe(first.messages.length); // the previous request is this one's prefix
        advance(pause); // within the endpoint's cache lifetime the prefix is kept; past it, it is gone anyway
        history.push(...read(7, "f.ts", 100));
        const third = await prepare(history, deps, signal);
        expect(pruned(third.messages)).toEqual(kept[i] ? [] : ["r1"]); // before: pruned after 5 minutes on every endpoint
        if (kept[i]) expect(sharedPrefix(second.messages, third.messages)).toBe(second.messages.length);
      }
    });

  test("a changed system prompt is a break too; a rewrite near the tail that pays is made at once", async () => {
    const { deps } = setup();
    const history: Message[] = [user("u"), ...read(1, "small.ts", 100), ...read(2, "big.log", 30_000), ...read(3, "x.ts", 100), ...read(4, "y.ts", 100)];
    await prepare(history, deps, signal);
    history.push(...read(5, "big.log", 30_000)); // r2, near the tail, is now 7.5k tokens of duplicate
    expect(pruned((await prepare(history, deps, signal)).messages)).toEqual(["r2"]);

    const { deps: other } = setup();
    const h2: Message[] = [user("u"), ...read(1, "a.ts"), ...read(2, "b.ts"), ...read(3, "c.ts"), ...read(4, "d.ts")];
    await prepare(h2, other, signal);
    h2.push(...read(5, "a.ts"));
    expect(pruned((await prepare(h2, other, signal)).messages)).toEqual([]);
    expect(pruned((await prepare(h2, { ...other, system: () => "system, reloaded" }, signal)).messages)).toEqual(["r1"]);
  });
});

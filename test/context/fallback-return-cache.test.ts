// A fallback that answered one request and the return to the primary model (x146 #2): each model's
// prompt cache is its own, so the primary's next request goes on from its own last request's prefix,
// still cached, instead of rewriting what was deferred; and `hey -c` replays it the same way.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createAgent, type Fallback } from "../../src/agent.ts";
import { newId, type Message } from "../../src/kernel/ir.ts";
import { ANTHROPIC_CACHE_MS } from "../../src/providers/cache-lifetime.ts";
import { fanOut } from "../../src/kernel/output.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { agentSettings } from "../../src/runtime.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { resumedParts } from "../../src/sessions/resumed.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

let dir: ReturnType<typeof tempDir>;
const realNow = Date.now;
beforeEach(() => (dir = tempDir()));
afterEach(() => {
  Date.now = realNow;
  dir.remove();
});

const readSmall: Tool = {
  name: "read_small",
  description: "reads",
  parameters: {},
  run: async () => ({ output: `contents of a.ts: ${"x".repeat(150)}` }), // too small for its dedup to pay for a cache miss
};
/** `n` reads, of a.ts and b.ts in turn */
const reads = (n: number): Turn[] =>
  Array.from({ length: n }, (_, k) => ({ toolCalls: [{ name: "read_small", arguments: { path: k % 2 ? "b.ts" : "a.ts" } }] }));
const busy = (): Turn => ({ error: new ProviderError("rate_limit", "rate limited (429): slow down") });
const base = defaultSettingsForTest();
const settingsOf = (model: string) => ({ ...agentSettings(base), model: { provider: "fake", model }, retry: { ...base.retry, maxRetries: 0 } });
const signal = () => new AbortController().signal;
const pruned = (messages: readonly Message[]) => JSON.stringify(messages).split("[pruned: duplicate call").length - 1;
const same = (m: Message | undefined) => JSON.stringify(m);
const expectPrefix = (first: readonly Message[], last: readonly Message[]) => expect(first.slice(0, last.length).map(same)).toEqual(last.map(same));

/** model-a, with model-b as its fallback (none with `alone`), writing session `id` (as wire.ts names the model each run) */
function run(a: Turn[], b: Turn[], id: string, resumed = false, tools = [readSmall], alone = false) {
  // endpoints whose caches live 5 minutes (Anthropic's): the pauses below are past it
  const primary = fakeProvider(a, { model: "model-a", cacheLifetimeMs: ANTHROPIC_CACHE_MS });
  const fallback = fakeProvider(b, { model: "model-b", cacheLifetimeMs: ANTHROPIC_CACHE_MS });
  const session = createSessionWriter({ dir: dir.path, id, cwd: dir.path, version: "0", warn: () => {}, existing: resumed });
  session.model("fake", "model-a");
  const agent = createAgent({
    settings: settingsOf("model-a"),
    provider: primary,
    tools: () => tools,
    output: fanOut([recordingOutput(), session]),
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
    fallback: async (_e, tried): Promise<Fallback | undefined> =>
      alone || tried.has("fake/model-b") ? undefined : { provider: fallback, settings: settingsOf("model-b"), why: "is rate-limited" },
    ...(resumed ? resumedParts(loadSession(`${dir.path}/${id}.jsonl`), "fake", "model-a") : {}),
  });
  return { agent, primary, fallback, session };
}

/** Send 1: five reads on model-a; send 2: model-a busy, model-b answers; send 3: back on model-a. */
async function fallbackAndReturn(id: string) {
  const r = run([...reads(5), { text: "done" }, busy(), ...reads(2), { text: "done" }], [{ text: "from b" }], id);
  await r.agent.send("look at a.ts", signal());
  const warm = r.primary.requests.at(-1)!.messages;
  expect(pruned(warm)).toBe(0); // deferred for model-a's cache
  await r.agent.send("a question", signal());
  expect(r.fallback.requests).toHaveLength(1);
  expect(pruned(r.fallback.requests[0]!.messages)).toBeGreaterThan(0); // model-b's cache is cold: its request rewrote what was deferred
  await r.agent.send("go on", signal());
  r.session.close();
  return { r, warm, back: r.primary.requests[7]! };
}

test("back on the primary after a fallback answered one request: its next request repeats its last one's prefix, still cached", async () => {
  const { warm, back } = await fallbackAndReturn(newId());
  expect(pruned(back.messages)).toBe(0);
  expectPrefix(back.messages, warm);
});

test("back on the primary past the cache's lifetime: its cache is gone, so its request rewrites what was deferred", async () => {
  let clock = realNow();
  Date.now = () => clock;
  const r = run([...reads(5), { text: "done" }, busy(), ...reads(2), { text: "done" }], [{ text: "from b" }], newId());
  await r.agent.send("look at a.ts", signal());
  clock += 6 * 60_000;
  await r.agent.send("a question", signal());
  await r.agent.send("go on", signal());
  r.session.close();
  expect(pruned(r.primary.requests[7]!.messages)).toBeGreaterThan(0);
});

test("hey -c after a fallback and the return replays model-a's cache: its first request repeats model-a's last request", async () => {
  const id = newId();
  const { r } = await fallbackAndReturn(id);
  const last = r.primary.requests.at(-1)!.messages;
  const next = run([{ text: "ok" }], [], id, true);
  await next.agent.send("and now?", signal());
  next.session.close();
  const first = next.primary.requests[0]!.messages;
  expect(pruned(first)).toBe(pruned(last));
  expectPrefix(first, last);
});

test("hey -c after a fallback that answered for minutes: the replay times model-a's return from model-a's own last request, as the run did", async () => {
  let clock = realNow();
  Date.now = () => clock;
  const minutes = (n: number) => (clock += n * 60_000);
  const id = newId();
  const slowRead: Tool = { ...readSmall, run: async () => (minutes(3), readSmall.run({}, {} as never)) };
  const b: Turn[] = [{ toolCalls: [{ name: "read_small", arguments: { path: "c.ts" } }] }, { text: "from b" }];
  const r = run([...reads(5), { text: "done" }, busy(), ...reads(2), { text: "done" }], b, id, false, [slowRead]);
  await r.agent.send("look at a.ts", signal());
  minutes(1);
  await r.agent.send("a question", signal()); // model-b's requests at 1 and 4 minutes
  minutes(3);
  await r.agent.send("go on", signal()); // model-a's at 7 minutes, 6 after the one it tried last: its cache is gone
  r.session.close();
  const last = r.primary.requests.at(-1)!.messages;
  expect(pruned(r.primary.requests[7]!.messages)).toBeGreaterThan(0);
  const next = run([{ text: "ok" }], [], id, true);
  await next.agent.send("and now?", signal());
  next.session.close();
  expectPrefix(next.primary.requests[0]!.messages, last);
});

// x150 #2: the request that got the 429 was never answered, so it wrote no cache: model-a's cache was last
// written by the last request it answered, and its lifetime counts from there, in the run as in `hey -c`'s replay
test.each([
  ["model-b answers for it", false],
  ["no fallback: the run ends with the error", true],
])(
  "a request that failed does not keep model-a's cache warm (%s): back 7 minutes after its last answer, it rebuilds, and hey -c goes on from it",
  async (_, alone) => {
    let clock = realNow();
    Date.now = () => clock;
    const minutes = (n: number) => (clock += n * 60_000);
    const id = newId();
    const r = run([...reads(5), { text: "done" }, busy(), ...reads(2), { text: "done" }], [{ text: "from b" }], id, false, [readSmall], alone);
    await r.agent.send("look at a.ts", signal()); // answered at 0 minutes
    minutes(4);
    await r.agent.send("a question", signal()); // model-a's request at 4 minutes gets the 429
    minutes(3);
    await r.agent.send("go on", signal()); // 7 minutes after its last answer: its cache is gone
    r.session.close();
    expect(r.primary.requests).toHaveLength(10);
    expect(pruned(r.primary.requests[6]!.messages)).toBe(0); // the one that failed: deferred, 4 minutes after the last answer
    expect(pruned(r.primary.requests[7]!.messages)).toBeGreaterThan(0);
    const last = r.primary.requests.at(-1)!.messages;
    const next = run([{ text: "ok" }], [], id, true);
    await next.agent.send("and now?", signal());
    next.session.close();
    expectPrefix(next.primary.requests[0]!.messages, last);
  },
);

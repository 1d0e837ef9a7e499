// A request the provider never answered wrote no prompt cache (x158 #2): Esc while hey waits to
// retry after a 429 leaves an interrupted marker in the conversation, but the cache was last
// written by the request answered before it, so its lifetime counts from that one, and the next
// request goes on from that request's prefix; `hey -c` replays it the same way. A request whose
// answer had begun (the provider's first counts came) before the Esc did write it.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createAgent } from "../../src/agent.ts";
import { emptyUsage, newId, type Message } from "../../src/kernel/ir.ts";
import { ANTHROPIC_CACHE_MS } from "../../src/providers/cache-lifetime.ts";
import { fanOut, type Output } from "../../src/kernel/output.ts";
import { ProviderError, type Provider } from "../../src/kernel/provider.ts";
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
let clock = 0;
beforeEach(() => {
  dir = tempDir();
  clock = realNow();
  Date.now = () => clock;
});
afterEach(() => {
  Date.now = realNow;
  dir.remove();
});

const MINUTE = 60_000;
const readSmall: Tool = {
  name: "read_small",
  description: "reads",
  parameters: {},
  run: async () => ({ output: `contents of a.ts: ${"x".repeat(150)}` }), // too small for its dedup to pay for a cache miss
};
/** `n` reads, of a.ts and b.ts in turn */
const reads = (n: number): Turn[] =>
  Array.from({ length: n }, (_, k) => ({ toolCalls: [{ name: "read_small", arguments: { path: k % 2 ? "b.ts" : "a.ts" } }] }));
const busy: Turn = { error: new ProviderError("rate_limit", "rate limited (429): slow down") };
const pruned = (messages: readonly Message[]) => JSON.stringify(messages).split("[pruned: duplicate call").length - 1;
const settings = { ...agentSettings(defaultSettingsForTest()), model: { provider: "fake", model: "model-a" } };

/** Esc pressed now: the signal of the send in progress aborts */
let esc = () => {};
/** Esc while hey waits out its first retry's back-off */
const escInRetryWait: Output = { emit: (e) => void (e.type === "retry" && esc()) };

/** A run of hey on model-a writing session `id` (going on with it when `resumed`); `provider` stands in for the scripted one. */
function run(script: Turn[], id: string, opts: { resumed?: boolean; provider?: (fake: Provider) => Provider } = {}) {
  const fake = fakeProvider(script, { model: "model-a", cacheLifetimeMs: ANTHROPIC_CACHE_MS }); // its cache lives 5 minutes (Anthropic's): the pauses below are past it
  const session = createSessionWriter({ dir: dir.path, id, cwd: dir.path, version: "0", warn: () => {}, existing: opts.resumed === true });
  session.model("fake", "model-a");
  const agent = createAgent({
    settings,
    provider: opts.provider?.(fake) ?? fake,
    tools: () => [readSmall],
    output: fanOut([recordingOutput(), session, escInRetryWait]),
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
    ...(opts.resumed ? resumedParts(loadSession(`${dir.path}/${id}.jsonl`), "fake", "model-a") : {}),
  });
  const send = (text: string) => {
    const ctl = new AbortController();
    esc = () => ctl.abort();
    return agent.send(text, ctl.signal);
  };
  return { agent, fake, session, send };
}

/** At 0 min five reads, deferred for the cache; at `later` min a message that gets a 429, Esc in the wait. */
async function escAfter429(id: string, later: number, after: Turn[] = []) {
  const r = run([...reads(5), { text: "done" }, busy, ...after], id);
  await r.send("look at a.ts");
  const answered = r.fake.requests.at(-1)!;
  expect(pruned(answered.messages)).toBe(0); // deferred for model-a's cache
  clock += later * MINUTE;
  expect((await r.send("and b.ts?")).stop).toBe("interrupted");
  expect(r.agent.messages.at(-1)!.content).toEqual([{ type: "text", text: "[interrupted by the user]" }]);
  return { ...r, answered };
}

test("Esc in the wait after a 429: the cache's lifetime counts from the last answered request, so a message past it rewrites what was deferred", async () => {
  const r = await escAfter429(newId(), 4, [...reads(1), { text: "done" }]);
  clock += 3 * MINUTE; // 7 minutes after the last answer, 3 after the 429
  await r.send("go on");
  r.session.close();
  expect(pruned(r.fake.requests.at(-1)!.messages)).toBeGreaterThan(0); // the cache is cold: the rewrites went out for free
});

test("Esc in the wait after a 429, then a message within the lifetime: its cached prefix is where the answered request ended, live and after hey -c", async () => {
  const id = newId();
  const r = await escAfter429(id, 2, [{ text: "ok" }]);
  const cachedTo = r.answered.messages.at(-1)!.id; // the last message the provider read: the 429'd question was never read
  clock += MINUTE;
  await r.send("go on");
  r.session.close();
  expect(r.fake.requests.at(-1)!.unchangedThrough).toBe(cachedTo);
  expect(pruned(r.fake.requests.at(-1)!.messages)).toBe(0);

  // the same session up to the Esc, resumed within the lifetime: the replay passes over the marker as the run did
  const second = newId();
  const s = await escAfter429(second, 2);
  s.session.close();
  clock += MINUTE;
  const c = run([{ text: "ok" }], second, { resumed: true });
  await c.send("go on");
  c.session.close();
  expect(c.fake.requests[0]!.unchangedThrough).toBe(s.answered.messages.at(-1)!.id);
  expect(pruned(c.fake.requests[0]!.messages)).toBe(0);
});

/** At 0 min five reads; at 4 min a message whose answer begins (the provider's first counts come: Anthropic's message_start), Esc before its first word. */
async function escAfterBegun(id: string, after: Turn[] = []) {
  let stall = false;
  const stalls = (fake: Provider): Provider => ({
    ...fake,
    async *stream(request, signal) {
      if (!stall) return yield* fake.stream(request, signal);
      stall = false;
      yield { type: "usage", usage: { ...emptyUsage(), input: 500 } };
      esc();
      throw signal.reason;
    },
  });
  const r = run([...reads(5), { text: "done" }, ...after], id, { provider: stalls });
  await r.send("look at a.ts");
  clock += 4 * MINUTE;
  stall = true;
  expect((await r.send("and b.ts?")).stop).toBe("interrupted");
  expect(r.agent.messages.at(-1)!.content).toEqual([{ type: "text", text: "[interrupted by the user]" }]);
  return { ...r, question: r.agent.messages.at(-2)!.id };
}

test("Esc once the answer had begun, before its first word: that request did write the cache, live and after hey -c", async () => {
  const r = await escAfterBegun(newId(), [{ text: "ok" }]);
  clock += 3 * MINUTE; // past the lifetime of the 0-min answer, within that of the 4-min request
  await r.send("go on");
  r.session.close();
  expect(r.fake.requests.at(-1)!.unchangedThrough).toBe(r.question);
  expect(pruned(r.fake.requests.at(-1)!.messages)).toBe(0);

  const id = newId();
  const s = await escAfterBegun(id);
  s.session.close();
  clock += 3 * MINUTE;
  const c = run([{ text: "ok" }], id, { resumed: true });
  await c.send("go on");
  c.session.close();
  expect(c.fake.requests[0]!.unchangedThrough).toBe(s.question);
  expect(pruned(c.fake.requests[0]!.messages)).toBe(0);
});

// `hey -c` within the provider's cache lifetime (issue 23): the first request after a resume repeats
// the last request before it, byte for byte, where nothing forced a change — a rewrite (dedup, error
// purge) that the run before it deferred for the prompt cache waits on, as it would have in that run.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { createAgent } from "../../src/agent.ts";
import { newId, type Message } from "../../src/kernel/ir.ts";
import { fanOut } from "../../src/kernel/output.ts";
import { ANTHROPIC_CACHE_MS } from "../../src/providers/cache-lifetime.ts";
import { agentSettings } from "../../src/runtime.ts";
import { loadSession } from "../../src/sessions/reader.ts";
import { resumedParts } from "../../src/sessions/resumed.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.remove());

const readSmall = {
  name: "read_small",
  description: "reads",
  parameters: {},
  run: async () => ({ output: `contents of a.ts: ${"x".repeat(150)}` }), // too small for its dedup to pay for a cache miss
};
const failing = { name: "fails", description: "fails", parameters: {}, run: async () => ({ output: "no such file", isError: true }) };

/** `cacheLifetimeMs`: the endpoint's prompt-cache lifetime (Provider.cacheLifetimeMs); default an OpenAI-style endpoint's */
function agent(script: Turn[], sessionId: string, resumed?: ReturnType<typeof loadSession>, cacheLifetimeMs?: number) {
  const provider = fakeProvider(script, cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs });
  const session = createSessionWriter({ dir: dir.path, id: sessionId, cwd: dir.path, version: "0", warn: () => {}, existing: resumed !== undefined });
  const settings = defaultSettingsForTest();
  const a = createAgent({
    settings: { ...agentSettings(settings), model: { provider: "fake", model: "fake-model" } }, // the model its session names, as wire.ts writes it
    provider,
    tools: () => [readSmall, failing],
    output: fanOut([recordingOutput(), session]),
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
    ...(resumed ? resumedParts(resumed, "fake", "fake-model") : {}),
  });
  return { agent: a, provider, session };
}

test("the first request after hey -c repeats the last one before it: a deferred dedup and error purge still wait", async () => {
  const id = newId();
  const script: Turn[] = [
    { toolCalls: [{ name: "read_small", arguments: { path: "a.ts" } }] },
    { toolCalls: [{ name: "fails", arguments: { path: "b.ts" } }] },
    ...Array.from({ length: 4 }, () => ({ toolCalls: [{ name: "read_small", arguments: { path: "a.ts" } }] })),
    { text: "done" },
  ];
  const before = agent(script, id);
  before.session.model("fake", "fake-model");
  await before.agent.send("look at a.ts", new AbortController().signal);
  before.session.close();
  const last = before.provider.requests.at(-1)!.messages;
  // what the run deferred: the older reads' results and the failed call's arguments stand as they were sent
  expect(JSON.stringify(last)).not.toContain("[pruned: duplicate call");
  expect(JSON.stringify(last)).not.toContain("[arguments purged]");

  const after = agent([{ text: "ok" }], id, loadSession(`${dir.path}/${id}.jsonl`));
  await after.agent.send("and now?", new AbortController().signal);
  const first = after.provider.requests[0]!.messages;
  const same = (m: Message | undefined) => JSON.stringify(m);
  expect(first.slice(0, last.length).map(same)).toEqual(last.map(same));
});

for (const [endpoint, lifetime, rewrites] of [
  ["an endpoint whose cache lives 5 minutes (Anthropic's)", ANTHROPIC_CACHE_MS, true],
  ["an OpenAI-style endpoint, whose cache outlives 5 minutes", undefined, false],
] as const)
  test(`hey -c 20 minutes later on ${endpoint}: ${rewrites ? "the cache is gone, so the resume rewrites what was deferred" : "the resume goes on from the last request's prefix"}`, async () => {
    const id = newId();
    const script: Turn[] = [...Array.from({ length: 5 }, () => ({ toolCalls: [{ name: "read_small", arguments: { path: "a.ts" } }] })), { text: "done" }];
    const before = agent(script, id, undefined, lifetime);
    before.session.model("fake", "fake-model");
    await before.agent.send("look at a.ts", new AbortController().signal);
    before.session.close();
    const last = before.provider.requests.at(-1)!.messages;
    expect(JSON.stringify(last)).not.toContain("[pruned: duplicate call"); // deferred
    // the last run's requests were made twenty minutes ago
    const path = `${dir.path}/${id}.jsonl`;
    const old = newId(Date.now() - 20 * 60_000).slice(0, 9);
    writeFileSync(path, readFileSync(path, "utf8").replace(/("type":"usage","id":")[0-9a-z]{9}/g, `$1${old}`));

    const after = agent([{ text: "ok" }], id, loadSession(path), lifetime);
    await after.agent.send("and now?", new AbortController().signal);
    const first = after.provider.requests[0]!.messages;
    expect(JSON.stringify(first).includes("[pruned: duplicate call")).toBe(rewrites);
    const same = (m: Message | undefined) => JSON.stringify(m);
    if (!rewrites) expect(first.slice(0, last.length).map(same)).toEqual(last.map(same)); // before: rewritten after 5 minutes on every endpoint
  });

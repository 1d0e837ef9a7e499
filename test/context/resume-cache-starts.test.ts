// `hey -c` rebuilds the prompt cache's state as the runs before it left it (x141): where a run found
// the provider's cache cold — another model, another system prompt or tool list — it rewrote what it
// had deferred, and the replay does the same there; where a run kept the cache warm, so does the
// replay. Each test checks that the first request after a resume starts with the last request's bytes.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { createAgent } from "../../src/agent.ts";
import { newId, type Message } from "../../src/kernel/ir.ts";
import { fanOut } from "../../src/kernel/output.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { agentSettings } from "../../src/runtime.ts";
import { loadSession, type LoadedSession } from "../../src/sessions/reader.ts";
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

let onRead = () => {};
const readSmall: Tool = {
  name: "read_small",
  description: "reads",
  parameters: {},
  run: async () => (onRead(), { output: `contents of a.ts: ${"x".repeat(150)}` }), // too small for its dedup to pay for a cache miss
};
const other: Tool = { name: "mcp__new__tool", description: "a tool an MCP server added", parameters: {}, run: async () => ({ output: "ok" }) };
/** `n` reads, of a.ts and b.ts in turn (the same call five times in a row would stop the run) */
const reads = (n: number): Turn[] =>
  Array.from({ length: n }, (_, k) => ({ toolCalls: [{ name: "read_small", arguments: { path: k % 2 ? "b.ts" : "a.ts" } }] }));

/** `tight`: a 2,500-token budget, compress offered, its nudge from 30 %, and a run's cap at 4 tokens (each answer here counts 1) */
function settingsOf(model: string, tight = false) {
  const settings = defaultSettingsForTest();
  if (tight) Object.assign(settings.agent, { budgetTokens: 2500, compressTool: true, nudgeThreshold: 0.3, maxRunTokens: 50 });
  return { ...agentSettings(settings), model: { provider: "fake", model } };
}

/** One run of hey on `model` (its session names it, as wire.ts does), going on with `resumed` when given. */
function run(script: Turn[], id: string, opts: { model?: string; resumed?: LoadedSession; tools?: () => Tool[]; tight?: boolean } = {}) {
  const model = opts.model ?? "model-a";
  const provider = fakeProvider(script, { model });
  const session = createSessionWriter({ dir: dir.path, id, cwd: dir.path, version: "0", warn: () => {}, existing: opts.resumed !== undefined });
  const output = recordingOutput();
  session.model("fake", model);
  const agent = createAgent({
    settings: settingsOf(model, opts.tight),
    provider,
    tools: opts.tools ?? (() => [readSmall]),
    output: fanOut([output, session]),
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
    ...(opts.resumed ? resumedParts(opts.resumed, "fake", model) : {}),
  });
  return { agent, provider, session, output };
}

const signal = () => new AbortController().signal;
const pruned = (messages: readonly Message[]) => JSON.stringify(messages).split("[pruned: duplicate call").length - 1;
const same = (m: Message | undefined) => JSON.stringify(m);
/** The next `hey -c` (one answer, on `model`): its first request's messages. */
async function resume(id: string, opts: { model?: string; tools?: () => Tool[]; tight?: boolean } = {}) {
  return (await resumed(id, opts)).messages;
}
async function resumed(id: string, opts: { model?: string; tools?: () => Tool[]; tight?: boolean } = {}) {
  const next = run([{ text: "ok" }], id, { ...opts, resumed: loadSession(`${dir.path}/${id}.jsonl`) });
  await next.agent.send("and now?", signal());
  next.session.close();

  return { ...next.provider.requests[0]!, summaryFailed: next.agent.context.summaryFailed === true };
}
const expectPrefix = (first: readonly Message[], last: readonly Message[]) => expect(first.slice(0, last.length).map(same)).toEqual(last.map(same));

test("hey -c -m with another model rewrites what was deferred (its cache is cold), and the next hey -c on it repeats its last request", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  expect(pruned(a.provider.requests.at(-1)!.messages)).toBe(0); // deferred for model-a's cache

  const b = run([...reads(3), { text: "done" }], id, { model: "model-b", resumed: loadSession(`${dir.path}/${id}.jsonl`) });
  await b.agent.send("go on", signal());
  b.session.close();
  expect(pruned(b.provider.requests[0]!.messages)).toBeGreaterThan(0); // model-b's first request: nothing cached to keep
  expectPrefix(await resume(id, { model: "model-b" }), b.provider.requests.at(-1)!.messages);
});

test("/model rewrites what was deferred with the new model's first request, and the next hey -c repeats its last request", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  const b = fakeProvider([...reads(3), { text: "done" }], { model: "model-b" });
  a.agent.switchModel(b, settingsOf("model-b"));
  await a.agent.send("go on", signal());
  a.session.close();
  expect(pruned(b.requests[0]!.messages)).toBeGreaterThan(0);
  expectPrefix(await resume(id, { model: "model-b" }), b.requests.at(-1)!.messages);
});

test("a long answer is no pause: the replay times each request by the message it answered, not by when its answer ended", async () => {
  let clock = realNow();
  Date.now = () => clock;
  let count = 0;
  onRead = () => {
    if (++count === 7) clock += 2 * 60_000; // the 7th tool run takes two minutes
  };
  const script = reads(10);
  script[7] = () => ((clock += 4 * 60_000), { toolCalls: [{ name: "read_small", arguments: { path: "b.ts" } }] }); // the 8th answer streams for four minutes
  const id = newId();
  const a = run([...script, { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  onRead = () => {};
  const last = a.provider.requests.at(-1)!.messages;
  expect(pruned(last)).toBe(0); // no gap between two requests reached the cache's lifetime
  expectPrefix(await resume(id), last);
});

test("hey -c with another tool list (an MCP server added) rewrites what was deferred: the cache is gone from the tools on", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  expect(pruned(a.provider.requests.at(-1)!.messages)).toBe(0);
  expect(pruned(await resume(id, { tools: () => [readSmall, other] }))).toBeGreaterThan(0);
});

test("a tool list changed within a run: the replay rewrites where that run did, and the next hey -c repeats its last request", async () => {
  const id = newId();
  let tools = [readSmall];
  const a = run([...reads(8), { text: "done" }], id, { tools: () => tools });
  onRead = () => {
    if (tools.length === 1 && a.provider.requests.length === 5) tools = [readSmall, other]; // an MCP server came up mid-run
  };
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  onRead = () => {};
  const sent = a.provider.requests;
  expect(pruned(sent[4]!.messages)).toBe(0);
  expect(pruned(sent[5]!.messages)).toBeGreaterThan(0); // rebuilt with the new tool list: the deferred rewrites went out with it
  expectPrefix(await resume(id, { tools: () => tools }), sent.at(-1)!.messages);
});

test("a run that hands off at its token cap over the budget asked for no summary: hey -c neither takes one as failed nor nudges to compress", async () => {
  const id = newId();
  const readBig: Tool = { name: "read_big", description: "reads", parameters: {}, run: async () => ({ output: "lorem ipsum dolor ".repeat(120) }) };
  const at = Number(process.env.CAPAT ?? 5);
  const script: Turn[] = Array.from(
    { length: 12 },
    (_, i) => (request) =>
      request.system.startsWith("You compress")
        ? { text: "SUMMARY: files were read." }
        : { toolCalls: [{ name: "read_big", arguments: { n: i + 1 } }], usage: { output: i + 1 === at ? 100 : 0 } },
  );
  const a = run([...script, { text: "done" }], id, { tools: () => [readBig], tight: true });
  const result = await a.agent.send("go", signal());
  a.session.close();
  expect(result.stop).toBe("max_run_tokens");
  const handOff = a.provider.requests.at(-1)!;

  expect(handOff.messages.length).toBeLessThan(a.agent.messages.length - 1); // it left older reads out
  const first = await resumed(id, { tools: () => [readBig], tight: true });
  expect(first.summaryFailed).toBe(false); // so no nudge to compress either
  expect(first.note ?? "").not.toContain("use compress");
  expectPrefix(first.messages, handOff.messages);
});

test("hey -c -m model-a after a run on model-b goes on from model-a's own last request, and the next hey -c from that run's (x154 #2)", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  const b = run([...reads(3), { text: "done" }], id, { model: "model-b", resumed: loadSession(`${dir.path}/${id}.jsonl`) });
  await b.agent.send("go on", signal());
  b.session.close();

  const c = run([...reads(3), { text: "done" }], id, { model: "model-a", resumed: loadSession(`${dir.path}/${id}.jsonl`) });
  await c.agent.send("and on", signal());
  c.session.close();
  // model-a's cache still holds its last request: the run back on it extends that, it does not rewrite what was deferred
  expectPrefix(c.provider.requests[0]!.messages, a.provider.requests.at(-1)!.messages);
  expect(pruned(c.provider.requests[0]!.messages)).toBe(0);
  expectPrefix(await resume(id, { model: "model-a" }), c.provider.requests.at(-1)!.messages);
});

test("a /model back to a model in a run resumed on another goes on from that model's last request in the session", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  const b = run([{ text: "ok" }], id, { model: "model-b", resumed: loadSession(`${dir.path}/${id}.jsonl`) });
  await b.agent.send("go on", signal());
  const back = fakeProvider([...reads(3), { text: "done" }], { model: "model-a" });
  b.agent.switchModel(back, settingsOf("model-a"));
  await b.agent.send("and on", signal());
  b.session.close();
  expectPrefix(back.requests[0]!.messages, a.provider.requests.at(-1)!.messages); // model-a's cache, not rewritten
  expect(pruned(back.requests[0]!.messages)).toBe(0);
  expectPrefix(await resume(id, { model: "model-a" }), back.requests.at(-1)!.messages);
});

test("hey -c follows what each request sent: a run that began without the session's cache state rewrote, and so does the replay", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  // an embedder going on with the messages only (lib.ts `history`), into the same session: its first request finds no cache to keep
  const loaded = loadSession(`${dir.path}/${id}.jsonl`);
  const b = run([...reads(3), { text: "done" }], id, { resumed: { ...loaded, cache: undefined } });
  await b.agent.send("go on", signal());
  b.session.close();
  expect(pruned(b.provider.requests[0]!.messages)).toBeGreaterThan(0);
  expectPrefix(await resume(id), b.provider.requests.at(-1)!.messages);
});

test("hey -c -m model-a after a run on model-b whose server stated a window goes on from model-a's last request", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  const b = run([{ text: "ok" }], id, { model: "model-b", resumed: loadSession(`${dir.path}/${id}.jsonl`) });
  b.session.emit({ type: "model", provider: "fake", model: "model-b", window: 200_000 }); // a local server's, stated each run
  await b.agent.send("go on", signal());
  b.session.close();
  const c = await resumed(id, { model: "model-a" });
  expectPrefix(c.messages, a.provider.requests.at(-1)!.messages);
  expect(pruned(c.messages)).toBe(0);
});

test("hey -c, then /model to another model before any message: it starts cold, and /model back goes on from the session model's last request (x158 #1)", async () => {
  const id = newId();
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  const r = run([], id, { resumed: loadSession(`${dir.path}/${id}.jsonl`) });
  const b = fakeProvider([...reads(2), { text: "done" }], { model: "model-b" });
  r.agent.switchModel(b, settingsOf("model-b"));
  await r.agent.send("go on", signal());
  expect(pruned(b.requests[0]!.messages)).toBeGreaterThan(0); // model-b's cache is cold: the deferred rewrites went out for free
  const back = fakeProvider([...reads(2), { text: "done" }], { model: "model-a" });
  r.agent.switchModel(back, settingsOf("model-a"));
  await r.agent.send("and on", signal());
  r.session.close();
  expectPrefix(back.requests[0]!.messages, a.provider.requests.at(-1)!.messages); // model-a's cache still holds it
  expect(pruned(back.requests[0]!.messages)).toBe(0);
});

test("a session of the hey before `rebuilt`: a run it resumed on another model started cold, and the replay takes it so (x163 #1)", async () => {
  const id = newId();
  const path = `${dir.path}/${id}.jsonl`;
  const older = () => writeFileSync(path, readFileSync(path, "utf8").replace(/,"rebuilt":(true|false)/g, "")); // that hey's usage lines
  const a = run([...reads(5), { text: "done" }], id);
  await a.agent.send("look at a.ts", signal());
  a.session.close();
  const b = run([{ text: "ok" }], id, { model: "model-b", resumed: { ...loadSession(path), cache: undefined } }); // that hey: no cache for another model
  await b.agent.send("go on", signal());
  b.session.close();
  const c = run([...reads(3), { text: "done" }], id, { model: "model-a", resumed: { ...loadSession(path), cache: undefined } });
  await c.agent.send("and on", signal());
  c.session.close();
  expect(pruned(c.provider.requests[0]!.messages)).toBeGreaterThan(0); // model-a started cold: what was deferred went out rewritten
  older();
  expectPrefix(await resume(id, { model: "model-a" }), c.provider.requests.at(-1)!.messages);
});

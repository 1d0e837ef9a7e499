// x163 #5: the replay of a resumed session's requests to another model (a fallback mid-run, hey -c
// then /model to a model the session used) came into a run that had already said things and
// learned things: it started the cut notices said afresh, so a result cut before the fallback was
// told to the user twice, and it put the session's old failed summary over this run's.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createAgent, type Fallback } from "../../src/agent.ts";
import { newId } from "../../src/kernel/ir.ts";
import { fanOut } from "../../src/kernel/output.ts";
import { ProviderError, type ModelRequest } from "../../src/kernel/provider.ts";
import { createCompressTool } from "../../src/tools/compress.ts";
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
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.remove());

const file = Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(3)}\texport function fn_${i + 1}(x: number) { return x * ${i + 1}; }`).join("\n");
const readFile: Tool = { name: "read_file", description: "Reads a file.", parameters: { type: "object" }, run: async () => ({ output: file }) };
const busy = (): Turn => ({ error: new ProviderError("rate_limit", "rate limited (429): slow down") });
const base = defaultSettingsForTest();
const settingsOf = (model: string) => ({
  ...agentSettings(base),
  model: { provider: "fake", model },
  retry: { ...base.retry, maxRetries: 0 },
  context: { ...agentSettings(base).context, budgetTokens: 3_000, window: 4_096 },
});
const signal = () => new AbortController().signal;

/** model-a, with model-b as its fallback, writing session `id` (resumed: from what the session holds) */
function run(a: Turn[], b: Turn[], id: string, resumed = false) {
  const primary = fakeProvider(a, { model: "model-a" });
  const fallback = fakeProvider(b, { model: "model-b" });
  const output = recordingOutput();
  const session = createSessionWriter({ dir: dir.path, id, cwd: dir.path, version: "0", warn: () => {}, existing: resumed });
  session.model("fake", "model-a");
  const agent = createAgent({
    settings: settingsOf("model-a"),
    provider: primary,
    tools: () => [readFile],
    output: fanOut([output, session]),
    cwd: dir.path,
    system: () => "system",
    permission: () => undefined,
    taskNote: () => undefined,
    fallback: async (_e, tried): Promise<Fallback | undefined> =>
      tried.has("fake/model-b") ? undefined : { provider: fallback, settings: settingsOf("model-b"), why: "is rate-limited" },
    ...(resumed ? resumedParts(loadSession(`${dir.path}/${id}.jsonl`), "fake", "model-a") : {}),
  });
  return { agent, primary, fallback, session, output };
}

test("a result cut to fit, then a fallback to a model the session used: the user is told of the cut once", async () => {
  const id = newId();
  const before = run([busy()], [{ text: "hello from b" }], id); // the session used model-b once
  await before.agent.send("hello", signal());
  before.session.close();

  const after = run([{ toolCalls: [{ name: "read_file", arguments: { path: "a.ts" } }] }, busy()], [{ text: "read it" }], id, true);
  expect((await after.agent.send("read a.ts", signal())).stop).toBe("end");
  expect(after.fallback.requests).toHaveLength(1);
  const cuts = after.output.of("notice").filter((e) => e.message.includes("the rest was left out to fit the context budget"));
  expect(cuts).toHaveLength(1); // before: said again as model-b's request was built
});

const part = Array.from({ length: 20 }, (_, i) => `line ${i + 1} of the part: ${"words to read ".repeat(5)}`).join("\n");
const readPart: Tool = { name: "read_file", description: "Reads a file.", parameters: { type: "object" }, run: async () => ({ output: part }) };
const summaryAsked = (req: ModelRequest) => req.system.startsWith("You compress") || (req.note ?? "").includes("[hey: older work is being summarized");
/** A model that summarizes with `summary` ("": it fails), and otherwise reads `reads` times, then answers. */
function model(name: string, summary: string, reads: number) {
  let read = 0;
  const decide = (req: ModelRequest) =>
    summaryAsked(req) ? { text: summary } : read++ < reads ? { toolCalls: [{ name: "read_file", arguments: { path: `part${read}.txt` } }] } : { text: "done" };
  return fakeProvider(
    Array.from({ length: 40 }, () => decide),
    { model: name },
  );
}

test("a /model back to a model whose summary failed in the session: this run's summary that worked stands, no compress nudge", async () => {
  const id = newId();
  const settings = (name: string) => ({ ...settingsOf(name), context: { ...agentSettings(base).context, budgetTokens: 3_000 } });
  const start = (provider: ReturnType<typeof model>, name: string, resumed: boolean) => {
    const session = createSessionWriter({ dir: dir.path, id, cwd: dir.path, version: "0", warn: () => {}, existing: resumed });
    session.model("fake", name);
    const tools = () => [readPart, createCompressTool(() => agent.messages)];
    const agent = createAgent({
      settings: settings(name),
      provider,
      tools,
      output: fanOut([recordingOutput(), session]),
      cwd: dir.path,
      system: () => "system",
      permission: () => undefined,
      taskNote: () => undefined,
      ...(resumed ? resumedParts(loadSession(`${dir.path}/${id}.jsonl`), "fake", name) : {}),
    });
    return { agent, session };
  };
  // the session: model-b reads until a summary is due, and its summary fails (the trim stands)
  const b = model("model-b", "", 12);
  const first = start(b, "model-b", false);
  await first.agent.send("read the parts", signal());
  first.session.close();
  expect(b.requests.filter(summaryAsked).length).toBeGreaterThan(0);

  // hey -c on model-a: its summary works; then /model back to model-b
  const a = model("model-a", "SUMMARY: the parts were read.", 3);
  const again = start(a, "model-a", true);
  await again.agent.send("read two more", signal());
  expect(a.requests.filter(summaryAsked).length).toBeGreaterThan(0);
  const b2 = model("model-b", "SUMMARY", 0);
  again.agent.switchModel(b2, settings("model-b"));
  await again.agent.send("and now?", signal());
  again.session.close();
  const note = b2.requests.find((r) => !summaryAsked(r))!.note ?? "";
  expect(note).toStartWith("Context:"); // the context is near the budget: the model hears how full it is
  expect(note).not.toContain("use compress"); // before: nudged as if hey's own summary had failed
});

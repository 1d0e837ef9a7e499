// The note of a request over the nudge threshold suggests compress only when compressing could
// help (context/compaction.ts): a stretch of finished work in the request to compress, and a
// budget the tools and system prompt alone leave room in (past the configured budget when they
// fill it: context/window.ts roomyBudget). A first request over budget on a server's tool schemas
// is told how full it is, not to compress.
import { expect, test } from "bun:test";
import { newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { compressibleIn } from "../../src/context/view.ts";
import type { Message, ToolSpec } from "../../src/kernel/ir.ts";
import { ProviderError, type Provider } from "../../src/kernel/provider.ts";
import { testPolicy } from "../helpers/settings.ts";

const user = (id: string, text = "q"): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const turn = (n: number, chars = 400): Message[] => [
  { id: `a${n}`, role: "assistant", content: [], toolCalls: [{ id: `c${n}`, name: "read_file", arguments: `{"path":"f${n}"}` }] },
  { id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "read_file", isError: false, content: [{ type: "text", text: "x".repeat(chars) }] },
];
const provider: Provider = { protocol: "openai", model: "m", stream: async function* () {} }; // no summary is asked: the requests are built deterministically
const wide: ToolSpec = { name: "wide", description: "d".repeat(8_000), parameters: { type: "object" } };
const deps = (tools: ToolSpec[]): PrepareDeps => ({
  state: newCompactionState(),
  policy: testPolicy({ compressTool: true, budgetTokens: 1_000, nudgeThreshold: 0.7 }),
  provider,
  output: { emit: () => {} },
  tools,
  system: () => "system",
  taskNote: () => undefined,
  now: () => 0,
});
const signal = new AbortController().signal;
const NUDGE = /use compress/i;

test.each([
  ["no turn yet", [user("u")], false],
  ["turns all in the last three, kept whole", [user("u"), ...turn(1), ...turn(2), ...turn(3)], false],
  ["a finished turn before the last three", [user("u"), ...turn(1), ...turn(2), ...turn(3), ...turn(4)], true],
  [
    "results before the first user message only",
    [...turn(1), user("u"), { id: "s", role: "assistant", content: [{ type: "text", text: "ok" }] } as Message],
    false,
  ],
] as const)("compressible: %s", (_, messages, yes) => {
  expect(compressibleIn(messages, 3)).toBe(yes);
});

test("over the threshold with work to compress, after hey's own summary failed: the nudge", async () => {
  const history = [user("u"), ...turn(1, 2_000), ...turn(2), ...turn(3), ...turn(4), user("v")];
  const failed = deps([]);
  failed.state.summaryFailed = true;
  expect((await prepare(history, failed, signal, { deterministic: true })).note).toMatch(NUDGE);
});

test("over the threshold with work to compress while hey's summaries work: how full the context is, no nudge (a model that obeyed it cost 25 % more)", async () => {
  const history = [user("u"), ...turn(1, 2_000), ...turn(2), ...turn(3), ...turn(4), user("v")];
  const note = (await prepare(history, deps([]), signal, { deterministic: true })).note;
  expect(note).toStartWith("Context: ");
  expect(note).not.toMatch(NUDGE);
});

test("a failed summary request turns the nudge on for the requests after it", async () => {
  const failing: Provider = {
    protocol: "openai",
    model: "m",
    stream: async function* () {
      yield* [];
      throw new ProviderError("overloaded", "summarizer overloaded (503)");
    },
  };
  const d = { ...deps([]), provider: failing, policy: testPolicy({ compressTool: true, budgetTokens: 1_000, nudgeThreshold: 0.3 }) };
  const history = [user("u"), ...turn(1, 2_000), ...turn(2, 2_000), ...turn(3), ...turn(4), ...turn(5), user("v")];
  await prepare(history, d, signal);
  expect(d.state.summaryFailed).toBe(true);
  const next = await prepare([...history, ...turn(6)], d, signal, { deterministic: true });
  expect(next.note).toContain("Older messages are being left out to fit it: use compress");
});

test("over budget on the tools alone, nothing to compress: how full of the budget the request is built to (the tools' ~2k and half the 1k for the conversation), no nudge", async () => {
  const note = (await prepare([user("hello")], deps([wide]), signal, { deterministic: true })).note;
  expect(note).toStartWith("Context: 70-80% of the 2.5k-token budget used.");
  expect(note).not.toMatch(NUDGE);
});

test("work to compress while the tools alone fill the budget: the conversation's room past them holds the last turns, the finished one is left out, so no nudge", async () => {
  const history = [user("u"), ...turn(1, 2_000), ...turn(2), ...turn(3), ...turn(4), user("v")];
  const note = (await prepare(history, deps([wide]), signal, { deterministic: true })).note;
  expect(note).toStartWith("Context: 90-100% of the 2.5k-token budget used.");
  expect(note).not.toMatch(NUDGE);
});

test("no nudge to compress while a compress of the model's waits for the prompt cache: it is done, its range goes at the next rebuild", async () => {
  const history = [user("u"), ...turn(1, 8_000), ...turn(2, 8_000), ...turn(3, 8_000), ...turn(4, 8_000)];
  const failed = { ...deps([]), policy: testPolicy({ compressTool: true, budgetTokens: 10_000, nudgeThreshold: 0.7 }) };
  failed.state.summaryFailed = true;
  expect((await prepare(history, failed, signal, { deterministic: true })).note).toMatch(NUDGE);
  const args = JSON.stringify({ start_id: "r1", end_id: "r1", summary: "f1 read: nothing to do" });
  history.push(
    { id: "a5", role: "assistant", content: [], toolCalls: [{ id: "c5", name: "compress", arguments: args }] },
    { id: "r5", role: "tool", toolCallId: "c5", toolName: "compress", isError: false, content: [{ type: "text", text: "compressed" }] },
  );
  const note = (await prepare(history, failed, signal, { deterministic: true })).note;
  expect(failed.state.last!.stats.pending).toBe(1); // held: 2k tokens saved do not pay for re-sending the 6k after them
  expect(note).toStartWith("Context: ");
  expect(note).not.toMatch(NUDGE); // before: told to compress again with its compress taken
});

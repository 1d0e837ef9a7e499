// Resuming a session (SPEC §19): what the writer wrote comes back; torn and corrupt lines are
// skipped with a warning; calls a crash left open get a synthetic result; big files are read
// from the tail with a window that never starts on an orphaned tool result.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { newId, textOf, userMessage, type Message, type ToolCall } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { alignWindow, foldSummary } from "../../src/sessions/format.ts";
import { closeToolCalls } from "../../src/sessions/open-ends.ts";
import { SUMMARY_PREFIX, type Summary } from "../../src/context/passes.ts";
import { buildContext } from "../../src/context/view.ts";
import { NO_RESULT as INTERRUPTED_RESULT } from "../../src/kernel/tool-calls.ts";
import { loadSession, usageIn } from "../../src/sessions/reader.ts";
import { learnedWindow, resumedParts } from "../../src/sessions/resumed.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { HEY_STOPPED } from "../../src/kernel/turns.ts";
import { writeBigSession } from "../helpers/big-session.ts";

/** A question a resume found without an answer is followed by this marker (sessions/open-ends.ts). */
const UNANSWERED = `[interrupted: ${HEY_STOPPED}]`;

const root = mkdtempSync(join(tmpdir(), "hey-resume-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const tempDir = () => mkdtempSync(join(root, `t${n++}-`));

const usage = {
  type: "usage" as const,
  input_tokens: 1,
  output_tokens: 2,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  cache_hit_share: 0,
};
const call = (id: string, name = "bash"): ToolCall => ({ id, name, arguments: `{"command":"echo ${id}"}` });
const asks = (text: string, ...calls: ToolCall[]): Message => ({
  id: newId(),
  role: "assistant",
  content: [{ type: "text", text }],
  ...(calls.length ? { toolCalls: calls } : {}),
});
const result = (c: ToolCall, text = `out ${c.id}`): Message => ({
  id: newId(),
  role: "tool",
  toolCallId: c.id,
  toolName: c.name,
  isError: false,
  content: [{ type: "text", text }],
});

/** Writes `messages` (and a usage entry after each assistant message) with the real writer. */
function written(messages: Message[], extra: (w: ReturnType<typeof createSessionWriter>) => void = () => {}): string {
  const w = createSessionWriter({
    dir: tempDir(),
    id: newId(),
    cwd: "/work/p",
    version: "9.9.9",
    warn: (m) => {
      throw new Error(m);
    },
  });
  w.model("openai", "gpt-test");
  for (const m of messages) {
    w.emit({ type: "message", message: m });
    if (m.role === "assistant") w.emit(usage);
  }
  extra(w);
  w.close();
  return w.path;
}

describe("round trip", () => {
  test("what the writer wrote loads back equal, with the header, the model and the summary", () => {
    const c1 = call("call_1");
    const c2 = call("call_2", "read_file");
    const history: Message[] = [
      userMessage("fix the bug"),
      {
        ...asks("looking", c1, c2),
        content: [{ type: "thinking", text: "hmm", opaque: { protocol: "anthropic", model: "claude", data: { signature: "sig" } } }],
      },
      result(c1),
      { ...result(c2, "boom"), isError: true },
      asks("fixed it"),
      userMessage("thanks\nbye 👋"),
    ];
    const path = written(history, (w) => {
      w.emit({ type: "compaction", kind: "summary", from_id: history[0]!.id, to_id: history[2]!.id, summary: "fixed a bug" } as unknown as AgentEvent);
      w.model("anthropic", "claude");
      w.emit({ type: "message", message: asks("switched") });
    });
    const loaded = loadSession(path);
    expect(loaded.header).toEqual({ type: "header", id: expect.any(String), cwd: "/work/p", created: expect.any(String), version: "9.9.9" });
    expect(loaded.messages).toEqual([...history, expect.objectContaining({ role: "assistant" })]);
    expect(loaded.summaries).toEqual([{ fromId: history[0]!.id, toId: history[2]!.id, text: "fixed a bug" }]);
    expect(loaded.model).toEqual({ provider: "anthropic", model: "claude" });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.appended).toEqual([]);
  });

  test("a window a context-length error taught is kept with its model, through /model to another, and refused when it is no number", () => {
    const taught = (w: ReturnType<typeof createSessionWriter>) =>
      w.emit({ type: "compaction", kind: "window", window: 16_000, tokens_before: 40_000, tokens_after: 12_000, error: "too long" } as unknown as AgentEvent);
    const learned = loadSession(written([userMessage("read it"), asks("done")], taught));
    expect(learned.model).toEqual({ provider: "openai", model: "gpt-test", window: 16_000 });
    expect(learnedWindow(learned, "openai", "gpt-test")).toBe(16_000);
    expect(learnedWindow(learned, "openai", "gpt-other")).toBeUndefined(); // -m chose another model for this run
    expect(learnedWindow(learned, "local", "gpt-test")).toBeUndefined();

    const switched = loadSession(
      written([userMessage("read it"), asks("done")], (w) => {
        taught(w);
        w.model("anthropic", "claude");
        w.emit({ type: "message", message: asks("switched") });
      }),
    );
    expect(switched.model).toEqual({ provider: "anthropic", model: "claude" });
    expect(learnedWindow(switched, "anthropic", "claude")).toBeUndefined();
    // `hey -c -m` back to the model that learned it (report x50, 2), and `/model` back to it in the run after claude's
    expect(learnedWindow(switched, "openai", "gpt-test")).toBe(16_000);
    expect(resumedParts(switched, "anthropic", "claude")).toMatchObject({ windows: { "openai/gpt-test": 16_000 } });

    const path = written([userMessage("read it"), asks("done")]);
    appendFileSync(path, `${JSON.stringify({ type: "model", id: "m2", provider: "openai", model: "gpt-test", window: "big" })}\n`);
    const bad = loadSession(path);
    expect(bad.model).toEqual({ provider: "openai", model: "gpt-test" });
    expect(bad.warnings).toEqual([`${path}: skipped line 6: not a valid model entry`]);
  });

  test("an endpoint's per-request limit (Groq's TPM) is kept by name, and a resume takes it as a hint, not the model's window", () => {
    const limited = (w: ReturnType<typeof createSessionWriter>) =>
      w.emit({
        type: "compaction",
        kind: "window",
        window: 6000,
        limit: "tokens per minute (TPM)",
        tokens_before: 6300,
        tokens_after: 4200,
        error: "413",
      } as unknown as AgentEvent);
    const path = written([userMessage("read it"), asks("done")], limited);
    expect(readFileSync(path, "utf8")).toContain('"window":6000,"limit":"tokens per minute (TPM)"');
    const loaded = loadSession(path);
    expect(loaded.model).toEqual({ provider: "openai", model: "gpt-test", limit: { window: 6000, limit: "tokens per minute (TPM)" } });
    expect(learnedWindow(loaded, "openai", "gpt-test")).toBeUndefined(); // a tier raised since is not held under it
    expect(resumedParts(loaded, "openai", "gpt-test")).toMatchObject({ requestLimit: { window: 6000, limit: "tokens per minute (TPM)" } });
    expect(resumedParts(loaded, "openai", "gpt-test")).not.toHaveProperty("window");
    expect(resumedParts(loaded, "openai", "gpt-other")).not.toHaveProperty("requestLimit"); // another model's limit says nothing of this one
  });

  test("the context a local server says it runs the model with is kept with its model: hey -c starts within it", () => {
    const said = (w: ReturnType<typeof createSessionWriter>) => w.emit({ type: "model", provider: "openai", model: "gpt-test", window: 4096 });
    const kept = loadSession(written([userMessage("read it"), asks("done")], said));
    expect(kept.model).toEqual({ provider: "openai", model: "gpt-test", window: 4096 });
    expect(learnedWindow(kept, "openai", "gpt-test")).toBe(4096);
  });

  test("the estimate's corrected ratio comes back from the newest usage entry that has it; an older session's has none", () => {
    const path = written([userMessage("read it"), asks("done")], (w) => {
      w.emit({ ...usage, tokens_per_char: 0.31 });
      w.emit({ type: "message", message: asks("more") });
      w.emit({ ...usage, tokens_per_char: 0.3333333 }); // the newest: written to 4 digits
      w.emit({ type: "message", message: asks("and more") });
      w.emit(usage); // a usage without it (a hey before it) says nothing
    });
    const loaded = loadSession(path);
    expect(loaded.tokensPerChar).toBe(0.3333);
    expect(resumedParts(loaded, "anthropic", "claude").tokensPerChar).toBe(0.3333); // whatever the model: a /model switch keeps it too
    const older = loadSession(written([userMessage("read it"), asks("done")]));
    expect(older.tokensPerChar).toBeUndefined();
    expect(resumedParts(older, "openai", "gpt-test")).not.toHaveProperty("tokensPerChar");
    appendFileSync(path, `${JSON.stringify({ ...usage, id: "u9", cache_hit_share: undefined, tokens_per_char: "lots" })}\n`);
    expect(loadSession(path)).toMatchObject({ tokensPerChar: 0.3333, warnings: [] }); // a bad ratio is left out, the counts kept
  });

  test("a window a context-length error taught is still known after a resume of the same model, the one after it, and one after another model", () => {
    const path = written([userMessage("read it"), asks("done")], (w) =>
      w.emit({ type: "compaction", kind: "window", window: 16_000, tokens_before: 40_000, tokens_after: 12_000, error: "too long" } as unknown as AgentEvent),
    );
    // `hey -c`: the run's writer names the model again, then the conversation goes on
    const resumed = (provider = "openai", model = "gpt-test") => {
      const w = createSessionWriter({ dir: dirname(path), id: basename(path, ".jsonl"), cwd: "/work/p", version: "9.9.9", warn: () => {}, existing: true });
      w.model(provider, model);
      w.emit({ type: "message", message: userMessage("more") });
      w.emit({ type: "message", message: asks("ok") });
      w.close();
    };
    resumed();
    expect(learnedWindow(loadSession(path), "openai", "gpt-test")).toBe(16_000);
    resumed();
    expect(learnedWindow(loadSession(path), "openai", "gpt-test")).toBe(16_000);
    resumed("anthropic", "claude"); // another model: what gpt-test learned says nothing about it
    expect(learnedWindow(loadSession(path), "anthropic", "claude")).toBeUndefined();
    resumed(); // `hey -c -m` back to gpt-test: it starts within what it learned, sending no request its server refuses again (report x50, 2)
    expect(learnedWindow(loadSession(path), "openai", "gpt-test")).toBe(16_000);
  });

  test("a header with nothing after it is an empty session", () => {
    const path = join(tempDir(), "s.jsonl");
    writeFileSync(path, JSON.stringify({ type: "header", id: "s", cwd: "/", created: "2025-01-01T00:00:00.000Z", version: "1" }) + "\n");
    const header = { type: "header" as const, id: "s", cwd: "/", created: "2025-01-01T00:00:00.000Z", version: "1" };
    expect(loadSession(path)).toEqual({
      header,
      messages: [],
      summaries: [],
      warnings: [],
      appended: [],
      torn: [],
      path,
      bytes: JSON.stringify(header).length + 1,
    });
  });

  test.each([
    ["not JSON", "hello\n"],
    ["another kind of JSONL", '{"type":"message","message":{"id":"x","role":"user","content":[]}}\n'],
    ["empty", ""],
  ])("a file that is not a hey session (%s) is an error naming it", (_name, text) => {
    const path = join(tempDir(), "other.jsonl");
    writeFileSync(path, text);
    expect(() => loadSession(path)).toThrow(`${path} is not a hey session`);
  });

  test("a missing file is an error naming it", () => {
    const path = join(tempDir(), "gone.jsonl");
    expect(() => loadSession(path)).toThrow(`cannot read session ${path}`);
  });
});

describe("crash damage", () => {
  const history = () => [userMessage("one"), asks("two"), userMessage("three")];

  test("a torn last line is skipped with a warning", () => {
    const h = history();
    const path = written(h);
    appendFileSync(path, '{"type":"message","message":{"id":"x","role":"assi');
    const loaded = loadSession(path);
    expect(loaded.messages.slice(0, -1)).toEqual(h);
    expect(textOf(loaded.messages.at(-1)!)).toBe(UNANSWERED); // the question "three" got no answer
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/torn last line \(line 7\)/);
  });

  test("a corrupt line in the middle is skipped with a warning naming its line", () => {
    const h = history();
    const lines = readFileSync(written(h), "utf8").split("\n");
    lines.splice(3, 0, '{"type":"message", garbage', '{"type":"message","message":{"id":1}}', '{"type":"from-the-future"}', "");
    const path = join(tempDir(), "s.jsonl");
    writeFileSync(path, lines.join("\n"));
    const loaded = loadSession(path);
    expect(loaded.messages.slice(0, -1)).toEqual(h);
    expect(loaded.warnings).toEqual([
      `${path}: skipped a line of kinds this hey does not know (from-the-future), written by a newer hey; the rest is loaded — \`hey upgrade\` reads them`,
      `${path}: skipped line 4: not valid JSON, cut short or damaged (hey stopped while writing it, or it was edited); the lines after it are loaded`,
      `${path}: skipped line 5: not a valid message entry`,
    ]);
  });

  test("corrupt lines far from the start are named by byte offset", () => {
    const big = writeBigSession(join(tempDir(), "big.jsonl"), { messages: 3000, keepTail: 0 });
    appendFileSync(big.path, "garbage\n");
    const [warning] = loadSession(big.path, { window: 10 }).warnings;
    expect(warning).toBe(`${big.path}: skipped the line at byte ${big.bytes}: not valid JSON`);
  });

  test("tool calls without a result get a synthetic interrupted result, persisted once", () => {
    const c1 = call("c1");
    const c2 = call("c2");
    const h = [userMessage("go"), asks("running two", c1, c2), result(c1)]; // killed while c2 ran
    const dir = tempDir();
    const id = newId();
    const w = createSessionWriter({ dir, id, cwd: "/", version: "1", warn: () => {} });
    for (const m of h) w.emit({ type: "message", message: m });
    w.close();

    const loaded = loadSession(w.path);
    expect(loaded.appended).toEqual([
      { id: expect.any(String), role: "tool", toolCallId: "c2", toolName: "bash", isError: true, content: [{ type: "text", text: INTERRUPTED_RESULT }] },
    ]);
    expect(loaded.messages).toEqual([...h, loaded.appended[0]!]);

    const resumed = createSessionWriter({ dir, id, cwd: "/", version: "1", warn: () => {} });
    for (const m of loaded.appended) resumed.emit({ type: "message", message: m });
    resumed.close();
    const again = loadSession(w.path);
    expect(again.appended).toEqual([]);
    expect(again.messages).toEqual(loaded.messages);
  });
});

describe("pure rules", () => {
  const u = (id: string): Message => ({ id, role: "user", content: [] });
  const a = (id: string, ...calls: string[]): Message => ({
    id,
    role: "assistant",
    content: [],
    ...(calls.length ? { toolCalls: calls.map((c) => call(c)) } : {}),
  });
  const t = (id: string, callId: string): Message => ({ id, role: "tool", toolCallId: callId, toolName: "bash", content: [] });
  const seq = [u("u1"), a("a1", "c1", "c2"), t("t1", "c1"), t("t2", "c2"), a("a2"), u("u2"), a("a3", "c3"), t("t3", "c3")];

  test.each([
    [8, 0],
    [7, 1], // starts on the assistant message: its results come along
    [6, 4], // would start on a result: moves forward past the results of a call before the window
    [5, 4],
    [4, 4],
    [3, 5],
    [1, 6], // only a result left: back to its call rather than nothing
    [100, 0],
  ])("a window of %i starts at %i", (window, start) => {
    expect(alignWindow(seq, window)).toBe(start);
  });

  test("results are moved next to their call, in the order saved, orphans and repeats dropped, open calls closed", () => {
    const messages = [t("orphan", "c0"), a("a1", "c1", "c2"), t("t2", "c2"), u("u2"), a("a1", "c9"), t("t1", "c1"), t("t1", "c1")];
    let k = 0;
    const out = closeToolCalls(messages, () => `synthetic${k++}`);
    expect(out.messages.map((m) => m.id)).toEqual(["a1", "t2", "t1", "u2"]); // in the order saved: c2 finished first
    expect(out.appended).toEqual([]);
    const open = closeToolCalls([u("u"), a("a", "x", "y")], () => `s${k++}`);
    expect(open.messages.map((m) => [m.id, m.toolCallId, m.isError])).toEqual([
      ["u", undefined, undefined],
      ["a", undefined, undefined],
      ["s0", "x", true],
      ["s1", "y", true],
    ]);
    expect(open.appended.map((m) => m.id)).toEqual(["s0", "s1"]);
  });
});

/** The invariants of a resumed window: first prompt first, no orphan, each call answered. */
function expectWellFormed(messages: Message[], firstUser: Message): void {
  expect(messages[0]).toEqual(firstUser);
  expect(messages.filter((m) => m.id === firstUser.id)).toHaveLength(1);
  expect(messages[1]?.role).not.toBe("tool");
  for (const [i, m] of messages.entries()) {
    if (m.role !== "assistant" || !m.toolCalls) continue;
    const results = messages.slice(i + 1, i + 1 + m.toolCalls.length).map((r) => r.toolCallId ?? "");
    expect(results.sort()).toEqual(m.toolCalls.map((c) => c.id).sort()); // in the order saved
  }
  const calls = new Set(messages.flatMap((m) => m.toolCalls ?? []).map((c) => c.id));
  expect(messages.filter((m) => m.role === "tool" && !calls.has(m.toolCallId!))).toEqual([]);
}

describe("big sessions are read from the tail", () => {
  const big = writeBigSession(join(root, "big.jsonl"), { messages: 6000, keepTail: 6000 });
  const roles = big.tail.map((m) => m.role);
  // windows whose raw start lands on each kind of message, including the middle of a call group
  const onTool = [...roles.keys()]
    .filter((i) => roles[i] === "tool" && roles[i - 1] === "tool")
    .map((i) => big.count - i)
    .filter((w) => w < 600)
    .slice(0, 3);
  const onOther = [...roles.keys()]
    .filter((i) => roles[i] !== "tool")
    .map((i) => big.count - i)
    .filter((w) => w < 600)
    .slice(0, 3);

  test.each([...onTool, ...onOther, 500])("window %i: aligned, first prompt kept, the last messages exact", (window) => {
    const loaded = loadSession(big.path, { window, stride: 0 }); // a window of its own: no stride
    const raw = big.tail.length - window;
    let start = raw;
    while (big.tail[start]!.role === "tool") start++;
    expect(loaded.messages.length).toBe(1 + big.tail.length - start + loaded.appended.length);
    expect(loaded.messages.slice(1, 1 + big.tail.length - start)).toEqual(big.tail.slice(start));
    expectWellFormed(loaded.messages, big.firstUser);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.model).toEqual({ provider: "fake", model: "fake-1" });
  });

  test("the window tests cover starts on a tool result", () => {
    expect(onTool.length).toBeGreaterThan(0);
  });

  test("the latest summary is picked up, also when it lies before the window", () => {
    const nearby = writeBigSession(join(tempDir(), "s.jsonl"), { messages: 3000, summaryEvery: 1000, keepTail: 0 });
    // the latest, of all the first 3000 messages, ends the file: reading back over what it covers meets the others (inside it)
    expect(loadSession(nearby.path, { window: 1200 }).summaries).toEqual(nearby.summaries);
    expect(loadSession(nearby.path, { window: 10 }).summaries).toEqual(nearby.summaries);
    expect(loadSession(nearby.path, { window: 10 }).messages).toEqual([nearby.firstUser, expect.objectContaining({ id: `summary-${nearby.firstUser.id}` })]);
    const far = writeBigSession(join(tempDir(), "s.jsonl"), { messages: 5000, summaryEvery: 1700, keepTail: 0 });
    expect(loadSession(far.path, { window: 100 }).summaries).toEqual([far.summaries.at(-1)!]); // at 3400, long before the window
    expect(loadSession(big.path, { window: 100 }).summaries).toEqual([]); // none anywhere
  });

  test("100,000 messages (~120 MB) load correctly, timed", () => {
    // the only summary lies ~48 MB before the window: further back than resume looks
    const huge = writeBigSession(join(tempDir(), "huge.jsonl"), { messages: 100_000, keepTail: 600, summaryEvery: 60_000 });
    const times: number[] = [];
    let loaded = loadSession(huge.path);
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      loaded = loadSession(huge.path);
      times.push(performance.now() - t0);
    }
    expectWellFormed(loaded.messages, huge.firstUser);
    const kept = loaded.messages.length - 1 - loaded.appended.length;
    expect(kept).toBeGreaterThanOrEqual(497); // a start on a result moves past at most 3 results
    expect(kept).toBeLessThanOrEqual(3 * 500); // back to the stride's boundary before them, at most three windows
    const known = Math.min(kept, huge.tail.length); // the messages the helper kept to compare with
    expect(loaded.messages.slice(1 + kept - known, 1 + kept)).toEqual(huge.tail.slice(-known));
    expect(loaded.model).toEqual({ provider: "fake", model: "fake-1" }); // from the head
    expect(huge.summaries).toHaveLength(1);
    expect(loaded.summaries).toEqual([]);
    times.sort((x, y) => x - y);
    console.log(
      `loadSession: ${huge.count} messages, ${(huge.bytes / 1e6).toFixed(0)} MB: median ${times[2]!.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[4]!.toFixed(1)}), 32 MB searched for a summary`,
    );
  }, 60_000);
});

describe("resume sends what the requests before it sent, however long the session", () => {
  /**
   * A session as hey writes one: a first prompt, then `tasks` prompts of `turns` tool calls each,
   * and a compaction written after the message `at` of each summary (its range given by
   * message indexes). Returns the file and the whole history with its summaries.
   */
  function session(tasks: number[], summaries: { from: number; to: number; at: number }[]) {
    const history: Message[] = [userMessage("first prompt")];
    for (const [k, turns] of tasks.entries()) {
      if (k > 0) history.push(userMessage(`task ${k}`));
      for (let t = 0; t < turns; t++) {
        const c = call(`c${k}_${t}`);
        history.push(asks(`step ${k}.${t}`, c), result(c, `output ${k}.${t}\n${"x".repeat(200)}`));
      }
    }
    const made = summaries.map((s) => ({ fromId: history[s.from]!.id, toId: history[s.to]!.id, text: `summary of ${s.from}-${s.to}` }));
    const w = createSessionWriter({
      dir: tempDir(),
      id: newId(),
      cwd: "/work/p",
      version: "9.9.9",
      warn: (m) => {
        throw new Error(m);
      },
    });
    w.model("openai", "gpt-test");
    for (const [i, m] of history.entries()) {
      w.emit({ type: "message", message: m });
      for (const [k, at] of summaries.entries())
        if (at.at === i)
          w.emit({
            type: "compaction",
            kind: "summary",
            from_id: made[k]!.fromId,
            to_id: made[k]!.toId,
            summary: made[k]!.text,
            tokens_before: 0,
            tokens_after: 0,
          } as unknown as AgentEvent);
    }
    w.close();
    return { path: w.path, history, summaries: made };
  }
  const policy = { dedup: true, purgeErrorsAfter: 4, nudgeThreshold: 0.7, compressTool: true, budgetTokens: 10_000_000 };
  const view = (history: readonly Message[], summaries: Summary[]) =>
    buildContext({ history, summaries, policy, fixedTokens: 0, tokensPerChar: 0.25 }).messages;

  test("two summaries either side of the latest prompt, the older reaching back past the 500 messages read: both stay, nothing they cover comes back", () => {
    // 1 + 300 messages of task 0, task 1's prompt at 301, then 300 messages; summaries of 1-280 (in task 1) and 302-581
    const s = session(
      [150, 150],
      [
        { from: 1, to: 280, at: 320 },
        { from: 302, to: 581, at: 590 },
      ],
    );
    const loaded = loadSession(s.path);
    expect(view(loaded.messages, loaded.summaries)).toEqual(view(s.history, s.summaries));
    expect(loaded.messages.map((m) => m.id).slice(0, 4)).toEqual([s.history[0]!.id, `summary-${s.history[1]!.id}`, s.history[281]!.id, s.history[282]!.id]);
  });

  test("a summary that starts at a result (no summary hey makes does) takes the call with it: no result is left without its call, nothing is added", () => {
    const s = session([300, 260], [{ from: 302, to: 601, at: 610 }]);
    const c: ToolCall = { id: "c_two", name: "bash", arguments: "{}" };
    const w = createSessionWriter({ dir: dirname(s.path), id: basename(s.path, ".jsonl"), cwd: "/work/p", version: "9.9.9", warn: () => {}, existing: true });
    const [ask, first, second, done] = [asks("two calls", c, { ...c, id: "c_three" }), result(c), result({ ...c, id: "c_three" }), asks("done")];
    for (const m of [userMessage("task 2"), ask, first, second, done]) w.emit({ type: "message", message: m });
    w.emit({ type: "compaction", kind: "summary", from_id: second.id, to_id: done.id, summary: "odd" } as unknown as AgentEvent);
    for (let i = 0; i < 3; i++) w.emit({ type: "message", message: asks(`more ${i}`) });
    w.close();
    const loaded = loadSession(s.path);
    expect(loaded.appended).toEqual([]);
    expect(loaded.messages.some((m) => m.id === ask.id || m.id === first.id)).toBe(false);
  });

  test("the latest summary reaching back past the 500 messages read: the prompt before it and the summary before that stay", () => {
    // task 1 (at 101) runs 700 messages; summaries of 1-80 and of 102-641
    const s = session(
      [50, 350],
      [
        { from: 1, to: 80, at: 110 },
        { from: 102, to: 641, at: 650 },
      ],
    );
    const loaded = loadSession(s.path);
    expect(view(loaded.messages, loaded.summaries)).toEqual(view(s.history, s.summaries));
    const texts = loaded.messages.slice(0, 25).map((m) => textOf(m));
    expect(texts).toContain("task 1"); // the prompt the work after it answers
    expect(texts).toContain(`${SUMMARY_PREFIX}summary of 1-80`);
  });
});

describe("resume keeps the latest summary (issue 10 item 1)", () => {
  const user = userMessage("refactor the parser");
  const c = [call("c1"), call("c2"), call("c3")];
  const history: Message[] = [user, asks("a", c[0]!), result(c[0]!), asks("b", c[1]!), result(c[1]!), asks("c", c[2]!), result(c[2]!), asks("done")];
  const summary = (from: number | string, to: number | string) => ({
    fromId: typeof from === "string" ? from : history[from]!.id,
    toId: typeof to === "string" ? to : history[to]!.id,
    text: "S",
  });
  const folded = (s: ReturnType<typeof summary>): Message => ({
    id: `summary-${s.fromId}`,
    role: "user",
    content: [{ type: "text", text: `${SUMMARY_PREFIX}S` }],
  });

  test("a summary that starts before the loaded messages stands for everything up to its end", () => {
    const s = summary("before-the-window", 4);
    expect(foldSummary(history, [s], true)).toEqual([user, folded(s), ...history.slice(5)]);
    const fromFirst = summary(0, 2); // starts at the first prompt, which the view never replaces
    expect(foldSummary(history, [fromFirst], false)).toEqual([user, folded(fromFirst), ...history.slice(3)]);
  });

  test("a summary that ends before the loaded messages goes into the gap after the first prompt", () => {
    const s = summary("gone-1", "gone-2");
    expect(foldSummary(history, [s], true)).toEqual([user, folded(s), ...history.slice(1)]);
    expect(foldSummary(history, [s], false)).toBe(history); // no gap: ids that name nothing
  });

  test("left to the view: a summary inside the messages, one that would split a call from its result, none", () => {
    expect(foldSummary(history, [summary(1, 4)], true)).toBe(history);
    expect(foldSummary(history, [summary("before", 3)], true)).toBe(history);
    expect(foldSummary(history, [], true)).toBe(history);
    expect(foldSummary(history, [summary(1, 2), summary("gone", 6)], true)).toEqual([user, folded(summary("gone", 6)), history[7]!]); // the latest counts
  });

  /** The loaded messages after the first prompt and the summary message, without the synthetic results of a turn the file cuts short. */
  const afterSummary = (loaded: ReturnType<typeof loadSession>) => loaded.messages.slice(2, loaded.messages.length - loaded.appended.length);
  const summaryText = (s: { text: string }) => ({ role: "user", content: [{ type: "text", text: SUMMARY_PREFIX + s.text }] });

  test("701 messages, a summary of 2–400 written inside the window's lines: first prompt + summary + what follows it", () => {
    const s = writeBigSession(join(tempDir(), "s.jsonl"), { messages: 701, keepTail: 701, summary: { from: 2, to: 400, after: 410 } });
    const loaded = loadSession(s.path);
    const end = s.tail.findIndex((m) => m.id === s.summaries[0]!.toId);
    expect(end).toBeGreaterThanOrEqual(399);
    expect(loaded.messages[0]).toEqual(s.firstUser);
    expect(loaded.messages[1]).toMatchObject(summaryText(s.summaries[0]!));
    expect(afterSummary(loaded)).toEqual(s.tail.slice(end + 1)); // 201–400 were in the window: left out
  });

  test("a summary of 2–150 written long before the window: first prompt + summary + the window", () => {
    const s = writeBigSession(join(tempDir(), "s.jsonl"), { messages: 701, keepTail: 701, summary: { from: 2, to: 150, after: 160 } });
    const loaded = loadSession(s.path);
    expect(loaded.summaries).toEqual(s.summaries);
    expect(loaded.messages[0]).toEqual(s.firstUser);
    expect(loaded.messages[1]).toMatchObject(summaryText(s.summaries[0]!));
    const window = afterSummary(loaded);
    expect(window).toEqual(s.tail.slice(-window.length));
    expect(window.length).toBeGreaterThanOrEqual(497);
  });
});

test("usageIn counts every message line and usage entry of the file, each once, across its read chunks, without the resume's window", () => {
  // 1,500 messages of ~1 KB: ~6 chunks of 256 KB, lines across their edges; a resume loads ~500 of them
  const history: Message[] = [];
  for (let i = 0; i < 750; i++) history.push(userMessage(`ask ${i} ${"x".repeat(1000 + (i % 7))}`), asks(`answer ${i}`));
  const path = written(history);
  const size = readFileSync(path).length;
  expect(usageIn(path, size)).toMatchObject({ messages: 1500, requests: 750, usage: { input: 750, output: 1500 } });
  expect(loadSession(path, { stride: 0 }).messages.length).toBeLessThan(600);
});

test("usageIn gives the last usage entry of the file: /usage after hey -c shows the last request", () => {
  const path = written([userMessage("read it"), asks("done")], (w) =>
    w.emit({ ...usage, input_tokens: 9_000, output_tokens: 12, cache_read_tokens: 8_000, cache_write_tokens: 0, reasoning_tokens: 0 }),
  );
  expect(usageIn(path, readFileSync(path).length)).toMatchObject({ requests: 2, last: { input: 9_000, output: 12, cacheRead: 8_000 } });
});

test("each hey -c of a session past the window starts where the one before did, until the file grows past the stride (x163 #2)", () => {
  // 750 exchanges (a 2 KB question, a short answer), then three runs of 20 more each: the window's start stays put, so the next run's first
  // request extends the last run's; it moves only when the 500th message from the end crosses a stride's boundary
  const history: Message[] = [];
  const exchange = (i: number) => [userMessage(`ask ${i} ${"x".repeat(2000)}`), asks(`answer ${i}`)];
  for (let i = 0; i < 750; i++) history.push(...exchange(i));
  const path = written(history);
  const startOf = (opts: { stride?: number } = {}) => loadSession(path, opts).messages[1]!.id; // after the first prompt
  const starts = [startOf()];
  const small = [startOf({ stride: 128 * 1024 })];
  for (let run = 0; run < 3; run++) {
    const more = Array.from({ length: 20 }, (_, i) => exchange(1000 + 20 * run + i)).flat();
    appendFileSync(path, more.map((message) => `${JSON.stringify({ type: "message", message })}\n`).join(""));
    starts.push(startOf());
    small.push(startOf({ stride: 128 * 1024 }));
  }
  expect(new Set(starts).size).toBe(1); // 1.8 MB: all since the first megabyte's boundary, each time
  expect(loadSession(path).messages.length).toBeGreaterThan(500);
  expect(new Set(small).size).toBeGreaterThan(1); // 128 KB strides: 20 more exchanges (~45 KB) cross one now and then...
  expect(new Set(small).size).toBeLessThan(small.length); // ...not at every run
});

// The loop driven by a scripted provider: termination, event order, parallel tools, retries.
import { describe, expect, test } from "bun:test";
import { MAX_RUN_TOKENS_PROMPT, MAX_TURNS_PROMPT, PLAIN_HAND_OFF_PROMPT } from "../../src/kernel/hand-off.ts";
import { runLoop, CUT_OFF, EMPTY_ANSWER, MALFORMED_QUOTE_CHARS, MALFORMED_STOP_AT, malformedCallNote } from "../../src/kernel/loop.ts";
import { refused } from "../../src/kernel/refusal.ts";
import { INTERRUPTED_ANSWER, REQUEST_FAILED } from "../../src/kernel/turns.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import { emptyUsage, textOf, userMessage, type Message } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { resolveUserPath } from "../../src/fs/user-path.ts";
import { loopDeps, sleepTool, TEST_RETRY } from "../helpers/loop-deps.ts";
import { gate, until } from "../helpers/wait.ts";
import { createCompressTool } from "../../src/tools/compress.ts";
import { withUniqueCallIds } from "../../src/kernel/tool-calls.ts";

describe("termination", () => {
  test("a reply without tool calls ends the run", async () => {
    const provider = fakeProvider([{ thinking: "Let me think.", text: "Hello there.", usage: { input: 10, output: 3 } }]);
    const deps = loopDeps(provider);
    const messages = [userMessage("hi")];
    const result = await runLoop(messages, deps);
    expect(result).toMatchObject({ stop: "end", turns: 1 });
    expect(deps.output.sequence()).toEqual(["turn_start", "thinking_delta", "text_delta", "usage", "done"]);
    expect(deps.output.text()).toBe("Hello there.");
    expect(deps.output.of("done")[0]).toEqual({
      type: "done",
      stop_reason: "end",
      turns: 1,
      usage: { input_tokens: 10, output_tokens: 3, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 },
    });
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  test.each([
    ["a cut final answer", { text: "The answer is", stop: "length" as const }, "length", { kind: "length" as const, message: CUT_OFF }],
    ["a refusal", { text: "", stop: "refusal" as const, detail: "declined" }, "error", { kind: "refusal" as const, message: refused("declined") }],
    ["an empty answer", { text: "" }, "error", { kind: "empty_answer" as const, message: EMPTY_ANSWER }],
    ["a provider error", { error: new ProviderError("auth", "key revoked") }, "error", { kind: "auth" as const, message: "key revoked" }],
  ])("%s: the result says why the run ended, as its error event did, for a caller with no output", async (_, turn, stop, error) => {
    const deps = loopDeps(fakeProvider([turn]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result).toMatchObject({ stop, error });
    expect(deps.output.of("error")).toEqual([{ type: "error", ...error }]);
  });

  test("an answer without trouble carries no error", async () => {
    expect(await runLoop([userMessage("q")], loopDeps(fakeProvider([{ text: "fine" }])))).not.toHaveProperty("error");
  });

  test("a final answer cut at the token limit ends with an error event of kind length, then stop_reason length", async () => {
    const deps = loopDeps(fakeProvider([{ text: "The answer is", stop: "length" }]));
    expect((await runLoop([userMessage("q")], deps)).stop).toBe("length");
    expect(deps.output.sequence().slice(-2)).toEqual(["error", "done"]);
    expect(deps.output.of("error")).toEqual([{ type: "error", kind: "length", message: CUT_OFF }]);
  });

  test("at max_turns the pending calls run, then one request without tools asks for the hand-off", async () => {
    const call = { name: "t", arguments: {} };
    const provider = fakeProvider([{ toolCalls: [call] }, { toolCalls: [call] }, { text: "Done so far: a. Remaining: b." }]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)], limits: { maxTurns: 2, parallelTools: true } });
    const messages = [userMessage("work")];
    const result = await runLoop(messages, deps);
    expect(result).toMatchObject({ stop: "max_turns", turns: 3 });
    expect(provider.requests.map((r) => [r.tools.length, r.toolChoice])).toEqual([
      [1, undefined],
      [1, undefined],
      [1, "none"],
    ]);
    const last = provider.requests[2]!.messages;
    expect(textOf(last[last.length - 1]!)).toBe(MAX_TURNS_PROMPT);
    expect(last.filter((m) => m.role === "tool")).toHaveLength(2); // no call left without its result
    expect(textOf(messages[messages.length - 1]!)).toBe("Done so far: a. Remaining: b.");
  });
});

describe("a hand-off or an answer without text", () => {
  const call = { name: "t", arguments: {} };
  test("tool calls instead of the hand-off: asked once more plainly; the empty reply is not kept", async () => {
    const provider = fakeProvider([{ toolCalls: [call] }, { toolCalls: [call] }, { text: "Remaining: b." }]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)], limits: { maxTurns: 1, parallelTools: true } });
    const messages = [userMessage("work")];
    expect(await runLoop(messages, deps)).toMatchObject({ stop: "max_turns", turns: 3 });
    expect(provider.requests.map((r) => r.toolChoice)).toEqual([undefined, "none", "none"]);
    expect(textOf(provider.requests[2]!.messages.at(-1)!)).toBe(PLAIN_HAND_OFF_PROMPT);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "user", "assistant"]);
    expect(textOf(messages.at(-1)!)).toBe("Remaining: b.");
  });

  test("a preamble and a tool call instead of the hand-off: asked once more plainly, and the plain answer is the hand-off", async () => {
    const provider = fakeProvider([
      { toolCalls: [call] },
      { text: "Let me check the tests first.", toolCalls: [call] },
      { text: "Done so far: a. Remaining: b." },
    ]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)], limits: { maxTurns: 1, parallelTools: true } });
    const messages = [userMessage("work")];
    expect(await runLoop(messages, deps)).toMatchObject({ stop: "max_turns", turns: 3 });
    expect(provider.remaining()).toBe(0);
    expect(textOf(provider.requests[2]!.messages.at(-1)!)).toBe(PLAIN_HAND_OFF_PROMPT);
    const preamble = messages.at(-3)!; // kept without its call, which never ran
    expect([textOf(preamble), preamble.toolCalls]).toEqual(["Let me check the tests first.", undefined]);
    expect(textOf(messages.at(-1)!)).toBe("Done so far: a. Remaining: b.");
  });

  test("…and still none: the run ends at the limit with no hand-off message kept, after one extra request only", async () => {
    const provider = fakeProvider([{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)], limits: { maxTurns: 1, parallelTools: true } });
    const messages = [userMessage("work")];
    expect(await runLoop(messages, deps)).toMatchObject({ stop: "max_turns", turns: 3 });
    expect(messages.at(-1)!.role).toBe("user");
    expect(deps.output.of("error")).toEqual([]);
  });

  test("a hand-off request that fails: the error is shown and the run still ends at the limit", async () => {
    const provider = fakeProvider([{ toolCalls: [call] }, { toolCalls: [call] }, { error: new ProviderError("auth", "key revoked") }]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)], limits: { maxTurns: 1, parallelTools: true } });
    expect(await runLoop([userMessage("work")], deps)).toMatchObject({ stop: "max_turns", turns: 3 });
    expect(deps.output.of("error")).toEqual([{ type: "error", kind: "auth", message: "key revoked" }]);
  });

  for (const [what, turn] of [
    ["an empty text", { text: "" }],
    ["thinking only", { thinking: "Hmm." }],
  ] as const)
    test(`a first reply with ${what} and no calls: an empty_answer error, then done with stop_reason error`, async () => {
      const deps = loopDeps(fakeProvider([turn]));
      expect((await runLoop([userMessage("go")], deps)).stop).toBe("error");
      expect(deps.output.of("error")).toEqual([{ type: "error", kind: "empty_answer", message: EMPTY_ANSWER }]);
      expect(deps.output.sequence().slice(-2)).toEqual(["error", "done"]);
    });

  test("an empty first reply with the provider's words on its stop says them", async () => {
    const deps = loopDeps(fakeProvider([{ text: "", stop: "other", detail: '"OTHER"' }]));
    expect((await runLoop([userMessage("go")], deps)).stop).toBe("error");
    expect(deps.output.of("error")).toEqual([{ type: "error", kind: "empty_answer", message: `${EMPTY_ANSWER}: it stopped for "OTHER"` }]);
  });

  test("a refusal, with partial text or none, on the first reply or after tools: a refusal error with the provider's words, then stop_reason error", async () => {
    const first = loopDeps(fakeProvider([{ text: "Sure, here", stop: "refusal", detail: "cyber: declined" }]));
    expect((await runLoop([userMessage("go")], first)).stop).toBe("error");
    expect(first.output.of("error")).toEqual([{ type: "error", kind: "refusal", message: refused("cyber: declined") }]);
    expect(refused("cyber: declined")).toStartWith("the model refused to answer (cyber: declined); your message is not sent again");

    const later = loopDeps(fakeProvider([{ toolCalls: [{ name: "t", arguments: {} }] }, { text: "", stop: "refusal" }]), { tools: [sleepTool("t", 1)] });
    expect(await runLoop([userMessage("go")], later)).toMatchObject({ stop: "error", turns: 2 });
    expect(later.output.of("error")).toEqual([{ type: "error", kind: "refusal", message: refused(undefined) }]);
  });

  test("an empty reply after tools that stopped for an unlisted reason: an error naming it, not a silent end", async () => {
    const deps = loopDeps(fakeProvider([{ toolCalls: [{ name: "t", arguments: {} }] }, { text: "", stop: "other", detail: '"OTHER"' }]), {
      tools: [sleepTool("t", 1)],
    });
    expect(await runLoop([userMessage("go")], deps)).toMatchObject({ stop: "error", turns: 2 });
    expect(deps.output.of("error")).toEqual([{ type: "error", kind: "empty_answer", message: `${EMPTY_ANSWER}: it stopped for "OTHER"` }]);
  });

  test("an empty reply after tools that stays empty through its retries ends the run normally, its work the result (Claude's empty end_turn through a gateway); a first one stays an error", async () => {
    const empty = () => ({ error: new ProviderError("empty_answer", "http://gw/v1 answered with no content") });
    const provider = fakeProvider([{ toolCalls: [{ name: "t", arguments: {} }] }, empty(), empty(), empty()]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)] });
    const messages = [userMessage("go")];
    expect(await runLoop(messages, deps)).toMatchObject({ stop: "end", turns: 2 });
    expect(provider.requests).toHaveLength(4); // the reply and its two retries
    expect(deps.output.of("retry")).toHaveLength(2);
    expect(deps.output.of("error")).toEqual([]);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: [] });
    const first = loopDeps(fakeProvider([empty(), empty(), empty()]));
    expect((await runLoop([userMessage("go")], first)).stop).toBe("error");
    expect(first.output.of("error")).toEqual([
      { type: "error", kind: "empty_answer", message: "http://gw/v1 answered with no content — gave up after 2 retries" },
    ]);
  });

  test("every empty answer is counted in the run's usage, retried or the last: its server billed its input", async () => {
    const billed = { ...emptyUsage(), input: 100, output: 1 };
    const empty = () => ({ error: new ProviderError("empty_answer", "http://gw/v1 answered with no content", { usage: billed }) });
    const after = loopDeps(fakeProvider([{ toolCalls: [{ name: "t", arguments: {} }] }, empty(), empty(), empty()]), { tools: [sleepTool("t", 1)] });
    const ended = await runLoop([userMessage("go")], after);
    expect(ended.usage).toMatchObject({ input: 300, output: 3 }); // the call's reply reported none
    expect(after.output.of("done")[0]).toMatchObject({ usage: { input_tokens: 300, output_tokens: 3 } });
    const first = loopDeps(fakeProvider([empty(), empty(), empty()]));
    expect((await runLoop([userMessage("go")], first)).usage).toMatchObject({ input: 300, output: 3 });
    expect(first.output.of("error")).toEqual([
      { type: "error", kind: "empty_answer", message: "http://gw/v1 answered with no content — gave up after 2 retries" },
    ]);
  });

  test("a final answer without text after the model worked with tools ends the run normally (SPEC §6: it stopped calling tools)", async () => {
    const deps = loopDeps(fakeProvider([{ toolCalls: [{ name: "t", arguments: {} }] }, { text: "" }]), { tools: [sleepTool("t", 1)] });
    expect(await runLoop([userMessage("go")], deps)).toMatchObject({ stop: "end", turns: 2 });
    expect(deps.output.of("error")).toEqual([]);
  });
});

describe("max run tokens", () => {
  test("once the run's input + output tokens pass the cap, the calls run, then a tool-less hand-off", async () => {
    const call = { name: "t", arguments: {} };
    const usage = { input: 50, output: 10 };
    const provider = fakeProvider([
      { toolCalls: [call], usage },
      { toolCalls: [call], usage },
      { text: "Done so far: a. Remaining: b.", usage },
    ]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)], limits: { maxTurns: 20, parallelTools: true, maxRunTokens: 100 } });
    const result = await runLoop([userMessage("work")], deps);
    expect(result).toMatchObject({ stop: "max_run_tokens", turns: 3, usage: { input: 150, output: 30 } }); // 60, then 120 > 100
    expect(provider.requests.map((r) => r.toolChoice)).toEqual([undefined, undefined, "none"]);
    expect(textOf(provider.requests[2]!.messages.at(-1)!)).toBe(MAX_RUN_TOKENS_PROMPT);
    expect(deps.output.of("done")[0]).toMatchObject({ stop_reason: "max_run_tokens" });
  });

  test("a run that ends under the cap, or answers once over it, ends normally", async () => {
    const usage = { input: 500, output: 10 };
    const deps = loopDeps(fakeProvider([{ text: "hi", usage }]), { limits: { maxTurns: 20, parallelTools: true, maxRunTokens: 100 } });
    expect((await runLoop([userMessage("q")], deps)).stop).toBe("end");
  });
});

describe("tool calls", () => {
  test("the calls of one turn run at once (each waits for all three to have started); events keep call order, the history the order saved", async () => {
    const provider = fakeProvider([
      {
        toolCalls: [
          { name: "slow", arguments: { n: 1 } },
          { name: "fast", arguments: { n: 2 } },
          { name: "slow", arguments: { n: 3 } },
        ],
      },
      { text: "all done" },
    ]);
    let started = 0;
    const together = (name: string) => ({
      name,
      description: "",
      parameters: { type: "object", properties: {} },
      run: async (args: Record<string, unknown>) => {
        started++;
        await until(() => started === 3, "all three calls to run at once", 5_000); // one at a time, the first would wait alone
        return { output: `${name} done ${JSON.stringify(args)}` };
      },
    });
    const deps = loopDeps(provider, { tools: [together("slow"), together("fast")] });
    const messages: Message[] = [userMessage("go")];
    await runLoop(messages, deps);
    expect(deps.output.sequence()).toEqual([
      "turn_start",
      "usage",
      "tool_call",
      "tool_call",
      "tool_call",
      "tool_result",
      "tool_result",
      "tool_result",
      "turn_start",
      "text_delta",
      "usage",
      "done",
    ]);
    const calls = deps.output.of("tool_call").map((e) => e.id);
    expect(deps.output.of("tool_result").map((e) => e.id)).toEqual(calls);
    // the history holds them as the session does, in the order they finished; requests send them in call order (adapt-history.ts)
    const saved = deps.output.events.flatMap((e) => (e.type === "message" && e.message.role === "tool" ? [e.message.id] : []));
    expect(messages.filter((m) => m.role === "tool").map((m) => m.id)).toEqual(saved);
    expect(
      messages
        .filter((m) => m.role === "tool")
        .map((m) => textOf(m))
        .sort(),
    ).toEqual(['fast done {"n":2}', 'slow done {"n":1}', 'slow done {"n":3}']);
  });

  test("calls on the same path run in call order even in parallel mode", async () => {
    const order: string[] = [];
    const writeA = gate(); // holds the first write of a open while the others are looked at
    const writer = (name: string) => ({
      name,
      description: "",
      parameters: {},
      run: async (args: Record<string, unknown>) => {
        order.push(`start ${name} ${args.path}`);
        if (name === "write_file" && args.path === "a") await writeA.passed;
        order.push(`end ${name} ${args.path}`);
        return { output: "ok" };
      },
    });
    const provider = fakeProvider([
      {
        toolCalls: [
          { name: "write_file", arguments: { path: "a" } },
          { name: "edit", arguments: { path: "a" } },
          { name: "write_file", arguments: { path: "b" } },
        ],
      },
      { text: "ok" },
    ]);
    const run = runLoop([userMessage("go")], loopDeps(provider, { tools: [writer("write_file"), writer("edit")] }));
    await until(() => order.includes("end write_file b"), "the write of b, which need not wait"); // b did not wait
    expect(order).not.toContain("start edit a"); // the edit of a waits for the write of a
    writeA.open();
    await run;
    expect(order.indexOf("end write_file a")).toBeLessThan(order.indexOf("start edit a"));
  });

  test("an exclusive tool (compress) runs alone: after the calls before it, before the calls after it", async () => {
    const order: string[] = [];
    const gates = { slow: gate(), compress: gate(), fast: gate() };
    const held = (name: keyof typeof gates, exclusive = false) => ({
      name,
      description: "",
      parameters: {},
      ...(exclusive ? { exclusive } : {}),
      run: async () => {
        order.push(`start ${name}`);
        await gates[name].passed;
        order.push(`end ${name}`);
        return { output: "ok" };
      },
    });
    const provider = fakeProvider([
      {
        toolCalls: [
          { name: "slow", arguments: {} },
          { name: "compress", arguments: {} },
          { name: "fast", arguments: {} },
        ],
      },
      { text: "ok" },
    ]);
    const run = runLoop([userMessage("go")], loopDeps(provider, { tools: [held("slow"), held("compress", true), held("fast")] }));
    for (const name of ["slow", "compress", "fast"] as const) {
      await until(() => order.includes(`start ${name}`), `${name} to start`);
      expect(order.at(-1)).toBe(`start ${name}`); // nothing else started beside it
      gates[name].open();
    }
    await run;
    expect(order).toEqual(["start slow", "end slow", "start compress", "end compress", "start fast", "end fast"]);
  });

  test("the compress tool says it must run alone", () => {
    expect(createCompressTool(() => []).exclusive).toBe(true);
  });

  test("unknown tools, bad arguments, refusals and thrown errors become error results", async () => {
    const boom = {
      name: "boom",
      description: "",
      parameters: {},
      run: async () => {
        throw new Error("kaput");
      },
    };
    const provider = fakeProvider([
      {
        toolCalls: [
          { name: "nope", arguments: {} },
          { name: "boom", arguments: "{not json" },
          { name: "boom", arguments: { x: 1 } },
          { name: "guarded", arguments: {} },
        ],
      },
      { text: "understood" },
    ]);
    const guarded = sleepTool("guarded", 1);
    const deps = loopDeps(provider, {
      tools: [boom, guarded],
      permission: (name) => (name === "guarded" ? "blocked by permission rules: `guarded` matches no allow entry" : undefined),
    });
    const result = await runLoop([userMessage("go")], deps);
    expect(result.stop).toBe("end");
    const results = deps.output.of("tool_result");
    expect(results.map((r) => r.ok)).toEqual([false, false, false, false]);
    expect(results[0]!.output).toBe('unknown tool "nope"; available: boom, guarded');
    expect(results[1]!.output).toStartWith("invalid arguments for boom: not JSON (");
    expect(results[1]!.output).toContain('The arguments as you sent them: "{not json"');
    expect(results[2]!.output).toBe("boom failed: kaput");
    expect(results[3]!.output).toBe("blocked by permission rules: `guarded` matches no allow entry");
  });

  test("an abort while tools run records interrupted results and ends the run", async () => {
    const abort = new AbortController();
    const provider = fakeProvider([
      {
        toolCalls: [
          { name: "slow", arguments: {} },
          { name: "slow", arguments: {} },
        ],
      },
    ]);
    const deps = loopDeps(provider, { tools: [sleepTool("slow", 5000)], signal: abort.signal });
    const messages = [userMessage("go")];
    setTimeout(() => abort.abort(), 50);
    const result = await runLoop(messages, deps);
    expect(result.stop).toBe("interrupted");
    const tools = messages.filter((m) => m.role === "tool");
    expect(tools).toHaveLength(2);
    expect(tools.every((m) => m.isError)).toBe(true);
    expect(deps.output.of("error").map((e) => e.kind)).toEqual(["interrupted"]);
  });

  test("the abort's reason is what the error and the cut-short results say; no reason = interrupted by user", async () => {
    for (const [reason, said] of [
      ["terminated (SIGTERM)", "terminated (SIGTERM)"],
      [undefined, "interrupted by user"],
    ] as const) {
      const abort = new AbortController();
      const provider = fakeProvider([
        {
          toolCalls: [
            { name: "slow", arguments: {} },
            { name: "slow", arguments: { n: 2 } },
          ],
        },
      ]);
      const deps = loopDeps(provider, { tools: [sleepTool("slow", 5000)], signal: abort.signal, limits: { maxTurns: 10, parallelTools: false } });
      setTimeout(() => abort.abort(reason), 50);
      await runLoop([userMessage("go")], deps);
      expect(deps.output.of("error")).toEqual([{ type: "error", kind: "interrupted", message: said }]);
      // the running call's own words; the call never started says so, not that it was cut short
      expect(deps.output.of("tool_result").map((r) => r.output)).toEqual(["interrupted", `not run: ${said} before it started`]);
    }
  });
});

describe("retries", () => {
  const rate = (ms?: number) => new ProviderError("rate_limit", "rate limited (429)", { status: 429, retryAfterMs: ms });

  test("429 with Retry-After: 3 waits exactly 3 s, then succeeds", async () => {
    const deps = loopDeps(fakeProvider([{ error: rate(3000) }, { text: "ok" }]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("end");
    expect(deps.clock.slept).toEqual([3000]);
    expect(deps.output.of("retry")).toEqual([{ type: "retry", attempt: 1, delay_ms: 3000, error: "rate limited (429)" }]);
  });

  // x161 #4: the line said the wait but not what would get past it; x167 #3: in the words of the run's mode
  test("a server delay longer than max_delay_ms is not waited: it fails at once saying when, and what would help", async () => {
    const deps = loopDeps(fakeProvider([{ error: rate(3 * 3600_000) }]), { modelSwitch: "command line" });
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("error");
    expect(deps.clock.slept).toEqual([]);
    expect(deps.output.of("error")[0]!.message).toBe(
      "rate limited (429) — the server allows the next try in 3 h 0 min, longer than hey waits ([retry] max_delay_ms = 60000); raise max_delay_ms to wait, or use another model (-m or --fallback-model)",
    );
    // with fallback models set, none left to take it: only the longer wait is named
    const tried = loopDeps(fakeProvider([{ error: rate(3 * 3600_000) }]), { fallback: async () => undefined, modelSwitch: "command line" });
    await runLoop([userMessage("q")], tried);
    expect(tried.output.of("error")[0]!.message).toEndWith(
      "longer than hey waits ([retry] max_delay_ms = 60000); raise max_delay_ms to wait, or use another model (-m)",
    );
    // at hey's prompt: /model, which works at once (-m and --fallback-model only after a restart)
    const asked = loopDeps(fakeProvider([{ error: rate(3 * 3600_000) }]), { modelSwitch: "prompt" });
    await runLoop([userMessage("q")], asked);
    expect(asked.output.of("error")[0]!.message).toEndWith("raise max_delay_ms to wait, or use another model (/model)");
    // given up for another reason: nothing about the wait
    const spent = loopDeps(fakeProvider(Array.from({ length: 6 }, () => ({ error: rate(1000) }))));
    await runLoop([userMessage("q")], spent);
    expect(spent.output.of("error")[0]!.message).toBe("rate limited (429) — gave up after 5 retries");
  });

  test("503s back off exponentially within the jitter bounds, then give up after max_retries", async () => {
    const overloaded = () => ({ error: new ProviderError("overloaded", "overloaded (503)", { status: 503 }) });
    const deps = loopDeps(fakeProvider(Array.from({ length: 6 }, overloaded)), {
      retry: { enabled: true, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 10000, jitter: true, respectRetryAfter: true },
    });
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("error");
    const caps = [2000, 4000, 8000, 10000, 10000];
    expect(deps.clock.slept).toHaveLength(5);
    deps.clock.slept.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(caps[i]! / 2);
      expect(ms).toBeLessThanOrEqual(caps[i]!);
    });
    expect(deps.output.of("error")[0]!.message).toBe("overloaded (503) — gave up after 5 retries");
  });

  test("the give-up line names the endpoint that failed; the retry lines stay short", async () => {
    const failing = () => {
      const error = new ProviderError("rate_limit", "rate limited (429): slow down", { status: 429 });
      error.endpoint = "http://gw.corp/v1 (provider gw)";
      return { error };
    };
    const deps = loopDeps(fakeProvider([failing(), failing()]), {
      retry: { enabled: true, maxRetries: 1, baseDelayMs: 100, maxDelayMs: 1000, jitter: false, respectRetryAfter: true },
    });
    await runLoop([userMessage("q")], deps);
    expect(deps.output.of("retry").map((e) => e.error)).toEqual(["rate limited (429): slow down"]);
    expect(deps.output.of("error")[0]!.message).toBe("http://gw.corp/v1 (provider gw): rate limited (429): slow down — gave up after 1 retry");
  });

  test.each([
    ["auth", "authentication failed (401) — check OPENAI_API_KEY"],
    ["bad_request", "Invalid 'tools[0].function.name'"],
    ["quota_exhausted", "You exceeded your current quota"],
  ] as const)("%s fails at once with its message", async (kind, message) => {
    const deps = loopDeps(fakeProvider([{ error: new ProviderError(kind, message) }]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("error");
    expect(deps.clock.slept).toEqual([]);
    const err = deps.output.of("error")[0]!;
    expect(err.kind).toBe(kind);
    expect(err.message).toStartWith(message);
  });

  // x167 #3: a -p run has no /model; at the prompt /model works at once
  test.each([
    ["command line", false, " (run again with another model: -m or --fallback-model)"],
    ["command line", true, " (run again with another model: -m)"],
    ["prompt", false, " (switch models with /model)"],
    ["prompt", true, " (switch models with /model)"],
  ] as const)("a spent quota in a %s run (fallbacks set: %p) names the way to switch models there", async (modelSwitch, fallbacks, words) => {
    const spent = new ProviderError("quota_exhausted", "You exceeded your current quota");
    const deps = loopDeps(fakeProvider([{ error: spent }]), { modelSwitch, ...(fallbacks ? { fallback: async () => undefined } : {}) });
    await runLoop([userMessage("q")], deps);
    expect(deps.output.of("error")[0]!.message).toBe(`You exceeded your current quota${words}`);
  });

  test("a stream cut after partial text is not retried and keeps the text, marked as unfinished", async () => {
    const provider = fakeProvider([{ text: "Half an ans", error: new ProviderError("network", "connection reset") }, { text: "never sent" }]);
    const deps = loopDeps(provider);
    const messages = [userMessage("q")];
    const result = await runLoop(messages, deps);
    expect(result.stop).toBe("error");
    expect(provider.remaining()).toBe(1);
    expect(deps.output.of("error")).toEqual([
      { type: "error", kind: "stream_interrupted", message: "the response broke off after partial output: connection reset" },
    ]);
    expect(messages.map((m) => [m.role, textOf(m)])).toEqual([
      ["user", "q"],
      ["assistant", "Half an ans\n\n[interrupted: the response broke off]"],
    ]);
  });

  test.each([
    [undefined, `Half an answer\n\n${INTERRUPTED_ANSWER}`],
    ["terminated (SIGTERM)", "Half an answer\n\n[interrupted: terminated (SIGTERM)]"],
  ])("an answer interrupted (reason %p) is kept with a marker, and the next request sends it so", async (reason, kept) => {
    const abort = new AbortController();
    const requests: Message[][] = [];
    // streams part of an answer, then the user presses Esc (or a signal comes)
    const provider: Provider = {
      protocol: "openai",
      model: "m",
      async *stream(request, signal) {
        requests.push(structuredClone([...request.messages]));
        if (requests.length > 1) {
          yield { type: "text", delta: "ok" };
          yield { type: "done", message: { id: "a2", role: "assistant", content: [{ type: "text", text: "ok" }] }, usage: emptyUsage(), stop: "stop" };
          return;
        }
        yield { type: "text", delta: "Half an answer " };
        abort.abort(reason);
        throw signal.reason;
      },
    };
    const messages = [userMessage("q")];
    expect((await runLoop(messages, loopDeps(provider, { signal: abort.signal }))).stop).toBe("interrupted");
    expect(messages.map((m) => [m.role, textOf(m)])).toEqual([
      ["user", "q"],
      ["assistant", kept],
    ]);
    messages.push(userMessage("go on"));
    await runLoop(messages, loopDeps(provider));
    expect(requests[1]!.map((m) => textOf(m))).toEqual(["q", kept, "go on"]);
  });

  test("an answer interrupted before its first word is the marker alone: the next request does not send the question and the next message in a row, as if both were to be done", async () => {
    const abort = new AbortController();
    const requests: Message[][] = [];
    const provider: Provider = {
      protocol: "openai",
      model: "m",
      async *stream(request, signal) {
        requests.push(structuredClone([...request.messages]));
        if (requests.length > 1) {
          yield { type: "text", delta: "ok" };
          yield { type: "done", message: { id: "a2", role: "assistant", content: [{ type: "text", text: "ok" }] }, usage: emptyUsage(), stop: "stop" };
          return;
        }
        abort.abort(); // Esc while the model has said nothing yet
        throw signal.reason;
      },
    };
    const messages = [userMessage("delete the old tests")];
    expect((await runLoop(messages, loopDeps(provider, { signal: abort.signal }))).stop).toBe("interrupted");
    expect(messages.map((m) => [m.role, textOf(m)])).toEqual([
      ["user", "delete the old tests"],
      ["assistant", INTERRUPTED_ANSWER],
    ]);
    messages.push(userMessage("what time is it"));
    await runLoop(messages, loopDeps(provider));
    expect(requests[1]!.map((m) => [m.role, textOf(m)])).toEqual([
      ["user", "delete the old tests"],
      ["assistant", INTERRUPTED_ANSWER],
      ["user", "what time is it"],
    ]);
  });

  test.each([
    ["a rejection", new ProviderError("bad_request", "request rejected (400): nope")],
    ["an error after its retries", new ProviderError("network", "ECONNRESET")],
  ])(
    "a run that failed before an answer (%s) leaves the marker of a failed request: the next message goes after an assistant turn, not as a second user message in a row",
    async (_, error) => {
      const provider = fakeProvider([{ error }, { text: "ok" }]);
      const messages = [userMessage("first")];
      const deps = loopDeps(provider, { retry: { ...TEST_RETRY, maxRetries: 0 } });
      expect((await runLoop(messages, deps)).stop).toBe("error");
      expect(deps.output.of("error").map((e) => e.message)).toEqual([error.message]);
      messages.push(userMessage("second"));
      expect((await runLoop(messages, loopDeps(provider))).stop).toBe("end");
      expect(provider.requests[1]!.messages.map((m) => [m.role, textOf(m)])).toEqual([
        ["user", "first"],
        ["assistant", `[interrupted: ${REQUEST_FAILED}]`],
        ["user", "second"],
      ]);
    },
  );

  test("a request that fails after tool results is marked too: the next message does not follow the results directly", async () => {
    const provider = fakeProvider([{ toolCalls: [{ name: "t", arguments: {} }] }, { error: new ProviderError("bad_request", "rejected") }, { text: "ok" }]);
    const messages = [userMessage("first")];
    expect((await runLoop(messages, loopDeps(provider))).stop).toBe("error");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(textOf(messages.at(-1)!)).toBe(`[interrupted: ${REQUEST_FAILED}]`);
  });

  test("a stream that fails before any delta is retried", async () => {
    const provider = fakeProvider([{ error: new ProviderError("network", "ECONNRESET") }, { text: "fine" }]);
    const deps = loopDeps(provider);
    expect((await runLoop([userMessage("q")], deps)).stop).toBe("end");
    expect(deps.clock.slept).toEqual([2000]);
  });
});

describe("retries through the real chat adapter", () => {
  test("429 with an HTTP-date Retry-After waits until that date", async () => {
    const { startReplayServer, jsonReply, sseReply } = await import("../helpers/replay-server.ts");
    const { chatChunk, sse } = await import("../helpers/sse.ts");
    const { createOpenAIProvider } = await import("../../src/providers/openai.ts");
    const server = startReplayServer();
    try {
      const at = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000); // HTTP dates have whole seconds
      server.enqueue(
        jsonReply(429, { error: { message: "slow down", type: "requests" } }, { "retry-after": at.toUTCString() }),
        sseReply(sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })])),
      );
      const provider = await createOpenAIProvider({ model: "m", baseUrl: `${server.url}/v1` });
      const deps = loopDeps(provider);
      const before = Date.now();
      const result = await runLoop([userMessage("q")], deps);
      expect(result.stop).toBe("end");
      expect(deps.clock.slept).toHaveLength(1);
      const expected = at.getTime() - before;
      expect(deps.clock.slept[0]!).toBeGreaterThan(expected - 1500);
      expect(deps.clock.slept[0]!).toBeLessThanOrEqual(expected);
    } finally {
      server.stop();
    }
  });
});

/**
 * An edit tool whose calls each wait for the test to let them end; `runInOrder` lets them end one
 * by one, checking that no call starts before the one before it ended.
 */
function heldEdits() {
  const order: string[] = [];
  const gates: ReturnType<typeof gate>[] = [];
  const tool = {
    name: "edit",
    description: "",
    parameters: {},
    run: async (args: Record<string, unknown>) => {
      order.push(`start ${args.path}`);
      const g = gate();
      gates.push(g);
      await g.passed;
      order.push(`end ${args.path}`);
      return { output: "ok" };
    },
  };
  const runInOrder = async (run: Promise<unknown>, calls: number) => {
    for (let i = 0; i < calls; i++) {
      await until(() => gates.length > i, `edit ${i + 1} to start`);
      expect(order.filter((o) => o.startsWith("start"))).toHaveLength(i + 1); // the next has not started beside it
      gates[i]!.open();
    }
    await run;
  };
  return { order, tool, runInOrder };
}

test("one file named two ways (a.txt, ./a.txt, absolute) is edited in call order, not at the same time", async () => {
  const edits = heldEdits();
  const cwd = process.cwd();
  const provider = fakeProvider([
    {
      toolCalls: [
        { name: "edit", arguments: { path: "a.txt" } },
        { name: "edit", arguments: { path: "./a.txt" } },
        { name: "edit", arguments: { path: `${cwd}/a.txt` } },
      ],
    },
    { text: "ok" },
  ]);
  await edits.runInOrder(runLoop([userMessage("go")], loopDeps(provider, { tools: [edits.tool], cwd })), 3);
  expect(edits.order).toEqual(["start a.txt", "end a.txt", "start ./a.txt", "end ./a.txt", `start ${cwd}/a.txt`, `end ${cwd}/a.txt`]);
});

test("~/a.txt and the same file by its absolute path are one file: with the tools' pathOf, edited in call order", async () => {
  const edits = heldEdits();
  const [cwd, home] = ["/work/app", "/home/me"];
  const pathOf = (p: string) => {
    const where = resolveUserPath(p, cwd, home);
    return "abs" in where ? where.abs : p;
  };
  const provider = fakeProvider([
    {
      toolCalls: [
        { name: "edit", arguments: { path: "~/a.txt" } },
        { name: "edit", arguments: { path: "/home/me/a.txt" } },
      ],
    },
    { text: "ok" },
  ]);
  await edits.runInOrder(runLoop([userMessage("go")], loopDeps(provider, { tools: [edits.tool], cwd, pathOf })), 2);
  expect(edits.order).toEqual(["start ~/a.txt", "end ~/a.txt", "start /home/me/a.txt", "end /home/me/a.txt"]);
});

test("a call whose file pathOf cannot tell (a link on a mount that did not answer) runs in order with the file calls around it, as a command does", async () => {
  const edits = heldEdits();
  // `link.txt` is a link to a.txt that could not be resolved in time: it may be a.txt
  const pathOf = (p: string) => (p === "link.txt" ? undefined : `/work/app/${p}`);
  const provider = fakeProvider([
    {
      toolCalls: [
        { name: "edit", arguments: { path: "a.txt" } },
        { name: "edit", arguments: { path: "link.txt" } },
        { name: "edit", arguments: { path: "a.txt" } },
      ],
    },
    { text: "ok" },
  ]);
  await edits.runInOrder(runLoop([userMessage("go")], loopDeps(provider, { tools: [edits.tool], cwd: "/work/app", pathOf })), 3);
  expect(edits.order).toEqual(["start a.txt", "end a.txt", "start link.txt", "end link.txt", "start a.txt", "end a.txt"]);
});

describe("tools per request", () => {
  test("context() gives each request its tools: one that joins after the first request is offered by the next, and its call runs", async () => {
    const provider = fakeProvider([{ toolCalls: [{ name: "early", arguments: {} }] }, { toolCalls: [{ name: "late", arguments: {} }] }, { text: "done" }]);
    const tools = [sleepTool("early", 1)];
    const deps = loopDeps(provider, {
      context: async (history) => {
        const offered = [...tools];
        tools.push(sleepTool("late", 1)); // a server connected while this request ran
        return { system: "s", messages: history, tools: offered };
      },
    });
    const messages = [userMessage("go")];
    expect((await runLoop(messages, deps)).stop).toBe("end");
    expect(provider.requests.map((r) => r.tools.map((t) => t.name))).toEqual([["early"], ["early", "late"], ["early", "late", "late"]]);
    expect(messages.filter((m) => m.role === "tool").map((m) => [m.toolName, m.isError])).toEqual([
      ["early", false],
      ["late", false],
    ]);
  });

  test("a call to a tool its request did not offer is an unknown tool, even if it exists by now", async () => {
    const provider = fakeProvider([{ toolCalls: [{ name: "late", arguments: {} }] }, { text: "ok" }]);
    let n = 0;
    const deps = loopDeps(provider, { context: async (history) => ({ system: "s", messages: history, tools: n++ === 0 ? [] : [sleepTool("late", 1)] }) });
    const messages = [userMessage("go")];
    await runLoop(messages, deps);
    expect(textOf(messages.find((m) => m.role === "tool")!)).toBe('unknown tool "late"; available: ');
  });

  test("a call to a name its request did not offer runs the tool `unlisted` gives for it (an MCP server's, still starting), said with its server", async () => {
    const provider = fakeProvider([
      {
        toolCalls: [
          { name: "late", arguments: {} },
          { name: "nope", arguments: {} },
        ],
      },
      { text: "ok" },
    ]);
    const late = { ...sleepTool("late", 1), server: "slow" };
    const deps = loopDeps(provider, { unlisted: (name) => (name === "late" ? late : undefined) });
    const messages = [userMessage("go")];
    await runLoop(messages, deps);
    expect(messages.filter((m) => m.role === "tool").map((m) => [textOf(m), m.isError])).toEqual([
      ['unknown tool "nope"; available: ', true], // done at once: saved before the running call's
      ["late done {}", false],
    ]);
    expect(deps.output.events.find((e) => e.type === "tool_call" && e.name === "late")).toMatchObject({ server: "slow" });
  });
});

describe("duplicate tool-call ids (issue 13 row 12)", () => {
  const asks = (...ids: string[]): Message => ({
    id: "a",
    role: "assistant",
    content: [],
    toolCalls: ids.map((id, i) => ({ id, name: "t", arguments: `{"n":${i}}` })),
  });
  const ids = (m: Message) => m.toolCalls!.map((c) => c.id);

  test("withUniqueCallIds: repeats in the turn and ids used earlier get a suffix; new ids stay", () => {
    expect(ids(withUniqueCallIds(asks("c1", "c1", "c1", "c2"), []))).toEqual(["c1", "c1_2", "c1_3", "c2"]);
    expect(ids(withUniqueCallIds(asks("c1", "c1_2"), [asks("c1")]))).toEqual(["c1_2", "c1_2_2"]);
    const fresh = asks("x", "y");
    expect(withUniqueCallIds(fresh, [asks("a", "b")])).toBe(fresh);
    expect(withUniqueCallIds(asks("c1", "c1"), []).toolCalls!.map((c) => c.arguments)).toEqual(['{"n":0}', '{"n":1}']);
  });

  test("withUniqueCallIds over a history that grows, is cleared and refilled: every id of it now counts, none of before", () => {
    const history: Message[] = [asks("c1")];
    expect(ids(withUniqueCallIds(asks("c1"), history))).toEqual(["c1_2"]);
    history.push(asks("c1_2"), asks("c3"));
    expect(ids(withUniqueCallIds(asks("c1", "c3"), history))).toEqual(["c1_3", "c3_2"]);
    history.length = 0; // /clear
    expect(ids(withUniqueCallIds(asks("c1"), history))).toEqual(["c1"]);
    history.push(asks("x"), asks("y"), asks("z"));
    expect(ids(withUniqueCallIds(asks("c3", "y"), history))).toEqual(["c3", "y_2"]);
  });

  test("two calls with one id both run and both results reach the next request", async () => {
    const provider = fakeProvider([
      {
        toolCalls: [
          { name: "t", arguments: { n: 1 }, id: "dup" },
          { name: "t", arguments: { n: 2 }, id: "dup" },
        ],
      },
      { text: "done" },
    ]);
    const deps = loopDeps(provider, { tools: [sleepTool("t", 1)] });
    await runLoop([userMessage("go")], deps);
    const sent = provider.requests[1]!.messages;
    expect(sent.flatMap((m) => m.toolCalls ?? []).map((c) => c.id)).toEqual(["dup", "dup_2"]);
    expect(sent.filter((m) => m.role === "tool").map((m) => [m.toolCallId, textOf(m)])).toEqual([
      ["dup", 't done {"n":1}'],
      ["dup_2", 't done {"n":2}'],
    ]);
    expect(deps.output.of("tool_result").map((e) => e.id)).toEqual(["dup", "dup_2"]);
  });
});

describe("a tool call the provider could not parse (stop malformed_call)", () => {
  test("with text before it: the text is kept, the model is told what its provider said, and the run goes on to its answer", async () => {
    const said = "MALFORMED_FUNCTION_CALL: print(default_api.t(x=1))";
    const provider = fakeProvider([{ text: "Let me look.", stop: "malformed_call", detail: said }, { text: "Done." }]);
    const deps = loopDeps(provider);
    const messages = [userMessage("go")];
    expect(await runLoop(messages, deps)).toMatchObject({ stop: "end", turns: 2 });
    expect(deps.output.of("error")).toEqual([]);
    expect(deps.output.of("retry")).toEqual([]);
    expect(deps.output.of("notice")).toEqual([
      { type: "notice", message: `the model's tool call could not be parsed (${said}); it is asked to make it again` },
    ]);
    const second = provider.requests[1]!.messages;
    expect(second.map((m) => [m.role, textOf(m)])).toEqual([
      ["user", "go"],
      ["assistant", "Let me look."],
      ["user", malformedCallNote(said)],
    ]);
    expect(malformedCallNote(said)).toContain(`could not be parsed, so nothing ran. The provider said: ${said}]`);
    expect(deps.output.text()).toBe("Let me look.Done.");
  });

  test("with nothing before it, again and again: each try is a turn, and the turn limit ends it with a hand-off", async () => {
    const bad = { text: "", stop: "malformed_call" as const, detail: "MALFORMED_FUNCTION_CALL" };
    const provider = fakeProvider([bad, bad, { text: "Done so far: nothing.\nRemaining: the call." }]);
    const deps = loopDeps(provider, { limits: { maxTurns: 2, parallelTools: true } });
    const messages = [userMessage("go")];
    expect(await runLoop(messages, deps)).toMatchObject({ stop: "max_turns", turns: 3 });
    expect(deps.output.of("retry")).toEqual([]);
    expect(messages.filter((m) => m.role === "user").map(textOf)).toEqual([
      "go",
      malformedCallNote("MALFORMED_FUNCTION_CALL"),
      malformedCallNote("MALFORMED_FUNCTION_CALL"),
      MAX_TURNS_PROMPT,
    ]);
  });

  test(`${MALFORMED_STOP_AT} in a row end the run with an error quoting the provider, not a request more; one parsed call between resets the count`, async () => {
    const said = "a tool call written as text: its call is no JSON object with a name. The server is not parsing tool calls: start vLLM with X";
    const bad = { text: "", stop: "malformed_call" as const, detail: said };
    const provider = fakeProvider([bad, bad, { toolCalls: [{ id: "c1", name: "t", arguments: "{}" }] }, bad, bad, bad, { text: "never asked" }]);
    const deps = loopDeps(provider);
    expect(await runLoop([userMessage("go")], deps)).toMatchObject({ stop: "error", error: { kind: "repeated_calls" } });
    expect(provider.requests).toHaveLength(6);
    expect(deps.output.of("error")).toEqual([
      { type: "error", kind: "repeated_calls", message: `the model's tool call could not be parsed 3 turns in a row; stopped rather than ask again: ${said}` },
    ]);
  });

  test("a long quote is cut to MALFORMED_QUOTE_CHARS in the note, and to one short line in the notice", async () => {
    const said = `MALFORMED_FUNCTION_CALL: write_file(content='${"x\n".repeat(3000)}')`;
    const note = malformedCallNote(said);
    expect(note).toContain(`${said.slice(0, MALFORMED_QUOTE_CHARS)}…]`);
    expect(note.length).toBeLessThan(MALFORMED_QUOTE_CHARS + 400);
    const deps = loopDeps(fakeProvider([{ text: "", stop: "malformed_call", detail: said }, { text: "ok" }]));
    await runLoop([userMessage("go")], deps);
    const [notice] = deps.output.of("notice") as { message: string }[];
    expect(notice!.message).not.toContain("\n");
    expect(notice!.message.length).toBeLessThan(300);
  });
});

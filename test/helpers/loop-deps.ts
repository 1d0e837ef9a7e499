// Loop dependencies for tests: no retries' real waiting (the clock records sleeps), everything
// allowed, tools given by the test.
import type { LoopDeps } from "../../src/kernel/loop.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import type { RetryPolicy } from "../../src/kernel/retry.ts";
import { recordingOutput, type RecordingOutput } from "./recording-output.ts";

export const TEST_RETRY: RetryPolicy = { enabled: true, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 60000, jitter: false, respectRetryAfter: true };

export interface TestClock {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
  /** every delay the loop waited, in order */
  slept: number[];
}

/** A clock whose sleeps return at once and are recorded; `random` is fixed (default 0.5). */
export function testClock(random = 0.5): TestClock {
  const slept: number[] = [];
  return {
    slept,
    random: () => random,
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason;
      slept.push(ms);
    },
  };
}

export function loopDeps(provider: Provider, overrides: Partial<LoopDeps> & { tools?: Tool[] } = {}): LoopDeps & { output: RecordingOutput; clock: TestClock } {
  const { tools = [], ...rest } = overrides;
  return {
    provider,
    output: recordingOutput(),
    context: async (history) => ({ system: "test system prompt", messages: history, tools }),
    signal: new AbortController().signal,
    cwd: process.cwd(),
    limits: { maxTurns: 20, parallelTools: true },
    retry: TEST_RETRY,
    permission: () => undefined,
    effort: undefined,
    clock: testClock(),
    ...rest,
  } as LoopDeps & { output: RecordingOutput; clock: TestClock };
}

/** A tool that waits `ms` (abortably) and echoes its arguments. */
export function sleepTool(name: string, ms: number): Tool {
  return {
    name,
    description: `sleeps ${ms} ms`,
    parameters: { type: "object", properties: {} },
    run: (args, ctx) =>
      new Promise((resolve) => {
        const t = setTimeout(() => resolve({ output: `${name} done ${JSON.stringify(args)}` }), ms);
        ctx.signal.addEventListener("abort", () => (clearTimeout(t), resolve({ output: "interrupted", isError: true })), { once: true });
      }),
  };
}

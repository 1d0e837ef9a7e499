// A request whose server sends nothing at all, not a byte, for the whole idle timeout twice in a
// row is given up on (kernel/retry.ts SILENT_TRIES), and so is one whose tries got keep-alives and no
// event of the answer; one that sent an event before it stalled keeps all of max_retries. The policy
// and the counting as pure functions, then through the loop with a fake clock.
import { describe, expect, test } from "bun:test";
import { runLoop } from "../../src/kernel/loop.ts";
import { userMessage } from "../../src/kernel/ir.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { countStuckTries, retryDecision, type RetryPolicy } from "../../src/kernel/retry.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";

const policy: RetryPolicy = { enabled: true, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 60000, jitter: false, respectRetryAfter: true };
const STOPPED =
  "nothing came on 2 tries in a row, so hey stopped: the server looks stuck (a model that loads, reads a long prompt or thinks in silence for longer needs a larger [retry] idle_timeout_ms)";

test.each([
  // silentTries, attempt, policy change, expected
  [1, 1, {}, { retry: true, delayMs: 2000 }],
  [2, 2, {}, { retry: false, why: STOPPED }],
  [2, 4, {}, { retry: false, why: STOPPED }], // silent twice after other failures
  [1, 4, {}, { retry: true, delayMs: 16000 }], // a silent try after a 503: the streak is one
  [0, 4, {}, { retry: true, delayMs: 16000 }], // a stall after bytes: retried like any network error
  [2, 2, { maxRetries: 0 }, { retry: false }], // no retries at all: nothing to explain
] as const)("silentTries %d on try %d %o → %o", (silentTries, attempt, change, expected) => {
  expect(retryDecision({ kind: "network", silentTries }, attempt, { ...policy, ...change }, () => 0)).toEqual(expected);
});

const KEPT_ALIVE =
  "no event of the answer came on 2 tries in a row (keep-alives at most), so hey stopped: the endpoint looks stuck (a model that thinks in silence for longer needs a larger [retry] idle_timeout_ms)";

test.each([
  // silentTries, answerlessTries, attempt, expected
  [0, 1, 1, { retry: true, delayMs: 2000 }], // one try of keep-alives only: retried
  [0, 2, 2, { retry: false, why: KEPT_ALIVE }], // two: stopped, whatever max_retries says
  [1, 2, 2, { retry: false, why: KEPT_ALIVE }], // keep-alives only, then not a byte
  [2, 2, 2, { retry: false, why: STOPPED }], // silent twice: said as silence
  [0, 1, 5, { retry: true, delayMs: 32000 }], // after other failures the streak is one
] as const)("silentTries %d, answerlessTries %d on try %d → %o", (silentTries, answerlessTries, attempt, expected) => {
  expect(retryDecision({ kind: "network", silentTries, answerlessTries }, attempt, policy, () => 0)).toEqual(expected);
});

const none = { silent: false, answerless: false };
const silentTry = { silent: true, answerless: true };
const keptAlive = { silent: false, answerless: true };
test.each([
  // streaks before, the failed try, streaks after
  [{ silent: 0, answerless: 0 }, silentTry, { silent: 1, answerless: 1 }],
  [{ silent: 0, answerless: 0 }, keptAlive, { silent: 0, answerless: 1 }],
  [{ silent: 1, answerless: 1 }, keptAlive, { silent: 0, answerless: 2 }], // keep-alives end a silent streak, not the stuck one
  [{ silent: 0, answerless: 1 }, silentTry, { silent: 1, answerless: 2 }],
  [{ silent: 1, answerless: 1 }, none, { silent: 0, answerless: 0 }], // a 503, or a stall after an event: both streaks end
] as const)("countStuckTries %o after %o → %o", (before, failure, after) => {
  expect(countStuckTries(before, failure)).toEqual(after);
});

describe("through the loop", () => {
  const silent = () => ({ error: new ProviderError("network", "no answer from http://10.0.0.9:8000/v1 in 120 s, not a byte", { silent: true }) });
  const stalled = () => ({ error: new ProviderError("network", "no data from the model for 120 s") });

  test("two silent tries: the run stops after one retry, saying which endpoint, how long and which key", async () => {
    const deps = loopDeps(fakeProvider([silent(), silent(), { text: "never asked" }]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("error");
    expect(deps.clock.slept).toEqual([2000]);
    expect(deps.output.of("error")).toEqual([
      { type: "error", kind: "network", message: `no answer from http://10.0.0.9:8000/v1 in 120 s, not a byte — ${STOPPED}` },
    ]);
  });

  test("a stream that sent bytes before it stalled keeps every retry of max_retries", async () => {
    const deps = loopDeps(fakeProvider([...Array.from({ length: 5 }, stalled), { text: "at last" }]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("end");
    expect(deps.clock.slept).toHaveLength(5);
    expect(deps.output.text()).toBe("at last");
  });

  const keepAlivesOnly = () => ({
    error: new ProviderError("network", "https://gw.example/v1 sent only keep-alives for 10 min and no event of the answer", { answerless: true }),
  });

  test("two tries of keep-alives only: the run stops after one retry, not after max_retries, naming the endpoint and the key", async () => {
    const deps = loopDeps(fakeProvider([keepAlivesOnly(), keepAlivesOnly(), { text: "never asked" }]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("error");
    expect(deps.clock.slept).toEqual([2000]);
    expect(deps.output.of("error")).toEqual([
      { type: "error", kind: "network", message: `https://gw.example/v1 sent only keep-alives for 10 min and no event of the answer — ${KEPT_ALIVE}` },
    ]);
  });

  test("one try of keep-alives only, then an answer: answered", async () => {
    const deps = loopDeps(fakeProvider([keepAlivesOnly(), { text: "late but here" }]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("end");
    expect(deps.output.text()).toBe("late but here");
  });

  test("silent tries that are not in a row do not add up", async () => {
    const overloaded = { error: new ProviderError("overloaded", "the provider is failing (503)", { status: 503 }) };
    const deps = loopDeps(fakeProvider([silent(), overloaded, silent(), stalled(), silent(), { text: "answered" }]));
    const result = await runLoop([userMessage("q")], deps);
    expect(result.stop).toBe("end");
    expect(deps.clock.slept).toHaveLength(5);
  });
});

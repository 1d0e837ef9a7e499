import { expect, test } from "bun:test";
import { formatWait, retryDecision, type RetryPolicy } from "../../src/kernel/retry.ts";

const policy: RetryPolicy = { enabled: true, maxRetries: 5, baseDelayMs: 2000, maxDelayMs: 60000, jitter: false, respectRetryAfter: true };

test.each([
  // kind, retryAfterMs, attempt, policy change, random, expected
  ["rate_limit", undefined, 1, {}, 0, { retry: true, delayMs: 2000 }],
  ["rate_limit", undefined, 2, {}, 0, { retry: true, delayMs: 4000 }],
  ["overloaded", undefined, 5, {}, 0, { retry: true, delayMs: 32000 }],
  ["overloaded", undefined, 6, {}, 0, { retry: false, why: "gave up after 5 retries" }],
  ["network", undefined, 1, { maxRetries: 1 }, 0, { retry: true, delayMs: 2000 }],
  ["network", undefined, 2, { maxRetries: 1 }, 0, { retry: false, why: "gave up after 1 retry" }],
  ["network", undefined, 6, { maxRetries: 10 }, 0, { retry: true, delayMs: 60000 }], // capped
  ["overloaded", undefined, 3, { jitter: true }, 0, { retry: true, delayMs: 4000 }], // jitter floor: half
  ["overloaded", undefined, 3, { jitter: true }, 0.999999, { retry: true, delayMs: 8000 }], // jitter ceiling: full
  ["rate_limit", 3000, 1, {}, 0, { retry: true, delayMs: 3000 }],
  ["rate_limit", 3000, 1, { jitter: true }, 0.5, { retry: true, delayMs: 3150 }], // only ever longer
  ["rate_limit", 3000, 1, { respectRetryAfter: false }, 0, { retry: true, delayMs: 2000 }],
  [
    "rate_limit",
    61000,
    1,
    {},
    0,
    { retry: false, why: "the server allows the next try in 61 s, longer than hey waits ([retry] max_delay_ms = 60000)", waitTooLong: true },
  ],
  [
    "rate_limit",
    7_200_000,
    1,
    {},
    0,
    { retry: false, why: "the server allows the next try in 2 h 0 min, longer than hey waits ([retry] max_delay_ms = 60000)", waitTooLong: true },
  ],
  ["overloaded", 500, 1, {}, 0, { retry: true, delayMs: 500 }],
  // the floor: Retry-After: 0 and base_delay_ms = 0 still wait 0.5, 1, 2, 4, 8 s
  ["rate_limit", 0, 1, {}, 0, { retry: true, delayMs: 500 }],
  ["rate_limit", 0, 2, {}, 0, { retry: true, delayMs: 1000 }],
  ["rate_limit", 0, 5, {}, 0, { retry: true, delayMs: 8000 }],
  ["rate_limit", 100, 3, {}, 0, { retry: true, delayMs: 2000 }],
  ["rate_limit", 3000, 3, {}, 0, { retry: true, delayMs: 3000 }], // a longer server delay stands
  ["network", undefined, 1, { baseDelayMs: 0 }, 0, { retry: true, delayMs: 500 }],
  ["network", undefined, 4, { baseDelayMs: 0, jitter: true }, 0.3, { retry: true, delayMs: 4000 }],
  ["network", 0, 3, { maxDelayMs: 700 }, 0, { retry: true, delayMs: 700 }], // never past max_delay_ms
  // an empty answer (the stream ended with nothing in it) is retried like an overload, twice at most
  ["empty_answer", undefined, 1, {}, 0, { retry: true, delayMs: 2000, retries: 2 }],
  ["empty_answer", undefined, 2, {}, 0, { retry: true, delayMs: 4000, retries: 2 }],
  ["empty_answer", undefined, 1, { maxRetries: 2 }, 0, { retry: true, delayMs: 2000 }], // no fewer than max_retries: not said
  ["empty_answer", undefined, 3, {}, 0, { retry: false, why: "gave up after 2 retries" }],
  ["empty_answer", undefined, 2, { maxRetries: 1 }, 0, { retry: false, why: "gave up after 1 retry" }],
  ["auth", undefined, 1, {}, 0, { retry: false }],
  ["bad_request", undefined, 1, {}, 0, { retry: false }],
  ["quota_exhausted", 1000, 1, {}, 0, { retry: false }],
  ["stream_interrupted", undefined, 1, {}, 0, { retry: false }],
  ["rate_limit", undefined, 1, { enabled: false }, 0, { retry: false }],
  ["rate_limit", undefined, 1, { maxRetries: 0 }, 0, { retry: false }],
] as const)("%s retryAfter=%p attempt %d %o random=%d → %o", (kind, retryAfterMs, attempt, change, random, expected) => {
  expect(retryDecision({ kind, retryAfterMs }, attempt, { ...policy, ...change }, () => random)).toEqual(expected);
});

test.each([
  [1, "1 s"],
  [45_000, "45 s"],
  [119_000, "119 s"],
  [600_000, "10 min"],
  [12_000_000, "3 h 20 min"],
])("formatWait(%d) = %s", (ms, text) => expect(formatWait(ms)).toBe(text));

test("a failure marked final is never retried, whatever its kind", () => {
  expect(retryDecision({ kind: "network", final: true }, 1, policy)).toEqual({ retry: false });
});

test("Retry-After: 0 five times: the retries wait at least 15.5 s in all, not 50 ms", () => {
  const waits = [1, 2, 3, 4, 5].map((attempt) => retryDecision({ kind: "rate_limit", retryAfterMs: 0 }, attempt, { ...policy, jitter: true }, Math.random));
  expect(waits.reduce((sum, d) => sum + (d.retry ? d.delayMs : 0), 0)).toBeGreaterThanOrEqual(15_500);
});

test("a model still loading is waited for, up to 10 minutes, whatever max_retries says; then said as still loading", () => {
  const one = { ...policy, maxRetries: 1 };
  const tries: number[] = [];
  let attempt = 1;
  for (let d = retryDecision({ kind: "loading" }, attempt, one); d.retry; d = retryDecision({ kind: "loading" }, ++attempt, one)) tries.push(d.delayMs);
  expect(tries.length).toBeGreaterThan(one.maxRetries);
  expect(tries.slice(0, 4)).toEqual([2000, 4000, 8000, 15000]); // soon at first: a small model is loaded in seconds
  expect(tries.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10 * 60_000);
  expect(tries.reduce((a, b) => a + b, 0)).toBeGreaterThan(9 * 60_000);
  expect(retryDecision({ kind: "loading" }, attempt, one)).toEqual({ retry: false, why: "the model was still loading after 10 min, so hey stopped" });
  expect(retryDecision({ kind: "loading" }, 1, one)).toMatchObject({ retries: tries.length });
  expect(retryDecision({ kind: "loading", retryAfterMs: 20_000 }, 1, one)).toMatchObject({ retry: true, delayMs: 20_000 }); // as the server asks
  expect(retryDecision({ kind: "loading" }, 1, { ...policy, enabled: false })).toEqual({ retry: false });
});

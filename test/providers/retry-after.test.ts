import { expect, test } from "bun:test";
import { parseRetryAfter } from "../../src/providers/retry-after.ts";

const NOW = Date.parse("Wed, 02 Dec 2026 12:00:00 GMT");

/** [what the response says, its headers, the delay in ms (undefined: none)] */
const CASES: [string, Record<string, string>, number | undefined][] = [
  ["no headers", {}, undefined],
  ["whole seconds", { "retry-after": "3" }, 3000],
  ["zero seconds", { "retry-after": "0" }, 0],
  ["fractional seconds round up", { "retry-after": "1.5" }, 1500],
  ["sub-millisecond fraction rounds up", { "retry-after": "0.0001" }, 1],
  ["surrounding whitespace", { "retry-after": " 7 " }, 7000],
  ["HTTP date in the future", { "retry-after": "Wed, 02 Dec 2026 12:00:30 GMT" }, 30_000],
  ["HTTP date in the past", { "retry-after": "Wed, 02 Dec 2026 11:59:00 GMT" }, 0],
  ["retry-after-ms wins over retry-after", { "retry-after-ms": "250", "retry-after": "3" }, 250],
  ["fractional retry-after-ms rounds up", { "retry-after-ms": "12.2" }, 13],
  ["bad retry-after-ms falls back to retry-after", { "retry-after-ms": "soon", "retry-after": "2" }, 2000],
  ["negative seconds are garbage", { "retry-after": "-5" }, undefined],
  ["garbage", { "retry-after": "later please" }, undefined],
  ["empty value", { "retry-after": "" }, undefined],
];
const titled = CASES.map(([name, headers, expected]) => ({ title: `${name} → ${expected === undefined ? "no delay" : `${expected} ms`}`, headers, expected }));

test.each(titled)("$title", ({ headers, expected }) => {
  const h = new Headers(headers);
  expect(parseRetryAfter((name) => h.get(name), NOW)).toBe(expected);
});

// How long a server asked us to wait before the next attempt (SPEC §6 retry notes).

const SECONDS = /^\s*\d+(\.\d+)?\s*$/;

/**
 * The server-given delay in milliseconds, or undefined when the response names none (or only
 * garbage). Reads `retry-after-ms` first (OpenAI's own header, milliseconds), then
 * `retry-after`: delta-seconds (fractional accepted, as some gateways send "1.5") or an HTTP
 * date, taken relative to `now` (a date in the past means 0). Fractions round up, so a caller
 * never waits less than asked. Never throws.
 */
export function parseRetryAfter(get: (name: string) => string | null | undefined, now: number): number | undefined {
  const ms = get("retry-after-ms");
  if (ms != null && SECONDS.test(ms)) return Math.ceil(Number(ms));

  const value = get("retry-after");
  if (value == null || value.trim() === "") return undefined;
  if (SECONDS.test(value)) return Math.ceil(Number(value) * 1000);
  // Date.parse also accepts bare numbers ("-5" is the year -5): an HTTP date names its month.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The words a server asks for a wait with, before the wait: "Please wait", "try again in", "retry in", "retry after". */
const ASKS = /\b(?:wait|(?:try|retry)(?: again)? (?:in|after))\s+/gi;
/** One amount of a wait: "46 seconds", "1 minutes", "9m" of "9m38.016s", "590ms". */
const AMOUNT = /^(\d+(?:\.\d+)?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)(?![a-z])(?:\s*(?:and\s+)?)/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The wait an error's own words ask for, in milliseconds, for a server that names it only there
 * (no Retry-After header): "Please wait 46 seconds before retrying" (GitHub Models), "Please try
 * again in 9m38.016s" (Groq, OpenAI), "Please retry in 45.578569677s." (Gemini), "Please retry
 * after 60 seconds" (Azure OpenAI), "Please wait 10 hours 58 minutes" (several amounts add up).
 * Fractions round up. Undefined when the words name no amount ("try again later", "retry
 * shortly"); a wait longer than the retry policy allows is the policy's to refuse
 * (kernel/retry.ts). The documented last resort of SPEC §4: no field carries it. Pure.
 */
export function retryHintOf(said: string): number | undefined {
  for (const ask of said.matchAll(ASKS)) {
    let rest = said.slice(ask.index + ask[0].length);
    let total = 0;
    let found = false;
    for (let m = AMOUNT.exec(rest); m; m = AMOUNT.exec(rest)) {
      const unit = m[2]!.toLowerCase();
      const key = unit.startsWith("ms") || unit.startsWith("milli") ? "ms" : unit[0]!;
      total += Number(m[1]) * UNIT_MS[key]!;
      found = true;
      rest = rest.slice(m[0].length);
    }
    if (found) return Math.ceil(total);
  }
  return undefined;
}

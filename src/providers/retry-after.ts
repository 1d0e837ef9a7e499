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

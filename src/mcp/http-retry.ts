// HTTP 503 from a remote MCP server is retried with backoff (SPEC §14, seed M13): a server that
// is deploying or scaling answers 503 for a moment. Only 503, only a few times, honouring a short
// Retry-After. Pure: the fetch and the sleep are given.

/** Attempts in all, the first included. */
export const MAX_ATTEMPTS = 4;
const BASE_DELAY_MS = 500;
/** A Retry-After longer than this is not waited for: the server is down, not busy. */
const MAX_DELAY_MS = 5_000;

/** The wait before attempt `attempt + 1` (attempt ≥ 1): Retry-After seconds when given and short, else 500 ms doubling. */
export function retryDelay(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter !== null && /^\d+(\.\d+)?$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  if (seconds !== undefined) return Math.min(seconds * 1000, MAX_DELAY_MS);
  return Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * `base`, with 503 answers retried (the request body must be a string or absent, as the SDK sends
 * it). The last 503 is returned as is, for the transport to report. Aborts stop the waiting.
 */
export function retrying503(base: Fetch, sleep: (ms: number, signal?: AbortSignal | null) => Promise<void>): Fetch {
  return async (input, init) => {
    for (let attempt = 1; ; attempt++) {
      const response = await base(input, init);
      if (response.status !== 503 || attempt >= MAX_ATTEMPTS || (init?.body != null && typeof init.body !== "string")) return response;
      await response.body?.cancel().catch(() => {});
      await sleep(retryDelay(attempt, response.headers.get("retry-after")), init?.signal);
    }
  };
}

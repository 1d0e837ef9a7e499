// HTTP 503 from a remote MCP server is retried with backoff (SPEC §14, seed M13): a server that
// is deploying or scaling answers 503 for a moment. Only 503, only a few times, honouring a short
// Retry-After. And every answer is bounded while it is read (issue 24). Pure: the fetch and the
// sleep are given.

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

/**
 * `base`, with every response body cut off — an error instead of more bytes — once one message
 * passes `maxBytes`: a JSON body as a whole, an event stream per event (a blank line ends one). So
 * a remote server's 100 MB answer costs hey at most `maxBytes`, as a local one's does (stdio.ts).
 */
export function boundedBodies(base: Fetch, maxBytes: number): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const body = response.body.pipeThrough(messageLimit(maxBytes));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

const NL = 10;
const CR = 13;

/** The bytes pass unchanged until one message (the bytes since the last blank line) is over `maxBytes`; then the stream fails. */
export function messageLimit(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let since = 0; // bytes of the current message
  let lineStart = true; // nothing but CRs since the last newline
  const tooLarge = () =>
    new Error(
      `the server's answer was over ${Math.round(maxBytes / (1024 * 1024))} MB, more than hey reads, so it was dropped; ask the tool for less (a range, a filter, a page)`,
    );
  return new TransformStream({
    transform(chunk, controller) {
      for (let start = 0; ; ) {
        const nl = chunk.indexOf(NL, start);
        const line = chunk.subarray(start, nl < 0 ? chunk.length : nl);
        const blank = line.length === 0 || (line.length === 1 && line[0] === CR);
        since += line.length + (nl < 0 ? 0 : 1);
        if (since > maxBytes) throw tooLarge();
        if (nl < 0) {
          if (!blank) lineStart = false;
          break;
        }
        if (lineStart && blank) since = 0; // a blank line ends an event
        lineStart = true;
        start = nl + 1;
      }
      controller.enqueue(chunk);
    },
  });
}

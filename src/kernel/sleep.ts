// The wait between retries, shared by the loop's retries and MCP's. Pure: a timer only.

/** Waits `ms`; rejects with the signal's reason as soon as `signal` aborts (a Ctrl-C during a retry wait). */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

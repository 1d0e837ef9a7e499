// A long MCP call that reports progress (SPEC §14): each `notifications/progress` the server sends
// for it gives it `timeout_ms` more, up to `max_timeout_ms` in all, and is shown to the user where
// hey shows a running tool (the spinner line). Pure: the SDK's request options are made here, the
// SDK is called by client.ts.

/** What a server says of a call's progress (the MCP `notifications/progress` params). */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** A call that reports progress may run this long in all unless `max_timeout_ms` says otherwise (or `timeout_ms` is longer). */
export const DEFAULT_MAX_TIMEOUT_MS = 600_000;

/** The longest a call may run in all, progress or not: `max_timeout_ms`, never below `timeout_ms`. */
export function totalCap(s: { timeoutMs: number; maxTimeoutMs?: number }): number {
  return Math.max(s.timeoutMs, s.maxTimeoutMs ?? DEFAULT_MAX_TIMEOUT_MS);
}

/** One request's limits and its progress listener, as the SDK's request options. */
export function requestOptions(o: { timeoutMs: number; maxTotalMs?: number; signal: AbortSignal; onProgress?: (p: Progress) => void }) {
  // `onprogress` asks the server for progress (it puts a progressToken in the request's _meta):
  // given always, so a notice extends the timeout even where nobody watches
  return {
    timeout: o.timeoutMs,
    signal: o.signal,
    onprogress: (p: Progress) => o.onProgress?.(p),
    resetTimeoutOnProgress: true,
    maxTotalTimeout: o.maxTotalMs ?? o.timeoutMs,
  };
}

/** A progress notice as a few words for the spinner line: `3/5`, `40%`, with the server's message. */
export function progressNote(p: Progress): string {
  const total = typeof p.total === "number" && p.total > 0 ? p.total : undefined;
  const message = typeof p.message === "string" ? p.message.replace(/\s+/g, " ").trim() : "";
  const amount = total === undefined ? (message ? "" : String(p.progress)) : total === 100 ? `${Math.round(p.progress)}%` : `${p.progress}/${total}`;
  return [amount, message].filter((s) => s !== "").join(" ");
}

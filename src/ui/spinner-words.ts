// What the spinner's row says while hey waits: a countdown to a retry, then the seconds of the
// wait; and when a wait for the model's reply has had nothing of it (not a word, not a thought) for
// NO_REPLY_MS, that no reply came yet and from which host — the model thinking and an endpoint that
// took the request and says nothing look the same otherwise until [retry] idle_timeout_ms (120 s)
// gives up on it. Pure.
import type { AgentEvent } from "../kernel/output.ts";

/** How long a wait for the model goes with nothing of its reply before the spinner says so. */
export const NO_REPLY_MS = 25_000;

/**
 * The spinner's words, with what of the reply was heard when. `host`: the endpoint answering now
 * (a fallback's when one answers), undefined when unknown (a test's terminal, an embedder).
 */
export function spinnerWords(now: () => number, host?: () => string | undefined) {
  let heard = 0; // when the model's stream last sent something of the reply
  return {
    heard(event: AgentEvent): void {
      if (event.type === "text_delta" || event.type === "thinking_delta" || event.type === "tool_call") heard = now();
    },
    /** `label` since `start`; `until`: a retry's delay, counted down to, then the wait for the model counted up from it */
    words(label: string, start: number, until?: number): string {
      const at = now();
      const left = until === undefined ? 0 : Math.ceil((until - at) / 1000);
      if (left > 0) return `${label} ${left}s`;
      const from = until ?? start;
      // "working…" is the wait for a reply (a turn's first, or after tools ran); a retry's wait is one too; a tool's or a summary's is not
      const quiet = at - Math.max(from, heard);
      const where = label === "working…" || until !== undefined ? host?.() : undefined;
      if (where && quiet >= NO_REPLY_MS) return `no reply yet from ${where} (${Math.floor(quiet / 1000)}s)`;
      return `${until === undefined ? label : "waiting for the model…"} ${Math.floor((at - from) / 1000)}s`;
    },
  };
}

/** a retry's delay as its line says it: `800 ms`, `2.5 s` */
export function delayWords(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

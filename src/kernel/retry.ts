// Request-level retry policy (SPEC §6): which failures are retried and how long to wait.
import { RETRYABLE_KINDS } from "./provider.ts";

export interface RetryPolicy {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  jitter: boolean;
  respectRetryAfter: boolean;
}

/** The part of a classified provider error the policy looks at. */
export interface RetryableFailure {
  kind: string;
  retryAfterMs?: number;
  /** retrying cannot help whatever the kind says */
  final?: boolean;
  /**
   * How many tries in a row, this one included, ended at the idle timeout without a single byte
   * of an answer (ProviderError.silent); 0 or undefined when this one is no such failure.
   */
  silentTries?: number;
  /**
   * How many tries in a row, this one included, stalled before any event of the answer came: silent
   * ones, and ones that got keep-alives only (ProviderError.answerless); at least silentTries.
   */
  answerlessTries?: number;
  /** How many tries in a row, this one included, had their connection cut after thinking and before a word of the answer. */
  thoughtCutTries?: number;
  /** this try was ended as no event came for this long (ProviderError.stalledMs): a stall, not a cut */
  stalledMs?: number;
}

/** Tries in a row that ended with no answer: `silent` ones (not a byte) and all `answerless` ones (silent, or keep-alives only). */
export interface StuckTries {
  silent: number;
  answerless: number;
}

/**
 * The streaks after one more failed try: each kind of stall adds to its own, any other failure (a
 * 503, a stall after an event of the answer) ends both. A keep-alive-only try counts toward
 * SILENT_TRIES like a silent one — keep-alives prove a connection, not a model — but does not make
 * a silent streak. Pure.
 */
export function countStuckTries(before: StuckTries, failure: { silent: boolean; answerless: boolean }): StuckTries {
  return { silent: failure.silent ? before.silent + 1 : 0, answerless: failure.silent || failure.answerless ? before.answerless + 1 : 0 };
}

/** `retries`: how many this failure gets in all, when other than the policy's maxRetries (an empty answer's EMPTY_RETRIES, a loading model's tries) */
export type RetryDecision = { retry: true; delayMs: number; retries?: number } | { retry: false; why?: string; waitTooLong?: true };

/**
 * Jitter added to a server-given delay, at most this fraction of it: the server's wait is
 * honoured in full, jitter only spreads clients that were told the same instant.
 */
const SERVER_DELAY_JITTER = 0.1;

/**
 * The least wait before retry number n, whatever the server or the settings say: 0.5 s × 2^(n-1)
 * (0.5, 1, 2, 4, 8 s), capped at maxDelayMs. Without it `Retry-After: 0` (or base_delay_ms = 0)
 * spent five retries in 50 ms: no overloaded server recovers that fast, and a rate limiter counts
 * every try.
 */
const MIN_DELAY_MS = 500;

/**
 * Tries in a row with no answer after which a request is given up: a server that accepts the request
 * and then sends nothing, not a header or a keep-alive, for the whole idle timeout twice is stuck (or
 * is a model that thinks longer in silence than the timeout allows, which a third try will not
 * change). At the default 120 s that is 4 minutes instead of six tries and 13. Tries that got only
 * keep-alives (OpenRouter's `: OPENROUTER PROCESSING` while its upstream hangs) count the same: two
 * of 5 idle timeouts each are 20 minutes instead of six tries and an hour. A server that sent an
 * event of the answer before it stalled keeps the whole `max_retries`.
 */
export const SILENT_TRIES = 2;

/**
 * Retries of a request whose answer came empty (kind "empty_answer": the stream ended as its server
 * ended it, with nothing in it), whatever max_retries says: an empty answer is often a transient flake
 * (Gemini's, after a function response; Gemini CLI retries them too), but one that comes three times
 * is the endpoint's answer, not a flake.
 */
export const EMPTY_RETRIES = 2;

/**
 * Tries in a row whose connection was cut after thinking alone after which a request is given up: a dropped connection
 * there is worth one more try, but a cut that comes every time (a gateway's limit on a stream's
 * length, a stall mid-thinking) would otherwise send the whole request and its thinking six times.
 */
export const THOUGHT_CUT_TRIES = 2;

/**
 * A server still loading the model (kind "loading") is waited for, not retried as a failing one: a
 * try after 2, 4, 8 s, then every LOADING_POLL_MS, for LOADING_WAIT_MS in all whatever max_retries
 * says (a large GGUF loads for minutes from a slow disk), or as its Retry-After asks.
 */
export const LOADING_WAIT_MS = 10 * 60_000;
const LOADING_POLL_MS = 15_000;
const loadingDelay = (attempt: number) => Math.min(LOADING_POLL_MS, 2000 * 2 ** (attempt - 1));
/** The tries the wait holds: every one whose delays, added up, stay within LOADING_WAIT_MS. */
const LOADING_TRIES = (() => {
  let tries = 0;
  let waited = 0;
  while (waited + loadingDelay(tries + 1) <= LOADING_WAIT_MS) waited += loadingDelay(++tries);
  return tries;
})();

/** Waiting for a model that loads: the next try, or the end of the wait. */
function loadingDecision(failure: RetryableFailure, attempt: number): RetryDecision {
  if (attempt > LOADING_TRIES) return { retry: false, why: `the model was still loading after ${formatWait(LOADING_WAIT_MS)}, so hey stopped` };
  return { retry: true, delayMs: Math.min(LOADING_POLL_MS * 2, failure.retryAfterMs ?? loadingDelay(attempt)), retries: LOADING_TRIES };
}

/**
 * Whether to retry after `failure`, which happened on try number `attempt` (1 = the first
 * request), and how long to wait first. `random` returns [0, 1); inject it for tests.
 *
 * Exponential delay: base × 2^(attempt-1), capped at maxDelayMs; with jitter it is drawn
 * from [delay/2, delay] ("equal jitter": spread out, never much shorter). A server-given
 * delay (Retry-After) is waited in full, lengthened by at most 10 % jitter; one longer than
 * maxDelayMs is not waited at all — the caller fails and says when the server allows a retry.
 * No delay is shorter than MIN_DELAY_MS × 2^(attempt-1). SILENT_TRIES silent or answerless tries in
 * a row end the retries whatever max_retries says, so do THOUGHT_CUT_TRIES cut after thinking, and an
 * empty answer is retried EMPTY_RETRIES times at most.
 */
export function retryDecision(failure: RetryableFailure, attempt: number, policy: RetryPolicy, random: () => number = Math.random): RetryDecision {
  if (!RETRYABLE_KINDS.has(failure.kind) || failure.final) return { retry: false };
  if (!policy.enabled) return { retry: false };
  if (failure.kind === "loading") return loadingDecision(failure, attempt);
  if (policy.maxRetries <= 0) return { retry: false };
  if ((failure.silentTries ?? 0) >= SILENT_TRIES)
    return {
      retry: false,
      why: `nothing came on ${failure.silentTries} tries in a row, so hey stopped: the server looks stuck (a model that loads, reads a long prompt or thinks in silence for longer needs a larger [retry] idle_timeout_ms)`,
    };
  if ((failure.answerlessTries ?? 0) >= SILENT_TRIES)
    return {
      retry: false,
      why: `no event of the answer came on ${failure.answerlessTries} tries in a row (keep-alives at most), so hey stopped: the endpoint looks stuck (a model that thinks in silence for longer needs a larger [retry] idle_timeout_ms)`,
    };
  if ((failure.thoughtCutTries ?? 0) >= THOUGHT_CUT_TRIES)
    return {
      retry: false,
      why:
        failure.stalledMs === undefined
          ? `the connection was cut after thinking on ${failure.thoughtCutTries} tries in a row, so hey stopped (a gateway's or proxy's limit on a stream's length cuts one that thinks this long every time)`
          : `the model sent no event for ${formatWait(failure.stalledMs)} after its reasoning on ${failure.thoughtCutTries} tries in a row, so hey stopped (a model that pauses longer between its reasoning and its answer needs a larger [retry] idle_timeout_ms)`,
    };
  const most = failure.kind === "empty_answer" ? Math.min(EMPTY_RETRIES, policy.maxRetries) : policy.maxRetries;
  if (attempt > most) return { retry: false, why: `gave up after ${most} ${most === 1 ? "retry" : "retries"}` };
  const fewer = most < policy.maxRetries ? { retries: most } : {};
  const floor = Math.min(policy.maxDelayMs, MIN_DELAY_MS * 2 ** (attempt - 1));
  const server = policy.respectRetryAfter ? failure.retryAfterMs : undefined;
  if (server !== undefined) {
    if (server > policy.maxDelayMs)
      return {
        retry: false,
        why: `the server allows the next try in ${formatWait(server)}, longer than hey waits ([retry] max_delay_ms = ${policy.maxDelayMs})`,
        waitTooLong: true,
      };
    return { retry: true, delayMs: Math.max(floor, Math.round(server * (1 + (policy.jitter ? random() * SERVER_DELAY_JITTER : 0)))), ...fewer };
  }
  const capped = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return { retry: true, delayMs: Math.max(floor, Math.round(policy.jitter ? capped / 2 + (random() * capped) / 2 : capped)), ...fewer };
}

/** "45 s", "12 min", "3 h 20 min" */
export function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.ceil(s / 60);
  if (min < 120) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

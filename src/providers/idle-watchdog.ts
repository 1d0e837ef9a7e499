// A "no data for N seconds" watchdog for streaming model requests, shared by the adapters.
//
// Why: the SDKs' `timeout` covers only the wait for response headers, so a stream that stalls
// after the headers would hang until Bun's socket idle timeout (sdk-facts §1.1, §5.3).
import { ProviderError } from "../kernel/provider.ts";

/** Default: as long as Bun's own socket idle timeout, which it replaces (we turn Bun's off). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

export interface IdleWatchdog {
  /** Aborts when the caller's signal aborts or when `watch` has waited `idleMs` for an item. Pass it to the SDK. */
  readonly signal: AbortSignal;
  /** Whether the watchdog (not the caller) aborted the request. */
  readonly fired: boolean;
  /**
   * Passes the vendor stream through. The timer runs only while waiting for the next item: the
   * time the consumer spends holding one (rendering, a slow subscriber) does not count as silence.
   */
  watch<T>(source: AsyncIterable<T>): AsyncGenerator<T>;
  /** Stop the timer and unlink from the caller's signal; call in `finally`. */
  dispose(): void;
}

/**
 * Starts timing at once, so a server that never sends headers is caught too. Never throws; the
 * adapter turns `fired` into `idleError(idleMs)` after the SDK has given up.
 */
export function startIdleWatchdog(parent: AbortSignal, idleMs: number): IdleWatchdog {
  const controller = new AbortController();
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onParentAbort = () => controller.abort(parent.reason);
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      controller.abort(idleError(idleMs));
    }, idleMs);
  };

  if (parent.aborted) onParentAbort();
  else {
    parent.addEventListener("abort", onParentAbort, { once: true });
    arm();
  }
  return {
    signal: controller.signal,
    get fired() {
      return fired;
    },
    async *watch(source) {
      for await (const item of source) {
        clearTimeout(timer);
        yield item;
        if (!controller.signal.aborted) arm();
      }
    },
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onParentAbort);
    },
  };
}

/** The error a stalled stream ends with: retryable, like any other network failure. */
export function idleError(idleMs: number): ProviderError {
  return new ProviderError("network", `no data from the model for ${idleMs / 1000} s`);
}

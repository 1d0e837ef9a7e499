// An embedded agent's runs as async iterables (README "Embed"): `agent.stream(message)` yields the
// run's events, redacted as `output` gets them, then one `result` item with the RunResult, and
// ends. Runs keep the call order of `send` and `stream` alike, so each stream hears its own run
// only. A program that stops reading early (`break`, a throw in its loop body, `return()`) aborts
// the run it started, which ends as an interrupted send does (its tool calls answered, the history
// whole); leaving the loop waits for that end, so nothing runs on unseen and the next send starts
// from a settled conversation. A stream never iterated never runs. Pure: no I/O.
import type { Agent } from "./agent.ts";
import type { ContentBlock } from "./kernel/ir.ts";
import type { RunResult } from "./kernel/loop.ts";
import type { AgentEvent } from "./kernel/output.ts";

/** What `stream` yields: each event of the run, then its result, last. */
export type StreamItem = AgentEvent | { type: "result"; result: RunResult };

/** The reason a run is aborted with when its stream is left before its result: what the model and the session read. */
export const STREAM_LEFT = "the program stopped reading the run's stream";

/** An agent made by createAgent: an Agent that can also give a run's events as an async iterable. */
export interface EmbeddedAgent extends Agent {
  /**
   * runs `content` as `send` does (after the runs already asked for), yielding its events and then
   * `{ type: "result", result }`. It starts when iteration starts; leaving the loop early aborts
   * it (with STREAM_LEFT as the reason) and waits for it to end. `signal` aborts it too
   */
  stream(content: string | ContentBlock[], signal?: AbortSignal): AsyncIterableIterator<StreamItem>;
}

/** Where the agent's output sends each event besides the program's `output`: to the run a stream reads, when one does. */
export interface StreamTap {
  listener: ((event: AgentEvent) => void) | undefined;
}

/** `agent` with `send` and `stream` in one queue: `tap` is the output the agent's events also go to. */
export function withStream(agent: Agent, tap: StreamTap): EmbeddedAgent {
  let last: Promise<unknown> | undefined;
  const enqueue = (content: string | ContentBlock[], signal: AbortSignal, listener?: (event: AgentEvent) => void): Promise<RunResult> => {
    const begin = () => {
      tap.listener = listener;
      return agent.send(content, signal).finally(() => (tap.listener = undefined));
    };
    // when none is going the run starts at once: its message is in `messages` before send returns, as agent.ts promises
    const run = last ? last.then(begin) : begin();
    const settled: Promise<unknown> = run.then(
      () => (last === settled ? (last = undefined) : undefined),
      () => (last === settled ? (last = undefined) : undefined),
    );
    last = settled;
    return run;
  };

  async function* stream(content: string | ContentBlock[], signal?: AbortSignal): AsyncGenerator<StreamItem> {
    const stop = new AbortController();
    const items: StreamItem[] = [];
    let wake: (() => void) | undefined;
    let failed: { error: unknown } | undefined;
    const push = (item: StreamItem) => {
      items.push(item);
      wake?.();
    };
    const run = enqueue(content, signal ? AbortSignal.any([signal, stop.signal]) : stop.signal, push);
    run.then(
      (result) => push({ type: "result", result }),
      (error) => ((failed = { error }), wake?.()),
    );
    let ended = false;
    try {
      for (;;) {
        const item = items.shift();
        if (item) {
          ended = item.type === "result";
          yield item;
          if (ended) return;
          continue;
        }
        if (failed) throw failed.error;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      if (!ended) {
        stop.abort(STREAM_LEFT);
        await run.catch(() => {});
      }
    }
  }

  const embedded = Object.create(agent) as EmbeddedAgent;
  return Object.defineProperties(embedded, {
    send: { value: (content: string | ContentBlock[], signal: AbortSignal) => enqueue(content, signal) },
    stream: { value: stream },
  });
}

// Anthropic's paused turns: stop_reason "pause_turn" says the server stopped a long-running turn
// (its own tool loop: web search, code execution …) before the answer, "You may provide the
// response back as-is in a subsequent request to let the model continue" (the SDK's StopReason;
// platform.claude.com/docs/en/build-with-claude/handling-stop-reasons#pause-turn). Pure apart
// from iterating the streams it is given; no SDK, not even its types (only providers/anthropic.ts
// names the SDK): the fields of the stream events read here are written out.
import { addUsage } from "../kernel/ir.ts";
import type { StreamEvent } from "../kernel/provider.ts";

/** Continuations of one turn at most: a server that pauses on and on still ends, with what it said. */
export const MAX_CONTINUATIONS = 5;

/** The `detail` of a turn still paused after MAX_CONTINUATIONS: what it stopped for, as the loop says it. */
export const pausedTooOften = (times: number) => `"pause_turn" ${times} times (hey stopped asking the server to go on)`;

/** The fields of the SDK's RawMessageStreamEvent that a recording reads. */
export interface WireEvent {
  type: string;
  index?: number;
  message?: { container?: { id: string } | null };
  content_block?: object;
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    citation?: unknown;
    partial_json?: string;
    stop_reason?: string | null;
    container?: { id: string } | null;
  };
}

/** A content block as the API sent it, and takes it back. */
export type WireBlock = Record<string, unknown>;

/** One response as the API takes it back: its content blocks whole, its stop_reason, the container it ran in. */
export interface Recorded {
  blocks: WireBlock[];
  stop?: string;
  container?: string;
}

/**
 * Passes `events` on unchanged, recording into `into` each content block as the API sent it
 * (server-tool blocks too, which the IR leaves out): text, thinking and signature deltas appended,
 * streamed tool input parsed once its block stops.
 */
export async function* recording<E extends WireEvent>(events: AsyncIterable<E>, into: Recorded): AsyncGenerator<E> {
  const json = new Map<number, string>();
  for await (const ev of events) {
    const at = ev.index ?? -1;
    const b = into.blocks[at];
    const d = ev.delta;
    if (ev.type === "message_start") into.container = ev.message?.container?.id ?? into.container;
    else if (ev.type === "content_block_start" && ev.content_block) into.blocks[at] = { ...ev.content_block };
    else if (ev.type === "content_block_delta" && b && d) {
      if (d.type === "text_delta") b.text = `${b.text ?? ""}${d.text ?? ""}`;
      else if (d.type === "thinking_delta") b.thinking = `${b.thinking ?? ""}${d.thinking ?? ""}`;
      else if (d.type === "signature_delta") b.signature = `${b.signature ?? ""}${d.signature ?? ""}`;
      else if (d.type === "citations_delta") b.citations = [...((b.citations as unknown[] | null) ?? []), d.citation];
      else if (d.type === "input_json_delta") json.set(at, (json.get(at) ?? "") + (d.partial_json ?? ""));
    } else if (ev.type === "content_block_stop" && b && json.has(at)) {
      try {
        b.input = JSON.parse(json.get(at) || "{}");
      } catch {} // left as its start event gave it
    } else if (ev.type === "message_delta") {
      into.stop = d?.stop_reason ?? into.stop;
      into.container = d?.container?.id ?? into.container;
    }
    yield ev;
  }
}

/** What a continuation sends after the request's messages: the paused content, and the container to go on in. */
export interface Paused {
  content: WireBlock[];
  container?: string;
}

/**
 * One turn that the server may pause. `send` streams one request — with `paused.content` as its
 * last assistant turn when there is some — recording its response into the Recorded it is given.
 * A response that stopped with "pause_turn" is sent back as it came, up to MAX_CONTINUATIONS
 * times. Deltas and tool calls pass on as they come; one `done` ends it: every response's parts in
 * order, their usage summed (each request is billed), the last one's stop. A turn still paused
 * after the last continuation ends with stop "other" and a detail that says so (pausedTooOften).
 */
export async function* continuingPaused(send: (paused: Paused, into: Recorded) => AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  const paused: Paused = { content: [] };
  let merged: Extract<StreamEvent, { type: "done" }> | undefined;
  for (let continued = 0; ; continued++) {
    const into: Recorded = { blocks: [] };
    let done: Extract<StreamEvent, { type: "done" }> | undefined;
    for await (const ev of send(paused, into)) {
      if (ev.type === "done") done = ev;
      // a continuation's early counts with the earlier responses': each was billed, should this one break
      else if (ev.type === "usage" && merged && !ev.usage.estimated) yield { ...ev, usage: addUsage(merged.usage, ev.usage) };
      else yield ev;
    }
    if (!done) return;
    merged = merged ? joined(merged, done) : done;
    if (into.stop !== "pause_turn") return yield merged;
    if (continued === MAX_CONTINUATIONS) {
      // the loop says the model stopped for it (and that the answer may be incomplete), keeps what came, runs no call
      return yield { ...merged, detail: pausedTooOften(continued + 1) };
    }
    // the API rejects whitespace-only text blocks, its own included ("text content blocks must contain non-whitespace text")
    paused.content.push(...into.blocks.filter((b) => b && !(b.type === "text" && String(b.text ?? "").trim() === "")));
    if (into.container) paused.container = into.container;
  }
}

/**
 * Two responses of one turn as one: parts and calls in order, usage summed, the later stop. The
 * first request's input stays the turn's requestInput: a continuation sends the same context again
 * with the paused content after it, so the sum counts the context twice or more (and corrected by
 * it, the estimate would be up to twice too high: a needless compaction).
 */
function joined(a: Extract<StreamEvent, { type: "done" }>, b: Extract<StreamEvent, { type: "done" }>): Extract<StreamEvent, { type: "done" }> {
  const calls = [...(a.message.toolCalls ?? []), ...(b.message.toolCalls ?? [])];
  const message = { ...a.message, content: [...a.message.content, ...b.message.content], ...(calls.length > 0 ? { toolCalls: calls } : {}) };
  return { ...b, message, usage: addUsage(a.usage, b.usage), requestInput: a.requestInput ?? a.usage.input };
}

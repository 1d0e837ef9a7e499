// How a chat-completions stream ended: its finish_reason as a StopReason, its usage in IR terms, and whether the server
// ended the stream itself with `data: [DONE]`. The openai SDK stops at that line and ends its stream
// exactly as when the connection closes without it, so the adapter (openai.ts) reads it off the
// body's bytes as they pass to the SDK. Pure; no SDK, not even its types.
import { unreportedUsage, type StopReason, type Usage } from "../kernel/ir.ts";

/**
 * A finish_reason as a StopReason, in any case; an unknown one is "other", never an error (the loop
 * tells the user its answer may be incomplete). Servers and gateways that are not OpenAI also send
 * the words of the API they front or of their own engine: Anthropic's (`end_turn`, `tool_use`,
 * `max_tokens`), Gemini's (`STOP`), text-generation-inference's (`eos_token`, `stop_sequence`),
 * Mistral's `model_length` (the context filled), Z.ai's `model_context_window_exceeded` (the same)
 * and `sensitive` (its content filter). Failures (DeepSeek's `insufficient_system_resource`) are
 * failed-stop.ts's, read before this.
 */
export function toStop(finish: string): StopReason {
  switch (finish.toLowerCase()) {
    case "stop":
    case "end_turn":
    case "stop_sequence":
    case "eos":
    case "eos_token":
      return "stop";
    case "tool_calls":
    case "function_call":
    case "tool_use":
      return "tool_calls";
    case "length":
    case "max_tokens":
    case "model_length":
    case "model_context_window_exceeded":
      return "length";
    case "content_filter":
    case "sensitive":
      return "refusal";
    default:
      return "other";
  }
}

/**
 * What the user is told beside the stop `stop` that `finish` became, if anything: an unknown reason
 * named (the loop says the model stopped for it); a full context window said as such, where the
 * output limit's advice (raise max_tokens) cannot help.
 */
export function endDetail(finish: string, stop: StopReason): { detail?: string } {
  if (finish.toLowerCase() === "model_context_window_exceeded")
    return { detail: `the conversation filled the model's context window (${finish}): /compact it (hey -c /compact) or start a new one` };
  return stop === "other" ? { detail: `"${finish}"` } : {};
}

/** The marker line, as the SDK takes it (one optional space after the colon). */
const DONE_LINE = /^data: ?\[DONE\]$/;
/** A line longer than this is no marker: only its start is kept while it streams. */
const LINE_KEPT = 32;

/** Remembers, for the responses a fetch returns, whether their body carried `data: [DONE]`. */
export interface DoneMarkers {
  /** `base`, whose streamed bodies are watched for the marker as the reader takes them */
  watch(base: typeof fetch): typeof fetch;
  /** whether the body of `response` (as `watch`'s fetch returned it) has passed a `data: [DONE]` line */
  ended(response: Response): boolean;
}

export function doneMarkers(): DoneMarkers {
  const seen = new WeakMap<Response, { done: boolean }>();
  return {
    watch(base) {
      const watched = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
        const response = await base(input, init);
        if (!response.ok || !response.body) return response;
        const mark = { done: false };
        const out = new Response(response.body.pipeThrough(markerScan(mark)), {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
        seen.set(out, mark);
        return out;
      };
      return Object.assign(watched, { preconnect: base.preconnect }) as typeof fetch;
    },
    ended: (response) => seen.get(response)?.done === true,
  };
}

/** Passes bytes through unchanged, setting `mark.done` once a whole `data: [DONE]` line has gone by. */
function markerScan(mark: { done: boolean }): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let line = "";
  const scan = (text: string, last: boolean) => {
    const lines = (line + text).split(/\r\n|\r|\n/);
    line = lines.pop()!.slice(0, LINE_KEPT);
    if (last) lines.push(line);
    if (lines.some((l) => DONE_LINE.test(l))) mark.done = true;
  };
  return new TransformStream({
    transform(chunk, out) {
      scan(decoder.decode(chunk, { stream: true }), false);
      out.enqueue(chunk);
    },
    flush: () => scan(decoder.decode(), true),
  });
}

/** The usage a chunk carries, as far as hey reads it: OpenAI's fields, DeepSeek's `prompt_cache_hit_tokens`, OpenRouter's `cache_write_tokens`. */
interface ChunkUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_cache_hit_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

/** The stream's usage in IR terms (`input` counts the cached tokens); unreported when the server sent none. */
export function toUsage(u: ChunkUsage | undefined): Usage {
  if (!u) return unreportedUsage(); // no stream_options, or a server that sends none: hey estimates
  return {
    input: u.prompt_tokens ?? 0,
    output: u.completion_tokens ?? 0,
    // DeepSeek also sends prompt_cache_hit_tokens (deepseek/reasoning-tool-call.sse has both).
    cacheRead: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0,
    cacheWrite: u.prompt_tokens_details?.cache_write_tokens ?? 0, // OpenRouter's, for Claude (prompt_tokens counts them)
    reasoning: u.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

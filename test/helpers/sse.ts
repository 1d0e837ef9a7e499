// A tiny builder for hand-made Chat Completions streams: the edge cases no recording has
// (a cut stream, a mid-stream error chunk, a stall).

export interface ChunkParts {
  content?: string;
  /** sent as DeepSeek's `reasoning_content` */
  reasoning?: string;
  toolCall?: { index: number; id?: string; name?: string; arguments?: string };
  finish?: string;
  usage?: Record<string, unknown>;
  /** the choice index; default 0 */
  choice?: number;
}

/** One `chat.completion.chunk`. A chunk with only `usage` has `choices: []`, like OpenAI's. */
export function chatChunk(parts: ChunkParts): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  if (parts.content !== undefined) delta.content = parts.content;
  if (parts.reasoning !== undefined) delta.reasoning_content = parts.reasoning;
  if (parts.toolCall) {
    const { index, id, name, arguments: args } = parts.toolCall;
    const fn: Record<string, string> = {};
    if (name !== undefined) fn.name = name;
    if (args !== undefined) fn.arguments = args;
    delta.tool_calls = [{ index, ...(id !== undefined ? { id, type: "function" } : {}), function: fn }];
  }
  const usageOnly = parts.usage !== undefined && Object.keys(delta).length === 0 && parts.finish === undefined;
  return {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: 0,
    model: "test-model",
    choices: usageOnly ? [] : [{ index: parts.choice ?? 0, delta, finish_reason: parts.finish ?? null }],
    ...(parts.usage !== undefined ? { usage: parts.usage } : {}),
  };
}

/** `data:` events, blank-line separated, ending with `data: [DONE]` unless `done: false`. */
export function sse(chunks: unknown[], opts: { done?: boolean } = {}): string {
  const events = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`);
  if (opts.done !== false) events.push("data: [DONE]\n\n");
  return events.join("");
}

/** The same events as separate strings, for `sseReply` with delays between them. */
export function sseEvents(chunks: unknown[], opts: { done?: boolean } = {}): string[] {
  return sse(chunks, opts).split(/(?<=\n\n)/);
}

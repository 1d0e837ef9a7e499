// How a Gemini stream ends, for the adapter (google.ts): its finishReason as the IR's stop reason,
// its usage metadata as the IR's token counts, and its finishMessage and error chunks, read off the
// wire as the body passes (the SDK drops them). No I/O; the SDK's types are the adapter's, so the
// usage is taken by the fields read.
import { unreportedUsage, type StopReason, type Usage } from "../kernel/ir.ts";

/** The fields of the SDK's GenerateContentResponseUsageMetadata that are counted. */
export interface GeminiUsage {
  promptTokenCount?: number;
  toolUsePromptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

/** The stream's last usage (every chunk repeats it, growing) as the IR counts it: thoughts are output, and reasoning. */
export function toUsage(u: GeminiUsage | undefined): Usage {
  if (!u) return unreportedUsage();
  const thoughts = u.thoughtsTokenCount ?? 0;
  return {
    input: (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0),
    output: (u.candidatesTokenCount ?? 0) + thoughts,
    cacheRead: u.cachedContentTokenCount ?? 0,
    cacheWrite: 0,
    reasoning: thoughts,
  };
}

/**
 * finishReason as a StopReason; any reason not listed here is "other" (the loop names it to the user).
 * UNEXPECTED_TOOL_CALL (a call to a function not declared, or with calling off) is the model's bad
 * call as MALFORMED_FUNCTION_CALL is: nothing ran, and the model is asked to make it again.
 */
export function toStop(finish: string, calledTools: boolean): StopReason {
  switch (finish) {
    case "STOP":
      return calledTools ? "tool_calls" : "stop";
    case "MAX_TOKENS":
      return "length";
    case "MALFORMED_FUNCTION_CALL": // "a function call that is syntactically invalid and can't be parsed" (the SDK's FinishReason)
    case "UNEXPECTED_TOOL_CALL": // "a function call that is semantically invalid" (the same)
      return "malformed_call";
    case "SAFETY":
    case "RECITATION":
    case "PROHIBITED_CONTENT":
    case "BLOCKLIST":
    case "SPII":
      return "refusal";
    default:
      return "other";
  }
}

/**
 * Gemini's finishMessage in one line of the streamed body, if that line is a `data:` event that
 * carries one. The SDK (3.3.0) drops `finishMessage` when it converts a Gemini API candidate, and
 * for a MALFORMED_FUNCTION_CALL it is the call the model must be shown to correct it (it holds
 * "what the model tried to generate", googleapis/python-genai#1789), so the adapter reads it off
 * the wire. Never throws.
 */
export function finishMessageOf(line: string): string | undefined {
  if (!line.startsWith("data:") || !line.includes('"finishMessage"')) return undefined;
  try {
    const event: unknown = JSON.parse(line.slice(5));
    const candidates = (event as { candidates?: unknown }).candidates;
    const message = Array.isArray(candidates) ? (candidates[0] as { finishMessage?: unknown } | undefined)?.finishMessage : undefined;
    return typeof message === "string" && message !== "" ? message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The event in one line of the streamed body when it is a `data:` event holding an `error`: the SDK
 * (3.3.0) throws only on one whose `error.code` is a number from 400 to 599, and passes any other
 * (`{"error": {"message": …}}`, `{"error": "…"}`: gateways, a whole 200 body holding an error) on
 * as an empty chunk, its words dropped. Never throws.
 */
export function errorChunkOf(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("data:") || !line.includes('"error"')) return undefined;
  try {
    const event: unknown = JSON.parse(line.slice(5));
    const error = (event as { error?: unknown } | null)?.error;
    return error === undefined || error === null || Array.isArray(event) ? undefined : (event as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

/** What wireTap notes of a streamed body. */
export interface WireSeen {
  finishMessage?: string;
  /** the first error chunk (errorChunkOf) */
  errorChunk?: Record<string, unknown>;
}

/** Passes the body on unchanged, noting the finishMessage and the error chunk of any whole `data:` line into `seen` (before the SDK parses that line). */
export function wireTap(seen: WireSeen): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let rest = "";
  return new TransformStream({
    transform(bytes, out) {
      out.enqueue(bytes);
      const text = decoder.decode(bytes, { stream: true });
      const end = text.lastIndexOf("\n"); // only whole lines are read: a long line is joined once, not re-split per chunk
      if (end < 0) rest += text;
      else {
        for (const line of (rest + text.slice(0, end)).split(/\r?\n/)) {
          seen.finishMessage = finishMessageOf(line) ?? seen.finishMessage;
          seen.errorChunk ??= errorChunkOf(line);
        }
        rest = text.slice(end + 1);
      }
    },
  });
}

// A whole GenerateContentResponse where a stream was asked for (a gateway that drops `alt=sse`):
// the same object each event of the stream carries, or, as streamGenerateContent answers without
// `alt=sse`, a JSON array of them. Pure; the wire's words stay in the Gemini adapter's files.
import { asObject } from "./common.ts";

/** `body` as the events that carry the same chunks; undefined when it holds no GenerateContentResponse. Pure. */
export function generateAnswerAsEvents(body: unknown): string | undefined {
  const chunks = Array.isArray(body) ? body.map(asObject) : [asObject(body)];
  const isChunk = (c: Record<string, unknown> | undefined) => c !== undefined && (Array.isArray(c.candidates) || asObject(c.promptFeedback) || c.error);
  if (chunks.length === 0 || !chunks.every(isChunk)) return undefined;
  return chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("");
}

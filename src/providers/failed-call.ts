// A tool call the server could not parse, reported as a failed request instead of as the answer's
// end: Groq's 400 `tool_use_failed` (or the same error as a streamed `event: error`), with the
// model's words in `failed_generation` (console.groq.com/docs/tool-use; opencode#1018, pipecat#1168:
// intermittent, a new sample usually calls well); Ollama's "error parsing tool call" (a 500);
// llama-server's 500 "Failed to parse input at pos N: <the model's output>". Each is the model's
// slip, like Gemini's MALFORMED_FUNCTION_CALL, not a bad request: the answer ends as stop
// "malformed_call" and the loop asks the model to make the call again, bounded as for Gemini
// (kernel/loop.ts MALFORMED_STOP_AT). Pure.
import { newId, unreportedUsage, type ContentBlock } from "../kernel/ir.ts";
import { ProviderError, type StreamEvent } from "../kernel/provider.ts";

/** How much of the model's failed output the detail keeps: enough to see the slip, not a whole file it tried to write. */
const GENERATION_CHARS = 600;

/** Ollama's and llama-server's words for a call they could not parse out of the model's output. */
const UNPARSED_CALL = /\berror parsing tool call\b|\bfailed to parse input at pos \d+/i;

/**
 * What the server said of a tool call of the model's it could not parse, from its error object
 * `body` and its words `said`; undefined for any other failure. Not a history the server refused
 * ("Failed to parse tool call arguments as JSON" of a call hey sent back): that is hey's request.
 */
export function failedCallOf(body: Record<string, unknown>, said: string): string | undefined {
  if (body.code === "tool_use_failed") {
    const generation = typeof body.failed_generation === "string" ? body.failed_generation.trim() : "";
    const shown = generation.length > GENERATION_CHARS ? `${generation.slice(0, GENERATION_CHARS)}…` : generation;
    return shown ? `tool_use_failed, failed_generation: ${shown}` : "tool_use_failed";
  }
  return UNPARSED_CALL.test(said) ? said : undefined;
}

/**
 * `events`, where a failure that is a tool call the server could not parse (ProviderError.failedCall)
 * ends the answer as stop "malformed_call" instead: its text and thinking so far kept, its usage
 * unknown (estimated by whoever holds the estimator). Any other failure is thrown as it came.
 */
export async function* withFailedCalls(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  let [text, thinking] = ["", ""];
  try {
    for await (const event of events) {
      if (event.type === "text") text += event.delta;
      if (event.type === "thinking") thinking += event.delta;
      yield event;
    }
  } catch (e) {
    if (!(e instanceof ProviderError) || e.failedCall === undefined) throw e;
    const content: ContentBlock[] = [];
    if (thinking) content.push({ type: "thinking", text: thinking });
    if (text) content.push({ type: "text", text });
    yield {
      type: "done",
      message: { id: newId(), role: "assistant", content },
      usage: e.usage ?? unreportedUsage(),
      stop: "malformed_call",
      detail: e.failedCall,
    };
  }
}

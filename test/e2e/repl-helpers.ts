// Scripted model replies for the REPL tests: answers streamed word by word, tool calls.
import { sseReply, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";

const USAGE = chatChunk({ usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });

/** An answer streamed a word at a time, `delayMs` apart. */
export function answer(text: string, delayMs = 0): Reply {
  const words = text.split(/(?<=\s)/).map((w) => chatChunk({ content: w }));
  return sseReply(sseEvents([...words, chatChunk({ finish: "stop" }), USAGE]), { delayMs });
}

let callCount = 0; // call ids stay unique across a conversation

/** One turn that calls tools (with optional text before), each call `[name, args]`. */
export function toolCalls(calls: [string, Record<string, unknown>][], said = ""): Reply {
  const chunks = [
    ...(said ? [chatChunk({ content: said })] : []),
    ...calls.map(([name, args], index) => chatChunk({ toolCall: { index, id: `call_${++callCount}_${name}`, name, arguments: JSON.stringify(args) } })),
    chatChunk({ finish: "tool_calls" }),
    USAGE,
  ];
  return sseReply(sseEvents(chunks));
}

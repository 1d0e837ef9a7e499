// The tool calls a model wrote into its answer's text (text-tool-calls.ts), run as the calls its
// server should have sent, where that is the server's failure to parse them: a chat-completions
// server that is no vendor's own API (openai.ts passes its stream through here when its
// `textCalls` option says so). Elsewhere a call in the text is text the model quotes (a file, a
// web page), never run. The session keeps them as real calls, so later requests send them in the
// protocol's own form.
import { newId, type ContentBlock, type ToolCall, type ToolSpec } from "../kernel/ir.ts";
import type { ModelRequest, StreamEvent } from "../kernel/provider.ts";
import {
  blockEnd,
  CALL_OPENERS,
  callSpans,
  openerAt,
  proseAround,
  textToolCalls,
  type CallFormat,
  type CallTemplate,
  type TextCalls,
} from "./text-tool-calls.ts";

/** The start of the notice that says a server sent tool calls as text (hey doctor looks for it). */
export const CALLS_AS_TEXT = "the server sent the model's tool calls as text";

const LONGEST_OPENER = Math.max(...CALL_OPENERS.map((o) => o.length));

/**
 * How far from its opener a block still open is taken as a call's start (`<tool_call>{"name": …`):
 * what follows an opener shows within a few characters whether it is prose naming the syntax (then
 * shown as it streams). Past this the block is held whole to the answer's end, unread until then:
 * reading it again on every delta made a long call (write_file of 200 KB) quadratic.
 */
const BLOCK_STARTED = 64;

/** What one endpoint has shown so far, kept by its provider across its requests. */
export interface EndpointSeen {
  /** it sent a tool call of its own: it parses calls, and one in its text is quoted text */
  native: boolean;
  /** the user heard that it sends tool calls as text */
  told: boolean;
}

/**
 * The events of `request` to an endpoint that may leave calls in the text, read by withTextCalls
 * while a call there can be its failure to parse one: tools are offered and may be called, and the
 * endpoint has sent no tool call of its own yet (`seen`). Else `events` as they are.
 */
export function textCallsOf(events: AsyncIterable<StreamEvent>, request: ModelRequest, seen: EndpointSeen): AsyncIterable<StreamEvent> {
  const callable = request.tools.length > 0 && request.toolChoice !== "none";
  // a call of the conversation not read from text (TEXT_CALL_ID) came as a call: from this endpoint in an earlier run
  // (`hey -c`), or from another model before `/model` — a conversation with native calls is read as text no more
  if (!seen.native && request.messages.some((m) => m.toolCalls?.some((c) => !c.id.startsWith(TEXT_CALL_ID)))) seen.native = true;
  return callable && !seen.native ? withTextCalls(events, request.tools, seen) : events;
}

/** How the ids of calls read from an answer's text start: what tells them from calls that came as calls, in a resumed session too. */
export const TEXT_CALL_ID = "call_text_";

/**
 * `events`, where an answer with no tool calls of its own whose text ends with calls written in a
 * chat template's syntax (callSpans) becomes an answer with those calls (stop "tool_calls"), its text the prose
 * around them; calls that cannot run (a tool not offered, arguments no JSON object) end it as
 * "malformed_call", so the model is told nothing ran. While the answer streams, its text from a
 * call opener on is held back while it may still be a call block (blockEnd), and from a block on to
 * the end: shown whole when it held no calls, its prose alone when it did; held text is shown
 * before a failure is thrown, so a cut answer keeps it. An answer
 * with calls of its own sets `seen.native`. The first time (`seen.told`) the user hears, as a
 * notice, that the server is not parsing tool calls and how to make it. Throws what `events` throws.
 */
export async function* withTextCalls(events: AsyncIterable<StreamEvent>, tools: readonly ToolSpec[], seen: EndpointSeen): AsyncGenerator<StreamEvent> {
  let text = "";
  let shown = 0;
  let held = false; // a call block started: the rest is held to the end unread, so a long call streams in linear time
  try {
    for await (const event of events) {
      if (event.type === "text") {
        text += event.delta;
        if (held) continue;
        // from the first opener on whose text may still be calls; prose naming the syntax is shown as it comes
        let at = openerAt(text, Math.max(0, shown - LONGEST_OPENER));
        let end = at === -1 ? undefined : blockEnd(text, at, false);
        while (at !== -1 && end === undefined) {
          at = openerAt(text, at + 1);
          end = at === -1 ? undefined : blockEnd(text, at, false);
        }
        held = end !== undefined && (end !== "open" || text.length - at > BLOCK_STARTED);
        const upTo = at !== -1 ? at : text.length - openerStartAtEnd(text);
        if (upTo > shown) yield { type: "text", delta: text.slice(shown, upTo) };
        shown = Math.max(shown, upTo);
        continue;
      }
      if (event.type !== "done") {
        yield event;
        continue;
      }
      if (event.message.toolCalls?.length) seen.native = true;
      const own = event.message.toolCalls?.length || event.stop === "length" || event.stop === "refusal";
      const found = own || shown === text.length ? undefined : textToolCalls(textPart(event.message.content), tools);
      if (!found) {
        if (shown < text.length) yield { type: "text", delta: text.slice(shown) };
        yield event;
      } else {
        if (!seen.told) yield { type: "notice", message: serverAdvice(found) };
        seen.told = true;
        const whole = textPart(event.message.content);
        const held = proseAround(whole, callSpans(whole), shown); // the prose between and after the calls
        if (held) yield { type: "text", delta: `\n${held}` };
        yield* asCalls(event, found);
      }
      text = "";
      shown = 0;
      held = false;
    }
  } catch (e) {
    if (shown < text.length) yield { type: "text", delta: text.slice(shown) }; // what a cut answer keeps
    throw e;
  }
  if (shown < text.length) yield { type: "text", delta: text.slice(shown) }; // no done: what the caller keeps of a cut answer
}

/** The `done` of an answer whose text held `found`: its calls, or the malformed call the model is told of. */
function* asCalls(done: Extract<StreamEvent, { type: "done" }>, found: TextCalls): Generator<StreamEvent> {
  if (found.problem) {
    // the model cannot call through the API where the server does not parse calls: the fix is the server's
    const detail = `a tool call written as text in the answer (${LABEL[found.template]}): ${found.problem}. No tool was run. The server does not parse tool calls; to fix it, ${serverFix(found.format)}`;
    yield { ...done, stop: "malformed_call", detail };
    return;
  }
  const toolCalls = found.calls.map((c): ToolCall => ({ id: `${TEXT_CALL_ID}${newId()}`, name: c.name, arguments: c.arguments }));
  for (const call of toolCalls) yield { type: "tool_call", call };
  yield { ...done, message: { ...done.message, content: withText(done.message.content, found.before), toolCalls }, stop: "tool_calls" };
}

/** How many characters at the end of `text` may be the start of a call opener still streaming in. */
function openerStartAtEnd(text: string): number {
  for (let k = Math.min(LONGEST_OPENER - 1, text.length); k > 0; k--) {
    const tail = text.slice(-k);
    if (CALL_OPENERS.some((o) => o.startsWith(tail))) return k;
  }
  return 0;
}

const textPart = (content: ContentBlock[]) => content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");

/** `content` with its text replaced by `text` (none when it is empty), where the text was. */
function withText(content: ContentBlock[], text: string): ContentBlock[] {
  const first = content.findIndex((p) => p.type === "text");
  const out: ContentBlock[] = content.filter((p) => p.type !== "text");
  if (text) out.splice(first === -1 ? out.length : first, 0, { type: "text", text });
  return out;
}

const LABEL: Record<CallTemplate, string> = {
  hermes: "<tool_call> blocks",
  function: "<function=…> blocks",
  deepseek: "DeepSeek's tool-call tokens",
  mistral: "[TOOL_CALLS] tokens",
};

/**
 * vLLM's --tool-call-parser for each syntax: hermes reads only JSON inside `<tool_call>`. Llama's
 * `<function=NAME>{…}` has no parser of its own: llama3_json reads the JSON calls vLLM's Llama chat template asks for.
 */
const PARSER: Record<CallFormat, string> = {
  hermes: "hermes",
  "qwen3-coder": "qwen3_coder",
  glm: "glm45",
  llama: "llama3_json --chat-template examples/tool_chat_template_llama3.1_json.jinja",
  "deepseek-v3": "deepseek_v3",
  "deepseek-v3.1": "deepseek_v31",
  mistral: "mistral",
};

const FIX_START = "have the server parse tool calls: ";

/** What makes a server parse tool calls, naming vLLM's parser for `format` (for each syntax when it is not known); hey doctor's fix too. */
export function serverFix(format?: CallFormat): string {
  const parser = format ? PARSER[format] : "NAME (hermes for JSON in <tool_call>, qwen3_coder for Qwen3-Coder's <parameter=…>, glm45 for GLM's <arg_key>)";
  return `${FIX_START}vLLM --enable-auto-tool-choice --tool-call-parser ${parser}, llama.cpp's server --jinja, Ollama a model whose template supports tools`;
}

/** The server's fix a CALLS_AS_TEXT notice names (serverFix), if it names one. */
export function fixIn(notice: string): string | undefined {
  const at = notice.indexOf(FIX_START);
  return at === -1 ? undefined : notice.slice(at);
}

/** What the user is told, once: what the server did, what hey did about it, and the server's fix. */
function serverAdvice(found: TextCalls): string {
  const ran = found.problem ? "hey could not run them (the model is asked to call again)" : "hey ran them as calls";
  return `${CALLS_AS_TEXT} (${LABEL[found.template]} in its answer), not as tool calls; ${ran}. To fix it, ${serverFix(found.format)}`;
}

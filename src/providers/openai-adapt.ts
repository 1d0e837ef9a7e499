// What the next request to a chat-completions endpoint leaves out or changes after the endpoint
// refused one (common.ts adaptingStream): an optional field it does not know, a value it does not
// take, a shape of tool-call id or of reasoning replay it wants. Each change is made for the rest
// of the run, so each is tried once. Pure apart from changing `options`.
import { EFFORT_ONLY_OVER_RESPONSES, effortNotice, effortOverResponsesNotice, learnEffort, NO_EFFORT_NOTICE } from "./effort.ts";
import { REASONING_WANTED, type ReasoningReplay } from "./reasoning-replay.ts";
import { IMAGES_REFUSED } from "./image-words.ts";
import { NO_PDFS_NOTICE, PDFS_REFUSED } from "./documents.ts";
import { NINE_CHAR_REFUSAL } from "./tool-call-ids.ts";

/** The request options a refusal may change (openai.ts RequestOptions, which documents them). */
export interface Adaptable {
  cacheKey?: boolean;
  streamUsage?: boolean;
  sendEffort?: boolean;
  effortFor?: Record<string, string>;
  nineCharIds?: boolean;
  reasoningReplay?: ReasoningReplay;
  signatureFallback?: boolean;
  noImages?: boolean;
  toolImagesAsText?: boolean;
  pdfs?: boolean;
  cacheMarks?: boolean;
  joinUserTurns?: boolean;
}

/**
 * A strict chat template's refusal of two messages of one role in a row: Gemma's, Mistral-Instruct's
 * and Llama 2's on vLLM, TGI or llama-server --jinja raise "Conversation roles must alternate
 * user/assistant/user/assistant/...", which the server returns as a 400.
 */
const ROLES_MUST_ALTERNATE = /roles must alternate/i;

/**
 * How a strict server says it does not know a field: pydantic's "Extra inputs are not permitted"
 * (`extra_forbidden`; Mistral's 422, mistralai/platform-docs-public#7), OpenAI's "Unrecognized
 * request argument", Google's "Unknown name", Groq's "'messages.2' : property 'reasoning_content' is
 * unsupported", Cerebras' "property 'messages.2.assistant.reasoning_content' is unsupported".
 * DeepSeek's demand for reasoning_content says none of these.
 */
const REFUSED_FIELD = /extra_forbidden|extra inputs are not permitted|unrecognized|unknown name|unknown field|is unsupported/i;

/** The fields reasoning goes back in (reasoning-replay.ts), as a refusal names them: `reasoning_effort` is not one. */
const REPLAY_FIELD = /\breasoning(?:_content|_details)?\b/;

/** What the user is told, once, when images go as placeholders from then on (image-words.ts IMAGES_REFUSED). */
export const NO_IMAGES_NOTICE = "this model takes no images: each image of the conversation is sent as a line saying it was left out";

/** What the user is told, once, when a tool result's images go as lines from then on (Mistral: "Unexpected role 'user' after role 'tool'"). */
export const TOOL_IMAGES_NOTICE = "this endpoint takes no message after tool results: an image a tool reads is sent as a line saying the model cannot see it";

/**
 * Changes `options` as the refusal `said` asks; true when it changed something (send again), or what
 * to tell the user of it. `name`: the provider's, for the advice that names its table.
 */
export function adaptToRefusal(options: Adaptable, said: string, name?: string): boolean | string {
  if (options.cacheKey && said.includes("prompt_cache_key")) return !(options.cacheKey = false);
  if (options.cacheMarks && said.includes("cache_control")) return !(options.cacheMarks = false);
  if (options.streamUsage !== false && said.includes("stream_options")) return !(options.streamUsage = false);
  // a level the model does not take, where it lists those it does (OpenAI: "does not support 'none' … Supported values are: …"): its nearest
  const learned = options.effortFor && learnEffort(options.effortFor, said);
  if (learned) return effortNotice(learned);
  // OpenAI's model that takes effort, only not with tools here: sent without it, and the user told where it is taken
  if (options.sendEffort !== false && EFFORT_ONLY_OVER_RESPONSES.test(said)) return (options.sendEffort = false) || effortOverResponsesNotice(name);
  // a model without the dial, or with other values (Groq: "must be one of `none` or `default`"; xAI: "reasoningEffort";
  // Ollama, which makes it its `think`: "think value "medium" is not supported for this model", ollama/ollama#12561,
  // and "… does not support thinking", taketwo/llm-ollama#54)
  if (options.sendEffort !== false && /reasoning_?effort|think value|does not support thinking/i.test(said))
    return (options.sendEffort = false) || NO_EFFORT_NOTICE;
  // a text-only model given an image (@img.png, read_file of one, before /model or -c -m): a placeholder in its place
  if (!options.noImages && IMAGES_REFUSED.test(said)) return (options.noImages = true) && NO_IMAGES_NOTICE;
  // an endpoint that takes no `file` part after all: each PDF goes as a line saying how to read it
  if (options.pdfs && PDFS_REFUSED.test(said)) return (options.pdfs = false) || NO_PDFS_NOTICE;
  // the images of tool results, sent in a user message after them, to a server that takes no user turn there
  if (!options.toolImagesAsText && /unexpected role .?user.? after role .?tool/i.test(said)) return (options.toolImagesAsText = true) && TOOL_IMAGES_NOTICE;
  // a history with user messages in a row (a summary after the first message, an older hey's session kept after a failed turn): joined
  if (!options.joinUserTurns && ROLES_MUST_ALTERNATE.test(said)) return (options.joinUserTurns = true);
  // Gemini 3 given tool calls it did not make (/model, -c): Google's stand-in signature
  // ("… is missing a `thought_signature`", openai/codex#7519, openai-agents-python#2137)
  if (!options.signatureFallback && /missing a `?thought_signature/i.test(said)) return (options.signatureFallback = true);
  // a Mistral model under another name, or behind a gateway: another model's ids in the history
  if (!options.nineCharIds && NINE_CHAR_REFUSAL.test(said)) return (options.nineCharIds = true);
  // an endpoint that refuses the field (Mistral's 422 "Extra inputs are not permitted", loc …"reasoning_content"; Groq, Cerebras)
  if (options.reasoningReplay !== "none" && REPLAY_FIELD.test(said) && REFUSED_FIELD.test(said)) return Boolean((options.reasoningReplay = "none"));
  // an endpoint that wants the field on every tool-call turn, in DeepSeek's words (a DeepSeek model under another name): one
  // without this model's reasoning (another model's turn) goes with it empty
  if (options.reasoningReplay === "sent" && REASONING_WANTED.test(said)) return Boolean((options.reasoningReplay = "all"));
  return false;
}

/** A chat message as joinedUserTurns reads it: the SDK's type stays in openai.ts. */
interface WireMessage {
  role: string;
  content?: unknown;
}

/**
 * `messages` with each run of user messages in a row joined into one (Adaptable.joinUserTurns): their
 * texts a blank line apart, their parts (images, files) kept in order. The run's first message object
 * takes the others' content, so a cache mark on it stays; no other message changes.
 */
export function joinedUserTurns<M extends WireMessage>(messages: M[]): M[] {
  const out: M[] = [];
  for (const m of messages) {
    const last = out.at(-1);
    if (m.role !== "user" || last?.role !== "user") out.push(m);
    else if (typeof last.content === "string" && typeof m.content === "string") out[out.length - 1] = { ...last, content: `${last.content}\n\n${m.content}` };
    else out[out.length - 1] = { ...last, content: [...asParts(last.content), ...asParts(m.content)] };
  }
  return out;
}

const asParts = (content: unknown): unknown[] => (Array.isArray(content) ? content : [{ type: "text", text: typeof content === "string" ? content : "" }]);

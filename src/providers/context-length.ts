// Context-length errors in the words of every server hey talks to (issue 23): a request larger
// than the model's window is answered 400 (sometimes 413, or an error chunk mid-stream) with a
// message that often states the window and the request's size. Matching the text is the
// documented last resort here: no protocol has a field for it, only some servers a code
// (OpenAI's `context_length_exceeded`, llama.cpp's `exceed_context_size_error`). Pure.
import type { ContextOverflow } from "../kernel/provider.ts";

const n = (s: string | undefined) => (s === undefined ? undefined : Number(s));
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !Number.isNaN(v))) as T;

/** Each server's wording, with what its numbers mean. */
const STATED: [RegExp, (m: RegExpExecArray) => ContextOverflow][] = [
  // vLLM ≥ 0.9: "This model's maximum context length is 8192 tokens and your request has 5000 input tokens"
  [/maximum context length is (\d+) tokens? and your request has (\d+) input tokens?/i, (m) => ({ window: n(m[1])!, prompt: n(m[2]) })],
  // OpenRouter (its own count; the output share is the model's whole output limit when no max_tokens was sent,
  // Aider-AI/aider#3721, OpenHands/OpenHands#9937): "This endpoint's maximum context length is 131072 tokens.
  // However, you requested about 141607 tokens (10535 of text input, 131072 in the output)." — with "N of image
  // input" / "N of tool input" beside the text's when the request has them
  [
    /maximum context length is (\d+) tokens?\.?[^(]*?\(((?:\d+ of [a-z ]*?input, )+)(\d+) in the output\)/i,
    (m) => ({ window: n(m[1])!, prompt: [...m[2]!.matchAll(/(\d+) of/g)].reduce((sum, k) => sum + Number(k[1]), 0), completion: n(m[3]) }),
  ],
  // OpenAI, DeepSeek, vLLM, OpenRouter, Groq: "This model's maximum context length is 16385 tokens. However,
  // your messages resulted in 17000 tokens (16500 in the messages, 500 in the functions)." / "you requested
  // 33000 tokens (29000 in the messages, 4000 in the completion)."
  [
    /maximum context length is (\d+) tokens?\.?(?:[^(]*?(?:resulted in|requested(?: about)?) (\d+) tokens?)?(?:\s*\((\d+) in the messages?(?:, (\d+) in the functions?)?(?:, (\d+) in the completion)?\))?/i,
    (m) => ({ window: n(m[1])!, prompt: m[3] ? n(m[3])! + (n(m[4]) ?? 0) : m[5] ? undefined : n(m[2]), completion: n(m[5]) }),
  ],
  // vLLM: "The decoder prompt (length 40000) is longer than the maximum model length of 32768."
  [/prompt \(length (\d+)\) is longer than the maximum model length of (\d+)/i, (m) => ({ window: n(m[2])!, prompt: n(m[1]) })],
  // Anthropic: "prompt is too long: 208310 tokens > 200000 maximum"
  [/prompt is too long: (\d+) tokens? > (\d+) maximum/i, (m) => ({ window: n(m[2])!, prompt: n(m[1]) })],
  // Anthropic: "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000"
  [/exceed context limit: (\d+) \+ (\d+) > (\d+)/i, (m) => ({ window: n(m[3])!, prompt: n(m[1]), completion: n(m[2]) })],
  // Gemini: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."
  [/input token count \(?(\d+)\)? exceeds the maximum number of tokens allowed \(?(\d+)\)?/i, (m) => ({ window: n(m[2])!, prompt: n(m[1]) })],
  // Mistral: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
  [/prompt contains (\d+) tokens.*?too large for model with (\d+) maximum context length/i, (m) => ({ window: n(m[2])!, prompt: n(m[1]) })],
  // Hugging Face TGI: "`inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 1000 `max_new_tokens`"
  [/must be <= (\d+)\. Given: (\d+) `inputs` tokens and (\d+) `max_new_tokens`/i, (m) => ({ window: n(m[1])!, prompt: n(m[2]), completion: n(m[3]) })],
  // LM Studio: "… However, the model is loaded with context length of only 2048 tokens, which is not enough."
  // (dyad-sh/dyad#925, lmstudio-ai/lmstudio-bug-tracker#546; "with a context length of only 4096" in
  // n4ze3m/page-assist#356; without "only" in older ones)
  [/loaded with (?:a )?context length of (?:only )?(\d+) tokens/i, (m) => ({ window: n(m[1])! })],
];

/** Wordings that state no numbers (or none hey can use): the request must still shrink. */
const UNSTATED =
  /context_length_exceeded|exceed_context_size_error|exceeds? the (?:available )?context (?:size|window|length)|prompt too long; exceeded (?:max )?context length|input is too long for (?:the )?requested model|context window exceeded|maximum context length|too many tokens in the (?:prompt|input)|reduce the length of the messages/i;

/**
 * What a failed request's words say about the model's window, when they are a context-length
 * error: the window and the prompt's real token count (and the answer's share, when the server
 * counts it in), each when stated; `{}` when the server only says the request is too long.
 * `body` is the error object, for servers that put the numbers beside the message (llama.cpp's
 * `n_ctx` and `n_prompt_tokens`). Undefined for any other error.
 */
export function contextOverflow(said: string, body?: Record<string, unknown>): ContextOverflow | undefined {
  const ceiling = requestCeiling(said);
  if (ceiling) return ceiling;
  for (const [re, read] of STATED) {
    const m = re.exec(said);
    if (m) return defined(read(m));
  }
  const ctx = typeof body?.n_ctx === "number" ? body.n_ctx : undefined;
  const prompt = typeof body?.n_prompt_tokens === "number" ? body.n_prompt_tokens : undefined;
  if (body?.type === "exceed_context_size_error" || body?.code === "context_length_exceeded" || UNSTATED.test(said)) return defined({ window: ctx, prompt });
  return undefined;
}

/**
 * A per-minute (or per-day) token limit that one request alone exceeds, as Groq and OpenAI word it:
 * Groq's 413 "Request too large for model `llama-3.1-8b-instant` in organization `org_x` service
 * tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 6294, please reduce your
 * message size and try again" (continuedev/continue#10218, elizaOS/eliza#4040), OpenAI's 429
 * "Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000,
 * Requested 45000". No wait lets such a request through: the limit is a ceiling on each request.
 * A rate that several requests reached ("Rate limit reached … Limit 6000, Used 5000, Requested
 * 1500. Please try again in 5s") asks less than the limit: undefined, it is waited for. `prompt`
 * is what was requested, the request's max_tokens included when it sent one (Groq counts it:
 * ai_automation_suggester#61, koassistant.koplugin#106): context/window.ts answerShare splits it.
 */
function requestCeiling(said: string): ContextOverflow | undefined {
  const m = /\bon (tokens per (?:min(?:ute)?|day|hour))(?: \((\w+)\))?: Limit (\d+), (?:Used \d+, )?Requested (\d+)/i.exec(said);
  if (!m || Number(m[4]) <= Number(m[3])) return undefined;
  const unit = m[1]!.replace(/\bmin$/i, "minute");
  return { window: Number(m[3]), prompt: Number(m[4]), ceiling: m[2] ? `${unit} (${m[2]})` : unit };
}

/** How a request over a ceiling (requestCeiling) is said, before the server's words. */
export function ceilingWords(o: ContextOverflow): string {
  return `the request is larger than the endpoint takes in one request (its ${o.ceiling} limit, ${(o.window ?? 0).toLocaleString("en-US")} tokens)`;
}

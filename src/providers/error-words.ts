// The words of an error body, whatever shape the server gave them. OpenAI-compatible servers agree
// on the status codes but not on the body: the `openai` SDK keeps whatever JSON came as the
// error's `error` (a body without an `error` key as the whole body; one whose `error` is only the
// status's name is handed to it nested, so it keeps that whole too: whole-error-body.ts), and its
// own message for it is that JSON again, quotes and braces included. Pure.

/** How deep a body is searched for words: the deepest real shape is an array of objects holding an object. */
const MAX_DEPTH = 4;

/**
 * The message of an error body, one value of it at a time:
 * - a string is the message (`{"error": "…"}`: LM Studio, Ollama, Hugging Face TGI);
 * - an object's `error`, `message`, `detail` or `errors`, the first that holds words
 *   (`{"error": {"message": "…"}}`: OpenAI, llama.cpp; `{"message": "…"}`: Mistral, vLLM;
 *   `{"detail": "…"}`: any FastAPI server's own errors; `{"errors": [{"message": "…"}]}`: Cloudflare);
 *   a string `error` comes last, being only the status's name when a `message` is beside it
 *   (`{"statusCode": 400, "error": "Bad Request", "message": "…"}`: Fastify and NestJS servers);
 * - FastAPI's validation errors `{"loc": ["body", "messages"], "msg": "Field required"}` as
 *   "body.messages: Field required";
 * - OpenAI's `{"message": "Invalid value: 'max'. …", "param": "reasoning_effort"}` as
 *   "reasoning_effort: Invalid value: 'max'. …" when the words do not name the param;
 * - an array as the words of its items, the distinct ones joined by "; ".
 * A string that is itself a JSON error body (a gateway passing on its upstream's) is read for its
 * message. Undefined when no value holds words (`{}`, `""`, `{"error": {"code": 500}}`).
 */
export function errorWords(value: unknown, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof value === "string") {
    const text = value.trim();
    if (/^[[{]/.test(text)) {
      const inner = parsed(text);
      if (inner !== undefined) return errorWords(inner, depth + 1);
    }
    return text || undefined;
  }
  if (Array.isArray(value)) {
    const all = value.map((v) => errorWords(v, depth + 1)).filter((w): w is string => w !== undefined);
    return all.length > 0 ? [...new Set(all)].join("; ") : undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.msg === "string" && o.msg) return Array.isArray(o.loc) && o.loc.length > 0 ? `${o.loc.join(".")}: ${o.msg}` : o.msg;
  // OpenAI's `param` names the field its words do not always name ("Invalid value: 'max'. Supported values are: …")
  if (typeof o.param === "string" && o.param && typeof o.message === "string" && o.message.trim() && !o.message.includes(o.param))
    return `${o.param}: ${o.message.trim()}`;
  // a string `error` beside a `message` is only the status's name (Fastify, NestJS: "Bad Request")
  const keys = typeof o.error === "string" ? ["message", "detail", "errors", "error"] : ["error", "message", "detail", "errors"];
  for (const key of keys) {
    const words = errorWords(o[key], depth + 1);
    if (words !== undefined) return words;
  }
  return undefined;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// A chat-completions delta's `content` as the servers send it: a string (OpenAI and nearly every
// compatible server), or Mistral's list of typed chunks, which its reasoning models (Magistral,
// Mistral Small 4 with reasoning_effort) stream — `{"type": "thinking", "thinking": [{"type":
// "text", "text": "…"}]}` for the reasoning, `{"type": "text", "text": "…"}` for the answer
// (braintrustdata/braintrust-sdk-javascript#1857, prism-php/prism#862). Pure.

/** The answer text and the reasoning text of one delta's `content`; "" for what it lacks. */
export function deltaContent(content: unknown): { text: string; thinking: string } {
  if (typeof content === "string") return { text: content, thinking: "" };
  if (!Array.isArray(content)) return { text: "", thinking: "" };
  let text = "";
  let thinking = "";
  for (const part of content) {
    if (typeof part === "string") text += part;
    else if (part?.type === "text" && typeof part.text === "string") text += part.text;
    else if (part?.type === "thinking") thinking += textOf(part.thinking);
  }
  return { text, thinking };
}

/** A thinking chunk's words: a string, or a list of text chunks (references and others carry none). */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value.map((c) => (typeof c === "string" ? c : c?.type === "text" && typeof c.text === "string" ? c.text : "")).join("");
}

// "Did you mean …?" for a name that is not known: a key of a config file, a provider, a protocol. Pure.
import { PROTOCOLS, type Protocol } from "../kernel/ir.ts";
import { editDistance } from "../kernel/spelling.ts";

/**
 * The known name `name` is probably a misspelling of: the closest one at most two edits away (one
 * for names of three letters or fewer, where two edits make anything look alike), else one that
 * starts with `name` (`startup_wait` for `startup_wait_ms`); undefined when none is.
 */
export function closest(name: string, known: readonly string[]): string | undefined {
  const limit = name.length <= 3 ? 1 : 2;
  let best: [string, number] | undefined;
  for (const k of known) {
    const d = editDistance(name, k);
    if (d <= limit && k !== name && (!best || d < best[1])) best = [k, d];
  }
  return best?.[0] ?? (name.length >= 4 ? known.find((k) => k.length > name.length && k.toLowerCase().startsWith(name.toLowerCase())) : undefined);
}

/** `; did you mean X?` after a message about `name`, or "" when no known name is close. */
export const didYouMean = (name: string, known: readonly string[]): string => {
  const close = closest(name, known);
  return close ? `; did you mean ${close}?` : "";
};

/** What users call each protocol by: the vendor, the API, another agent's word for it. */
const PROTOCOL_WORDS: Record<string, Protocol> = {
  gemini: "google",
  vertex: "google",
  vertexai: "google",
  claude: "anthropic",
  messages: "anthropic",
  chat: "openai",
  completions: "openai",
  "chat-completions": "openai",
  chat_completions: "openai",
  "openai-compatible": "openai",
  response: "responses",
  "openai-responses": "responses",
};

/** `; did you mean google?` after a refused protocol name (`gemini`, `claude`, `antropic`), or "". */
export function protocolHint(name: unknown): string {
  if (typeof name !== "string") return "";
  const meant = PROTOCOL_WORDS[name.toLowerCase()] ?? closest(name, PROTOCOLS);
  return meant ? `; did you mean ${meant}?` : "";
}

/** What users call each built-in provider by: the vendor's product, its models' family. */
const PROVIDER_WORDS: Record<string, string> = {
  gemini: "google",
  "google-ai": "google",
  googleai: "google",
  "ai-studio": "google",
  claude: "anthropic",
  gpt: "openai",
  chatgpt: "openai",
  codex: "openai",
};

/** The built-in provider a user means by `name` (`gemini`: google, `claude`: anthropic, `gpt`: openai), or undefined. */
export const providerWord = (name: string): string | undefined => PROVIDER_WORDS[name.toLowerCase()];

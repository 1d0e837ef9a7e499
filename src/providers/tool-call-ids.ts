// Tool-call ids for chat-completions endpoints that take only ids of their own shape. Mistral
// takes exactly 9 characters [a-zA-Z0-9] and answers any other id with a 400 "Tool call id was
// call_abc123 but must be a-z, A-Z, 0-9, with a length of 9." (jackmpcollins/magentic#276,
// langchain-ai/langchain#24668; through OpenRouter the same words arrive in error.metadata.raw,
// openclaw/openclaw#57672); Mistral's v3 chat templates, served locally, enforce the same rule
// (ml-explore/mlx-lm#1399). A session begun on another model (OpenAI's `call_…` ids, Anthropic's
// `toolu_…`) and continued there by /model or -c would otherwise never get an answer. Pure.
import { newId } from "../kernel/ir.ts";

/**
 * The id a model's call goes by: its own, or one of hey's when it sent none (`""` or absent: free
 * and local endpoints do, on every protocol). Every adapter names its calls with this, so a call
 * and its result always pair by a real id, in the session and in every later request.
 */
export const callIdOf = (id: string | null | undefined): string => id || `call_${newId()}`;

/** Mistral's refusal of an id, in its own words. */
export const NINE_CHAR_REFUSAL = /tool call id was .*must be a-z, A-Z, 0-9, with a length of 9/i;

/** Models of Mistral's families, wherever they are served: their ids are mapped before the first request. */
const MISTRAL_MODEL = /mistral|mixtral|codestral|devstral|magistral|ministral|pixtral|voxtral/i;

/** Whether the endpoint at `host` serving `model` is sent 9-character ids from the first request on. */
export const wantsNineCharIds = (host: string, model: string): boolean => host === "api.mistral.ai" || MISTRAL_MODEL.test(model);

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const NINE = /^[A-Za-z0-9]{9}$/;

/**
 * `id` as 9 characters [a-zA-Z0-9]: unchanged when it already is (the model's own ids, so its
 * current turn and the cached prefix stay as they were), else drawn from its SHA-256 —
 * deterministic, so a call and its result get the same id in every request, and two ids of one
 * conversation collide with odds of about one in 10^16.
 */
export function nineCharId(id: string): string {
  if (NINE.test(id)) return id;
  // node:crypto only now: loaded with the adapter, it made every run's first request ~0.5 ms later
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  const digest = createHash("sha256").update(id).digest();
  let out = "";
  for (let i = 0; i < 9; i++) out += ALPHABET[digest[i]! % ALPHABET.length];
  return out;
}

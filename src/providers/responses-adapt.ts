// What the next request to a Responses endpoint leaves out or changes after the endpoint refused
// one (common.ts adaptingStream): a field it does not take, an effort level the model does not,
// reasoning summaries the organization may not have.
// Each change is made for the rest of the run, so each is tried once. Pure apart from changing
// `options`. (The reasoning items it could not verify are responses.ts unverifiedItems: they are
// the request's own.)
import { effortNotice, learnEffort, NO_EFFORT_NOTICE, REASONING_REFUSED } from "./effort.ts";

/** The request options a refusal may change (responses.ts RequestOptions, which documents them). */
export interface ResponsesAdaptable {
  cacheKey?: boolean;
  effortFor?: Record<string, string>;
  noReasoning?: boolean;
  noSummary?: boolean;
}

/**
 * OpenAI's 400 to `reasoning.summary` from an organization it has not verified (`param`
 * "reasoning.summary", `code` "unsupported_value"): "Your organization must be verified to
 * generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general
 * and click on Verify Organization. …", as OpenAI answers it.
 */
const SUMMARY_REFUSED = /reasoning summar|reasoning\.summary/i;

/** What the user is told, once, when the summaries are left out. */
export const NO_SUMMARY_NOTICE =
  "this OpenAI organization is not verified for reasoning summaries: the model still thinks, but its thinking is not shown — verify the organization (platform.openai.com/settings/organization/general) to see it";

/** Changes `options` as the refusal `said` asks; true when it changed something (send again), or what to tell the user of it. */
export function adaptToResponsesRefusal(options: ResponsesAdaptable, said: string): boolean | string {
  if (options.cacheKey === true && said.includes("prompt_cache_key")) return !(options.cacheKey = false);
  if (!options.noSummary && SUMMARY_REFUSED.test(said)) return (options.noSummary = true) && NO_SUMMARY_NOTICE;
  const learned = options.effortFor && learnEffort(options.effortFor, said);
  if (learned) return effortNotice(learned);
  // a model without reasoning (gpt-4.1) given an effort chosen for another one (/model, -c -m)
  return !options.noReasoning && REASONING_REFUSED.test(said) && (options.noReasoning = true) && NO_EFFORT_NOTICE;
}

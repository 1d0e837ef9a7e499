// What the next request to a Responses endpoint leaves out or changes after the endpoint refused
// one (common.ts adaptingStream): a field it does not take, an effort level the model does not.
// Each change is made for the rest of the run, so each is tried once. Pure apart from changing
// `options`. (The reasoning items it could not verify are responses.ts unverifiedItems: they are
// the request's own.)
import { effortNotice, learnEffort, NO_EFFORT_NOTICE, REASONING_REFUSED } from "./effort.ts";

/** The request options a refusal may change (responses.ts RequestOptions, which documents them). */
export interface ResponsesAdaptable {
  cacheKey?: boolean;
  effortFor?: Record<string, string>;
  noReasoning?: boolean;
}

/** Changes `options` as the refusal `said` asks; true when it changed something (send again), or what to tell the user of it. */
export function adaptToResponsesRefusal(options: ResponsesAdaptable, said: string): boolean | string {
  if (options.cacheKey === true && said.includes("prompt_cache_key")) return !(options.cacheKey = false);
  const learned = options.effortFor && learnEffort(options.effortFor, said);
  if (learned) return effortNotice(learned);
  // a model without reasoning (gpt-4.1) given an effort chosen for another one (/model, -c -m)
  return !options.noReasoning && REASONING_REFUSED.test(said) && (options.noReasoning = true) && NO_EFFORT_NOTICE;
}

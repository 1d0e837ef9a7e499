// Which failures a fallback model is for (README "When hey gives up"): those that end a request
// for a reason of this model or its endpoint, which another model may not share. Pure.
import type { ProviderError } from "../kernel/provider.ts";

/**
 * Why another model may answer the request that `error` ended, in words that follow the model's
 * name in the user's line ("is rate-limited"); undefined when no other model can: a bad key
 * (401/403), a request the user must change (a 400, a context too long for it), an answer that is
 * not the protocol (a base_url or protocol to fix), hey's own setup. The caller never asks after an
 * abort, nor after an answer that broke off after part of it came (sent again, its words would
 * come twice), nor at a run's turn or token limit, which ends no request. Pure.
 */
export function fallbackReason(error: Pick<ProviderError, "kind" | "missingModel">): string | undefined {
  switch (error.kind) {
    case "rate_limit":
      return "is rate-limited";
    case "overloaded":
      return "is overloaded or failing";
    case "network":
      return "cannot be reached or is stuck";
    case "quota_exhausted":
      return "is out of quota";
    case "loading":
      return "was still loading the model";
    case "empty_answer":
      return "keeps answering with nothing";
    case "bad_request":
      return error.missingModel ? "does not have the model" : undefined;
    default:
      return undefined;
  }
}

/** The line that says the switch: both models as `-m` names them, why, and the failure in the endpoint's words. */
export function fallbackLine(from: string, to: string, why: string, error: string): string {
  return `falling back from ${from} to ${to} for the rest of this run: ${from} ${why} (${error})`;
}

// Stop reasons that report a failure rather than an end: a server that sends one has not finished
// the answer, whatever came of it. Pure.
import { ProviderError } from "../kernel/provider.ts";

/**
 * Such reasons, lower-cased: OpenRouter's and the Vercel AI SDK's normalized finish_reason "error"
 * (vLLM's for a request that failed on the server, vllm-project/vllm#37148), and "abort" (vLLM's and
 * SGLang's for a request the server aborted).
 */
const FAILURES = new Set(["error", "abort"]);

/**
 * The error of an answer whose stop reason `reason` (in its protocol's `field`: "finish_reason")
 * says it failed: what a stream that broke off is, so retried as one (the kernel keeps text that
 * came, and never runs the calls); undefined for any other reason. Kind "overloaded": the failure
 * is the server's.
 */
export function failedStop(reason: string | null | undefined, field: string): ProviderError | undefined {
  if (typeof reason !== "string" || !FAILURES.has(reason.toLowerCase())) return undefined;
  return new ProviderError("overloaded", `the model failed mid-stream (${field} "${reason}")`);
}

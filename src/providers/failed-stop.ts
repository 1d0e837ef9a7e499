// Stop reasons that report a failure rather than an end: a server that sends one has not finished
// the answer, whatever came of it. Pure.
import { ProviderError } from "../kernel/provider.ts";

/**
 * Such reasons, lower-cased: OpenRouter's and the Vercel AI SDK's normalized finish_reason "error"
 * (vLLM's for a request that failed on the server, vllm-project/vllm#37148), "abort" (vLLM's and
 * SGLang's for a request the server aborted), DeepSeek's "insufficient_system_resource" (its API
 * reference: "generation interrupted by insufficient inference resources") and Z.ai's
 * "network_error" (GLM's for an inference failure, in its chat API reference).
 */
const FAILURES = new Set(["error", "abort", "insufficient_system_resource", "network_error"]);

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

// Which requests a fake provider should answer as summary requests: the transcript one (no tools,
// reasoning off) and the one asked after the cached conversation (context/summary-cached.ts).
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { SUMMARY_ASK_START } from "../../src/context/summary-cached.ts";

/** The summary request sent as a transcript under its own system prompt. */
export const isTranscriptSummary = (r: ModelRequest) => r.tools.length === 0 && r.effort === "off";

/** The summary asked after the last request, read from the provider's cache. */
export const isCachedSummary = (r: ModelRequest) => r.note?.startsWith(SUMMARY_ASK_START) === true;

export const isSummaryRequest = (r: ModelRequest) => isTranscriptSummary(r) || isCachedSummary(r);

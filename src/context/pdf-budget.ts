// A PDF heavier than the whole context budget: at 3,000 tokens a page (passes.ts PDF_PAGE_CHARS)
// one of over ~13 pages fills the default 40k alone, so the request after the model answers leaves
// it out or summarizes it, and the user who asked about it never knew. The request that first holds
// it still sends it whole; this says, once, when it comes (a read_file result, an @-mention), to the
// user and to the model (in the request's note), that it will not stay. Pure.
import type { DocumentPart, Message } from "../kernel/ir.ts";
import { reckonedPages } from "../fs/pdf-bytes.ts";
import { PDF_PAGE_CHARS } from "./passes.ts";

/** Tokens as the notices write them: `~60k`. */
const thousands = (n: number) => `${Math.round(n / 1000).toLocaleString("en-US")}k`;

/**
 * What to say of the PDFs that came in `history`'s newest turn (after its last assistant message)
 * and weigh more than `budgetTokens` alone: one line per PDF, for a notice and the request's note.
 * Empty when none does.
 */
export function pdfsOverBudget(history: readonly Message[], budgetTokens: number, tokensPerChar: number): string[] {
  const from = history.findLastIndex((m) => m.role === "assistant") + 1;
  const documents = history.slice(from).flatMap((m) => m.content.filter((p): p is DocumentPart => p.type === "document"));
  return documents.flatMap((p) => {
    const tokens = Math.ceil(reckonedPages(p) * PDF_PAGE_CHARS * tokensPerChar);
    if (tokens <= budgetTokens) return [];
    return [
      `PDF ${p.name} is ~${thousands(tokens)} tokens, over the ${thousands(budgetTokens)}-token budget: it is sent whole now, but left out or summarized after this turn; raise [agent] budget_tokens to keep it`,
    ];
  });
}

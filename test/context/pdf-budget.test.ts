// A PDF read (read_file) or attached (@file) that alone weighs more than the context budget is said
// once, when it comes: the request after the answer leaves it out or summarizes it.
import { expect, test } from "bun:test";
import type { DocumentPart, Message } from "../../src/kernel/ir.ts";
import { pdfsOverBudget } from "../../src/context/pdf-budget.ts";

const pdf = (name: string, pages: number): DocumentPart => ({ type: "document", mediaType: "application/pdf", data: "JVBERi0=", name, pages });
const asked: Message = { id: "u", role: "user", content: [{ type: "text", text: "read p99.pdf" }] };
const called: Message = { id: "a", role: "assistant", content: [], toolCalls: [{ id: "c", name: "read_file", arguments: '{"path":"p99.pdf"}' }] };
const read: Message = { id: "t", role: "tool", toolCallId: "c", content: [{ type: "text", text: "p99.pdf: PDF, 99 pages, 300 KB" }, pdf("p99.pdf", 99)] };
const answered: Message = { id: "b", role: "assistant", content: [{ type: "text", text: "It is long." }] };

test("read_file of a 99-page PDF at the default 40k budget: said once, as it comes, with its weight and the setting", () => {
  expect(pdfsOverBudget([asked, called, read], 40_000, 0.25)).toEqual([
    "PDF p99.pdf is ~297k tokens, over the 40k-token budget: it is sent whole now, but left out or summarized after this turn; raise [agent] budget_tokens to keep it",
  ]);
  // once answered, it is old news
  expect(pdfsOverBudget([asked, called, read, answered, { ...asked, id: "u2" }], 40_000, 0.25)).toEqual([]);
});

test("a PDF within the budget (10 pages = ~30k of 40k), or a budget raised to hold it: nothing said", () => {
  expect(pdfsOverBudget([{ ...asked, content: [{ type: "text", text: "@a.pdf" }, pdf("a.pdf", 10)] }], 40_000, 0.25)).toEqual([]);
  expect(pdfsOverBudget([asked, called, read], 400_000, 0.25)).toEqual([]);
});

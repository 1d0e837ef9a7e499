// A PDF in a session: its message line comes back whole on `hey -c` (it was dropped as "document
// content from a newer hey"), a half-formed one is refused, and the context weighs it by its pages.
import { expect, test } from "bun:test";
import { estimateTokens, messageChars } from "../../src/context/passes.ts";
import type { DocumentPart, Message } from "../../src/kernel/ir.ts";
import { messageEntry } from "../../src/sessions/message-entry.ts";

const DOC: DocumentPart = { type: "document", mediaType: "application/pdf", data: "JVBERi0xLjQK", name: "docs/rfc.pdf", pages: 12 };
const message: Message = { id: "m1", role: "user", content: [{ type: "text", text: "summarize @docs/rfc.pdf" }, DOC] };

test("a message with a PDF comes back from its session line as it was written", () => {
  const line = JSON.stringify(message);
  expect(JSON.stringify(messageEntry(JSON.parse(line)))).toBe(line);
});

test("a PDF part without its data or name is not loaded half-formed", () => {
  expect(messageEntry({ ...message, content: [{ type: "document", mediaType: "application/pdf", name: "x.pdf" }] })).toBeUndefined();
  expect(messageEntry({ ...message, content: [{ type: "document", mediaType: "application/pdf", data: "JVBE" }] })).toBeUndefined();
});

test("a PDF weighs by its pages: 12 pages weigh more than 12 images, and more than 1 page", () => {
  const image: Message = {
    id: "i",
    role: "user",
    content: Array.from({ length: 12 }, () => ({ type: "image" as const, mediaType: "image/png", data: "iVBO" })),
  };
  const onePage: Message = { ...message, content: [{ ...DOC, pages: 1 }] };
  expect(messageChars(message)).toBeGreaterThan(messageChars(image));
  expect(messageChars({ ...message, content: [DOC] })).toBeGreaterThan(10 * messageChars(onePage));
  // Anthropic's "1,500–3,000 tokens per page", at its top: 12 pages are ~36k tokens, not an image's ~1.5k
  expect(estimateTokens([{ ...message, content: [DOC] }], 0.25)).toBeGreaterThanOrEqual(36_000);
});

// A 400 that says a PDF could not be read (damaged, encrypted, not a PDF at all): Anthropic's
// `messages.2.content.0.content.1.pdf.source.base64.data: The PDF specified was not valid.` and
// "Could not process PDF" (anthropics/anthropic-sdk-python#903), Gemini's "The document has no
// pages." (google-gemini/gemini-cli#13808). Sent again it is refused again, so the session could
// not go on: document-fit.ts leaves that PDF out as a line saying how to read its text instead.
// This finds which PDF a refusal means. Pure.
import type { DocumentPart, Message } from "../kernel/ir.ts";

/** How an API says a PDF it was sent cannot be read: "PDF" near "not valid", "invalid", "could not", "encrypted", "password". */
export const PDF_UNREADABLE =
  /\bPDF\b[^\n]{0,80}\b(?:not valid|invalid|could not|cannot|encrypted|password|corrupt(?:ed)?|damaged|malformed)|\b(?:not valid|invalid|could not (?:process|read|parse)|cannot (?:process|read|parse)|encrypted|password[- ]protected|corrupt(?:ed)?|damaged|malformed)\b[^\n]{0,40}\bPDF\b|\bpdf\.source\b|the document has no pages/i;

/** Whether `said` refuses a PDF as unreadable; not a tool's schema that names PDFs ("tool pdf_reader: PDF schema is invalid"). */
export const refusesUnreadablePdf = (said: string) => PDF_UNREADABLE.test(said) && !/\bschema\b|\btools[.[]/i.test(said);

/**
 * The PDF of `messages` (a request's, as sent) a refusal `said` names by its place in Anthropic's
 * wire (`messages.M.content.C`, or `.content.D` inside a tool result): consecutive user and tool
 * messages are one turn there, each tool message one block, other content one block per part.
 * Undefined when it names no place, or the place holds no PDF.
 */
export function namedDocument(messages: readonly Message[], said: string): DocumentPart | undefined {
  const m = /\bmessages\.(\d+)\.content\.(\d+)(?:\.content\.(\d+))?/.exec(said);
  if (!m) return undefined;
  const [turn, block, inner] = [Number(m[1]), Number(m[2]), m[3] === undefined ? undefined : Number(m[3])];
  // each message's turn and the blocks it adds to it
  let [at, blocks, role] = [-1, 0, ""];
  for (const msg of messages) {
    if (msg.role === "system" || (msg.content.length === 0 && !msg.toolCalls?.length)) continue;
    const side = msg.role === "assistant" ? "assistant" : "user";
    if (side !== role) [at, blocks, role] = [at + 1, 0, side];
    if (at > turn) break;
    const width = msg.role === "tool" ? 1 : msg.content.length;
    if (at === turn && block >= blocks && block < blocks + width) {
      const part = msg.role === "tool" ? msg.content[inner ?? 0] : msg.content[block - blocks];
      return part?.type === "document" ? part : undefined;
    }
    blocks += width;
  }
  return undefined;
}

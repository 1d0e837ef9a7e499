// PDFs where an API or endpoint takes none: each goes as a line naming the file, saying it was not
// sent and how the model can read it (through bash), never as a part the server answers with a 400
// the user cannot get past. Which chat-completions endpoints take PDFs, and how one says it takes
// none, are kept here too (openai.ts and openai-adapt.ts read them). Pure.
import type { ContentBlock, DocumentPart } from "../kernel/ir.ts";
import { shellWord } from "../kernel/tool-args.ts";

/**
 * Chat-completions hosts that take a PDF as a `file` part (`{type: "file", file: {filename, file_data}}`):
 * OpenAI's own API (platform.openai.com "File inputs") and OpenRouter ("PDF inputs"). vLLM, Ollama,
 * llama.cpp and most gateways take none.
 */
const PDF_HOSTS = new Set(["api.openai.com", "openrouter.ai"]);

/** Whether the chat-completions endpoint at `host` is sent PDFs as file parts. */
export const takesPdfs = (host: string) => PDF_HOSTS.has(host);

/** The last name of `path`, without its directories: what the OpenAI wires take as `filename`. */
export const baseName = (path: string) => path.replace(/[/\\]+$/, "").replace(/^.*[/\\]/, "") || path;

/** What the model reads in place of the PDF `p` not sent, and `why`. */
export function documentLine(p: DocumentPart, why: string): string {
  const pages = p.pages === undefined ? "" : `, ${p.pages} page${p.pages === 1 ? "" : "s"}`;
  return `[PDF ${p.name}${pages} not sent: ${why}; read its text with bash: pdftotext -layout ${shellWord(p.name)} -]`;
}

/** `content` with each PDF as its line (documentLine). */
export const documentsAsLines = (content: ContentBlock[], why: string): ContentBlock[] =>
  content.map((p) => (p.type === "document" ? { type: "text", text: documentLine(p, why) } : p));

/** Why a chat-completions endpoint's PDFs go as lines, for the line. */
export const NO_PDFS = "this endpoint takes no PDFs";

/**
 * How a chat-completions server refuses a `file` part: serde's "unknown variant `file`" (DeepSeek,
 * vLLM's Rust front ends), OpenAI's "Invalid content type" for a model without file inputs, "file
 * input is not supported".
 */
export const PDFS_REFUSED = /unknown variant [`'"]?file\b|file inputs? (?:is|are) not supported|does not support (?:file|pdf)|invalid content type.*\bfile\b/i;

/** What the user is told, once, when PDFs go as lines from then on. */
export const NO_PDFS_NOTICE = "this endpoint takes no PDFs: each PDF of the conversation is sent as a line saying how to read its text";

// The PDFs a request sends, fitted to what its API takes in one request: its pages (Anthropic and
// OpenAI 100, Gemini 1,000) and its bytes (the request's limit, less its text). The newest PDFs are
// sent; older ones go as a line naming them and how to read their text (documents.ts), so a session
// that read a few PDFs does not make every later request a 400. A request refused for its PDFs
// (Anthropic: "A maximum of 100 PDF pages may be provided") is sent again at once with its oldest
// PDF as such a line, for the rest of the run; one refused as unreadable (damaged, encrypted:
// pdf-refusal.ts) goes so too, the one the refusal names or else the newest. PDFs are fitted before images, which take the room
// left (image-fit.ts counts a PDF as text). The session keeps every PDF. Pure.
import type { ContentBlock, DocumentPart, Message, Protocol } from "../kernel/ir.ts";
import { identityOf, type ModelRequest, type Provider, type StreamEvent } from "../kernel/provider.ts";
import { adaptingStream } from "./adapting-stream.ts";
import { documentLine } from "./documents.ts";
import { reckonedPages } from "../fs/pdf-bytes.ts";
import { namedDocument, refusesUnreadablePdf } from "./pdf-refusal.ts";

/** What an API takes of PDFs in one request. */
export interface DocumentRules {
  who: string;
  pages: number;
  requestBytes: number;
}

const MB = 1024 * 1024;
/** Room left in a request for what is not a PDF (tools, JSON around the text), besides the text counted. */
const REQUEST_MARGIN_BYTES = 512 * 1024;

/**
 * Anthropic's (docs.claude.com "PDF support": 100 pages and 32 MB a request), Gemini's (1,000 pages;
 * 20 MB of inline data a request), OpenAI's ("File inputs": 100 pages and 32 MB a request).
 */
export function documentRulesOf(protocol: Protocol): DocumentRules {
  if (protocol === "anthropic") return { who: "Anthropic", pages: 100, requestBytes: 32 * MB };
  if (protocol === "google") return { who: "Gemini", pages: 1000, requestBytes: 20 * MB };
  return { who: "the API", pages: 100, requestBytes: 32 * MB };
}

/**
 * How an API refuses a request for the pages, size or number of its PDFs: Anthropic's "A maximum of
 * 100 PDF pages may be provided", Gemini's "The request's total referenced files bytes are too large
 * to be read". Not any 400 that says "PDF" (a tool named for PDFs, a damaged one): leaving out the
 * oldest PDF would not answer those.
 */
const PDFS_TOO_MANY =
  /\b(?:maximum|max|limit|too (?:many|large|big)|exceed(?:s|ed)?)\b[^\n.]{0,80}\bPDFs?\b|\bPDFs?\b[^\n.]{0,80}\b(?:pages?|too (?:many|large|big)|exceed(?:s|ed)?|limit|size)\b|total referenced files bytes are too large/i;

const documentsOf = (messages: readonly Message[]): DocumentPart[] =>
  messages.flatMap((m) => m.content.filter((p): p is DocumentPart => p.type === "document"));

/** A PDF's identity across requests (the same bytes are the same PDF). */
const documentKey = (p: DocumentPart) => `${p.name}:${p.data.length}:${p.data.slice(-48)}`;

/**
 * `request` with the PDFs `rules` leave no room for, and those `left` names (refused), as lines; the
 * newest PDFs are kept. `omitted`: why each left out is, by its key. `request` itself when none is.
 */
export function fitDocuments(
  request: ModelRequest,
  rules: DocumentRules,
  left: ReadonlyMap<string, string>,
): { request: ModelRequest; omitted: Map<string, string> } {
  const omitted = new Map<string, string>();
  const documents = documentsOf(request.messages);
  if (documents.length === 0) return { request, omitted };
  const weight = (p: ContentBlock) => (p.type === "text" || p.type === "thinking" ? p.text.length : 0);
  const text = request.system.length + request.messages.reduce((n, m) => n + m.content.reduce((k, p) => k + weight(p), 0), 0);
  const room = rules.requestBytes - text - REQUEST_MARGIN_BYTES;
  let [pages, bytes] = [0, 0];
  for (const p of documents.toReversed()) {
    const key = documentKey(p);
    const reason = left.get(key);
    if (reason) omitted.set(key, reason);
    else if (pages + reckonedPages(p) > rules.pages)
      omitted.set(key, `left out to keep the request within the ${rules.pages} PDF pages ${rules.who} takes; the oldest PDFs go first`);
    else if (bytes + p.data.length > room)
      omitted.set(key, `left out to keep the request under the ${Math.round(rules.requestBytes / MB)} MB ${rules.who} takes; the oldest PDFs go first`);
    else [pages, bytes] = [pages + reckonedPages(p), bytes + p.data.length];
  }
  if (omitted.size === 0) return { request, omitted };
  const messages = request.messages.map((m) => {
    if (!m.content.some((p) => p.type === "document" && omitted.has(documentKey(p)))) return m;
    const content = m.content.map((p): ContentBlock => {
      const reason = p.type === "document" ? omitted.get(documentKey(p)) : undefined;
      return p.type === "document" && reason ? { type: "text", text: documentLine(p, reason) } : p;
    });
    return { ...m, content };
  });
  return { request: { ...request, messages }, omitted };
}

/**
 * `provider`, its requests' PDFs fitted to what its API takes (see the head of this file). Each PDF
 * left out is told once as a `notice`. Throws what `provider` throws otherwise. `sendsPdfs` false (a
 * chat-completions endpoint not known to take PDFs: Ollama, vLLM, a gateway): every PDF goes as a
 * line anyway, so no fitting; the first request that holds one says so once, naming the setting
 * that sends them (`pdfs = true` of the provider `name`).
 */
export function fittingDocuments(provider: Provider, sendsPdfs = true, name = "NAME"): Provider {
  if (!sendsPdfs) return sayingPdfsAreLines(provider, name);
  const rules = documentRulesOf(provider.protocol);
  const left = new Map<string, string>();
  const told = new Set<string>();
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      for (const [key, reason] of fitDocuments(request, rules, left).omitted) if (!told.has(key) && told.add(key)) yield notice(reason);
      yield* adaptingStream(
        () => provider.stream(fitDocuments(request, rules, left).request, signal),
        (e) => {
          const sent = fitDocuments(request, rules, left).request.messages;
          const said = e.message.replace(/^request rejected \(\d+\): /, "").slice(0, 160);
          // one it cannot read (damaged, encrypted): the one it names, else the newest; one too many: the oldest
          const unreadable = refusesUnreadablePdf(e.message);
          const which = unreadable
            ? (namedDocument(sent, e.message) ?? documentsOf(sent).at(-1))
            : PDFS_TOO_MANY.test(e.message)
              ? documentsOf(sent)[0]
              : undefined;
          if (!which) return false;
          const reason = unreadable ? `the API could not read it (damaged or encrypted?): ${said}` : `the API refused it: ${said.slice(0, 120)}`;
          left.set(documentKey(which), reason);
          told.add(documentKey(which));
          return notice(reason).message;
        },
        () => left, // the PDFs left out so far: one more each time
      );
    },
  };
}

const notice = (reason: string): Extract<StreamEvent, { type: "notice" }> => ({
  type: "notice",
  message: `a PDF is sent as a line saying so, not as a document: ${reason}`,
});

/** What the user is told the first time a PDF goes as a line to an endpoint not known to take PDFs. */
export const pdfsAsLinesNotice = (name: string) =>
  // "cli" is --base-url's own provider, which has no table: the user writes one
  `this endpoint is not known to take PDFs: each is sent as a line saying how to read its text; if it reads them (a LiteLLM, Azure OpenAI or company proxy in front of OpenAI), set pdfs = true under [provider.${name === "cli" ? "NAME" : name}]`;

function sayingPdfsAreLines(provider: Provider, name: string): Provider {
  let told = false;
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      if (!told && documentsOf(request.messages).length > 0) {
        told = true;
        yield { type: "notice", message: pdfsAsLinesNotice(name) };
      }
      yield* provider.stream(request, signal);
    },
  };
}

// A session that read several PDFs keeps working: each request sends the newest PDFs within the
// pages and bytes its API takes in one request, the older ones as lines saying how to read their
// text, and a request the API refuses for its PDFs goes again at once without the oldest.
import { expect, test } from "bun:test";
import type { DocumentPart, Message, Protocol } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { fakeProvider, type ScriptedTurn } from "../helpers/fake-provider.ts";
import { fittingDocuments } from "../../src/providers/document-fit.ts";

const pdf = (name: string, pages: number, bytes = 1000): DocumentPart => ({
  type: "document",
  mediaType: "application/pdf",
  data: `${name}:`.padEnd(bytes, "A"),
  name,
  pages,
});
const user = (id: string, ...docs: DocumentPart[]): Message => ({ id, role: "user", content: [{ type: "text", text: `read ${id}` }, ...docs] });
const request = (...messages: Message[]): ModelRequest => ({ system: "", messages, tools: [] });

/** A provider of `protocol` that answers `turns` in order, recording what each request sent. */
function scripted(protocol: Protocol, ...turns: ScriptedTurn[]) {
  const fake = fakeProvider([...turns, { text: "ok" }, { text: "ok" }, { text: "ok" }]);
  return { provider: { ...fake, protocol }, sent: fake.requests };
}
const collect = async (p: Provider, req: ModelRequest) => {
  const events: StreamEvent[] = [];
  for await (const e of p.stream(req, new AbortController().signal)) events.push(e);
  return events;
};
const shown = (req: ModelRequest) =>
  req.messages.flatMap((m) => m.content.flatMap((p) => (p.type === "document" ? [`PDF ${p.name}`] : p.type === "text" ? [p.text] : [])));

test("three PDFs of 60, 30 and 40 pages to Anthropic (100 pages a request): the newest two are sent, the oldest is a line, the user is told once", async () => {
  const { provider, sent } = scripted("anthropic");
  const fitted = fittingDocuments(provider);
  const req = request(user("1", pdf("old.pdf", 60)), user("2", pdf("mid.pdf", 30)), user("3", pdf("new.pdf", 40)));
  const events = await collect(fitted, req);
  expect(shown(sent[0]!)).toEqual([
    "read 1",
    "[PDF old.pdf, 60 pages not sent: left out to keep the request within the 100 PDF pages Anthropic takes; the oldest PDFs go first; read its text with bash: pdftotext -layout old.pdf -]",
    "read 2",
    "PDF mid.pdf",
    "read 3",
    "PDF new.pdf",
  ]);
  expect(events.filter((e) => e.type === "notice").length).toBe(1);
  await collect(fitted, req);
  expect(shown(sent[1]!)).toEqual(shown(sent[0]!));
  // Gemini takes 1,000 pages: all three go
  const gemini = scripted("google");
  await collect(fittingDocuments(gemini.provider), req);
  expect(shown(gemini.sent[0]!).filter((l) => l.startsWith("PDF "))).toEqual(["PDF old.pdf", "PDF mid.pdf", "PDF new.pdf"]);
});

test("PDFs over Gemini's 20 MB request: the oldest go as lines", async () => {
  const { provider, sent } = scripted("google");
  const big = (name: string) => pdf(name, 10, 7 * 1024 * 1024);
  await collect(fittingDocuments(provider), request(user("1", big("a.pdf")), user("2", big("b.pdf")), user("3", big("c.pdf"))));
  expect(shown(sent[0]!).filter((l) => l.startsWith("PDF ") || l.startsWith("[PDF"))).toEqual([
    "[PDF a.pdf, 10 pages not sent: left out to keep the request under the 20 MB Gemini takes; the oldest PDFs go first; read its text with bash: pdftotext -layout a.pdf -]",
    "PDF b.pdf",
    "PDF c.pdf",
  ]);
});

test("a request refused for its PDFs ('A maximum of 100 PDF pages may be provided'): sent again at once without the oldest, which stays a line", async () => {
  const { provider, sent } = scripted("anthropic", {
    error: new ProviderError("bad_request", "request rejected (400): messages: A maximum of 100 PDF pages may be provided.", { status: 400 }),
  });
  const fitted = fittingDocuments(provider);
  const req = request(user("1", pdf("a.pdf", 50)), user("2", pdf("b.pdf", 40)));
  const events = await collect(fitted, req);
  expect(sent.length).toBe(2);
  expect(shown(sent[1]!)[1]).toStartWith("[PDF a.pdf, 50 pages not sent: the API refused it: messages: A maximum of 100 PDF pages may be provided.");
  expect(shown(sent[1]!)[3]).toBe("PDF b.pdf");
  expect(events.some((e) => e.type === "done")).toBe(true);
  await collect(fitted, req);
  expect(sent.length).toBe(3);
  expect(shown(sent[2]!)[1]).toStartWith("[PDF a.pdf");
});

test("a refusal that is not about PDFs is the caller's", async () => {
  const { provider } = scripted("anthropic", { error: new ProviderError("bad_request", "request rejected (400): max_tokens: too large", { status: 400 }) });
  await expect(collect(fittingDocuments(provider), request(user("1", pdf("a.pdf", 5))))).rejects.toThrow("max_tokens");
});

test("a 400 that names a PDF but not its pages, size, count or a PDF it cannot read is the caller's: no PDF is left out for it", async () => {
  for (const said of ["request rejected (400): tools.0: tool pdf_reader: PDF schema is invalid", "request rejected (400): pdf_tool: unknown option"]) {
    const { provider, sent } = scripted("anthropic", { error: new ProviderError("bad_request", said, { status: 400 }) });
    await expect(collect(fittingDocuments(provider), request(user("1", pdf("a.pdf", 5))))).rejects.toThrow(said.slice(24));
    expect(sent.length).toBe(1);
  }
});

test("a chat endpoint not known to take PDFs (Ollama, vLLM, a gateway): no fitting, every PDF goes as the adapter's line, said once with the setting that sends them", async () => {
  const { provider, sent } = scripted("openai");
  const req = request(user("1", pdf("old.pdf", 60)), user("2", pdf("mid.pdf", 30)), user("3", pdf("new.pdf", 40)));
  const fitted = fittingDocuments(provider, false, "litellm");
  const events = [...(await collect(fitted, req)), ...(await collect(fitted, req))];
  expect(events.filter((e) => e.type === "notice")).toEqual([
    {
      type: "notice",
      message:
        "this endpoint is not known to take PDFs: each is sent as a line saying how to read its text; if it reads them (a LiteLLM, Azure OpenAI or company proxy in front of OpenAI), set pdfs = true under [provider.litellm]",
    },
  ]);
  expect(shown(sent[0]!)).toEqual(["read 1", "PDF old.pdf", "read 2", "PDF mid.pdf", "read 3", "PDF new.pdf"]);
  // no PDF in the conversation: nothing said
  const quiet = scripted("openai");
  expect((await collect(fittingDocuments(quiet.provider, false, "litellm"), request(user("1")))).filter((e) => e.type === "notice")).toEqual([]);
});

const toolTurn = (id: string, callId: string, ...docs: DocumentPart[]): Message[] => [
  { id: `${id}a`, role: "assistant", content: [], toolCalls: [{ id: callId, name: "read_file", arguments: "{}" }] },
  { id, role: "tool", toolCallId: callId, content: [{ type: "text", text: "read" }, ...docs] },
];

test("a PDF the API cannot read (damaged, encrypted): the one Anthropic's refusal names goes as a line for the rest of the run, the request is sent again at once", async () => {
  // messages.2.content.0.content.1: the third turn (user, assistant, tool results), its first block, the tool result's second part
  const said = "request rejected (400): messages.2.content.0.content.1.pdf.source.base64.data: The PDF specified was not valid.";
  const { provider, sent } = scripted("anthropic", { error: new ProviderError("bad_request", said, { status: 400 }) });
  const fitted = fittingDocuments(provider);
  // good.pdf, the newest, joins the tool result's turn: only the place named tells them apart
  const req = request(user("1"), ...toolTurn("2", "c1", pdf("broken.pdf", 1)), user("3", pdf("good.pdf", 3)));
  const events = await collect(fitted, req);
  expect(sent.length).toBe(2);
  expect(shown(sent[1]!)).toEqual([
    "read 1",
    "read",
    "[PDF broken.pdf, 1 page not sent: the API could not read it (damaged or encrypted?): messages.2.content.0.content.1.pdf.source.base64.data: The PDF specified was not valid.; read its text with bash: pdftotext -layout broken.pdf -]",
    "read 3",
    "PDF good.pdf",
  ]);
  expect(events.filter((e) => e.type === "notice").map((e) => (e as { message: string }).message)).toEqual([
    "a PDF is sent as a line saying so, not as a document: the API could not read it (damaged or encrypted?): messages.2.content.0.content.1.pdf.source.base64.data: The PDF specified was not valid.",
  ]);
  await collect(fitted, req);
  expect(sent.length).toBe(3);
  expect(shown(sent[2]!)[2]).toStartWith("[PDF broken.pdf");
});

test("an unreadable PDF refused without a place (Gemini 'The document has no pages.', 'The PDF specified is password protected'): the newest PDF goes as a line", async () => {
  for (const words of ["The document has no pages.", "The PDF specified is password protected.", "Could not process PDF"]) {
    const { provider, sent } = scripted("google", { error: new ProviderError("bad_request", `request rejected (400): ${words}`, { status: 400 }) });
    await collect(fittingDocuments(provider), request(user("1", pdf("a.pdf", 2)), user("2", pdf("locked.pdf", 4))));
    expect(sent.length).toBe(2);
    expect(shown(sent[1]!)[1]).toBe("PDF a.pdf");
    expect(shown(sent[1]!)[3]).toStartWith(`[PDF locked.pdf, 4 pages not sent: the API could not read it (damaged or encrypted?): ${words}`);
  }
});

// A PDF on each wire, as its API takes it: Anthropic's `document` block (in a user message and inside
// a tool_result), Responses' `input_file` (in user input and in function_call_output), Gemini's
// inline data (inside the function response on Gemini 3, as parts after it before), chat completions'
// `file` part on OpenAI's own API — and, on an endpoint that takes none, a line saying how to read it.
import { describe, expect, test } from "bun:test";
import type { DocumentPart, Message } from "../../src/kernel/ir.ts";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { toRequest as anthropicRequest } from "../../src/providers/anthropic.ts";
import { toRequest as googleRequest } from "../../src/providers/google.ts";
import { adaptToRefusal, type Adaptable } from "../../src/providers/openai-adapt.ts";
import { requestOptionsFor, toRequest as chatRequest } from "../../src/providers/openai.ts";
import { toRequest as responsesRequest } from "../../src/providers/responses.ts";

const DOC: DocumentPart = { type: "document", mediaType: "application/pdf", data: "JVBERi0xLjQK", name: "docs/rfc.pdf", pages: 12 };
const URL = "data:application/pdf;base64,JVBERi0xLjQK";
const LINE = "[PDF docs/rfc.pdf, 12 pages not sent: this endpoint takes no PDFs; read its text with bash: pdftotext -layout docs/rfc.pdf -]";

const mentioned: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: "summarize @docs/rfc.pdf" }, DOC] }];
const read: Message[] = [
  { id: "u", role: "user", content: [{ type: "text", text: "summarize the RFC" }] },
  { id: "a", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"docs/rfc.pdf"}' }] },
  { id: "t", role: "tool", toolCallId: "c1", toolName: "read_file", content: [{ type: "text", text: "docs/rfc.pdf: PDF, 12 pages, 340 KB" }, DOC] },
];
const req = (messages: Message[]): ModelRequest => ({ system: "", messages, tools: [] });

describe("Anthropic", () => {
  const sent = (messages: Message[]) => anthropicRequest(req(messages), { model: "claude-test" }).messages as unknown[];
  const block = { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" }, title: "docs/rfc.pdf" };

  test("a PDF in a user message is a document block", () => {
    expect(sent(mentioned)).toEqual([{ role: "user", content: [{ type: "text", text: "summarize @docs/rfc.pdf" }, block] }]);
  });

  test("a PDF read by a tool is a document block inside its tool_result", () => {
    expect(sent(read).at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "c1", content: [{ type: "text", text: "docs/rfc.pdf: PDF, 12 pages, 340 KB" }, block] }],
    });
  });
});

describe("OpenAI Responses", () => {
  const sent = (messages: Message[]) => responsesRequest(req(messages), { model: "gpt-test" }).input as unknown[];
  const file = { type: "input_file", file_data: URL, filename: "rfc.pdf" };

  test("a PDF in user input is an input_file with its data URL and file name", () => {
    expect(sent(mentioned)).toEqual([{ role: "user", content: [{ type: "input_text", text: "summarize @docs/rfc.pdf" }, file] }]);
  });

  test("a PDF read by a tool is an input_file in its function_call_output", () => {
    expect(sent(read).at(-1)).toEqual({
      type: "function_call_output",
      call_id: "c1",
      output: [{ type: "input_text", text: "docs/rfc.pdf: PDF, 12 pages, 340 KB" }, file],
    });
  });
});

describe("Gemini", () => {
  const sent = (messages: Message[], model: string) => googleRequest(req(messages), { model }).contents as { role?: string; parts: unknown[] }[];
  const inline = { inlineData: { mimeType: "application/pdf", data: "JVBERi0xLjQK" } };

  test("a PDF in a user message is inline data", () => {
    expect(sent(mentioned, "gemini-2.5-flash")).toEqual([{ role: "user", parts: [{ text: "summarize @docs/rfc.pdf" }, inline] }]);
  });

  test("Gemini 3: a tool's PDF goes inside its function response", () => {
    const last = sent(read, "gemini-3-pro-preview").at(-1)!;
    expect(last.parts).toEqual([{ functionResponse: { name: "read_file", response: { output: "docs/rfc.pdf: PDF, 12 pages, 340 KB" }, parts: [inline] } }]);
  });

  test("before Gemini 3: the tool's text names the PDF, which follows the function responses", () => {
    const last = sent(read, "gemini-2.5-flash").at(-1)!;
    expect(last.parts).toEqual([
      {
        functionResponse: { name: "read_file", response: { output: "docs/rfc.pdf: PDF, 12 pages, 340 KB\n[PDF docs/rfc.pdf follows the function responses]" } },
      },
      inline,
    ]);
  });
});

describe("chat completions", () => {
  const sent = (messages: Message[], opts: Adaptable) => chatRequest(req(messages), { model: "m", ...opts }).messages as unknown[];
  const file = { type: "file", file: { filename: "rfc.pdf", file_data: URL } };

  test("OpenAI's own API and OpenRouter take PDFs as file parts; other servers do not", () => {
    const on = (baseUrl: string) => requestOptionsFor({ protocol: "openai", model: "m", baseUrl } as Parameters<typeof requestOptionsFor>[0]).pdfs;
    expect(on("https://api.openai.com/v1")).toBe(true);
    expect(on("https://openrouter.ai/api/v1")).toBe(true);
    expect(on("http://localhost:8000/v1")).toBe(false);
  });

  test("on OpenAI: a user's PDF is a file part; a tool's follows the tool messages in a user message", () => {
    expect(sent(mentioned, { pdfs: true })).toEqual([{ role: "user", content: [{ type: "text", text: "summarize @docs/rfc.pdf" }, file] }]);
    expect(sent(read, { pdfs: true }).slice(2)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "docs/rfc.pdf: PDF, 12 pages, 340 KB\n[PDF docs/rfc.pdf sent in the next message]" },
      { role: "user", content: [{ type: "text", text: "The files of the tool results above:" }, file] },
    ]);
  });

  test("an endpoint that takes no PDFs: each is a line saying it was not sent and how to read it, never a file part", () => {
    expect(sent(mentioned, {})).toEqual([{ role: "user", content: `summarize @docs/rfc.pdf\n${LINE}` }]);
    expect(sent(read, {}).slice(2)).toEqual([{ role: "tool", tool_call_id: "c1", content: `docs/rfc.pdf: PDF, 12 pages, 340 KB\n${LINE}` }]);
  });

  test("a refusal of the file part: PDFs go as lines from then on, and the user is told once", () => {
    const options: Adaptable & { pdfs?: boolean } = { pdfs: true };
    expect(adaptToRefusal(options, "unknown variant `file`, expected one of `text`, `image_url`")).toBe(
      "this endpoint takes no PDFs: each PDF of the conversation is sent as a line saying how to read its text",
    );
    expect(adaptToRefusal(options, "unknown variant `file`, expected one of `text`, `image_url`")).toBe(false);
    expect(sent(mentioned, options)).toEqual([{ role: "user", content: `summarize @docs/rfc.pdf\n${LINE}` }]);
  });
});

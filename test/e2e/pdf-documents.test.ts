// "Summarize the RFC in docs/rfc.pdf" with dist/hey: read_file of a PDF puts the document itself in
// the next request (Anthropic: a document block inside the tool result), `@docs/rfc.pdf` attaches it,
// `hey -c` sends it again from the session, and a chat-completions server that takes no PDFs gets a
// line saying how to read its text instead of a part it would refuse (before: "binary file; not shown").
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Protocol } from "../../src/kernel/ir.ts";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { makePdf } from "../helpers/pdf.ts";
import { baseUrlFor, textReply, toolCallsReply } from "../helpers/protocol-streams.ts";
import { jsonReply } from "../helpers/replay-server.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-pdf-");
const PDF = makePdf(3, { text: "RFC 9999: the hey transfer protocol" });
const BASE64 = Buffer.from(PDF).toString("base64");
mkdirSync(join(work.path, "docs"));
writeFileSync(join(work.path, "docs", "rfc.pdf"), PDF);
writeFileSync(join(work.path, "spec20.pdf"), makePdf(20, { text: "a spec of twenty pages" }));
writeFileSync(join(work.path, "broken.pdf"), `%PDF-1.7\n${"junk ".repeat(600)}`);

const envOf = (home: string) => ({
  HOME: home,
  XDG_CONFIG_HOME: `${home}/.config`,
  XDG_STATE_HOME: `${home}/.state`,
  XDG_DATA_HOME: `${home}/.data`,
  XDG_CACHE_HOME: `${home}/.cache`,
});
const run = (protocol: Protocol, home: string, ...args: string[]) =>
  runHey(["--base-url", baseUrlFor(protocol, server.url), "--protocol", protocol, "-m", "test-model", ...args], { cwd: work.path, env: envOf(home) });

type Anthropic = { messages: { role: string; content: string | { type: string; content?: unknown; source?: { media_type: string; data: string } }[] }[] };
/** The document blocks of request `i`, wherever they sit (a user message, inside a tool result). */
const documentsOf = (i: number) => {
  const blocks = (server.requests.at(i)!.body as Anthropic).messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
  const inner = blocks.flatMap((b) => (b.type === "tool_result" && Array.isArray(b.content) ? (b.content as typeof blocks) : [b]));
  return inner.filter((b) => b.type === "document").map((b) => b.source);
};

test("Anthropic: read_file of a PDF sends the document in the tool result, and `hey -c` sends it again (before: 'binary file; not shown')", async () => {
  const home = tempDir("hey-pdf-home-");
  try {
    const before = server.requests.length;
    server.enqueue(
      toolCallsReply("anthropic", [{ id: "toolu_1", name: "read_file", args: { path: "docs/rfc.pdf" } }]),
      textReply("anthropic", "It defines hey."),
    );
    const first = await run("anthropic", home.path, "-p", "summarize the RFC in docs/rfc.pdf");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("It defines hey.");
    expect(server.requests.length - before).toBe(2);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(`docs/rfc.pdf: PDF, 3 pages, ${Math.ceil(PDF.length / 1024)} KB`);
    expect(documentsOf(-1)).toEqual([{ type: "base64", media_type: "application/pdf", data: BASE64 } as never]);

    server.enqueue(textReply("anthropic", "Section 2 is the handshake."));
    const resumed = await run("anthropic", home.path, "-c", "-p", "and what does section 2 say?");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Section 2 is the handshake.");
    expect(documentsOf(-1)).toEqual([{ type: "base64", media_type: "application/pdf", data: BASE64 } as never]);
  } finally {
    home.remove();
  }
});

test("Anthropic: @docs/rfc.pdf in the prompt attaches the document after the text", async () => {
  const home = tempDir("hey-pdf-home-");
  try {
    server.enqueue(textReply("anthropic", "A transfer protocol."));
    const done = await run("anthropic", home.path, "-p", "what is @docs/rfc.pdf about?");
    expect(done.code).toBe(0);
    const user = (server.requests.at(-1)!.body as Anthropic).messages[0]!;
    expect((user.content as { type: string }[]).map((b) => b.type)).toEqual(["text", "document"]);
    expect(documentsOf(-1)).toEqual([{ type: "base64", media_type: "application/pdf", data: BASE64 } as never]);
  } finally {
    home.remove();
  }
});

test("a chat-completions server (not OpenAI's own): the PDF read goes as a line saying it was not sent and how to read its text, and the run answers", async () => {
  const home = tempDir("hey-pdf-home-");
  try {
    server.enqueue(
      toolCallsReply("openai", [{ id: "call_1", name: "read_file", args: { path: "docs/rfc.pdf" } }]),
      textReply("openai", "I will read it with pdftotext."),
    );
    const done = await run("openai", home.path, "-p", "summarize the RFC in docs/rfc.pdf");
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("I will read it with pdftotext.");
    const sent = JSON.stringify(server.requests.at(-1)!.body);
    expect(sent).toContain("[PDF docs/rfc.pdf, 3 pages not sent: this endpoint takes no PDFs; read its text with bash: pdftotext -layout docs/rfc.pdf -]");
    // said once, naming the setting that sends them (before: nothing said)
    expect(done.stderr.split("\n").filter((l) => l.startsWith("hey:"))).toEqual([
      "hey: this endpoint is not known to take PDFs: each is sent as a line saying how to read its text; if it reads them (a LiteLLM, Azure OpenAI or company proxy in front of OpenAI), set pdfs = true under [provider.NAME]",
    ]);
    expect(sent).not.toContain(BASE64);
    expect(sent).not.toContain('"type":"file"');
  } finally {
    home.remove();
  }
});

test("Anthropic: a damaged PDF it refuses ('The PDF specified was not valid') goes as a line and the request is sent again; `hey -c` gets past it too (before: exit 1 on every run)", async () => {
  const home = tempDir("hey-pdf-home-");
  const refusal = () =>
    jsonReply(400, {
      type: "error",
      error: { type: "invalid_request_error", message: "messages.2.content.0.content.1.pdf.source.base64.data: The PDF specified was not valid." },
    });
  const line = "[PDF broken.pdf not sent: the API could not read it (damaged or encrypted?)";
  try {
    const before = server.requests.length;
    server.enqueue(
      toolCallsReply("anthropic", [{ id: "toolu_1", name: "read_file", args: { path: "broken.pdf" } }]),
      refusal(),
      textReply("anthropic", "It is damaged."),
    );
    const first = await run("anthropic", home.path, "-p", "summarize broken.pdf");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("It is damaged.");
    expect(first.stderr).toContain("a PDF is sent as a line saying so, not as a document: the API could not read it (damaged or encrypted?)");
    expect(server.requests.length - before).toBe(3);
    expect(documentsOf(-1)).toEqual([]);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(line);

    // the session keeps the PDF; the resumed run meets the same 400 once and goes on without it
    server.enqueue(refusal(), textReply("anthropic", "Still damaged."));
    const resumed = await run("anthropic", home.path, "-c", "-p", "continue");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Still damaged.");
    expect(documentsOf(-1)).toEqual([]);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(line);
  } finally {
    home.remove();
  }
});

test("a chat-completions proxy with `pdfs = true` in its [provider.NAME] table gets the PDF as a `file` part, and nothing is said (before: always a line, no way to change it)", async () => {
  const home = tempDir("hey-pdf-home-");
  try {
    const config = `[provider.proxy]\nbase_url = "${server.url}/v1"\nmodels = ["qwen2.5-vl"]\n`;
    writeUserConfig(home.path, `${config}pdfs = true\n`);
    server.enqueue(textReply("openai", "Three pages on hey."));
    const sent = await runHey(["-m", "proxy/qwen2.5-vl", "--output", "json", "-p", "summarize @docs/rfc.pdf"], { cwd: work.path, env: envOf(home.path) });
    expect(sent.code).toBe(0);
    const body = JSON.stringify(server.requests.at(-1)!.body);
    expect(body).toContain(`"type":"file","file":{"filename":"rfc.pdf","file_data":"data:application/pdf;base64,${BASE64}"}`);
    expect(jsonEvents(sent.stdout).filter((e) => e.type === "notice")).toEqual([]);

    // without the key: the line, and the notice in JSON naming this provider's table
    writeUserConfig(home.path, config);
    server.enqueue(textReply("openai", "I will read it with pdftotext."));
    const lines = await runHey(["-m", "proxy/qwen2.5-vl", "--output", "json", "-p", "summarize @docs/rfc.pdf"], { cwd: work.path, env: envOf(home.path) });
    expect(lines.code).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)!.body)).not.toContain(BASE64);
    expect(jsonEvents(lines.stdout).filter((e) => e.type === "notice")).toEqual([
      {
        type: "notice",
        message:
          "this endpoint is not known to take PDFs: each is sent as a line saying how to read its text; if it reads them (a LiteLLM, Azure OpenAI or company proxy in front of OpenAI), set pdfs = true under [provider.proxy]",
      },
    ]);
  } finally {
    home.remove();
  }
});

test("a PDF heavier than the whole budget (20 pages, ~60k tokens, default 40k): the user and the model are told it will not stay, once (before: nothing said until it was summarized away)", async () => {
  const home = tempDir("hey-pdf-home-");
  const line =
    "PDF spec20.pdf is ~60k tokens, over the 40k-token budget: it is sent whole now, but left out or summarized after this turn; raise [agent] budget_tokens to keep it";
  try {
    server.enqueue(textReply("anthropic", "Twenty pages of spec."));
    const done = await run("anthropic", home.path, "--output", "json", "-p", "summarize @spec20.pdf");
    expect(done.code).toBe(0);
    expect(jsonEvents(done.stdout).filter((e) => e.type === "notice")).toEqual([{ type: "notice", message: line }]);
    expect(documentsOf(-1).length).toBe(1); // the first request holds it whole
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(line); // and the model reads why it may not keep it
  } finally {
    home.remove();
  }
});

test("read_file of a PDF whose page tree sits in a compressed object stream (PDF 1.5): the binary inflates it and counts its pages", async () => {
  const home = tempDir("hey-pdf-home-");
  const packed = makePdf(4, { compressed: true, text: "a packed report" });
  writeFileSync(join(work.path, "packed.pdf"), packed);
  try {
    server.enqueue(toolCallsReply("anthropic", [{ id: "toolu_p", name: "read_file", args: { path: "packed.pdf" } }]), textReply("anthropic", "Four pages."));
    const r = await run("anthropic", home.path, "-p", "how long is packed.pdf?");
    expect(r.code).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(`packed.pdf: PDF, 4 pages, ${Math.ceil(packed.length / 1024)} KB`);
  } finally {
    home.remove();
  }
});

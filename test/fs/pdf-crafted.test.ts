// A crafted PDF (a read_file, an @file, an MCP resource) cannot make hey inflate gigabytes or search
// a file once per word in it: object streams inflate to a bounded total, the page tree is read in
// one pass, and a PDF too big to send is refused before its pages are counted.
import { describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import { MAX_INFLATED_BYTES, objectStreams, PDF_MAX_BYTES, pdfPages, pdfPart } from "../../src/fs/pdf-bytes.ts";
import { shapeResult } from "../../src/mcp/results.ts";

/** A PDF of object streams, each the deflated `inflated` bytes of spaces (1000:1 and more). */
function bomb(streams: number, inflated: number): string {
  const packed = deflateSync(Buffer.alloc(inflated, 32)).toString("latin1");
  let out = "%PDF-1.5\n";
  for (let i = 0; i < streams; i++)
    out += `${i + 1} 0 obj\n<< /Type /ObjStm /N 1 /First 0 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n${packed}\nendstream\nendobj\n`;
  return out;
}

/** About `mb` MB of `/Type /Pages` words with no `<<` or `>>`, then a real page tree of 7 pages. */
const TREE_WORD = "1 0 obj /Type /Pages /Kids [] endobj\n";
const manyTreeWords = (mb: number) =>
  `%PDF-1.4\n${TREE_WORD.repeat(Math.floor((mb * 1048576) / TREE_WORD.length) - 2)}9 0 obj\n<< /Type /Pages /Count 7 >>\nendobj\n`;

const inflatedTotal = (text: string) => [...objectStreams(text)].reduce((n, s) => n + s.length, 0);

describe("a crafted PDF", () => {
  test("object streams that inflate 1000:1 are left out, as damaged ones are: 10 of 10 MB inflate to nothing", () => {
    const text = bomb(10, 10 << 20);
    expect(text.length).toBeLessThan(150_000);
    expect(inflatedTotal(text)).toBe(0);
    const read = pdfPart(Buffer.from(text, "latin1"), "bomb.pdf");
    expect("line" in read && read.line).toBe(`bomb.pdf: PDF, pages not counted (damaged or encrypted?), ${Math.ceil(text.length / 1024)} KB`);
  });

  test("all object streams together inflate to 16 MB at most: 12 of 3 MB give 5 of them", () => {
    const text = bomb(12, 3 << 20);
    expect(inflatedTotal(text)).toBe(5 * (3 << 20));
    expect(inflatedTotal(text)).toBeLessThanOrEqual(MAX_INFLATED_BYTES);
  });

  test("5 MB of `/Type /Pages` words with no dictionary around them: the real tree's count, in one pass (was minutes)", () => {
    const text = manyTreeWords(5);
    expect(text.length).toBeLessThan(PDF_MAX_BYTES);
    expect(pdfPages(Buffer.from(text, "latin1"))).toBe(7);
  });

  test("20,000 `/Type /ObjStm /FlateDecode` in 5 MB and no stream: the page objects are counted (was a search to the end per word)", () => {
    const word = `1 0 obj << /Type /ObjStm /Filter /FlateDecode /N 1 >> endobj\n%${"x".repeat(180)}\n`;
    const text = `%PDF-1.5\n${word.repeat(20_000)}<< /Type /Page >>\n`;
    expect(text.length).toBeGreaterThan(4 << 20);
    expect(text.length).toBeLessThan(PDF_MAX_BYTES);
    expect(pdfPages(Buffer.from(text, "latin1"))).toBe(1);
  });

  test("a PDF over 5 MB is refused by its size before its pages are counted", () => {
    const text = manyTreeWords(6);
    const read = pdfPart(Buffer.from(text, "latin1"), "big.pdf");
    expect(read).toEqual({ problem: expect.stringContaining("PDF of 6.0 MB is over the 5 MB hey sends") });
  });

  test("an MCP resource's PDF over 5 MB is refused by the length of its base64, not decoded and read", () => {
    const blob = Buffer.from(manyTreeWords(6), "latin1").toString("base64");
    const shaped = shapeResult({ content: [{ type: "resource", resource: { uri: "file:///tmp/big.pdf", mimeType: "application/pdf", blob } }] });
    expect(shaped.text).toBe("[resource file:///tmp/big.pdf (application/pdf) omitted: PDF of 6.0 MB is over the 5 MB hey sends]");
    expect(shaped.documents).toBeUndefined();
  });
});

// What hey tells of a PDF from its bytes alone: that it is one, how many pages it has (the page
// tree's count, also inside a compressed object stream), and when it is too big to send.
import { describe, expect, test } from "bun:test";
import { isPdf, PDF_MAX_BYTES, pdfPages, pdfPart, pdfProblem } from "../../src/fs/pdf-bytes.ts";
import { makePdf } from "../helpers/pdf.ts";

describe("pdf bytes", () => {
  test("a PDF is told by its first bytes, not its name", () => {
    expect(isPdf(makePdf())).toBe(true);
    expect(isPdf(Buffer.from("PDF-1.4 but not at the start"))).toBe(false);
    expect(isPdf(Buffer.from("%PD"))).toBe(false);
  });

  test.each([1, 3, 12])("the page tree's count of a %i-page PDF", (pages) => {
    expect(pdfPages(makePdf(pages))).toBe(pages);
  });

  test("pages whose tree sits in a compressed object stream are counted too", () => {
    const bytes = makePdf(7, { compressed: true });
    expect(Buffer.from(bytes).toString("latin1")).not.toContain("/Count");
    expect(pdfPages(bytes)).toBe(7);
  });

  test("an incremental update's repeated root: the largest count", () => {
    const base = Buffer.from(makePdf(2)).toString("latin1");
    const updated = `${base}2 0 obj\n<< /Type /Pages /Kids [4 0 R 6 0 R 8 0 R] /Count 3 >>\nendobj\n`;
    expect(pdfPages(Buffer.from(updated, "latin1"))).toBe(3);
  });

  test("a PDF without a page tree: its page objects, or nothing", () => {
    expect(pdfPages(Buffer.from("%PDF-1.4\n1 0 obj << /Type /Page >> endobj 2 0 obj << /Type /Page >> endobj", "latin1"))).toBe(2);
    expect(pdfPages(Buffer.from("%PDF-1.4\ngarbage", "latin1"))).toBeUndefined();
  });

  test("over the page limit: an error naming the limit and the ways out, with the file quoted for the shell", () => {
    const problem = pdfProblem(10_000, 240, "my docs/spec.pdf");
    expect(problem).toContain("240 pages is over the 100 pages");
    expect(problem).toContain("pdftotext -layout 'my docs/spec.pdf' -");
    expect(problem).toContain("qpdf --empty --pages 'my docs/spec.pdf' 1-100 -- part.pdf");
  });

  test("over the byte limit: an error naming the size and the limit", () => {
    expect(pdfProblem(PDF_MAX_BYTES + 1024 * 1024, 3, "big.pdf")).toContain("PDF of 6.0 MB is over the 5 MB hey sends");
    expect(pdfProblem(PDF_MAX_BYTES, 100, "ok.pdf")).toBeUndefined();
  });

  test("a PDF sent is a document part with its name and pages, and a line saying so", () => {
    const bytes = makePdf(12);
    const read = pdfPart(bytes, "docs/rfc.pdf");
    if ("problem" in read) throw new Error(read.problem);
    expect(read.part).toEqual({ type: "document", mediaType: "application/pdf", data: Buffer.from(bytes).toString("base64"), name: "docs/rfc.pdf", pages: 12 });
    expect(read.line).toBe(`docs/rfc.pdf: PDF, 12 pages, ${Math.ceil(bytes.length / 1024)} KB`);
  });
});

test("a PDF over 5 MB of a few pages (a 1-page scan): the way out shrinks it, not splitting off pages it does not have", () => {
  const scan = Buffer.concat([Buffer.from(makePdf(1)), Buffer.from(`%${"x".repeat(6 * 1024 * 1024)}\n`)]);
  const read = pdfPart(scan, "scan.pdf");
  expect("problem" in read && read.problem).toBe(
    "PDF of 6.0 MB is over the 5 MB hey sends; read its text with bash (pdftotext -layout scan.pdf -), or shrink it (gs -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook -o small.pdf scan.pdf)",
  );
  // many pages: some of them, or shrunk
  const long = pdfProblem(PDF_MAX_BYTES + 1024 * 1024, 60, "long.pdf")!;
  expect(long).toContain("qpdf --empty --pages long.pdf 1-20 -- part.pdf");
  expect(long).toContain("gs -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook -o small.pdf long.pdf");
});

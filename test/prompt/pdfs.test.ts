// PDFs in the IR: read_file of a PDF and @doc.pdf in a prompt give the model the document itself
// (told by its bytes, whatever its name), and one over the limits is a clear error with ways out.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandPrompt, MentionError } from "../../src/prompt/input.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { tempDir } from "../helpers/e2e.ts";
import { makePdf } from "../helpers/pdf.ts";

const PDF = makePdf(12);
let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
  mkdirSync(join(dir.path, "docs"));
  writeFileSync(join(dir.path, "docs", "rfc.pdf"), PDF);
  writeFileSync(join(dir.path, "docs", "scan.bin"), makePdf(2)); // a PDF under another name
  writeFileSync(join(dir.path, "docs", "long.pdf"), makePdf(140));
  const big = Buffer.alloc(5 * 1024 * 1024 + 1024, 32); // over the 5 MB sent
  Buffer.from(makePdf(1)).copy(big);
  writeFileSync(join(dir.path, "docs", "big.pdf"), big);
});
afterAll(() => dir.remove());

const read = (path: string) => createReadFileTool().run({ path }, { cwd: dir.path, signal: new AbortController().signal });
const prompt = (message: string) => expandPrompt(message, { cwd: dir.path, home: dir.path, maxBytes: 1000, warn: () => {} });

test("read_file on a PDF returns the document, with its pages and size", async () => {
  const result = await read("docs/rfc.pdf");
  expect(result.isError).toBeUndefined();
  expect(result.output).toBe(`docs/rfc.pdf: PDF, 12 pages, ${Math.ceil(PDF.length / 1024)} KB`);
  expect(result.documents).toEqual([
    { type: "document", mediaType: "application/pdf", data: Buffer.from(PDF).toString("base64"), name: "docs/rfc.pdf", pages: 12 },
  ]);
});

test("a PDF is told by its bytes, not its name", async () => {
  const result = await read("docs/scan.bin");
  expect(result.output).toStartWith("docs/scan.bin: PDF, 2 pages");
  expect(result.documents?.[0]?.pages).toBe(2);
});

test("over the page limit or the byte limit: an error naming it and the ways out, never a cut", async () => {
  const long = await read("docs/long.pdf");
  expect(long.isError).toBe(true);
  expect(long.output).toContain("docs/long.pdf: PDF of 140 pages is over the 100 pages hey sends");
  expect(long.output).toContain("pdftotext -layout docs/long.pdf -");
  expect(long.output).toContain("qpdf --empty --pages docs/long.pdf 1-100 -- part.pdf");
  const big = await read("docs/big.pdf");
  expect(big.isError).toBe(true);
  expect(big.output).toContain("is over the 5 MB hey sends");
  expect(big.documents).toBeUndefined();
});

test("@docs/rfc.pdf in a prompt attaches the document after the text", () => {
  expect(prompt("summarize @docs/rfc.pdf")).toEqual([
    { type: "text", text: "summarize @docs/rfc.pdf" },
    { type: "document", mediaType: "application/pdf", data: Buffer.from(PDF).toString("base64"), name: "docs/rfc.pdf", pages: 12 },
  ]);
});

test("@ of a PDF over the limit stops the message with the reason", () => {
  expect(() => prompt("read @docs/long.pdf")).toThrow(MentionError);
  expect(() => prompt("read @docs/long.pdf")).toThrow("@docs/long.pdf: PDF of 140 pages is over the 100 pages hey sends");
});

// PDFs for the model (SPEC §4): recognised by their bytes, their pages counted from the bytes
// without a PDF library, held to what every API that takes one takes. Pure.
import { inflateSync } from "node:zlib";
import type { DocumentPart } from "../kernel/ir.ts";
import { shellWord } from "../kernel/tool-args.ts";
import { toBase64 } from "./image-bytes.ts";

/**
 * The most pages of a PDF sent: Anthropic's per request (docs.claude.com "PDF support": 100 pages,
 * 600 only with a 1M-token context) and OpenAI's file inputs (100 pages per request); Gemini takes 1,000.
 */
export const PDF_MAX_PAGES = 100;

/**
 * The most bytes of a PDF sent (5 MB, 6.7 MB as base64): a session line holds at most 8 MB
 * (sessions/lines.ts MAX_LINE_BYTES), so a bigger one would come back from `hey -c` without its
 * PDF; every API takes this much (Anthropic and OpenAI 32 MB a request, Gemini 20 MB inline).
 */
export const PDF_MAX_BYTES = 5 * 1024 * 1024;

/** Whether `bytes` start a PDF: `%PDF-` (a few bytes of junk before it are allowed by readers, not here). */
export const isPdf = (bytes: Uint8Array): boolean => bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === "%PDF-";

/** Object streams inflated to look for the page tree, at most: a PDF of many thousand objects is not read whole twice. */
const MAX_OBJECT_STREAMS = 256;

/**
 * The pages of the PDF `bytes`, or undefined when they cannot be told. The page tree's root states
 * the count (`/Type /Pages … /Count N`, the largest such count, as an incremental update repeats
 * the root); where the tree sits in compressed object streams (PDF 1.5+), those are inflated and
 * read the same way; failing both, the `/Type /Page` objects are counted.
 */
export function pdfPages(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const plain = treeCount(text);
  if (plain !== undefined) return plain;
  const streams = objectStreams(text);
  for (const s of streams) {
    const count = treeCount(s);
    if (count !== undefined) return count;
  }
  const leaves = pageObjects(text) + streams.reduce((n, s) => n + pageObjects(s), 0);
  return leaves > 0 ? leaves : undefined;
}

/** The largest `/Count` of a `/Type /Pages` dictionary in `text`, or undefined. */
function treeCount(text: string): number | undefined {
  let best: number | undefined;
  for (const m of text.matchAll(/\/Type\s*\/Pages\b/g)) {
    const start = text.lastIndexOf("<<", m.index);
    const end = text.indexOf(">>", m.index);
    const dict = text.slice(Math.max(0, start), end < 0 ? m.index + 200 : end);
    const count = /\/Count\s+(\d+)/.exec(dict)?.[1];
    if (count !== undefined) best = Math.max(best ?? 0, Number(count));
  }
  return best;
}

const pageObjects = (text: string) => text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;

/** The inflated text of each FlateDecode object stream (`/Type /ObjStm`) of `text`. */
function objectStreams(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\/Type\s*\/ObjStm\b/g)) {
    if (out.length >= MAX_OBJECT_STREAMS) break;
    const open = text.indexOf("stream", m.index);
    if (open < 0 || !/FlateDecode/.test(text.slice(m.index, open))) continue;
    const start = open + (text[open + 6] === "\r" ? 8 : 7);
    const end = text.indexOf("endstream", start);
    if (end < 0) continue;
    try {
      out.push(inflateSync(Buffer.from(text.slice(start, end), "latin1"), { finishFlush: 2 }).toString("latin1"));
    } catch {
      // a damaged or unusually filtered stream: its pages are counted some other way
    }
  }
  return out;
}

/**
 * Why the PDF of `size` bytes and `pages` pages (undefined: not counted) is not sent, or undefined.
 * `file` names it in the ways out, which split it or read its text.
 */
export function pdfProblem(size: number, pages: number | undefined, name: string): string | undefined {
  const file = shellWord(name);
  const text = `read its text with bash (pdftotext -layout ${file} -)`;
  if (pages !== undefined && pages > PDF_MAX_PAGES)
    return `PDF of ${pages} pages is over the ${PDF_MAX_PAGES} pages hey sends; ${text}, or send some pages (qpdf --empty --pages ${file} 1-${PDF_MAX_PAGES} -- part.pdf)`;
  if (size > PDF_MAX_BYTES)
    return `PDF of ${(size / 1048576).toFixed(1)} MB is over the ${PDF_MAX_BYTES / 1048576} MB hey sends; ${text}, or send some pages (qpdf --empty --pages ${file} 1-20 -- part.pdf)`;
  return undefined;
}

/**
 * The PDF `bytes` (the whole file) named `name` as a document part, or why it is not sent
 * (pdfProblem). Counts its pages once.
 */
export function pdfPart(bytes: Uint8Array, name: string): { part: DocumentPart; line: string } | { problem: string } {
  const pages = pdfPages(bytes);
  const problem = pdfProblem(bytes.length, pages, name);
  if (problem) return { problem };
  const part: DocumentPart = { type: "document", mediaType: "application/pdf", data: toBase64(bytes), name, ...(pages === undefined ? {} : { pages }) };
  return { part, line: pdfLine(name, pages, bytes.length) };
}

/** What read_file and an @-mention say of a PDF sent: `FILE: PDF, 12 pages, 340 KB`. */
export const pdfLine = (file: string, pages: number | undefined, size: number) =>
  `${file}: PDF, ${pages === undefined ? "pages not counted" : `${pages} page${pages === 1 ? "" : "s"}`}, ${Math.ceil(size / 1024)} KB`;

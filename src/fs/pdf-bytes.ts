// PDFs for the model (SPEC §4): recognised by their bytes, their pages counted from the bytes
// without a PDF library, held to what every API that takes one takes. Pure.
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

/** A PDF whose pages were not counted is reckoned a page per this many bytes of it, as base64 (weighing it in the context, fitting it to a request). */
const PDF_PAGE_BASE64 = 100 * 1024;

/** The pages of a PDF part: counted, or reckoned from its size (PDF_PAGE_BASE64). */
export const reckonedPages = (p: Pick<DocumentPart, "pages" | "data">) => p.pages ?? Math.ceil(p.data.length / PDF_PAGE_BASE64);

/** Whether `bytes` start a PDF: `%PDF-` (a few bytes of junk before it are allowed by readers, not here). */
export const isPdf = (bytes: Uint8Array): boolean => bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === "%PDF-";

/** Object streams inflated to look for the page tree, at most: a PDF of many thousand objects is not read whole twice. */
const MAX_OBJECT_STREAMS = 256;

/** The most one object stream may inflate to (real ones hold a few hundred objects, KBs): a crafted one inflates 1000:1. */
const MAX_STREAM_BYTES = 4 << 20;

/** The most all object streams of a PDF inflate to together: a 5 MB PDF of such streams is not 5 GB of text. */
export const MAX_INFLATED_BYTES = 16 << 20;

/**
 * How far from `/Type /Pages` its dictionary's `<<`, `>>` and `/Count` are looked for, and from
 * `/Type /ObjStm` its `stream`: a root's flat `/Kids` of several hundred pages fits.
 */
const DICT_WINDOW = 8192;

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
  let leaves = pageObjects(text);
  for (const s of objectStreams(text)) {
    const count = treeCount(s);
    if (count !== undefined) return count;
    leaves += pageObjects(s);
  }
  return leaves > 0 ? leaves : undefined;
}

/**
 * The largest `/Count` of a `/Type /Pages` dictionary in `text`, or undefined. Each part of `text` is
 * searched once: a dictionary starts at its `<<` (or DICT_WINDOW back, or where the last one read
 * ended) and ends at its `>>` (or 200 characters on), so thousands of such words with no `<<` or
 * `>>` are not each a search of the whole file.
 */
function treeCount(text: string): number | undefined {
  let best: number | undefined;
  let covered = 0; // where the last dictionary read ends
  let close: number | undefined; // the first `>>` at or after the match (-1: none), each found once
  for (const m of text.matchAll(/\/Type\s*\/Pages\b/g)) {
    const from = Math.max(covered, m.index - DICT_WINDOW);
    const start = from + Math.max(0, text.slice(from, m.index).lastIndexOf("<<"));
    if (close === undefined || (close >= 0 && close < m.index)) close = text.indexOf(">>", m.index);
    const end = close >= 0 && close - m.index <= DICT_WINDOW ? close : m.index + 200;
    covered = Math.max(covered, end);
    for (const count of text.slice(start, end).matchAll(/\/Count\s+(\d+)/g)) best = Math.max(best ?? 0, Number(count[1]));
  }
  return best;
}

const pageObjects = (text: string) => text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;

/**
 * The inflated text of each FlateDecode object stream (`/Type /ObjStm`) of `text`, one at a time:
 * at most MAX_OBJECT_STREAMS streams of MAX_STREAM_BYTES each, MAX_INFLATED_BYTES in all (a stream
 * that would pass either is left out, as a damaged one is).
 */
export function* objectStreams(text: string): Generator<string> {
  let budget = MAX_INFLATED_BYTES;
  let tried = 0;
  let done = 0; // where the last stream read ends: a stream's data holds no dictionary of its own
  // each found once, so a file of thousands of `/Type /ObjStm` and no `stream` is read once: the first
  // `stream` at or after the match, the last `FlateDecode` before it, the first `endstream` after it
  let open: number | undefined;
  let flate = -1;
  let nextEnd = -1;
  for (const m of text.matchAll(/\/Type\s*\/ObjStm\b/g)) {
    if (tried >= MAX_OBJECT_STREAMS || budget <= 0) return;
    if (m.index < done) continue;
    if (open === undefined || open < m.index) {
      open = text.indexOf("stream", m.index);
      if (open < 0) return;
      flate = m.index + text.slice(m.index, open).lastIndexOf("FlateDecode");
    }
    if (open - m.index > DICT_WINDOW || flate < m.index) continue;
    const start = open + (text[open + 6] === "\r" ? 8 : 7);
    if (nextEnd < start) nextEnd = text.indexOf("endstream", start);
    if (nextEnd < 0) return; // no stream after this one ends either
    tried++;
    done = nextEnd;
    const limit = Math.min(MAX_STREAM_BYTES, budget);
    try {
      // node:zlib is loaded at the first compressed object stream, not with every run that could read a PDF
      const inflated = process
        .getBuiltinModule("node:zlib")
        .inflateSync(Buffer.from(text.slice(start, nextEnd), "latin1"), { finishFlush: 2, maxOutputLength: limit });
      budget -= inflated.length;
      yield inflated.toString("latin1");
    } catch {
      budget -= limit; // a damaged, unusually filtered or oversized stream: its pages are counted some other way
    }
  }
}

/** The pages a way out of the size limit sends: a PDF of no more has nothing to split off. */
const SOME_PAGES = 20;

/** A PDF over PDF_MAX_BYTES still has its pages counted up to this size, so the way out fits it. */
export const PDF_COUNT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Why the PDF of `size` bytes and `pages` pages (undefined: not counted) is not sent, or undefined.
 * `file` names it in the ways out, which split it or read its text.
 */
export function pdfProblem(size: number, pages: number | undefined, name: string): string | undefined {
  const file = shellWord(name);
  const text = `read its text with bash (pdftotext -layout ${file} -)`;
  if (pages !== undefined && pages > PDF_MAX_PAGES)
    return `PDF of ${pages} pages is over the ${PDF_MAX_PAGES} pages hey sends; ${text}, or send some pages (qpdf --empty --pages ${file} 1-${PDF_MAX_PAGES} -- part.pdf)`;
  if (size <= PDF_MAX_BYTES) return undefined;
  // a scan of a few pages is big for its images: sending some of its pages cannot help, shrinking them can
  const shrink = `shrink it (gs -sDEVICE=pdfwrite -dPDFSETTINGS=/ebook -o small.pdf ${file})`;
  const split = `send some pages (qpdf --empty --pages ${file} 1-${SOME_PAGES} -- part.pdf)`;
  const ways = pages !== undefined && pages <= SOME_PAGES ? `${text}, or ${shrink}` : `${text}, ${split}, or ${shrink}`;
  return `PDF of ${(size / 1048576).toFixed(1)} MB is over the ${PDF_MAX_BYTES / 1048576} MB hey sends; ${ways}`;
}

/**
 * The PDF `bytes` (the whole file) named `name` as a document part, or why it is not sent
 * (pdfProblem). Counts its pages once.
 */
export function pdfPart(bytes: Uint8Array, name: string): { part: DocumentPart; line: string } | { problem: string } {
  // too big to send anyway: its pages counted only to say which way out helps
  if (bytes.length > PDF_MAX_BYTES) return { problem: pdfProblem(bytes.length, bytes.length <= PDF_COUNT_MAX_BYTES ? pdfPages(bytes) : undefined, name)! };
  const pages = pdfPages(bytes);
  const problem = pdfProblem(bytes.length, pages, name);
  if (problem) return { problem };
  const part: DocumentPart = { type: "document", mediaType: "application/pdf", data: toBase64(bytes), name, ...(pages === undefined ? {} : { pages }) };
  return { part, line: pdfLine(name, pages, bytes.length) };
}

/**
 * What read_file and an @-mention say of a PDF sent: `FILE: PDF, 12 pages, 340 KB`. Pages hey could
 * not count mostly mean a damaged or encrypted file, which the API may refuse: the line says so.
 */
export const pdfLine = (file: string, pages: number | undefined, size: number) =>
  `${file}: PDF, ${pages === undefined ? "pages not counted (damaged or encrypted?)" : `${pages} page${pages === 1 ? "" : "s"}`}, ${Math.ceil(size / 1024)} KB`;

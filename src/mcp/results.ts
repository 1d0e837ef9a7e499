// An MCP tool result as the model gets it (SPEC §14). Pure. Text parts are joined; images (and
// embedded resources that are images) become IR images (an adapter whose wire takes none names
// them instead) when a model can take them — PNG, JPEG, GIF or WebP by their bytes, whatever the
// server calls them, up to SMALLEST_IMAGE_BYTES: any other, once in the history, would have every later
// request refused — else a line names them; an embedded resource that is a PDF by its bytes becomes
// an IR document when hey sends one of its size (fs/pdf-bytes.ts); other parts are named by what they are;
// `structuredContent` is the JSON text when the server sent no text; `isError` makes an error
// result. Long output is cut, and the caller keeps the full text in a file named in the result.
import { errorText } from "../kernel/errors.ts";
import type { DocumentPart, ImagePart } from "../kernel/ir.ts";
import type { ToolResult } from "../kernel/tool.ts";
import { SMALLEST_IMAGE_BYTES, sniffImage } from "../fs/image-bytes.ts";
import { isPdf, PDF_MAX_BYTES, pdfPart, pdfProblem } from "../fs/pdf-bytes.ts";

/** One MCP result sends at most this much text to the model (seed M10b); the rest goes to a file. */
export const MAX_RESULT_CHARS = 8_000;

/** The parts of a `tools/call` result hey reads; anything else in it is ignored. */
export interface CallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

export interface Shaped {
  text: string;
  isError: boolean;
  images: ImagePart[];
  /** PDFs sent as embedded resources (a page printed to PDF), within what hey sends of one */
  documents?: DocumentPart[];
}

type Part = { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown; uri?: unknown; name?: unknown; resource?: unknown };

/** The result's text, images and error flag. */
export function shapeResult(result: CallResult): Shaped {
  const texts: string[] = [];
  const images: ImagePart[] = [];
  const documents: DocumentPart[] = [];
  const parts = Array.isArray(result.content) ? (result.content as Part[]) : [];
  const take = (image: ImagePart | string) => (typeof image === "string" ? texts.push(image) : images.push(image));
  for (const p of parts) {
    if (typeof p !== "object" || p === null) continue;
    const mime = typeof p.mimeType === "string" ? p.mimeType : "unknown type";
    const pdf = p.type === "resource" ? pdfOf(p.resource) : undefined;
    if (p.type === "text" && typeof p.text === "string") texts.push(p.text);
    else if (p.type === "image" && typeof p.data === "string") take(imageOf(p.data, mime));
    else if (p.type === "audio") texts.push(`[audio ${mime} omitted]`);
    else if (p.type === "resource_link") texts.push(`[resource ${String(p.uri ?? "")}${typeof p.name === "string" ? ` (${p.name})` : ""}]`);
    else if (p.type === "resource" && isImage(p.resource)) take(imageOf(p.resource.blob, p.resource.mimeType));
    else if (pdf) {
      if ("part" in pdf) documents.push(pdf.part);
      texts.push("part" in pdf ? pdf.line : `[resource ${pdf.uri} (application/pdf) omitted: ${pdf.problem.replace(/; read its text.*/, "")}]`);
    } else if (p.type === "resource") texts.push(resourceText(p.resource));
    else texts.push(`[${String(p.type ?? "unknown")} content omitted]`);
  }
  let text = texts.join("\n");
  if (text === "" && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent, null, 2);
  if (text === "" && images.length > 0) text = images.map((i) => `[image ${i.mediaType}]`).join("\n");
  return { text, isError: result.isError === true, images, ...(documents.length > 0 ? { documents } : {}) };
}

/** An image as a model takes it, or the line that stands for it: its kind by its bytes, its size within SMALLEST_IMAGE_BYTES. */
function imageOf(sent: string, declared: string): ImagePart | string {
  // base64 wrapped at 76 columns (Python's encodebytes, MIME) is base64 to atob but not to the APIs, which refuse the request
  const data = sent.replace(/[\t\n\f\r ]+/g, "");
  let kind: string | undefined;
  try {
    if (BASE64.test(data) && data.length % 4 !== 1) kind = sniffImage(Uint8Array.from(atob(data.slice(0, 16)), (c) => c.charCodeAt(0)));
  } catch {} // not base64: no kind
  if (!kind) return `[image ${declared} omitted: not PNG, JPEG, GIF or WebP, the kinds a model takes]`;
  const bytes = Math.floor((data.length * 3) / 4);
  if (bytes > SMALLEST_IMAGE_BYTES)
    return `[image ${kind} of ${(bytes / 1048576).toFixed(1)} MB omitted: over the ${SMALLEST_IMAGE_BYTES / 1048576} MB a model takes]`;
  return { type: "image", mediaType: kind, data };
}

/** Base64 as the APIs read it: its alphabet only, padding at the end (whitespace taken out first). */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Whether an embedded resource is an image (a blob with an image type). */
const isImage = (r: unknown): r is { blob: string; mimeType: string } =>
  typeof r === "object" &&
  r !== null &&
  "blob" in r &&
  typeof r.blob === "string" &&
  "mimeType" in r &&
  typeof r.mimeType === "string" &&
  r.mimeType.startsWith("image/");

/** An embedded resource that is a PDF by its bytes, as a document part (named by its URI) or why it is not sent; undefined for any other. */
function pdfOf(resource: unknown): (ReturnType<typeof pdfPart> & { uri: string }) | undefined {
  const r = resource as { uri?: unknown; blob?: unknown };
  // "JVBERi0" is "%PDF-" in base64: no other blob is decoded
  if (typeof r?.blob !== "string" || !r.blob.trimStart().startsWith("JVBERi0")) return undefined;
  const data = r.blob.replace(/[\t\n\f\r ]+/g, "");
  const uri = String(r.uri ?? "document.pdf");
  const name = uri.replace(/^file:\/\//, "");
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
  if (size > PDF_MAX_BYTES) return { problem: pdfProblem(size, undefined, name)!, uri }; // told from its length: a blob of any size is not decoded
  const bytes = Buffer.from(data, "base64");
  if (!isPdf(bytes)) return undefined;
  return { ...pdfPart(bytes, name), uri };
}

/** An embedded resource: its text (a blob of text decoded), or what it is when it is binary. */
function resourceText(resource: unknown): string {
  if (typeof resource !== "object" || resource === null) return "[resource]";
  const r = resource as { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
  if (typeof r.text === "string") return r.text;
  const mime = typeof r.mimeType === "string" ? r.mimeType : "binary";
  const text = typeof r.blob === "string" && TEXT_TYPE.test(mime) ? utf8(r.blob) : undefined;
  return text ?? `[resource ${String(r.uri ?? "")} (${mime}) omitted]`;
}

/** Media types whose bytes are text (a server may send a text file as a blob). */
const TEXT_TYPE = /^(text\/|application\/([\w.-]+\+)?(json|xml|yaml|x-yaml|javascript|x-sh|sql|toml|csv)\b)/;

/** `base64` decoded as UTF-8 text, or undefined when it is not base64 or not UTF-8. */
function utf8(base64: string): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Whether `text` is over the limit and must be cut (the caller saves it first). */
export const needsCut = (text: string) => text.length > MAX_RESULT_CHARS;

/**
 * The first MAX_RESULT_CHARS characters and a note saying how much was cut and where the rest is
 * (`saved`: the file's path, or why it could not be written).
 */
export function cutText(text: string, saved: { path: string } | { error: string }): string {
  const total = text.length.toLocaleString("en-US");
  const where =
    "path" in saved ? `the full text is in ${saved.path} (read it with read_file offset/limit or grep)` : `the full text could not be saved: ${saved.error}`;
  return `${text.slice(0, MAX_RESULT_CHARS)}\n[cut at ${MAX_RESULT_CHARS.toLocaleString("en-US")} of ${total} characters; ${where}]`;
}

/**
 * The tool result of a shaped call result: text over MAX_RESULT_CHARS is cut, the whole of it
 * saved by `saveFull` (which resolves to the file's path) and named in the cut; `(no output)` for none.
 */
export async function toolResultOf(shaped: Shaped, saveFull: (text: string) => Promise<string>): Promise<ToolResult> {
  let text = shaped.text;
  if (needsCut(text)) {
    const saved = await saveFull(text).then(
      (path) => ({ path }),
      (e: unknown) => ({ error: errorText(e) }),
    );
    text = cutText(text, saved);
  }
  return {
    output: text === "" ? "(no output)" : text,
    ...(shaped.isError ? { isError: true } : {}),
    ...(shaped.images.length ? { images: shaped.images } : {}),
    ...(shaped.documents?.length ? { documents: shaped.documents } : {}),
  };
}

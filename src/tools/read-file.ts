// The read_file tool (SPEC §7): a window of a text file as numbered lines.
import { open, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { resolveUserPath } from "../fs/user-path.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { IMAGE_MAX_BYTES, sniffImage, toBase64 } from "../prompt/image.ts";
import { TOOL } from "../kernel/tool-names.ts";

export const READ_LIMIT = 2000; // lines per call unless `limit` says otherwise
export const READ_LINE_MAX = 2000; // characters kept of one line; the rest is cut
export const READ_OUTPUT_MAX = 100_000; // characters per call, whatever the limit: ~25k tokens
const BINARY_PROBE = 8192; // a NUL byte in the first 8 KB means binary (git's heuristic)

/** `home`: what a leading `~` in a path means (default: the user's home). */
export function createReadFileTool(options: { home?: string } = {}): Tool {
  const home = options.home ?? homedir();
  return {
    name: TOOL.readFile,
    description:
      `Read a text file as numbered lines: up to ${READ_LIMIT} lines (${READ_OUTPUT_MAX / 1000}k chars) from offset; ` +
      `lines over ${READ_LINE_MAX} chars are cut. A note says how to read on. Images (png/jpeg/gif/webp) are shown; other binary files are refused.`,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string" },
        offset: { type: "integer", description: "first line, 1-based" },
        limit: { type: "integer", description: "max lines" },
      },
      required: ["path"],
    },
    run: async (args, ctx) => {
      const { path } = args as { path: string }; // types checked by the pipeline
      if (path === "") return toolError("read_file: `path` must be a non-empty string");
      const offset = lineCount(args.offset, "offset", 1);
      if (typeof offset === "string") return toolError(offset);
      const limit = lineCount(args.limit, "limit", READ_LIMIT);
      if (typeof limit === "string") return toolError(limit);

      const where = resolveUserPath(path, ctx.cwd, home);
      if ("error" in where) return toolError(`read_file: ${where.error}`);
      const { abs } = where;
      const info = await stat(abs).catch((e: NodeJS.ErrnoException) => e);
      if (info instanceof Error) return toolError(info.code === "ENOENT" ? `file not found: ${path}` : `cannot read ${path}: ${info.message}`);
      if (info.isDirectory()) return toolError(`${path} is a directory; list it with bash (ls) or search it with grep`);
      if (!info.isFile()) return toolError(`${path} is not a regular file`);
      if (info.size === 0) return { output: `${path} is empty` };
      const image = await readImage(abs, info.size);
      if (image)
        return image.data
          ? {
              output: `${path}: ${image.mediaType}, ${Math.ceil(info.size / 1024)} KB`,
              images: [{ type: "image", mediaType: image.mediaType, data: image.data }],
            }
          : toolError(`${path}: image of ${(info.size / 1048576).toFixed(1)} MB is over the ${IMAGE_MAX_BYTES / 1048576} MB limit`);
      const utf16 = utf16Of(new Uint8Array(await Bun.file(abs).slice(0, 2).arrayBuffer()));
      if (utf16 && info.size > UTF16_MAX_BYTES) return toolError(`${path} is UTF-16 text over ${UTF16_MAX_BYTES >> 20} MB; convert it to UTF-8 to read it`);
      if (!utf16 && (await isBinary(abs))) return toolError(`${path} is a binary file (NUL byte in the first 8 KB); not shown`);

      // UTF-16 (Windows PowerShell 5.1's `>` writes it) is decoded whole and read as UTF-8
      const chunks = utf16 ? [new TextEncoder().encode(new TextDecoder(utf16).decode(await Bun.file(abs).bytes()))] : Bun.file(abs).stream();
      const window = await readWindow(chunks, offset, limit, ctx.signal);
      if (ctx.signal.aborted) return toolError(`read_file interrupted: ${path}`);
      if (window.lines.length === 0) return toolError(`${path} has ${window.total} line${window.total === 1 ? "" : "s"}; offset ${offset} is past the end`);
      const last = offset + window.lines.length - 1;
      const width = String(last).length;
      let output = window.lines.map((line, i) => `${String(offset + i).padStart(width)}\t${line}`).join("\n");
      const more = window.total - last;
      if (more > 0) output += `\n… ${more} more line${more === 1 ? "" : "s"}; use offset=${last + 1}`;
      if (utf16) output += `\n[${path} is ${utf16.toUpperCase()} text; edit cannot change it, write_file rewrites it as UTF-8]`;
      return { output };
    },
  };
}

/** A 1-based count from the model (an integer, checked by the pipeline); an error message when out of range. */
function lineCount(value: unknown, name: string, fallback: number): number | string {
  if (typeof value !== "number") return fallback;
  const n = value;
  if (n < 0) return `read_file: \`${name}\` must be a positive integer, got ${n}`;
  if (n === 0 && name === "limit") return "read_file: `limit` must be at least 1";
  return Math.max(n, 1); // offset 0 is read as "from the start"
}

/** An image file's media type, and its base64 data when it is small enough to send. */
async function readImage(path: string, size: number): Promise<{ mediaType: string; data?: string } | undefined> {
  const head = new Uint8Array(await Bun.file(path).slice(0, 16).arrayBuffer());
  const mediaType = sniffImage(head);
  if (!mediaType) return undefined;
  if (size > IMAGE_MAX_BYTES) return { mediaType };
  return { mediaType, data: toBase64(new Uint8Array(await Bun.file(path).arrayBuffer())) };
}

/** UTF-16 files are read whole, up to this size (they are rare, and their newlines are not bytes of 10). */
const UTF16_MAX_BYTES = 16 * 1024 * 1024;

/** The encoding a UTF-16 byte-order mark at the start of `head` names, or undefined. */
export function utf16Of(head: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return undefined;
}

async function isBinary(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const probe = new Uint8Array(BINARY_PROBE);
    const { bytesRead } = await handle.read(probe, 0, BINARY_PROBE, 0);
    return probe.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/**
 * Lines `first`.. of a byte stream (at most `limit` lines and READ_OUTPUT_MAX characters, each
 * cut at READ_LINE_MAX, CR of CRLF removed) and the total line count. Streams: memory stays
 * bounded by the window however large the file is; past the window only newlines are counted.
 */
async function readWindow(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, first: number, limit: number, signal: AbortSignal) {
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let size = 0; // characters in `lines`
  let lineNo = 0; // lines completed so far
  let carry = ""; // start of the current line, never longer than READ_LINE_MAX + 1
  let full = false; // the window is complete; only count from here on
  let newlines = 0;
  let lastByte = -1;

  const take = (piece: string) => {
    if (carry.length <= READ_LINE_MAX) carry += piece.slice(0, READ_LINE_MAX + 1 - carry.length);
  };
  const finishLine = () => {
    lineNo++;
    const line = carry;
    carry = "";
    if (lineNo < first || full) return;
    const shown = line.length > READ_LINE_MAX ? `${line.slice(0, READ_LINE_MAX)}… [line cut at ${READ_LINE_MAX} chars]` : line.replace(/\r$/, "");
    if (lines.length > 0 && size + shown.length > READ_OUTPUT_MAX) full = true;
    else {
      lines.push(shown);
      size += shown.length + 8;
      full = lines.length >= limit;
    }
  };

  for await (const chunk of chunks) {
    if (signal.aborted) break;
    if (chunk.length === 0) continue;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
    lastByte = chunk[chunk.length - 1]!;
    if (full) continue;
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1 && !full; nl = text.indexOf("\n", start)) {
      take(text.slice(start, Math.min(nl, start + READ_LINE_MAX + 1)));
      start = nl + 1;
      finishLine();
    }
    if (!full) take(text.slice(start, start + READ_LINE_MAX + 1));
  }
  if (!full) {
    take(decoder.decode());
    if (lastByte !== 10) finishLine();
  }
  const total = newlines + (lastByte !== 10 ? 1 : 0);
  return { lines, total };
}

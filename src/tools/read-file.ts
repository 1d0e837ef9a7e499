// The read_file tool (SPEC §7): a window of a text file as numbered lines.
import type { PathLike } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { diskPath } from "../fs/dir-names.ts";
import { fileChunks, NO_WAIT } from "../fs/file-chunks.ts";
import { ENVIRONMENT_REFUSED, isProcessEnvironment, notRegularFile } from "../fs/special-files.ts";
import { homedir } from "node:os";
import { realTarget } from "../fs/real-target.ts";
import { directorySpelling, resolveUserPath } from "../fs/user-path.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { base64Length, IMAGE_MAX_BYTES, imageProblem, sniffImage, sniffUnsendable, toBase64, unsendable } from "../fs/image-bytes.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { isPdf, PDF_COUNT_MAX_BYTES, pdfPart, pdfProblem } from "../fs/pdf-bytes.ts";
import { singleQuoted } from "../kernel/tool-args.ts";
import { fileNotFound, type NameLookup, otherForm, statNamed } from "./missing-file.ts";
import { cutMark, type SeenFile, type SeenFiles, sawWindow, UNHASHED } from "./seen-files.ts";
import { coveringRead, stubText, withRead } from "./earlier-reads.ts";
import { ENCODING_NAME, type Encoding, keepsStrays, utf16Of, utf8Decoder } from "../fs/text-encoding.ts";
import { keyBlockTracker, withCutKeysHidden } from "./key-lines.ts";

export const READ_LIMIT = 2000; // lines per call unless `limit` says otherwise
export const READ_LINE_MAX = 2000; // characters kept of one line; the rest is cut
export const READ_OUTPUT_MAX = 100_000; // characters per call, whatever the limit: ~25k tokens
const BINARY_PROBE = 8192; // a NUL byte in the first 8 KB means binary (git's heuristic)
const UTF16_MAX_BYTES = 64 * 1024 * 1024; // a UTF-16 file is decoded whole, so only up to this size
/**
 * A file up to this size is read to its end: its lines past the window are counted ("… 1200 more
 * lines"), its bytes hashed, for write_file and edit to tell a change since (seen-files.ts), and its
 * encoding decided on all of them. A larger one is read only as far as the window: counting a
 * 200 MB dump's lines (and hashing and scanning its bytes) to show its first 20 took a second or
 * more. The size is edit's (edit-file.ts EDIT_MAX_BYTES takes it): a file edit changes is one
 * read_file decided the encoding of as edit does, on the whole file, whichever line the odd byte is
 * on (a window's bytes alone showed `naïve café` that edit, reading Windows-1252, could not find).
 * Reading 55 MB to its end to show 20 lines takes about 0.2 s.
 */
export const READ_TO_END_MAX_BYTES = 64 * 1024 * 1024;

/** A hash of a file's bytes: what SeenFiles keeps of it. */
export const contentHash = (bytes: Uint8Array): string => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/**
 * `home`: what a leading `~` in a path means (default: the user's home); `seen`: where each text
 * file read is remembered for write_file, and each result, so that a re-read of unchanged lines
 * still shown whole answers with a note pointing at it (earlier-reads.ts) (shared by a run's file
 * tools and its agent; default: this tool's own); `rg`, `cacheDir`: how a missing file's name is
 * looked up in the project (missing-file.ts NameLookup); `redact`: what a tool result may show of a text
 * (config/secrets.ts redactText), so that a window that cuts a private key block shows the block hidden
 * as a read of the whole file does (tools/key-lines.ts); absent: such a window is shown as it is.
 */
export function createReadFileTool(options: { home?: string; seen?: SeenFiles; shell?: string; redact?: (text: string) => string } & NameLookup = {}): Tool {
  const home = options.home ?? homedir();
  const seen: SeenFiles = options.seen ?? new Map();
  return {
    name: TOOL.readFile,
    description:
      `Read a text file as numbered lines: up to ${READ_LIMIT} lines (${READ_OUTPUT_MAX / 1000}k chars) from offset; ` +
      `lines over ${READ_LINE_MAX} chars are cut. A note says how to read on. Shows images (png/jpeg/gif/webp) and PDFs; refuses other binaries.`,
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
      const { abs, info } = await statNamed(where.abs);
      if (info instanceof Error)
        return toolError(info.code === "ENOENT" ? await fileNotFound(path, abs, ctx.cwd, home, "", options) : `cannot read ${path}: ${info.message}`);
      if (info.isDirectory()) return toolError(`${path} is a directory; list it with bash (ls) or search it with grep`);
      const slash = directorySpelling(path);
      if (slash) return toolError(`read_file: ${slash}`);
      const real = realTarget(abs);
      if (!info.isFile()) return toolError(notRegularFile(path, info, real !== abs ? real : undefined));
      if (isProcessEnvironment(real)) return toolError(`${path} (${real}) is ${ENVIRONMENT_REFUSED}`);
      const disk = diskPath(abs); // a name not UTF-8, as hey writes it (fs/odd-names.ts), is opened by its bytes
      // stat gives 0 for a file the kernel writes as it is read (/proc/cpuinfo): only a read says it is empty
      if (info.size === 0) {
        const head = await headOf(disk, 1).catch((e: NodeJS.ErrnoException) => e);
        if (head instanceof Error) return toolError(`cannot read ${path}: ${head.code ?? head.message}`);
        if (head.length === 0) {
          seen.set(real, { hash: contentHash(new Uint8Array()) });
          return { output: `${path} is empty` };
        }
      }
      const image = await readImage(disk, info.size);
      if (image)
        return image.data
          ? {
              output: `${path}: ${image.mediaType}, ${Math.ceil(info.size / 1024)} KB`,
              images: [{ type: "image", mediaType: image.mediaType, data: image.data }],
            }
          : toolError(`${path}: ${image.problem}`);
      const pdf = await readPdf(disk, info.size, path);
      if (pdf) return "problem" in pdf ? toolError(`${path}: ${pdf.problem}`) : { output: pdf.line, documents: [pdf.part] };
      const utf16 = utf16Of(await headOf(disk, 2));
      if (!utf16 && (await isBinary(disk))) return toolError(`${path} is a binary file (NUL byte in the first 8 KB); not shown`);
      if (utf16 && info.size > UTF16_MAX_BYTES)
        return toolError(
          `${path} is UTF-16 text of ${(info.size / 1048576).toFixed(1)} MB, over the ${UTF16_MAX_BYTES / 1048576} MB read_file decodes; convert it with iconv -f UTF-16 -t UTF-8`,
        );

      // one decision for the whole file, the one edit makes (fs/text-encoding.ts): the first pass reads
      // it all as UTF-8, counting the bytes that are not; a file that is Windows-1252 is read again so.
      // (A file over READ_TO_END_MAX_BYTES, which edit refuses, is decided on the window's bytes.)
      // UTF-16 is decoded whole (its newline bytes cannot be counted on their own) and read as UTF-8
      // the bytes shown are hashed as they stream by: the file as the model saw it, read once
      let hasher = new Bun.CryptoHasher("sha256");
      const stream = () => {
        hasher = new Bun.CryptoHasher("sha256");
        return utf16 ? utf8Of(disk, utf16, hasher) : hashed(fileChunks(disk), hasher);
      };
      const utf8 = utf8Decoder("shown");
      const whole = utf16 !== undefined || info.size <= READ_TO_END_MAX_BYTES;
      let window = await readWindow(stream(), { first: offset, limit, whole }, ctx.signal, utf8.decode, utf8.decode);
      const { scan } = utf8;
      let encoding: Encoding = utf16 ?? "utf-8";
      if (scan.strays > 0 && !keepsStrays(scan)) {
        encoding = "windows-1252";
        const latin = new TextDecoder(encoding);
        window = await readWindow(stream(), { first: offset, limit, whole }, ctx.signal, (chunk, more = true) => latin.decode(chunk, { stream: more }));
      }
      if (ctx.signal.aborted) return toolError(`read_file interrupted: ${path}`);
      if (window.lines.length === 0) return toolError(`${path} has ${window.total} line${window.total === 1 ? "" : "s"}; offset ${offset} is past the end`);
      const last = offset + window.lines.length - 1;
      // a file read only as far as the window has no hash: what the agent saw of it is not known by one
      const hash = window.total === undefined ? UNHASHED : hasher.digest("hex");
      const saw: SeenFile =
        window.total === undefined ? { hash } : sawWindow(seen.get(real), hash, { first: offset, last, total: window.total, cut: window.cut });
      seen.set(real, saw);
      // lines some line of which was cut are not all shown: such a read neither answers nor is answered by a note
      if (window.cut.length === 0 && ctx.callId !== undefined && window.total !== undefined) {
        const earlier = coveringRead(saw.reads, hash, offset, last);
        if (earlier) return { output: stubText(path, offset, last, window.total, earlier) };
      }
      const { rows, next } = options.redact
        ? withCutKeysHidden(window.lines, offset, window.keys, options.redact)
        : { rows: window.lines.map((line, i): [number, string] => [offset + i, line]), next: last + 1 };
      const width = String(rows.at(-1)![0]).length;
      let output = rows.map(([no, line]) => `${String(no).padStart(width)}\t${line}`).join("\n");
      if (window.total === undefined)
        output += `\n… more lines follow in this ${(info.size / 1048576).toFixed(1)} MB file (read_file counts lines only in files up to ${READ_TO_END_MAX_BYTES / 1048576} MB); use offset=${next}`;
      else if (window.total >= next) output += `\n… ${window.total - next + 1} more line${window.total === next ? "" : "s"}; use offset=${next}`;
      // numbering a lone CR (classic Mac line ends) as a line break here would set read_file's line numbers apart from edit's and write_file's
      const cr = window.lines.findIndex((line) => line.includes("\r"));
      if (cr !== -1)
        output += `\n[line ${offset + cr} holds a carriage return (\\r) that ends no line: only \\n breaks lines here (a classic Mac file's CR line ends do not), so old_string must hold the \\r]`;
      if (window.cut.length > 0)
        output += `\n[to see more of a cut line: ${cutLineCommand(options.shell, path.startsWith("~") || abs !== where.abs ? abs : path, window.cut[0]!)}]`;
      if (abs !== where.abs) output = `${otherForm(path, abs)}\n${output}`;
      const shown = (output: string) => {
        if (window.cut.length === 0 && ctx.callId !== undefined && window.total !== undefined)
          seen.set(real, { ...saw, reads: withRead(saw.reads, { hash, first: offset, last, callId: ctx.callId, output }) });
        return { output };
      };
      if (encoding !== "utf-8") return shown(`[${path} is not UTF-8: shown as ${ENCODING_NAME[encoding]}, which edit keeps]\n${output}`);
      if (scan.strays === 0) return shown(output);
      const which = scan.strays === 1 ? `that is not (line ${scan.strayLine})` : `that are not (the first on line ${scan.strayLine})`;
      const kept =
        scan.strays === 1
          ? "its Windows-1252 character, which edit keeps as the byte it is"
          : "their Windows-1252 characters, which edit keeps as the bytes they are";
      return shown(`[${path} is UTF-8 but for ${scan.strays} byte${scan.strays === 1 ? "" : "s"} ${which}: shown as ${kept}]\n${output}`);
    },
  };
}

/**
 * A command that shows the next characters of line `line` of `file`, in the shell the bash tool runs
 * (its ShellChoice name): sed and cut in a POSIX shell; PowerShell indexes the line's characters
 * (`@()` so that a one-line file is not indexed as a string); cmd.exe has no such tool, so it asks
 * PowerShell, which every Windows has.
 */
export function cutLineCommand(shell: string | undefined, file: string, line: number): string {
  const [from, to] = [READ_LINE_MAX, 3 * READ_LINE_MAX]; // 0-based, to exclusive
  if (shell !== "powershell" && shell !== "cmd") return `sed -n ${line}p ${singleQuoted(file)} | cut -c ${from + 1}-${to}`;
  const ps = `-join (@(Get-Content -LiteralPath '${file.replaceAll("'", "''")}' -TotalCount ${line})[-1][${from}..${to - 1}])`;
  return shell === "cmd" ? `powershell -NoProfile -Command "${ps}"` : ps;
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
async function readImage(path: PathLike, size: number): Promise<{ mediaType: string; data?: string; problem?: string } | undefined> {
  const head = await headOf(path, 32);
  const format = sniffUnsendable(head);
  if (format) return { mediaType: format, problem: unsendable(format) };
  const mediaType = sniffImage(head);
  if (!mediaType) return undefined;
  const bytes = base64Length(size) > IMAGE_MAX_BYTES ? head : await readFile(path);
  const problem = imageProblem(bytes, size, mediaType);
  return problem ? { mediaType, problem } : { mediaType, data: toBase64(bytes) };
}

/** A PDF file (by its first bytes) as a document part, or why it is not sent; undefined for any other file. */
async function readPdf(path: PathLike, size: number, name: string) {
  if (!isPdf(await headOf(path, 5))) return undefined;
  return size > PDF_COUNT_MAX_BYTES ? { problem: pdfProblem(size, undefined, name)! } : pdfPart(await readFile(path), name);
}

/** A UTF-16 file as UTF-8 bytes; its own bytes go to `hasher`. */
async function* utf8Of(path: PathLike, encoding: "utf-16le" | "utf-16be", hasher: Bun.CryptoHasher): AsyncGenerator<Uint8Array> {
  const bytes = await readFile(path);
  hasher.update(bytes);
  yield new TextEncoder().encode(new TextDecoder(encoding).decode(bytes));
}

/** `chunks`, each also given to `hasher`. */
async function* hashed(chunks: AsyncIterable<Uint8Array>, hasher: Bun.CryptoHasher): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    hasher.update(chunk);
    yield chunk;
  }
}

const isBinary = async (path: PathLike): Promise<boolean> => (await headOf(path, BINARY_PROBE)).includes(0);

/** The first `size` bytes of the file at `path` (fewer when it is shorter); a read that would wait throws (EAGAIN), as fileChunks does. */
async function headOf(path: PathLike, size: number): Promise<Uint8Array> {
  const handle = await open(path, NO_WAIT);
  try {
    const head = new Uint8Array(size);
    const { bytesRead } = await handle.read(head, 0, size, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Decodes the next chunk of a file; `more` false: the last, so an unfinished character ends there. */
type Decode = (chunk: Uint8Array, more?: boolean) => string;

/**
 * Lines `first`.. of a byte stream (at most `limit` lines and READ_OUTPUT_MAX characters, each
 * cut at READ_LINE_MAX, CR of CRLF removed) and the total line count. Streams: memory stays
 * bounded by the window however large the file is; past the window only newlines are counted,
 * and the bytes given to `rest` (the first pass's UTF-8 scan, which decides the encoding). Unless
 * `whole`, it stops once the window is read, and the total is undefined when lines were left.
 */
async function readWindow(
  chunks: AsyncIterable<Uint8Array>,
  { first, limit, whole }: { first: number; limit: number; whole: boolean },
  signal: AbortSignal,
  decode: Decode,
  rest?: Decode,
) {
  let start = true; // a UTF-8 byte-order mark is not shown
  const lines: string[] = [];
  let size = 0; // characters in `lines`
  let lineNo = 0; // lines completed so far
  let carry = ""; // start of the current line, never longer than READ_LINE_MAX + 1
  let length = 0; // characters in the current line, CR of CRLF included
  let endsInCr = false;
  let full = false; // the window is complete; only count from here on
  let newlines = 0;
  let lastByte = -1;
  const cut: number[] = []; // lines shown cut
  const keys = keyBlockTracker(first); // a key block the window cuts is read to its END line, past the window

  /** Characters `from`..`to` of `text` belong to the current line. */
  const take = (text: string, from: number, to: number) => {
    if (to === from) return;
    length += to - from;
    endsInCr = text.charCodeAt(to - 1) === 13;
    if (carry.length <= READ_LINE_MAX) carry += text.slice(from, Math.min(to, from + READ_LINE_MAX + 1 - carry.length));
  };
  const finishLine = () => {
    lineNo++;
    const line = carry;
    const chars = length - (endsInCr ? 1 : 0);
    [carry, length, endsInCr] = ["", 0, false];
    keys.line(lineNo, line);
    if (lineNo < first || full) return;
    const shown = chars > READ_LINE_MAX ? line.slice(0, READ_LINE_MAX) + cutMark(READ_LINE_MAX, chars) : line.replace(/\r$/, "");
    if (chars > READ_LINE_MAX) cut.push(lineNo);
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
    if (full && !keys.open() && !whole) return { lines, total: undefined, cut, keys: keys.blocks };
    if (full && !keys.open()) {
      rest?.(chunk);
      continue;
    }
    let text = decode(chunk);
    if (start && text !== "") [text, start] = [text.replace(/^\uFEFF/, ""), false];
    let from = 0;
    const reading = () => !full || keys.open();
    for (let nl = text.indexOf("\n"); nl !== -1 && reading(); nl = text.indexOf("\n", from)) {
      take(text, from, nl);
      from = nl + 1;
      finishLine();
    }
    if (reading()) take(text, from, text.length);
  }
  if (!full || keys.open()) {
    const end = decode(new Uint8Array(0), false);
    take(end, 0, end.length);
    if (lastByte !== 10) finishLine();
    keys.finish();
  } else rest?.(new Uint8Array(0), false);
  const total = newlines + (lastByte !== 10 ? 1 : 0);
  return { lines, total, cut, keys: keys.blocks };
}

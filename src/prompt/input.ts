// Reads the files a message mentions and builds the user prompt (SPEC §2). The rules live in
// prompt/mentions.ts; this file only does the reading.
import { existsSync, fstatSync, read, statSync, type Stats } from "node:fs";
import { readHeadBytes } from "../fs/read-head.ts";
import { resolveUserPath } from "../fs/user-path.ts";
import type { ContentBlock, DocumentPart, ImagePart } from "../kernel/ir.ts";
import { isPdf, PDF_MAX_BYTES, pdfPart, pdfProblem } from "../fs/pdf-bytes.ts";
import { base64Length, IMAGE_MAX_BYTES, imageProblem, sniffImage, sniffUnsendable, toBase64, unsendable } from "../fs/image-bytes.ts";
import { diskPath } from "../fs/dir-names.ts";
import { decodeForPrompt } from "../fs/prompt-text.ts";
import { buildPrompt, cutNotice, findMentions, quoteArgument, writeMention, type MentionedFile } from "./mentions.ts";
import { errnoCode } from "../kernel/errors.ts";
import { sameNameOnDiskSync } from "../tools/missing-file.ts";
import type { FilesByName } from "./file-match.ts";
import { join } from "node:path";
import { ENVIRONMENT_REFUSED, isProcessEnvironment, specialKind } from "../fs/special-files.ts";
import { realTarget } from "../fs/real-target.ts";

/** A mentioned file (or stdin) that cannot be used; the message names it. */
export class MentionError extends Error {
  override name = "MentionError";
}

export interface PromptInput {
  cwd: string;
  /** what a leading `~` means */
  home: string;
  /** whole `@path` arguments: these must name a file */
  required?: string[];
  /** what readStdin read */
  stdin?: Uint8Array;
  /** `[input] max_bytes`: the most of stdin and of each file that goes into the prompt */
  maxBytes: number;
  /** told what was cut, and about a path-like `@word` that is no file */
  warn(message: string): void;
  /** `@word`s that are not files but someone else's (an MCP resource, `@SERVER:URI`): left as written, without a word */
  skip?: (word: string) => boolean;
  /** told of each text file that went into the prompt whole: its absolute path and bytes (what the agent has seen of it) */
  saw?: (full: string, bytes: Uint8Array) => void;
  /** why the model's API would refuse an image (over its size, a kind it does not take), which stops the message; undefined = it takes it */
  imageCheck?: (image: ImagePart) => string | undefined;
  /** a file's text as the model may read it, its secrets hidden as in read_file's result (config/secrets.ts redactText) */
  redact?: (text: string) => string;
  /** the project's files from `cwd` by name (tools/project-files.ts): an `@name` that is no path but one file's name attaches that file */
  byName?: FilesByName;
}

/**
 * The user message content for `message` (+ stdin): `@path` tokens that name files expanded to
 * fenced file contents (each cut at `maxBytes`, reading at most one byte more), images
 * (`@shot.png`) attached as image parts after the text. Any other `@word` stays literal
 * (`@types/node`, `@app.route`, an inline `@src` that is a directory), except a `required` one:
 * that is a MentionError, as are special files (FIFOs, devices: refused without being opened),
 * binary files and binary stdin. A leading `~` is the home directory.
 */
/** True when `bytes` is empty or only whitespace (stdin that says nothing). */
export const isBlank = (bytes: Uint8Array | undefined) => !bytes || bytes.every((b) => b === 32 || (b >= 9 && b <= 13));

export function expandPrompt(message: string, opts: PromptInput): ContentBlock[] {
  const required = new Set(opts.required ?? []);
  const files: MentionedFile[] = [];
  const images: (ImagePart | DocumentPart)[] = [];
  for (const { path, looksLikePath, written } of findMentions(message)) {
    if (opts.skip?.(path)) continue;
    const named = writeMention(path); // `@"my notes.txt"` in a message, as it is typed
    const whole = required.has(written.slice(1));
    const where = resolveUserPath(path, opts.cwd, opts.home);
    if ("error" in where && whole) throw new MentionError(`@${where.error}`);
    // a name typed composed (NFC) that is stored decomposed (NFD, as macOS writes names), or the other way round, is the same file
    const full = "abs" in where ? (existsSync(diskPath(where.abs)) ? where.abs : (sameNameOnDiskSync(where.abs) ?? where.abs)) : undefined;
    let file = full === undefined ? undefined : readMention(path, full, opts);
    // no path, but one project file's name (`@cli.ts`): that file, said, as the user may have meant another
    const byName = file === undefined && opts.byName ? opts.byName.named(path) : [];
    if (byName.length > 1 && whole) throw new MentionError(opts.byName!.notice(written, byName));
    if (byName.length > 0) opts.warn(opts.byName!.notice(written, byName));
    if (byName.length === 1) file = readMention(byName[0]!, join(opts.cwd, byName[0]!), opts);
    else if (byName.length > 1) continue;
    if (file === DIRECTORY) {
      if (whole) throw new MentionError(`${named}: is a directory; mention files, or ask hey to look inside it`);
      opts.warn(`${named} is a directory, not a file; it is sent as written`);
    } else if (file && "mediaType" in file) images.push(file);
    else if (file) {
      files.push(opts.redact ? { ...file, text: opts.redact(file.text) } : file);
      if (file.cut) opts.warn(cutNotice(named, file.cut));
    } else if (whole) throw new MentionError(`${named}: no such file (${full})`);
    else if (looksLikePath) opts.warn(`${named} is not a file here; it is sent as written`);
  }
  let stdin: { text: string; cut?: { shown: number }; encoding?: string } | undefined;
  if (opts.stdin) {
    const decoded = decodeForPrompt(opts.stdin, opts.maxBytes);
    if ("binary" in decoded) throw new MentionError("stdin: binary data (a NUL byte near its start); hey takes text on stdin");
    if (decoded.cut) opts.warn(cutNotice("stdin", decoded.cut));
    // `git diff | hey -p "review this"` with no changes: the user is told why the answer found nothing; the model reads the
    // message alone, as a program that never meant to pipe anything (spawnSync, stdin=PIPE) sent it, and may look for itself
    if (isBlank(opts.stdin)) opts.warn(`stdin: empty (${opts.stdin.length === 0 ? "0 bytes" : "only whitespace"}); the message was sent alone`);
    stdin = decoded;
  }
  return [{ type: "text", text: buildPrompt(message, files, stdin) }, ...images];
}

/**
 * The command line's message and whole `@` arguments (CliArgs), with each argument that names an
 * existing file or directory and has whitespace in it (`hey "@my notes.txt" …`) written as one
 * mention (`@"my notes.txt"`): then it is attached, or refused as any whole `@path` is, and the
 * REPL, which reads the message again, sees the same mention. An argument that names nothing stays
 * words (`hey "@john please look"`: only `@john` is a mention, as in any message).
 */
export function spacedArguments(message: string, files: string[], cwd: string, home: string): { message: string; files: string[] } {
  const named = (path: string) => {
    const where = resolveUserPath(path, cwd, home);
    try {
      return "abs" in where && statSync(diskPath(where.abs), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false; // a path through a file (ENOTDIR), one not ours to look at: no file of that name
    }
  };
  let text = message;
  const out = files.map((raw) => {
    const one = findMentions(`@${raw}`);
    if (!/\s/.test(raw) || one[0]?.written === `@${raw}` || !named(raw)) return raw; // `@"a b"` and `@a\ b` are mentions already
    text = quoteArgument(text, raw);
    return writeMention(raw).slice(1);
  });
  return { message: text, files: out };
}

/**
 * Reads at most `maxBytes` + 1 bytes of stdin into memory (one more than fits says there is more;
 * `< /dev/zero` costs nothing). Past that, a pipe's rest is read in the background and thrown away
 * while the run goes on (stdinDrained waits for it), so its writer ends as it would have, not on
 * SIGPIPE (`set -o pipefail` fails a CI step on that). A stdin open only for writing (what `nohup`
 * puts in place of a terminal) and a device that sent nothing (`</dev/null`) are no input: undefined;
 * an empty pipe or file is input that is empty (`git diff | hey -p review` with no changes). Throws MentionError when stdin cannot be read
 * otherwise (`< somedir`: a mistake to name, not to pass over). When nothing at all has arrived after STDIN_WAIT_NOTICE_MS (an open pipe
 * that sends nothing: `tail -f x | hey`, CI runners, ssh), `warn` is told once, and the wait goes
 * on: a slow producer's input still counts.
 */
export async function readStdin(maxBytes: number, warn?: (message: string) => void): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let got = 0;
  const notice = warn && setTimeout(() => warn(STDIN_WAIT_NOTICE), STDIN_WAIT_NOTICE_MS);
  try {
    while (got <= maxBytes) {
      const buf = new Uint8Array(Math.min(STDIN_CHUNK_BYTES, maxBytes + 1 - got));
      const n = await readInto(buf);
      clearTimeout(notice);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      got += n;
    }
  } catch (e) {
    // not open for reading: GNU nohup's stand-in for a terminal (`nohup hey -p … &`), `0>/dev/null`; no input, as </dev/null
    if (errnoCode(e) === "EBADF" && got === 0) return undefined;
    throw new MentionError(`stdin: cannot read (${errnoCode(e) ?? String(e)})`);
  } finally {
    clearTimeout(notice);
  }
  if (got > maxBytes && isPipe(0)) rest = discardRest(); // a file or a device has no writer to wait for
  if (got === 0 && isDevice(0)) return undefined; // `</dev/null`: no input asked for, unlike an empty pipe or file
  return Buffer.concat(chunks);
}

/** The rest of a piped stdin past the cap being read and thrown away (readStdin); settles at its end or at a read error. */
let rest: Promise<void> | undefined;

async function discardRest(): Promise<void> {
  const buf = new Uint8Array(STDIN_CHUNK_BYTES); // one buffer, read into again and again: memory stays flat whatever comes
  try {
    // a pause after each buffer's worth: a log or a build goes on at its own pace, an endless writer (`yes`) waits on the pipe instead of a core
    let since = 0;
    for (let n = await readInto(buf); n > 0; n = await readInto(buf))
      if ((since += n) >= buf.length) {
        since = 0;
        await Bun.sleep(DISCARD_PAUSE_MS);
      }
  } catch {
    // a read that fails ends the discarding: its writer is told by its own write
  }
}

/** The pause after each buffer's worth thrown away: at most 256 KB each 5 ms, ~50 MB/s, far above what a build or a test run writes. */
const DISCARD_PAUSE_MS = 5;

/**
 * Waits, before hey exits, for the rest of a piped stdin past the cap to be read to its end, at
 * most STDIN_DRAIN_WAIT_MS: an endless writer (`yes | hey -p …`) then gets SIGPIPE, as it did
 * before. Resolves at once when nothing is being discarded.
 */
export async function stdinDrained(): Promise<void> {
  if (!rest) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([rest, new Promise<void>((done) => (timer = setTimeout(done, STDIN_DRAIN_WAIT_MS)))]);
  clearTimeout(timer);
}

/**
 * How long hey waits at its end for the writer of a stdin past the cap to finish, the rest having
 * been read and thrown away all through the run: a `git diff` or a log is done long before; an
 * endless one (`yes`) is not waited for any longer.
 */
export const STDIN_DRAIN_WAIT_MS = 5000;

const readInto = (buf: Uint8Array) => new Promise<number>((done, fail) => read(0, buf, 0, buf.length, null, (e, k) => (e ? fail(e) : done(k))));

/** Whether `fd` is a character device (`</dev/null`). */
function isDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/** Whether `fd` is a pipe or a socket: one with a writer that a read left unfinished would kill with SIGPIPE. */
function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/** How long stdin may stay silent before hey says it is waiting for it. */
const STDIN_WAIT_NOTICE_MS = 3000;
const STDIN_WAIT_NOTICE = "waiting for stdin (it is an open pipe); pass </dev/null to skip it";

/** Reads of stdin are this big at most: memory grows with what arrives, not with the cap. */
const STDIN_CHUNK_BYTES = 256 * 1024;

/** Bytes enough to recognise an image (WebP's and HEIC's marks end at byte 12). */
const IMAGE_SNIFF_BYTES = 32;

/** What readMention says of a directory: an inline `@dir` stays text, a whole-argument one is an error. */
const DIRECTORY = "directory";

function readMention(
  path: string,
  full: string,
  { maxBytes, saw, imageCheck }: PromptInput,
): MentionedFile | ImagePart | DocumentPart | typeof DIRECTORY | undefined {
  let stat: Stats;
  try {
    stat = statSync(diskPath(full)); // a name as hey writes it (fs/odd-names.ts) is opened by its bytes
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return DIRECTORY;
  if (!stat.isFile()) throw new MentionError(`${writeMention(path)}: ${specialKind(stat)}, not a regular file; only files can be mentioned`);
  const real = realTarget(full);
  if (isProcessEnvironment(real)) throw new MentionError(`${writeMention(path)} (${real}): ${ENVIRONMENT_REFUSED}`);
  let head: { bytes: Uint8Array; size: number };
  const readUpTo = (n: number) => {
    try {
      return readHeadBytes(diskPath(full), n);
    } catch (e) {
      throw new MentionError(`${writeMention(path)}: cannot read (${errnoCode(e) ?? String(e)})`);
    }
  };
  head = readUpTo(Math.max(maxBytes, IMAGE_SNIFF_BYTES) + 1);
  const mediaType = sniffImage(head.bytes);
  if (mediaType) {
    if (base64Length(head.size) <= IMAGE_MAX_BYTES && head.size > head.bytes.length) head = readUpTo(head.size);
    const problem = imageProblem(head.bytes, head.size, mediaType);
    if (problem) throw new MentionError(`${writeMention(path)}: ${problem}`);
    const image: ImagePart = { type: "image", mediaType, data: toBase64(head.bytes) };
    const refused = imageCheck?.(image);
    if (refused) throw new MentionError(`${writeMention(path)}: ${refused}`);
    return image;
  }
  if (isPdf(head.bytes)) {
    if (head.size <= PDF_MAX_BYTES && head.size > head.bytes.length) head = readUpTo(head.size);
    const pdf = head.size > PDF_MAX_BYTES ? { problem: pdfProblem(head.size, undefined, path)! } : pdfPart(head.bytes, path);
    if ("problem" in pdf) throw new MentionError(`${writeMention(path)}: ${pdf.problem}`);
    return pdf.part;
  }
  const format = sniffUnsendable(head.bytes);
  if (format) throw new MentionError(`${writeMention(path)}: ${unsendable(format)}`);
  const decoded = decodeForPrompt(head.bytes, maxBytes, head.size);
  if ("binary" in decoded) throw new MentionError(`${writeMention(path)}: binary file, cannot be included as text`);
  if (!decoded.cut) saw?.(full, head.bytes);
  return { path, ...decoded };
}

// What the user sees of a run: the terminal display (-p: the answer on stdout, the rest on
// stderr; the REPL: everything on stdout) and, in JSON mode, errors on stderr too. wire.ts
// builds it.
import { closeSync, openSync, readSync } from "node:fs";
import { readHeadBytes } from "../fs/read-head.ts";
import { decodeText } from "../fs/text-encoding.ts";
import { resolveUserPath } from "../fs/user-path.ts";
import { diskPath } from "../fs/dir-names.ts";
import { errnoCode } from "../kernel/errors.ts";
import type { Output } from "../kernel/output.ts";
import { canDraw, isTty, terminalWidth, wantsColor, writer, type Writer } from "./term.ts";
import { createTerminalOutput, type TerminalOptions, type TerminalOutput } from "./terminal.ts";
import { holdNoticesInText } from "./held-notices.ts";
import type { Before } from "./tool-lines.ts";

type Env = Record<string, string | undefined>;

/**
 * -p: only the answer on stdout, the rest on stderr; REPL: everything on stdout, through Node's
 * stream so it interleaves correctly with the prompt.
 */
export function terminalOutput(
  oneShot: boolean,
  env: Env,
  opts: {
    maxRetries: number;
    cwd: string;
    home: string;
    hint: TerminalOptions["hint"];
    asShown: (text: string) => string;
    inUse?: () => { provider: { baseUrl: string } };
  },
): TerminalOutput {
  const options: TerminalOptions = {
    maxRetries: opts.maxRetries,
    stringWidth: terminalWidth,
    // the old lines of a write's diff with their secrets hidden, as read_file showed them to the model
    readBefore: (path) => {
      const before = readBefore(opts.cwd, opts.home, path);
      return typeof before === "string" ? opts.asShown(before) : before;
    },
    hint: opts.hint,
    host: () => hostOf(opts.inUse?.().provider.baseUrl), // the provider answering now (a fallback's), never its credentials
    ...(oneShot ? {} : { cancelKey: "Esc" }),
  };
  // the width is read only once text streams: touching process.stdout costs start-up time
  const columns = (fd: 1 | 2) => () => (fd === 1 ? process.stdout : process.stderr).columns ?? 0;
  const rows = (fd: 1 | 2) => () => (fd === 1 ? process.stdout : process.stderr).rows ?? 0;
  if (!oneShot) {
    const tty = isTty(1);
    const out = { write: (t: string) => void process.stdout.write(t), color: wantsColor(tty, env), tty, columns: columns(1), rows: rows(1) };
    return createTerminalOutput(out, out, options);
  }
  // TERM=dumb: the answer still streams, wrapped, as plain text; no spinner or live lines are drawn on stderr
  const stream = (fd: 1 | 2) => ({
    write: writer(fd).write,
    color: wantsColor(isTty(fd), env),
    tty: fd === 1 ? isTty(fd) : canDraw(fd, env),
    columns: columns(fd),
    rows: rows(fd),
  });
  // the REPL holds its own notices while a turn runs; a -p run's would cut into the streamed answer
  return holdNoticesInText(createTerminalOutput(stream(1), stream(2), options));
}

/** Files larger than this get no diff when write_file replaces them: their size and line count are shown instead. */
const DIFF_READ_MAX_BYTES = 512 * 1024;
/** Files larger than this are not read to count their lines either: only their size is shown. */
const COUNT_LINES_MAX_BYTES = 64 * 1024 * 1024;

/** A file's text before write_file replaces it (for the diff on the terminal); its size when big; undefined when new or unreadable. */
function readBefore(cwd: string, home: string, path: string): Before | undefined {
  const where = resolveUserPath(path, cwd, home);
  if ("error" in where) return undefined;
  try {
    const abs = where.abs;
    // opened without waiting: a FIFO (refused by write_file) must not hang the display
    const { bytes: head, size: bytes } = readHeadBytes(abs, DIFF_READ_MAX_BYTES);
    if (bytes <= DIFF_READ_MAX_BYTES) return decodeText(head).text; // as edit and write_file decode it
    return { bytes, maxBytes: DIFF_READ_MAX_BYTES, ...(bytes <= COUNT_LINES_MAX_BYTES ? { lines: countLines(abs) } : {}) };
  } catch {
    return undefined;
  }
}

/** Files larger than this are not read for the placeholder check: they count as holding no placeholder. */
const FILE_TEXT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A file's text now, as edit and write_file decode it, for the check that no placeholder hey
 * showed is written in place of a value (config/written-placeholders.ts): undefined when there is
 * no such file, "" when it cannot be read or is over FILE_TEXT_MAX_BYTES.
 */
export const fileTextNow =
  (home: string) =>
  (path: string, cwd: string): string | undefined => {
    const where = resolveUserPath(path, cwd, home);
    if ("error" in where) return "";
    try {
      const { bytes, size } = readHeadBytes(diskPath(where.abs), FILE_TEXT_MAX_BYTES);
      return size <= FILE_TEXT_MAX_BYTES ? decodeText(bytes).text : "";
    } catch (e) {
      return errnoCode(e) === "ENOENT" ? undefined : "";
    }
  };

/** The lines of a file as read_file counts them (a last line without "\n" counts), read 1 MB at a time. */
function countLines(abs: string): number {
  const fd = openSync(abs, "r");
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    let lines = 0;
    let last = 10;
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      for (let at = buffer.indexOf(10); at !== -1 && at < n; at = buffer.indexOf(10, at + 1)) lines++;
      last = buffer[n - 1]!;
    }
    return lines + (last === 10 ? 0 : 1);
  } finally {
    closeSync(fd);
  }
}

/** In JSON mode a one-line human-readable error also goes to stderr (SPEC §18), with its hint, and so does a fallback's line. */
export function errorsTo(stream: Writer, hint: (e: { kind: string; message: string; max_tokens?: number }) => string | undefined): Output {
  return {
    emit: (e) => {
      if (e.type === "fallback") stream.write(`hey: ${e.message}\n`); // JSON has its event; a person watching stderr hears of it too
      if (e.type !== "error") return;
      const more = hint(e);
      stream.write(`hey: ${e.message}\n${more ? more + "\n" : ""}`);
    },
  };
}

/** The host (and port) of `url`, without its credentials or path; undefined when there is none. */
const hostOf = (url: string | undefined) => (url && URL.canParse(url) ? new URL(url).host || undefined : undefined);

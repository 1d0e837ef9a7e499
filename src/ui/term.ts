// Standard streams without Node's stream objects: touching process.stdout/stderr/stdin in a
// compiled Bun binary costs ~20 ms of start-up each time (measured: a hello-world that writes
// through process.stdout starts in 39 ms, through Bun.stdout in 20 ms), which is most of the
// §22 budget. The REPL, which needs readline, uses the Node streams; one-shot runs use these.
import { checkReader, READER_CLOSED } from "./reader-check.ts";
import { cellWidth } from "./cell-width.ts";
import { wrapColumns } from "./wrap.ts";

type TtyWrap = { isTTY(fd: number): boolean };

let ttyWrap: TtyWrap | undefined | null;

/** Whether fd 0/1/2 is a terminal; cheap (node:tty alone costs ~15 ms to load). */
export function isTty(fd: 0 | 1 | 2): boolean {
  if (ttyWrap === undefined) {
    try {
      ttyWrap = (process as unknown as { binding(name: string): TtyWrap }).binding("tty_wrap");
    } catch {
      ttyWrap = null;
    }
  }
  if (ttyWrap) return ttyWrap.isTTY(fd);
  return fd === 0 ? Boolean(process.stdin.isTTY) : fd === 1 ? Boolean(process.stdout.isTTY) : Boolean(process.stderr.isTTY);
}

/**
 * TERM=dumb: a terminal that shows text as it comes and takes no escape sequences (Emacs' M-x
 * shell, some editors' and CI's output panes), where colours and cursor moves would show as `^[[…`.
 * TERM unset or empty counts as dumb too, as git and most terminal programs take it — but on
 * Windows, whose console sets no TERM and takes escape sequences.
 */
export const isDumb = (env: Record<string, string | undefined>, platform: string = process.platform) =>
  env.TERM === "dumb" || (!env.TERM && platform !== "win32");

/** Why the REPL does not start in a dumb terminal (isDumb), and what works there. */
export const dumbTerminal = (env: Record<string, string | undefined>) =>
  env.TERM
    ? 'this terminal (TERM=dumb) cannot show hey\'s prompt, which redraws its line and moves the cursor: ask with hey -p "…" (the answer streams here as plain text), or run hey in a terminal emulator (in Emacs: M-x vterm or M-x ansi-term)'
    : 'TERM is not set, so hey cannot tell whether this terminal can show its prompt, which redraws its line and moves the cursor: set TERM to what your terminal is (TERM=xterm-256color for most), or ask with hey -p "…" (the answer streams here as plain text)';

/**
 * Whether what hey writes to a stream gets colours and styles. NO_COLOR (set and not empty) turns
 * them off and wins (no-color.org); FORCE_COLOR turns them on where hey would not use them (a pipe
 * to `less -R`, a CI log), or off with 0 or false, as Node, chalk and other CLIs read it; else a
 * terminal that takes escape sequences gets them. The one place this is decided.
 */
export function wantsColor(tty: boolean, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  return tty && !isDumb(env);
}

/** Whether `fd` is a terminal hey may draw on: colours, a spinner, a line redrawn in place (not TERM=dumb). */
export const canDraw = (fd: 1 | 2, env: Record<string, string | undefined>) => isTty(fd) && !isDumb(env);

/** O_CLOEXEC as /proc/self/fdinfo shows it (Linux's generic value, x64 and arm64 alike) */
const O_CLOEXEC = 0o2000000;

/**
 * Whether `fd` was closed when hey started (`hey -p … >&-`). The runtime then opens /dev/null in
 * its place, close-on-exec — which no descriptor inherited through exec can be — so every write
 * would succeed into nothing. Read from /proc: Linux only (macOS has none; on Windows a Bun.file
 * read that fails ends the process, test/no-rejecting-bun-file.test.ts says why). Bun.file, not
 * node:fs: this module is on the way of `hey --version`, which loads no file system module.
 */
export async function wasClosedAtStart(fd: 0 | 1 | 2): Promise<boolean> {
  if (process.platform !== "linux") return false;
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(await Bun.file(`/proc/self/fdinfo/${fd}`).text())?.[1];
    return flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) !== 0;
  } catch {
    return false;
  }
}

export interface Writer {
  /** writes now (no buffering across calls: streamed text must appear as it arrives) */
  write(text: string): void;
  /** resolves when everything written has reached the file descriptor */
  drain(): Promise<void>;
}

const sinks = new Map<1 | 2, Writer>();
/** What runs once the reader of stdout or stderr goes away, by fd (whenReaderGone). */
const goneHandlers = new Map<1 | 2, (error: unknown) => void>();
/** the fds whose write failed, with the error it failed with (EPIPE: the reader went away; ENOSPC: a full disk) */
const gone = new Map<1 | 2, unknown>();

/** `fd` can be written no more: later writes are dropped quietly, and its handler hears why, once. */
function markGone(fd: 1 | 2, error: unknown): void {
  if (gone.has(fd)) return;
  gone.set(fd, error);
  goneHandlers.get(fd)?.(error);
}

/** stdout (1) or stderr (2) as a Writer over Bun's FileSink. */
export function writer(fd: 1 | 2): Writer {
  let w = sinks.get(fd);
  if (w) return w;
  const sink = (fd === 1 ? Bun.stdout : Bun.stderr).writer();
  let pending: Promise<unknown> = Promise.resolve();
  const close = (error: unknown) => markGone(fd, error); // the reader went away (`hey … | head`): drop the rest quietly, and say so once
  w = {
    write(text) {
      if (text === "" || gone.has(fd)) return;
      try {
        // a write the pipe cannot take at once returns a promise, and its failure (ENOSPC, EPIPE) comes there, not from flush()
        const wrote: unknown = sink.write(text);
        const flushed: unknown = sink.flush();
        if (wrote instanceof Promise || flushed instanceof Promise) {
          const settled = Promise.all([wrote, flushed]).then(() => {}, close); // handled at once: no unhandled rejection
          pending = pending.then(() => settled);
        }
      } catch (e) {
        close(e);
      }
    },
    drain: async () => {
      if (gone.has(fd)) return;
      try {
        await pending;
        await sink.flush();
      } catch (e) {
        close(e);
      }
    },
  };
  sinks.set(fd, w);
  return w;
}

/**
 * Runs `then` with the write's error once the reader of `fd` goes away (a write fails: EPIPE after
 * `| head`, ENOSPC on a full disk), at once when it has gone already; until the returned function is called.
 * A run that writes nothing for a while (text mode's answer comes at the end; a long command in
 * JSON mode) would hear of it only at its next write: while `then` is set, a pipe or socket on
 * `fd` is also looked at every READER_CHECK_MS (reader-check.ts), and a reader gone is a failed write.
 */
export function whenReaderGone(fd: 1 | 2, then: (error: unknown) => void): () => void {
  goneHandlers.set(fd, then);
  if (gone.has(fd)) then(gone.get(fd));
  const stopChecking = isTty(fd) ? () => {} : checkReader(fd, () => markGone(fd, READER_CLOSED));
  return () => {
    stopChecking();
    if (goneHandlers.get(fd) === then) goneHandlers.delete(fd);
  };
}

/**
 * hey stops waiting for the reader of `fd`: what it has not taken yet is dropped and later writes
 * too, and a drain returns at once (a signal ends hey while a reader that reads nothing holds the answer).
 */
export function letGo(fd: 1 | 2): void {
  markGone(fd, new Error("left unread"));
}

/** The error a write to `fd` failed with (EPIPE, ENOSPC…), if one did. */
export function writeFailure(fd: 1 | 2): unknown {
  return gone.get(fd);
}

/** Waits until every writer created so far has drained (before process.exit). */
export async function drainAll(): Promise<void> {
  await Promise.all([...sinks.values()].map((w) => w.drain()));
}

/**
 * The format characters a terminal gives a cell, as wcwidth does (glibc's, which tmux and most Linux
 * terminals take, and xterm's): the soft hyphen, drawn as a hyphen, and Unicode's prepended
 * concatenation marks (the Arabic number sign U+0600, the Syriac abbreviation mark U+070F…), drawn
 * before the digits they span. No regex property names the marks, so they are listed (PropList.txt).
 */
const DRAWN_FORMAT = /^[\u00ad\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}]$/u;

/**
 * The columns of one code point on the terminal, as wcwidth gives them. A combining mark takes none
 * (Bun counts the keycap U+20E3 of `1️⃣` as two, where terminals draw it over the 1); a spacing one
 * (the vowel sign of `कि`, Bun's 0) takes one; a format character (a zero-width space, a direction
 * mark) none, but those terminals draw (DRAWN_FORMAT) one, which Bun counts as none: a soft hyphen
 * in text pasted from the web would put the cursor a column to the left of where the terminal has it.
 */
export function codePointWidth(ch: string): number {
  if (/^[\p{Mn}\p{Me}]$/u.test(ch)) return 0;
  if (/^\p{Cf}$/u.test(ch)) return DRAWN_FORMAT.test(ch) ? 1 : 0;
  if (/^\p{Mc}$/u.test(ch)) return Math.max(1, Bun.stringWidth(ch)); // Bun gives most none; a wide one (U+302E) two
  return Bun.stringWidth(ch);
}

/** The columns `text` takes on the terminal: one rule for all hey lays out, the prompt's (cell-width.ts). */
export const terminalWidth = (text: string): number => cellWidth(text, codePointWidth);

/** `text` word-wrapped to the terminal `fd` writes to, as the REPL wraps its notices (wrap.ts); as it is when that is no terminal. */
export const fitted = (fd: 1 | 2, text: string): string => wrapColumns(text, (fd === 1 ? process.stdout : process.stderr).columns || 0, terminalWidth);

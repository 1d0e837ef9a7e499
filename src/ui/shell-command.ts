// `!COMMAND` at the interactive prompt (issue 28, as Claude Code's `!`): the user's own command, run
// in the configured shell with the terminal — its stdin is the terminal (a question it asks can be
// answered; Ctrl-C stops it), its output is shown as it comes and kept — then offered to the model
// with the next message (`shellNote`), filtered, cut and saved as a bash result is
// (tools/command-result.ts). The REPL lends the terminal (repl.ts) and checks the permission lists
// first; this file runs the command.
import { constants } from "node:os";
import { asShown, showsFiles } from "../tools/bash-output.ts";
import { capture, type Captured, drained, readPipe } from "../tools/capture.ts";
import { clixmlText } from "../tools/clixml.ts";
import { commandResult, type FilterContext, type OutputFiles, type OutputKeeping } from "../tools/command-result.ts";
import { outputDecoder } from "../fs/output-text.ts";
import { goneDirectory } from "../fs/dir-problem.ts";
import { movedFrom } from "../fs/work-dir.ts";
import { errorText } from "../kernel/errors.ts";
import { userRanNote } from "../kernel/user-notes.ts";
import { killTree, killTreeNow, STOP_GRACE_MS } from "../tools/process-tree.ts";
import type { ShellChoice } from "../tools/shell.ts";

/** How a `!` command runs: the configured shell, the tools' environment, the permission lists' word on it. */
export interface UserShell {
  shell: ShellChoice;
  env: Record<string, string | undefined>;
  /** how its output becomes the note, as a bash call's becomes its result */
  keeping: OutputKeeping;
  /** why the permission lists refuse `command` as a bash call, or undefined when they allow it */
  refusal(command: string): string | undefined;
}
/**
 * After Ctrl-C the command has had the terminal's SIGINT already: it gets this long to end on its
 * own (a program that catches it, cleans up and exits 0) before hey ends it: SIGTERM to its tree,
 * and SIGKILL what of it still runs at the end of STOP_GRACE_MS.
 */
const INTERRUPT_GRACE_MS = 1000;

export interface ShellRun {
  /** the exit code; undefined when a signal ended it */
  code: number | undefined;
  /** the signal that ended it (SIGINT after Ctrl-C) */
  signal?: string;
  /** what it printed, stdout and stderr as they came (past 1 MB in a spill file, its head and tail in memory) */
  output: Captured;
}

/**
 * Runs `command` with `shell` in `cwd`; `show` gets each piece of output as it arrives; output past
 * 1 MB spills to `spill` (tools/capture.ts). Returns when the shell has exited and its pipes have drained:
 * a job it left running (`server &`) runs on, and what that prints later is neither shown nor kept.
 * An abort (Ctrl-C) gives the command INTERRUPT_GRACE_MS to end, then SIGTERM and SIGKILL to its
 * tree; when the run returns after one, nothing of that tree runs. Throws only when the shell
 * cannot be started.
 */
export async function runShellCommand(
  command: string,
  opts: {
    shell: ShellChoice;
    env: Record<string, string | undefined>;
    cwd: string;
    signal: AbortSignal;
    show(text: string): void;
    spill?: OutputFiles["spill"];
  },
): Promise<ShellRun> {
  const moved = movedFrom(opts.cwd, (line) => opts.show(`hey: ${line}\n`)); // run at the old path, it would work in a ghost of the project
  if (moved) throw new Error(moved);
  // stdin is the terminal: the command stays in hey's (the foreground) process group to read it,
  // so an abort kills its tree, not a group
  const child = Bun.spawn([opts.shell.program, ...opts.shell.args(command)], {
    cwd: opts.cwd,
    env: opts.env,
    stdin: "inherit",
    stdout: "pipe",
    stderr: "pipe",
    windowsVerbatimArguments: opts.shell.verbatim === true,
  });
  // both pipes into one stream, kept as it came (as the terminal showed it)
  let feed: ReadableStreamDefaultController<Uint8Array> | undefined;
  const kept = capture(new ReadableStream({ start: (c) => void (feed = c) }), opts.spill?.("stdout"));
  let showing = true;
  const decoders = [outputDecoder(), outputDecoder()] as const;
  const take =
    (decoder: ReturnType<typeof outputDecoder>, stream = true) =>
    (chunk: Uint8Array) => {
      if (!showing) return;
      opts.show(decoder.decode(chunk, stream));
      if (chunk.byteLength > 0) feed?.enqueue(chunk);
    };
  // read to their end even after the run, unshown: closing them would kill a job that writes (EPIPE)
  const stderr = opts.shell.name === "powershell" ? clixmlText(child.stderr) : child.stderr; // errors as PowerShell's text, not CLIXML
  const pipes = [readPipe(child.stdout, take(decoders[0])), readPipe(stderr, take(decoders[1]))];
  const runs = () => child.exitCode === null && child.signalCode === null; // not reaped: its pid is still its own
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= Promise.race([child.exited, Bun.sleep(INTERRUPT_GRACE_MS)]).then(() =>
      runs() ? killTree(child.pid, STOP_GRACE_MS - INTERRUPT_GRACE_MS) : undefined,
    );
  };
  // hey leaving at once (Ctrl-C pressed again and again) leaves no command reading the terminal
  const onExit = () => {
    if (runs()) killTreeNow(child.pid);
  };
  if (opts.signal.aborted) stop();
  opts.signal.addEventListener("abort", stop, { once: true });
  process.on("exit", onExit);
  try {
    const code = await child.exited;
    await stopping;
    await drained(pipes);
    for (const decoder of decoders) take(decoder, false)(new Uint8Array(0)); // a last byte held back as the start of a character
    showing = false;
    feed?.close();
    await kept.done;
    const signal = child.signalCode ? String(child.signalCode) : undefined;
    return { code: signal ? undefined : code, ...(signal ? { signal } : {}), output: await kept.finish() };
  } finally {
    opts.signal.removeEventListener("abort", stop);
    process.off("exit", onExit);
  }
}

/** What the user is told when `!COMMAND` could not start `program` in `cwd` (`e`: the spawn's error): the directory when it is gone, else the shell. */
export const cannotRun = (program: string, cwd: string, e: unknown) =>
  `hey: ${movedFrom(cwd) ?? goneDirectory(cwd) ?? `cannot run ${program}: ${errorText(e)}`}`;

/** How a run ended, in a few words: `exit 0`, `exit 2`, `killed by SIGINT`. */
export const ending = (run: Pick<ShellRun, "code" | "signal">) => (run.code !== undefined ? `exit ${run.code}` : `killed by ${run.signal}`);

/**
 * What the model gets with the next message for one `!` command: the command, then its output as
 * a bash result gives it (filtered unless raw, head and tail, the full output saved to `files` and
 * named), how it ended. `redact` hides the secrets hey knows. Never throws.
 */
export async function shellNote(
  command: string,
  run: ShellRun,
  opts: OutputKeeping & FilterContext & { files: OutputFiles; redact: (text: string) => string },
): Promise<string> {
  const redraws = !showsFiles(command);
  const empty: Captured = { head: "", tail: "", hidden: { lines: 0, bytes: 0 }, bytes: 0, foreign: 0 };
  const exitCode = run.code ?? 128 + (run.signal ? (constants.signals[run.signal as NodeJS.Signals] ?? 0) : 0);
  const finished = { stdout: run.output, stderr: empty, exitCode, ended: "exit" as const };
  const notes = run.signal ? [`[${ending(run)}]`] : [];
  const result = await commandResult(finished, command, exitCode, { ...opts, notes, view: (text) => shownText(text, redraws) });
  return opts.redact(userRanNote("a command in their shell (with `!`)", `\n$ ${command}\n${result}`));
}

/** What stands in the note for a full-screen program's screen. */
const SCREEN_LEFT_OUT = "(a full-screen program's screen: not given)";
/**
 * A full-screen program's time on the alternate screen (vim, less and htop at a terminal): from
 * ESC[?1049h (or ?1047h, ?47h) to the matching …l, or to the end when it never left.
 */
const ALT_SCREEN = /\x1b\[\?(?:1049|1047|47)h[^]*?(?:\x1b\[\?(?:1049|1047|47)l|$)/g;
/** Output at least this long that is mostly drawing (cursor moves, colours) is a screen too, without the alternate one. */
const DRAWING_MIN = 1000;
/** Control characters left after the escapes: all but tab, newline and CR (which asShown has dealt with: kept only in a file's content). */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/**
 * A `!` command's output as text for the model: escape sequences removed, (`redraws`) a line
 * redrawn after `\r` (a progress bar) in its last state, backspaces applied, other control
 * characters dropped (newline and tab kept). The screen a full-screen program drew is no text to
 * read: it is SCREEN_LEFT_OUT (the user saw it), with what was printed around it kept.
 */
export function shownText(output: string, redraws = true): string {
  // on a line of its own: after a line break unless one is there already
  const left = (at: number) => `${at === 0 || output[at - 1] === "\n" ? "" : "\n"}${SCREEN_LEFT_OUT}\n`;
  const text = plain(
    output.replace(ALT_SCREEN, (_screen, at: number) => left(at)),
    redraws,
  );
  // drawn without the alternate screen (TERM without one, a program that skips it): mostly cursor moves and colours
  const around = output.replace(ALT_SCREEN, "");
  const drawing = around.length >= DRAWING_MIN && plain(around, redraws).replace(/\s/g, "").length * 10 < around.length;
  return drawing ? SCREEN_LEFT_OUT : text;
}

function plain(text: string, redraws: boolean): string {
  return backspaced(asShown(text, redraws)).replace(CONTROLS, "");
}

/** `text` with each backspace taking back the character before it on its line: a manual page's `_\bX` (underline) and `X\bX` (bold) read as X. */
function backspaced(text: string): string {
  if (!text.includes("\b")) return text;
  const kept: string[] = [];
  for (const c of text) {
    if (c !== "\b") kept.push(c);
    else if (kept.length > 0 && kept.at(-1) !== "\n") kept.pop();
  }
  return kept.join("");
}

/**
 * What moves the cursor to the start of a fresh line only when it is not at one already, on a
 * terminal `columns` wide, as zsh does before its prompt: a row of spaces that fills the line from
 * column 0 (the cursor stays on it, waiting to wrap) but wraps to the next row from anywhere else,
 * then a carriage return and a cleared line. After a `!` command the cursor may stand after the
 * terminal's own `^C` echo or after the command's last output, in an order hey cannot observe (the
 * echo and the SIGINT reach it apart from the output); the terminal itself knows. With no width
 * known, a line break.
 */
export function freshLine(columns: number): string {
  return columns > 0 ? `${" ".repeat(columns)}\r\x1b[K` : "\n";
}

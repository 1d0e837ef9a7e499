// What the model reads of a command that ran (SPEC §13.1), for the bash tool and the user's own
// `!COMMAND` alike: binary streams named, long output filtered (the built-in filter or an external
// one, unless raw), cut to its head and tail, and the full output saved in the session's outputs
// folder (outputs.ts) and named whenever anything was left out.
import { open } from "node:fs/promises";
import { join } from "node:path";
import { newId } from "../kernel/ir.ts";
import { filterOutput, filterStreams, type Unkept } from "./bash-filter.ts";
import { createLineSplitter } from "./line-splitter.ts";
import { formatOutput, isVerbatimCommand, showsFiles, truncateHeadTail, type Hidden } from "./bash-output.ts";
import { CAPTURE_LIMITS, type Captured, sizeText } from "./capture.ts";
import { JOB_LOG_BYTES } from "./job-log.ts";
import { outputDecoder } from "../fs/output-text.ts";
import { ensurePrivateDir, removedAtExit, unsavedNotice } from "./outputs.ts";
import { saveFullOutput } from "./save-full-output.ts";
import { collectAsRead } from "./garbage-watch.ts";
import { type Finished, runProcess } from "./run-process.ts";
import type { ShellChoice } from "./shell.ts";
import { type FilterWatch, filterCannotRun } from "./filter-watch.ts";

/** What the model sees at most, after filtering; the rest is in the full-output file. */
export const MAX_RESULT_LINES = 2000;
export const MAX_RESULT_BYTES = 50 * 1024;
/** An external filter gets this long before hey falls back to the built-in one. */
const FILTER_TIMEOUT_MS = 30_000;

/** How a command's output becomes what the model reads. */
export interface OutputKeeping {
  /** "builtin", "none", or an external command that reads the output on stdin (e.g. "rtk") */
  filter: string;
  /** `--raw`: no filtering at all (truncation still applies) */
  raw: boolean;
  /** where full outputs go, created 0700 when first needed */
  outputDir: string;
  /** what the saved full output hides, as the result does (the secrets hey knows, shaped ones when on); none: kept as printed */
  hide?: (text: string) => string;
  /** the external filter's state over the run (filter-watch.ts): told its failures, asked whether to run it */
  watch?: FilterWatch;
}

/**
 * Where one command's streams spill while it runs, where its full output is saved after, where
 * what a job it left running prints later goes, and a command too long for an argument (long-command.ts): `<outputDir>/<id>.*`.
 */
export interface OutputFiles {
  spill: (stream: "stdout" | "stderr") => () => string;
  full: string;
  job: () => string;
  /** a file for the command itself, named with `extension` (long-command.ts) */
  script: (extension: string) => string;
}

export function outputFiles(outputDir: string): OutputFiles {
  const id = newId();
  const file = (name: string) => () => {
    ensurePrivateDir(outputDir);
    return join(outputDir, `${id}.${name}`);
  };
  return {
    spill: (stream) => () => removedAtExit(file(stream)()),
    full: join(outputDir, `${id}.log`),
    job: file("job.log"),
    script: (extension) => file(extension)(),
  };
}

/** What the external filter runs with: the command's shell, environment, directory and abort. */
export interface FilterContext {
  shell: ShellChoice;
  env: Record<string, string | undefined> | undefined;
  cwd: string;
  signal: AbortSignal;
}

/** A result body and what its text lacks from the middle (a spilled stream's hidden part). */
type Body = { text: string; hidden: Hidden };

/**
 * The text the model reads for `run` of `command`, reported with `exitCode`; `notes` (how it was
 * stopped) follow the output; `view` turns the text of a stream held in memory into what the model
 * reads (a terminal's screen left out, for `!`); `notice` is told, once a run, that full outputs
 * cannot be saved. The spill files of `run` are gone after. Never throws.
 */
export async function commandResult(
  run: Finished,
  command: string,
  exitCode: number,
  opts: OutputKeeping & FilterContext & { files: OutputFiles; notes: string[]; view?: (text: string) => string; notice?: (line: string) => void },
): Promise<string> {
  const text = (c: Captured): Captured & { nul?: true } => {
    if (c.binary) return binaryLine(c);
    return nulsShown(opts.view ? { ...c, head: opts.view(c.head), tail: opts.view(c.tail) } : c);
  };
  let shown = { ...run, stdout: text(run.stdout), stderr: text(run.stderr) }; // what the model reads; `run` is saved whole
  const binary = [run.stdout, run.stderr].some((c) => c.binary);
  const spilled = shown.stdout.hidden.bytes + shown.stderr.hidden.bytes > 0;
  let out = { stdout: joined(shown.stdout), stderr: joined(shown.stderr), exitCode, command };
  // reading the pipes left tens of MB of chunks for the collector; free them before the filter reads the spill file
  if (spilled) Bun.gc(true);
  // megabytes whose ends show as a few lines are `\r` redraws (a progress bar): read whole, as a terminal shows them, they
  // are what the model reads, with nothing "omitted" (of 1.3 MB of redraws, a middle said to hold 0 lines)
  if (spilled && !showsFiles(command) && fitsResult(formatOutput(out))) {
    const whole = async (c: Captured) => {
      const redrawn = await redrawnWhole(c, opts.signal);
      return redrawn ? { ...c, ...redrawn, head: opts.view ? opts.view(redrawn.head) : redrawn.head } : c;
    };
    shown = { ...shown, stdout: await whole(shown.stdout), stderr: await whole(shown.stderr) };
    out = { ...out, stdout: joined(shown.stdout), stderr: joined(shown.stderr) };
  }
  const plain: Body = { text: formatOutput(out), hidden: sum(shown.stdout.hidden, shown.stderr.hidden) };

  let body = plain;
  let filtered = false;
  if (!opts.raw && opts.filter !== "none" && !isVerbatimCommand(command)) {
    const builtin = async (): Promise<Body | undefined> => {
      const text =
        plain.hidden.bytes === 0
          ? await filterOutput(out).then((r) => (r.filtered ? r.text : undefined))
          : await filterStreams({
              stdout: chunksOf(shown.stdout, opts.signal),
              stderr: chunksOf(shown.stderr, opts.signal),
              exitCode,
              unkept: { stdout: unkeptOf(shown.stdout), stderr: unkeptOf(shown.stderr) }, // a middle the chunks lack still counts
            });
      return text === undefined ? undefined : { text, hidden: { lines: 0, bytes: 0 } };
    };
    // after an abort the user is waiting: output in memory is filtered in milliseconds, a spill file's could take seconds
    if (opts.signal.aborted) body = plain.hidden.bytes === 0 ? ((await builtin()) ?? plain) : plain;
    else if (opts.filter === "builtin" || opts.watch?.usable() === false) body = (await builtin().catch(() => undefined)) ?? plain;
    else if (run.stdout.bytes + run.stderr.bytes === 0)
      body = plain; // nothing to filter (mkdir, git add): no process, no file
    else {
      const external = await runFilter(opts, shown, exitCode);
      if ("text" in external) {
        body = external;
        opts.watch?.succeeded();
      } else {
        // the user is told (filter-watch.ts), not the model: only the user can fix the setting; the built-in filter stands in
        if (!opts.signal.aborted) opts.watch?.failed(external.failure, external.unrunnable);
        body = (opts.signal.aborted ? undefined : await builtin().catch(() => undefined)) ?? plain;
      }
    }
    filtered = body !== plain; // a built-in filter that left the output as it was filtered nothing: no full-output file for 5 lines
  }
  const cut = truncateHeadTail(body.text, MAX_RESULT_LINES, MAX_RESULT_BYTES, body.hidden);
  let output = [cut.text, ...opts.notes, ...keptNotes(run, filtered)].join("\n");
  const foreign = shown.stdout.foreign + shown.stderr.foreign;
  if (foreign > 0)
    output += `\n[${foreign} byte${foreign === 1 ? " is" : "s are"} not UTF-8, shown as Windows-1252 (Latin-1) characters; the full output keeps the bytes]`;
  const nul = shown.stdout.nul || shown.stderr.nul;
  if (nul) output += "\n[NUL bytes are shown as \\0; the full output keeps the bytes]";
  if (filtered || cut.truncated || spilled || binary || foreign > 0 || nul) {
    const saved = await saveFullOutput(opts.files.full, run, exitCode, opts.hide);
    output += `\n${saved.note}`;
    const notice = saved.error === undefined ? undefined : unsavedNotice(opts.outputDir, saved.error); // the user is told too, once a run
    if (notice) opts.notice?.(notice);
  }
  return output;
}

/**
 * What the full output lacks of a runaway stream, counted over the whole stream (the filter's own
 * count, when `filtered`, is of the ends it read: chunksOf), and where a job left running goes on printing.
 */
function keptNotes(run: Finished, filtered: boolean): string[] {
  const notes: string[] = [];
  for (const [name, c] of [
    ["stdout", run.stdout],
    ["stderr", run.stderr],
  ] as const)
    if (c.dropped) {
      const ends = endsOf(c);
      const lines = ends.split("\n").length - (ends.endsWith("\n") ? 1 : 0); // as the filter counts them
      const read = filtered
        ? `; the filter read only its first ${sizeText(Buffer.byteLength(c.head))} and last ${sizeText(Buffer.byteLength(c.tail))} (${lines} lines)`
        : "";
      notes.push(
        `[${name} was ${sizeText(c.bytes)}, ${newlines(c.head) + c.hidden.lines + newlines(c.tail)} lines${read}; the full output keeps its first and last ${sizeText((CAPTURE_LIMITS.fileBytes / 2) | 0)}, the ${c.dropped.lines} lines between them dropped]`,
      );
    }
  const job = run.jobLog;
  if (job)
    notes.push(
      job.error
        ? `[a job the command left running holds its output open; what it prints from now on is dropped (could not create ${job.path || "a file for it"}: ${job.error})]`
        : `[a job the command left running holds its output open: what it prints from now on goes to ${job.path} (its last ${sizeText(JOB_LOG_BYTES)} kept; read it with read_file or tail)]`,
    );
  return notes;
}

/**
 * The external filter's output, or why it failed and whether it cannot run at all (filterCannotRun).
 * It reads stderr then stdout on stdin.
 */
async function runFilter(opts: OutputKeeping & FilterContext, run: Finished, exitCode: number): Promise<Body | { failure: string; unrunnable: boolean }> {
  const argv = [opts.shell.program, ...opts.shell.args(opts.filter)];
  const input = readable(async function* () {
    for (const c of [run.stderr, run.stdout]) {
      let last = "";
      for await (const chunk of chunksOf(c, opts.signal)) if (chunk) yield (last = chunk);
      if (last && !last.endsWith("\n")) yield "\n";
    }
  });
  const filter = await runProcess(argv, {
    cwd: opts.cwd,
    env: opts.env,
    timeoutMs: FILTER_TIMEOUT_MS,
    signal: opts.signal,
    input,
    verbatim: opts.shell.verbatim,
  });
  if ("error" in filter) return { failure: filter.error, unrunnable: filterCannotRun(undefined, filter.error) };
  if (filter.ended !== "exit")
    return {
      failure: filter.ended === "timeout" ? `timed out after ${seconds(FILTER_TIMEOUT_MS)} s` : "interrupted",
      unrunnable: filterCannotRun(filter.ended === "timeout" ? "timeout" : undefined),
    };
  // grep and its kind exit 1, silently, when they select no line: `grep -v '^npm WARN'` on a run of warnings only
  const selectedNothing = filter.exitCode === 1 && filter.stdout.bytes === 0 && filter.stderr.bytes === 0;
  if (filter.exitCode !== 0 && !selectedNothing)
    return {
      failure: `exit code ${filter.exitCode}${filter.stderr.bytes ? `: ${joined(filter.stderr).trim().slice(0, 200)}` : ""}`,
      unrunnable: filterCannotRun(filter.exitCode, undefined, joined(filter.stderr)),
    };
  const text = `[output filtered by \`${opts.filter}\`]\n${joined(filter.stdout).replace(/\n$/, "")}\n[exit code ${exitCode}]`;
  return { text, hidden: filter.stdout.hidden };
}

/**
 * A stream that is binary data (`cat logo.png`, `git show HEAD:app.bin`) as one line saying so:
 * decoded as text it is kilobytes of noise in the context. Its bytes stay in the full-output file.
 */
function binaryLine(c: Captured): Captured {
  const text = `[binary output: ${c.bytes} bytes, not shown; pipe it through od -c | head to see its start]`;
  return { head: text, tail: "", hidden: { lines: 0, bytes: 0 }, bytes: c.bytes, foreign: 0 };
}

/** Text with a few NUL bytes in it (`cat /proc/self/environ`, a log with a stray one): each reads `\0`. */
function nulsShown(c: Captured): Captured & { nul?: true } {
  if (!c.head.includes("\0") && !c.tail.includes("\0")) return c;
  return { ...c, head: c.head.replaceAll("\0", "\\0"), tail: c.tail.replaceAll("\0", "\\0"), nul: true };
}

/** Of a stream whose middle was neither spilled nor dropped but lost (no file could be made): the line chunksOf puts in its place, and all its lines. */
const unkeptOf = (c: Captured): Unkept | undefined =>
  c.hidden.bytes > 0 && !c.spill && !c.dropped
    ? { line: unkeptLine(c), lines: newlines(c.head) + c.hidden.lines + newlines(c.tail) + (/[^\n]$/.test(c.tail) ? 1 : 0) }
    : undefined;
const unkeptLine = (c: Captured) => `… ${c.hidden.bytes} bytes could not be kept (${c.spillError}) …`;

/** A stream's text in memory: all of it, or its head and tail (the caller accounts for `hidden`). */
const joined = (c: Captured) => c.head + c.tail;

/**
 * A stream's text as the filter reads it: from its spill file when it has one, else from memory;
 * of a runaway stream (its file capped, `dropped`), only the ends memory kept: `yes` filled the
 * file with 32 million lines whose filtering held the call 7 s past its timeout. Throws once `signal` is aborted.
 */
async function* chunksOf(c: Captured, signal: AbortSignal): AsyncGenerator<string> {
  if (c.dropped) {
    yield endsOf(c);
    return;
  }
  if (!c.spill) {
    yield c.head;
    if (c.hidden.bytes > 0) yield `${c.head === "" || c.head.endsWith("\n") ? "" : "\n"}${unkeptLine(c)}\n${c.tail}`; // the head ends at a line's end (capture.ts)
    return;
  }
  // one buffer, reused: reading 50 MB through fresh chunks left ~15 MB more garbage at the peak
  const file = await open(c.spill, "r");
  const buffer = new Uint8Array(READ_CHUNK_BYTES);
  const decoder = outputDecoder();
  try {
    for (let n: number; (n = (await file.read(buffer, 0, buffer.length, null)).bytesRead) > 0; ) {
      signal.throwIfAborted();
      collectAsRead(n); // each piece's text is garbage once the filter has read it
      yield decoder.decode(buffer.subarray(0, n)).replaceAll("\0", "\\0");
    }
    yield decoder.decode(new Uint8Array(0), false);
  } finally {
    await file.close();
  }
}

const READ_CHUNK_BYTES = 64 * 1024;

/** Whether `text` is within the result's budgets, so truncation would leave it whole. */
const fitsResult = (text: string) => Buffer.byteLength(text) <= MAX_RESULT_BYTES && newlines(text) < MAX_RESULT_LINES;

/**
 * A spilled stream's whole text as a terminal shows it (redraws collapsed, escapes gone, as the filter
 * reads it), when that fits in memory's limit; undefined when it does not, when a line is longer than
 * the filter reads, or when the file cannot be read. Never throws.
 */
async function redrawnWhole(c: Captured, signal: AbortSignal): Promise<Pick<Captured, "head" | "tail" | "hidden"> | undefined> {
  if (!c.spill || c.dropped || c.binary || c.hidden.bytes === 0) return undefined;
  const lines: string[] = [];
  let bytes = 0;
  let cut = false;
  const split = createLineSplitter((line, length) => {
    cut ||= length > line.length;
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  });
  try {
    for await (const chunk of chunksOf(c, signal)) {
      split.push(chunk);
      if (cut || bytes > CAPTURE_LIMITS.memoryBytes) return undefined;
    }
  } catch {
    return undefined;
  }
  split.end();
  return cut ? undefined : { head: lines.join("\n"), tail: "", hidden: { lines: 0, bytes: 0 } };
}

/** Text from an async generator as a byte stream, pulled as the reader wants it (a filter that stops reading early stops it). */
function readable(chunks: () => AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const it = chunks();
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await it.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await it.return(undefined);
    },
  });
}

const newlines = (text: string) => text.split("\n").length - 1;

/** The ends memory kept of a runaway stream, as the filter reads them: the head's last line, cut short, ended before the tail. */
const endsOf = (c: Captured) => (c.head === "" || c.head.endsWith("\n") ? c.head : `${c.head}\n`) + c.tail;

const sum = (a: Hidden, b: Hidden): Hidden => ({ lines: a.lines + b.lines, bytes: a.bytes + b.bytes });

/** Milliseconds as seconds with one decimal, as results say them. */
export const seconds = (ms: number) => String(Math.round(ms / 100) / 10);

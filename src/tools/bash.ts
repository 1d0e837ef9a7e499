// The bash tool (SPEC §7, §13.1): one shell command in a fresh process group, its output
// captured, filtered and truncated, the full output kept in the user's cache (outputs.ts) when
// anything was cut.
import { open, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { newId } from "../kernel/ir.ts";
import { abortReason, type Tool, type ToolContext, type ToolResult } from "../kernel/tool.ts";
import { filterOutput, filterStreams } from "./bash-filter.ts";
import { formatOutput, isVerbatimCommand, truncateHeadTail, type Hidden } from "./bash-output.ts";
import { capture, drained, type Captured } from "./capture.ts";
import { places } from "../fs/places.ts";
import { outputDecoder } from "../fs/output-text.ts";
import { ensurePrivateDir } from "./outputs.ts";
import { listProcesses } from "./process-tree.ts";
import { guarded, release } from "./group-guard.ts";
import type { ShellChoice } from "./shell.ts";
import { errorText } from "../kernel/errors.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { liveTail } from "./live-tail.ts";

export const MAX_TIMEOUT_MS = 600_000;
/** What the model sees at most, after filtering; the rest is in the full-output file. */
export const MAX_RESULT_LINES = 2000;
export const MAX_RESULT_BYTES = 50 * 1024;
/** SIGTERM first so test runners can clean up; the group gets SIGKILL after this. */
const KILL_GRACE_MS = 200;
const KILL_POLL_MS = 20;
/**
 * After SIGKILL the group's processes take a moment to be gone (a 1-in-20 test run still saw a
 * dying `sleep`); the call waits up to this long so that when it returns nothing of the group runs.
 */
const KILL_WAIT_MS = 1000;
/** An external filter gets this long before hey falls back to the built-in one. */
const FILTER_TIMEOUT_MS = 30_000;
/** Exit code reported on timeout, as timeout(1) does. */
const TIMEOUT_EXIT_CODE = 124;

export interface BashToolOptions {
  shell: ShellChoice;
  /** default per call (`[tools] bash_timeout_ms`) */
  timeoutMs: number;
  /** the most a call may ask for with `timeout_ms` */
  maxTimeoutMs?: number;
  /** "builtin", "none", or an external command that reads the output on stdin (e.g. "rtk") */
  filter: string;
  /** `--raw`: no filtering at all (truncation still applies) */
  raw: boolean;
  /** where full outputs go, created 0700 when first needed: the session's folder under outputs.ts's root by default */
  outputDir?: string;
  /** the commands' environment, or what makes it before each command; process.env by default */
  env?: Env | (() => Env);
}

type Env = Record<string, string | undefined>;

/** The bash tool. `run` never throws: spawn failures, non-zero exits, timeouts and aborts are error results. */
export function createBashTool(opts: BashToolOptions): Tool {
  const maxTimeoutMs = Math.max(opts.maxTimeoutMs ?? MAX_TIMEOUT_MS, opts.timeoutMs);
  const outputDir = opts.outputDir ?? join(places(process.env, homedir(), process.cwd(), process.platform).outputsDir, newId());
  const cut = `cut to ${MAX_RESULT_LINES} lines/${MAX_RESULT_BYTES >> 10} KB; the full output is saved to a file named in the result.`;
  const description =
    `Run a ${opts.shell.label ? "command in the working directory with " + opts.shell.label : "shell command in the working directory"}, stdin closed. ` +
    `timeout_ms defaults to ${opts.timeoutMs}, max ${maxTimeoutMs}. ` +
    (opts.raw || opts.filter === "none"
      ? `Long output is ${cut}`
      : `Long output (never git diff/status/log/show) is filtered to errors, warnings, summaries, first and last lines, then ${cut}`);
  return {
    name: TOOL.bash,
    description,
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, timeout_ms: { type: "integer" } },
      required: ["command"],
    },
    run: (args, ctx) => runBash({ ...opts, outputDir, env: typeof opts.env === "function" ? opts.env() : opts.env }, maxTimeoutMs, args, ctx),
  };
}

/** A result body and what its text lacks from the middle (a spilled stream's hidden part). */
type Body = { text: string; hidden: Hidden };

async function runBash(
  opts: Omit<BashToolOptions, "env"> & { outputDir: string; env: Env | undefined },
  maxTimeoutMs: number,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { command, timeout_ms: asked } = args as { command: string; timeout_ms?: number }; // types checked by the pipeline
  if (command.trim() === "") return { output: "bash: `command` must be a non-empty string", isError: true };
  const timeoutMs = asked !== undefined && asked > 0 ? Math.min(asked, maxTimeoutMs) : opts.timeoutMs;
  if (ctx.signal.aborted) return { output: `[${abortReason(ctx.signal)} before the command started]`, isError: true };
  const id = newId();
  const spill = (stream: string) => () => {
    ensurePrivateDir(opts.outputDir);
    return join(opts.outputDir, `${id}.${stream}`);
  };

  const live = ctx.output ? liveTail(ctx.output) : undefined; // the terminal's last lines while it runs
  const run = await runProcess([opts.shell.program, ...opts.shell.args(command)], {
    cwd: ctx.cwd,
    env: opts.env,
    timeoutMs,
    signal: ctx.signal,
    spill,
    verbatim: opts.shell.verbatim,
    guard: true,
    listen: live?.take,
  }).finally(() => live?.stop());
  if ("error" in run) return { output: `bash: could not start ${opts.shell.program}: ${run.error}`, isError: true };
  const exitCode = run.ended === "timeout" ? TIMEOUT_EXIT_CODE : run.exitCode;
  const shown = { ...run, stdout: textOnly(run.stdout), stderr: textOnly(run.stderr) }; // what the model reads; `run` is saved whole
  const binary = shown.stdout !== run.stdout || shown.stderr !== run.stderr;
  const out = { stdout: joined(shown.stdout), stderr: joined(shown.stderr), exitCode, command };
  const plain: Body = { text: formatOutput(out), hidden: sum(shown.stdout.hidden, shown.stderr.hidden) };

  // reading the pipes left tens of MB of chunks for the collector; free them before the filter reads the spill file
  if (plain.hidden.bytes > 0) Bun.gc(true);
  let body = plain;
  let filtered = false;
  if (!opts.raw && opts.filter !== "none" && !isVerbatimCommand(command)) {
    // after an abort the filter would be interrupted too: the built-in one is instant
    const builtin = async (): Promise<Body | undefined> => {
      const text =
        plain.hidden.bytes === 0
          ? await filterOutput(out).then((r) => (r.filtered ? r.text : undefined))
          : await filterStreams({ stdout: chunksOf(shown.stdout), stderr: chunksOf(shown.stderr), exitCode });
      return text === undefined ? undefined : { text, hidden: { lines: 0, bytes: 0 } };
    };
    if (opts.filter === "builtin" || ctx.signal.aborted) body = (await builtin()) ?? plain;
    else {
      const external = await runFilter(opts, shown, ctx);
      if ("text" in external) body = external;
      else {
        const fallback = (await builtin()) ?? plain;
        body = { ...fallback, text: `[external filter \`${opts.filter}\` failed (${external.failure}); built-in filter used]\n${fallback.text}` };
      }
    }
    filtered = body !== plain;
  }
  const cut = truncateHeadTail(body.text, MAX_RESULT_LINES, MAX_RESULT_BYTES, body.hidden);
  let output = cut.text;
  if (run.ended === "timeout") output += `\n[timed out after ${seconds(timeoutMs)} s; the process group was killed]`;
  if (run.ended === "abort") output += `\n[${abortReason(ctx.signal)}; the process group was killed]`;
  if (run.ended === "exit" && run.signal) output += `\n[the shell was killed by ${run.signal}]`;
  const foreign = shown.stdout.foreign + shown.stderr.foreign;
  if (foreign > 0)
    output += `\n[${foreign} byte${foreign === 1 ? " is" : "s are"} not UTF-8, shown as Windows-1252 (Latin-1) characters; the full output keeps the bytes]`;
  if (filtered || cut.truncated || plain.hidden.bytes > 0 || binary || foreign > 0)
    output += `\n${await saveFullOutput(join(opts.outputDir, `${id}.log`), run, exitCode)}`;
  // a command that failed (non-zero exit, killed, timed out, interrupted) is a failed call: for the model, the terminal and JSON alike
  return run.ended === "exit" && exitCode === 0 && !run.signal ? { output } : { output, isError: true };
}

/** The external filter's output, or why it failed. It reads stderr then stdout on stdin. */
async function runFilter(opts: Omit<BashToolOptions, "env"> & { env: Env | undefined }, run: Finished, ctx: ToolContext): Promise<Body | { failure: string }> {
  const argv = [opts.shell.program, ...opts.shell.args(opts.filter)];
  const input = readable(async function* () {
    for (const c of [run.stderr, run.stdout]) {
      let last = "";
      for await (const chunk of chunksOf(c)) if (chunk) yield (last = chunk);
      if (last && !last.endsWith("\n")) yield "\n";
    }
  });
  const filter = await runProcess(argv, {
    cwd: ctx.cwd,
    env: opts.env,
    timeoutMs: FILTER_TIMEOUT_MS,
    signal: ctx.signal,
    input,
    verbatim: opts.shell.verbatim,
  });
  if ("error" in filter) return { failure: filter.error };
  if (filter.ended !== "exit") return { failure: filter.ended === "timeout" ? `timed out after ${seconds(FILTER_TIMEOUT_MS)} s` : "interrupted" };
  if (filter.exitCode !== 0) return { failure: `exit code ${filter.exitCode}${filter.stderr.bytes ? `: ${joined(filter.stderr).trim().slice(0, 200)}` : ""}` };
  const text = `[output filtered by \`${opts.filter}\`]\n${joined(filter.stdout).replace(/\n$/, "")}\n[exit code ${run.ended === "timeout" ? TIMEOUT_EXIT_CODE : run.exitCode}]`;
  return { text, hidden: filter.stdout.hidden };
}

/**
 * Writes stdout, `[stderr]` + stderr and the exit code to `path` (a spilled stdout is moved
 * there, not copied); says where, or why not. Spill files never outlive the call.
 */
async function saveFullOutput(path: string, run: Finished, exitCode: number): Promise<string> {
  const { stdout, stderr } = run;
  try {
    const lost = [stdout, stderr].find((c) => c.hidden.bytes > 0 && !c.spill);
    if (lost) throw new Error(lost.spillError ?? "not kept");
    ensurePrivateDir(join(path, ".."));
    if (stdout.spill) await rename(stdout.spill, path);
    // 0600 and O_EXCL: output can hold secrets
    const file = await open(path, stdout.spill ? "a" : "wx", 0o600);
    try {
      if (!stdout.spill) await (stdout.raw ? file.write(stdout.raw) : file.write(stdout.head));
      if (stderr.bytes > 0) {
        await file.write(stdout.bytes > 0 ? "\n[stderr]\n" : "[stderr]\n");
        if (!stderr.spill) await (stderr.raw ? file.write(stderr.raw) : file.write(stderr.head));
        else for await (const chunk of Bun.file(stderr.spill).stream()) await file.write(chunk);
      }
      await file.write(`\n[exit code ${exitCode}]\n`);
    } finally {
      await file.close();
    }
    return `[full output: ${path}]`;
  } catch (e) {
    return `[could not save the full output: ${errorText(e)}]`;
  } finally {
    for (const c of [stdout, stderr]) if (c.spill) await rm(c.spill, { force: true }).catch(() => {});
  }
}

/** Bytes read for git's test of binary data: a NUL byte among them. */
const BINARY_PROBE = 8192;

/**
 * A stream that is binary data (`cat logo.png`, `git show HEAD:app.bin`) as one line saying so:
 * decoded as text it is kilobytes of noise in the context. Its bytes stay in the full-output file.
 */
function textOnly(c: Captured): Captured {
  if (!c.head.slice(0, BINARY_PROBE).includes("\0")) return c;
  const text = `[binary output: ${c.bytes} bytes, not shown; pipe it through od -c | head to see its start]`;
  return { head: text, tail: "", hidden: { lines: 0, bytes: 0 }, bytes: c.bytes, foreign: 0 };
}

/** A stream's text in memory: all of it, or its head and tail (the caller accounts for `hidden`). */
const joined = (c: Captured) => c.head + c.tail;

/** A stream's text as the filter reads it: from its spill file when it has one, else from memory. */
async function* chunksOf(c: Captured): AsyncGenerator<string> {
  if (!c.spill) {
    yield c.head;
    if (c.hidden.bytes > 0) yield `\n… ${c.hidden.bytes} bytes could not be kept (${c.spillError}) …\n${c.tail}`;
    return;
  }
  // one buffer, reused: reading 50 MB through fresh chunks left ~15 MB more garbage at the peak
  const file = await open(c.spill, "r");
  const buffer = new Uint8Array(READ_CHUNK_BYTES);
  const decoder = outputDecoder();
  try {
    for (let n: number; (n = (await file.read(buffer, 0, buffer.length, null)).bytesRead) > 0; ) yield decoder.decode(buffer.subarray(0, n));
    yield decoder.decode(new Uint8Array(0), false);
  } finally {
    await file.close();
  }
}

const READ_CHUNK_BYTES = 64 * 1024;

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

const sum = (a: Hidden, b: Hidden): Hidden => ({ lines: a.lines + b.lines, bytes: a.bytes + b.bytes });

interface Finished {
  stdout: Captured;
  stderr: Captured;
  exitCode: number;
  /** the signal that ended the shell, if one did */
  signal?: string;
  ended: "exit" | "timeout" | "abort";
}

interface RunOptions {
  cwd: string;
  /** the shell's command line is written out already (ShellChoice.verbatim: cmd.exe) */
  verbatim?: boolean;
  env: Record<string, string | undefined> | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  input?: ReadableStream<Uint8Array>;
  /** the group ends with hey, however hey ends (group-guard.ts) */
  guard?: boolean;
  /** the file a stream ("stdout", "stderr") spills to when it outgrows memory */
  spill?: (stream: "stdout" | "stderr") => () => string;
  /** told of each chunk of stdout and stderr as it arrives */
  listen?: (chunk: Uint8Array) => void;
}

/**
 * Runs argv in its own process group (so a timeout or abort can kill the whole tree), stdin
 * closed or fed `input`. Returns `{error}` only when it could not start. Never throws.
 */
async function runProcess(argv: string[], opts: RunOptions): Promise<Finished | { error: string }> {
  let proc: Bun.Subprocess<"ignore" | number | ReadableStream<Uint8Array>, "pipe", "pipe">;
  try {
    const env = opts.env ?? process.env;
    const run = opts.guard ? guarded(argv, env.PATH, opts.cwd) : { argv, stdin: "ignore" as const };
    proc = Bun.spawn(run.argv, {
      cwd: opts.cwd,
      env,
      // Bun does the writing, and a filter that stops reading early (head -n 3) is fine; a guard reads its pipe
      stdin: opts.input ?? run.stdin,
      stdout: "pipe",
      stderr: "pipe",
      // POSIX: setsid(), so the group can be killed. On Windows it would give the child its own
      // console; taskkill /T finds the tree there instead.
      detached: process.platform !== "win32",
      windowsHide: true,
      windowsVerbatimArguments: opts.verbatim === true,
    });
  } catch (e) {
    return { error: errorText(e) };
  }
  const stdout = capture(proc.stdout, opts.spill?.("stdout"), undefined, opts.listen);
  const stderr = capture(proc.stderr, opts.spill?.("stderr"), undefined, opts.listen);

  let ended: Finished["ended"] = "exit";
  let stopping: Promise<void> | undefined;
  const stop = (why: "timeout" | "abort") => {
    if (stopping) return;
    ended = why;
    stopping = killGroup(proc);
  };
  const onAbort = () => stop("abort");
  const timer = setTimeout(() => stop("timeout"), opts.timeoutMs);
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener("abort", onAbort, { once: true });

  const exitCode = await proc.exited;
  clearTimeout(timer);
  opts.signal.removeEventListener("abort", onAbort);
  await stopping;
  if (opts.guard && !stopping) release(proc.pid);
  await drained([stdout, stderr]); // the shell is gone; a grandchild (`server &`) may hold the pipes
  const [out, err] = await Promise.all([stdout.finish(), stderr.finish()]);
  return { stdout: out, stderr: err, exitCode, signal: typeof proc.signalCode === "string" ? proc.signalCode : undefined, ended };
}

/** SIGTERM to the whole group, then SIGKILL to it once it is empty or KILL_GRACE_MS have passed; returns once it is gone (or KILL_WAIT_MS). */
async function killGroup(proc: Bun.Subprocess): Promise<void> {
  const signal = (sig: NodeJS.Signals | 0): boolean => {
    try {
      if (process.platform === "win32") {
        if (sig !== 0) Bun.spawnSync(["taskkill", "/pid", String(proc.pid), "/T", "/F"]);
        return sig === 0 ? proc.exitCode === null : true;
      }
      process.kill(-proc.pid, sig);
      return true;
    } catch {
      return false; // ESRCH: no process left in the group
    }
  };
  signal("SIGTERM");
  for (let waited = 0; waited < KILL_GRACE_MS && signal(0); waited += KILL_POLL_MS) await Bun.sleep(KILL_POLL_MS);
  if (!signal("SIGKILL")) return;
  const running = () => signal(0) && (process.platform !== "linux" || runsOnLinux(proc.pid));
  for (let waited = 0; waited < KILL_WAIT_MS && running(); waited += KILL_POLL_MS) await Bun.sleep(KILL_POLL_MS);
}

/**
 * Whether a process of group `pgid` still runs, zombies aside: where no init reaps orphans (some
 * containers), a killed grandchild stays a zombie and `kill(-pgid, 0)` keeps succeeding.
 */
const runsOnLinux = (pgid: number): boolean => listProcesses().some((p) => p.pgid === pgid && p.running);

const seconds = (ms: number) => String(Math.round(ms / 100) / 10);

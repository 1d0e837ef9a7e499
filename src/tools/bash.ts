// The bash tool (SPEC §7, §13.1): one shell command in a fresh process group, its output
// captured, filtered and truncated, the full output kept in a temp file when anything was cut.
import { closeSync, openSync, writeSync } from "node:fs";
import { open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../kernel/ir.ts";
import type { Tool, ToolContext, ToolResult } from "../kernel/tool.ts";
import { filterOutput, formatOutput, isVerbatimCommand, truncateHeadTail } from "./bash-output.ts";
import type { ShellChoice } from "./shell.ts";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** What the model sees at most, after filtering; the rest is in the temp file. */
export const MAX_RESULT_LINES = 2000;
export const MAX_RESULT_BYTES = 50 * 1024;
/** Grandchildren (`server &`) can hold the pipes open long after the shell exited or was killed. */
const IO_DRAIN_MS = 200;
/** SIGTERM first so test runners can clean up; the group gets SIGKILL after this. */
const KILL_GRACE_MS = 200;
const KILL_POLL_MS = 20;
/** Per stream: beyond this the output spills to a file, and only the last TAIL_KEEP_BYTES stay in memory. */
const MEMORY_CAP_BYTES = 16 << 20;
const TAIL_KEEP_BYTES = 1 << 20;
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
  /** where full outputs go; os.tmpdir() by default */
  tempDir?: string;
}

/** The bash tool. `run` never throws: spawn failures, timeouts and aborts are error results. */
export function createBashTool(opts: BashToolOptions): Tool {
  const maxTimeoutMs = Math.max(opts.maxTimeoutMs ?? MAX_TIMEOUT_MS, opts.timeoutMs);
  const cut = `cut to ${MAX_RESULT_LINES} lines/${MAX_RESULT_BYTES >> 10} KB; the full output is saved to a file named in the result.`;
  const description =
    `Run a shell command in the project root (stdin closed). timeout_ms defaults to ${opts.timeoutMs}, max ${maxTimeoutMs}. ` +
    (opts.raw || opts.filter === "none" ? `Long output is ${cut}` : `Long output (never git diff/status/log/show) is filtered to errors, warnings, summaries and the last lines, then ${cut}`);
  return {
    name: "bash",
    description,
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, timeout_ms: { type: "integer" } },
      required: ["command"],
    },
    run: (args, ctx) => runBash(opts, maxTimeoutMs, args, ctx),
  };
}

async function runBash(opts: BashToolOptions, maxTimeoutMs: number, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const { command, timeout_ms: asked } = args as { command: string; timeout_ms?: number }; // types checked by the pipeline
  if (command.trim() === "") return { output: "bash: `command` must be a non-empty string", isError: true };
  const timeoutMs = asked !== undefined && asked > 0 ? Math.min(asked, maxTimeoutMs) : opts.timeoutMs;
  if (ctx.signal.aborted) return { output: "[interrupted by the user before the command started]", isError: true };
  const base = join(opts.tempDir ?? tmpdir(), `hey-bash-${newId()}`);

  const run = await runProcess([opts.shell.program, ...opts.shell.args(command)], { cwd: ctx.cwd, timeoutMs, signal: ctx.signal, spillBase: base });
  if ("error" in run) return { output: `bash: could not start ${opts.shell.program}: ${run.error}`, isError: true };
  const out = { stdout: run.stdout.text, stderr: run.stderr.text, exitCode: run.ended === "timeout" ? TIMEOUT_EXIT_CODE : run.exitCode, command };

  let body = formatOutput(out);
  let filtered = false;
  if (!opts.raw && opts.filter !== "none" && !isVerbatimCommand(command)) {
    // after an abort the filter would be interrupted too: the built-in one is instant
    if (opts.filter === "builtin" || ctx.signal.aborted) ({ text: body, filtered } = filterOutput(out));
    else {
      const external = await runFilter(opts, out, ctx);
      if (typeof external === "string") {
        body = `[output filtered by \`${opts.filter}\`]\n${external.replace(/\n$/, "")}\n[exit code ${out.exitCode}]`;
        filtered = true;
      } else {
        ({ text: body, filtered } = filterOutput(out));
        body = `[external filter \`${opts.filter}\` failed (${external.failure}); built-in filter used]\n${body}`;
      }
    }
  }
  const cut = truncateHeadTail(body, MAX_RESULT_LINES, MAX_RESULT_BYTES);
  let output = cut.text;
  if (run.ended === "timeout") output += `\n[timed out after ${seconds(timeoutMs)} s; the process group was killed]`;
  if (run.ended === "abort") output += "\n[interrupted by the user; the process group was killed]";
  if (run.ended === "exit" && run.signal) output += `\n[the shell was killed by ${run.signal}]`;
  if (filtered || cut.truncated || run.stdout.spill || run.stderr.spill) output += `\n${await saveFullOutput(base, run, out.exitCode)}`;
  return run.ended === "exit" ? { output } : { output, isError: true };
}

/** The external filter's stdout, or why it failed. It reads stderr then stdout on stdin. */
async function runFilter(opts: BashToolOptions, out: { stdout: string; stderr: string }, ctx: ToolContext): Promise<string | { failure: string }> {
  const argv = [opts.shell.program, ...opts.shell.args(opts.filter)];
  const input = [out.stderr, out.stdout].map((s) => (s && !s.endsWith("\n") ? `${s}\n` : s)).join("");
  const run = await runProcess(argv, { cwd: ctx.cwd, timeoutMs: FILTER_TIMEOUT_MS, signal: ctx.signal, input });
  if ("error" in run) return { failure: run.error };
  if (run.ended !== "exit") return { failure: run.ended === "timeout" ? `timed out after ${seconds(FILTER_TIMEOUT_MS)} s` : "interrupted" };
  if (run.exitCode !== 0) return { failure: `exit code ${run.exitCode}${run.stderr.text ? `: ${run.stderr.text.trim().slice(0, 200)}` : ""}` };
  return run.stdout.text;
}

/** Writes stdout, `[stderr]` + stderr and the exit code to `<base>.log`; says where, or why not. */
async function saveFullOutput(base: string, run: Finished, exitCode: number): Promise<string> {
  const path = `${base}.log`;
  try {
    // 0600 and O_EXCL: output can hold secrets, and the temp dir is shared
    const file = await open(path, "wx", 0o600);
    try {
      const copy = async (c: Captured) => {
        if (!c.spill) await file.write(c.text);
        else for await (const chunk of Bun.file(c.spill).stream()) await file.write(chunk);
      };
      await copy(run.stdout);
      if (run.stderr.bytes > 0) {
        await file.write(run.stdout.bytes > 0 ? "\n[stderr]\n" : "[stderr]\n");
        await copy(run.stderr);
      }
      await file.write(`\n[exit code ${exitCode}]\n`);
    } finally {
      await file.close();
    }
    return `[full output: ${path}]`;
  } catch (e) {
    return `[could not save the full output: ${message(e)}]`;
  } finally {
    for (const c of [run.stdout, run.stderr]) if (c.spill) await rm(c.spill, { force: true }).catch(() => {});
  }
}

interface Captured {
  /** all of it, or (when spilled) the first MEMORY_CAP_BYTES and the last TAIL_KEEP_BYTES around a marker */
  text: string;
  bytes: number;
  /** the file holding all of it, when it outgrew memory */
  spill?: string;
}

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
  timeoutMs: number;
  signal: AbortSignal;
  input?: string;
  spillBase?: string;
}

/**
 * Runs argv in its own process group (so a timeout or abort can kill the whole tree), stdin
 * closed or fed `input`. Returns `{error}` only when it could not start. Never throws.
 */
async function runProcess(argv: string[], opts: RunOptions): Promise<Finished | { error: string }> {
  let proc: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: opts.cwd,
      env: process.env,
      // a Blob lets Bun do the writing, and a filter that stops reading early (head -n 3) is fine
      stdin: opts.input === undefined ? "ignore" : new Blob([opts.input]),
      stdout: "pipe",
      stderr: "pipe",
      // POSIX: setsid(), so the group can be killed. On Windows it would give the child its own
      // console; taskkill /T finds the tree there instead.
      detached: process.platform !== "win32",
      windowsHide: true,
    });
  } catch (e) {
    return { error: message(e) };
  }
  const stdout = capture(proc.stdout, opts.spillBase && `${opts.spillBase}.stdout`);
  const stderr = capture(proc.stderr, opts.spillBase && `${opts.spillBase}.stderr`);

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
  // the shell is gone; what is still in the pipes arrives at once, anything else is a grandchild
  await Promise.race([Promise.all([stdout.done, stderr.done]), Bun.sleep(IO_DRAIN_MS)]);
  const [out, err] = await Promise.all([stdout.finish(), stderr.finish()]);
  return { stdout: out, stderr: err, exitCode, signal: typeof proc.signalCode === "string" ? proc.signalCode : undefined, ended };
}

/** SIGTERM to the whole group, then SIGKILL to it once it is empty or KILL_GRACE_MS have passed. */
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
  signal("SIGKILL");
}

/** Reads a stream to the end (or until `finish`), keeping memory bounded by spilling to a file. */
function capture(stream: ReadableStream<Uint8Array>, spillPath: string | undefined) {
  const reader = stream.getReader();
  const head: Uint8Array[] = [];
  const tail: Uint8Array[] = [];
  let headBytes = 0;
  let tailBytes = 0;
  let bytes = 0;
  let spilled = false;
  let fd: number | undefined;

  const spill = (chunk: Uint8Array) => {
    if (fd === undefined) return;
    try {
      writeSync(fd, chunk);
    } catch {
      closeSync(fd); // disk full: the full-output file will be short, memory still holds head and tail
      fd = undefined;
    }
  };
  const keep = (chunk: Uint8Array) => {
    bytes += chunk.length;
    if (headBytes < MEMORY_CAP_BYTES) {
      const room = MEMORY_CAP_BYTES - headBytes;
      if (chunk.length <= room) {
        head.push(chunk);
        headBytes += chunk.length;
        return;
      }
      head.push(chunk.subarray(0, room));
      headBytes = MEMORY_CAP_BYTES;
      chunk = chunk.subarray(room);
      if (spillPath) {
        try {
          fd = openSync(spillPath, "wx", 0o600);
          spilled = true;
          for (const c of head) spill(c);
        } catch {}
      }
    }
    spill(chunk);
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tail.length > 1 && tailBytes - tail[0]!.length >= TAIL_KEEP_BYTES) tailBytes -= tail.shift()!.length;
  };
  const done = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        keep(value);
      }
    } catch {} // a cancelled or broken pipe ends the output; what was read is kept
  })();

  const finish = async (): Promise<Captured> => {
    await reader.cancel().catch(() => {});
    await done;
    const decoder = new TextDecoder();
    let text = decoder.decode(concat(head));
    if (bytes > headBytes) {
      const dropped = bytes - headBytes - tailBytes;
      text += `${dropped > 0 ? `\n… ${dropped} bytes not kept in memory …\n` : ""}${decoder.decode(concat(tail))}`;
    }
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    return { text, bytes, spill: spilled ? spillPath : undefined };
  };
  return { done, finish };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

const seconds = (ms: number) => String(Math.round(ms / 100) / 10);
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

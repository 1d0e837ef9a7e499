// The Tool interface (SPEC §7): a plain object the model can call, described by its spec.
import type { DocumentPart, ImagePart, ToolSpec } from "./ir.ts";

export interface ToolContext {
  /** aborts when the user interrupts the turn; a tool must stop its work and return promptly (abortReason says why) */
  signal: AbortSignal;
  /** the project root (the directory hey started in); relative paths resolve against it */
  cwd: string;
  /** the id of the call being run (the model's tool call id); absent when a tool is run outside a turn */
  callId?: string;
  /** tells the user how far a long call has come (a few words: `3/5 indexing`), while it runs; never throws */
  progress?(note: string): void;
  /** the last lines of a running command's output, for the terminal only (never the model); never throws */
  output?(lines: string[]): void;
  /** whether the permission rules keep this file (an absolute path) from the call: a search over a tree passes it by unread; absent: none. May do I/O, never throws */
  refusedFile?(abs: string): boolean;
}

/** What an abort without a reason of its own was (Ctrl-C, Esc, an embedder's `abort()`). */
export const INTERRUPTED = "interrupted by user";

/** What an abort by `AbortSignal.timeout` was (its reason is a DOMException named TimeoutError). */
export const TIMED_OUT = "timed out";

/**
 * What happened when `signal` aborted, in words for the user and the model: the reason its aborter
 * gave as a string (`abort("terminated (SIGTERM)")`) or an Error's first line (`abort(new Error("client
 * went away"))`), TIMED_OUT for `AbortSignal.timeout`, else INTERRUPTED (`abort()` with no reason,
 * whose reason is a DOMException named AbortError). The kernel never guesses.
 */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === "string") return reason !== "" ? reason : INTERRUPTED;
  if (!(reason instanceof Error)) return INTERRUPTED; // a DOMException is an Error in Bun, as in browsers
  if (reason.name === "TimeoutError") return TIMED_OUT;
  const said = reason.message.split("\n")[0]!.trim();
  return reason.name === "AbortError" || said === "" ? INTERRUPTED : said;
}
/** What a tool returns to the model: plain text, optionally images and PDFs, and whether it failed. */
export interface ToolResult {
  output: string;
  isError?: boolean;
  images?: ImagePart[];
  documents?: DocumentPart[];
}

/** A failed call's result: what the model reads as the tool's error. */
export function toolError(output: string): ToolResult {
  return { output, isError: true };
}

/**
 * A tool is its spec (name, description, JSON Schema parameters) plus `run`. `run` receives
 * arguments already parsed from JSON and checked against `parameters` (kernel/tool-args.ts); it should report failures as `{isError: true}` results.
 * Anything it throws is turned into an error result by the loop, never a crash.
 */
export interface Tool extends ToolSpec {
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
  /** the tool must not run beside any other call of its turn (it rewrites the context, as compress does) */
  exclusive?: boolean;
  /**
   * Whether a call with `args` (parsed, not yet checked) surely changes nothing (bash's `git status`,
   * `ls`); when it may, the call runs after every earlier call of its turn and before every later one.
   * MCP tools follow their server's `readOnlyHint`. Absent: the tool's calls are ordered only by the
   * `path` they name (read_file, edit). Never throws.
   */
  readOnly?(args: Record<string, unknown>): boolean;
  /** the MCP server that supplies the tool; undefined for hey's own */
  server?: string;
  /**
   * `command` run in `dir` rather than the project root, in the syntax of the shell that runs it
   * (a `workdir` or `cwd` argument, kernel/tool-args.ts), or why `dir` cannot be put in front of it.
   * Only for a tool that takes a `command`. Pure; never throws.
   */
  inDirectory?(command: string, dir: string): { command: string } | { error: string };
}

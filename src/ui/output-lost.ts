// What a one-shot run does when a write to its stdout fails (run.ts): the reader went away
// (`hey -p … | head -3`: EPIPE) and the run stops as a shell's program does on SIGPIPE, exit 141,
// or the output cannot be written at all (`hey -p … > out.txt` on a full disk: ENOSPC; EIO, EFBIG,
// EDQUOT) and the run stops with exit 1, saying what failed — a full disk is no closed pipe, and an
// answer lost without a word must not look like one cut short on purpose. A stdout closed before
// the run began (`hey -p … >&-`) stops it before anything is sent, exit 1. Pure.
import { EXIT } from "../cli.ts";

/** Why a one-shot run stopped when its stdout's reader went away (the session's interrupted answer says it). */
export const READER_GONE = "the reader of hey's output went away (a closed pipe)";

/**
 * The exit code and the reason of a run whose stdout write failed with `error`; `pipe`: the reader
 * went away. `lost`: what the reason says is lost (a command's output, not an answer).
 */
export function outputLost(error: unknown, lost = "the answer"): { code: number; reason: string; pipe: boolean } {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === "string" ? e.code : undefined;
  if (code === undefined || code === "EPIPE") return { code: EXIT.pipe, reason: READER_GONE, pipe: true };
  const message = typeof e?.message === "string" && e.message ? e.message : code;
  return { code: EXIT.runtime, reason: `stdout cannot be written (${message}): ${lost} is lost`, pipe: false };
}

/** Why a one-shot run whose stdout was closed when it started stopped before sending anything (exit 1). */
export const STDOUT_CLOSED = "stdout is closed: the answer could not be written, so nothing was sent (to discard the answer, use >/dev/null)";

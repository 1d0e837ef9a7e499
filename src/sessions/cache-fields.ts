// What a session's usage line keeps for `hey -c`'s replay of the prompt cache (context/replay-cache.ts),
// read back from a line that may be an older or a damaged hey's: each field only when it is of its type. Pure.
import { promptRecordOf, type PromptRecord } from "../prompt/prompt-record.ts";

/**
 * `fixed_hash`: the request's system prompt and tools (context/window.ts fixedHash); `summary_failed`: its summary
 * failed, the trim stood; `rebuilt`: it went with every rewrite due; `task_note`: the `.hey/task.md` text it took
 * anew ("" for none), which the requests after it held (context/held-note.ts) — the file may have changed since;
 * `history_from`: the id of the message its history began with after the first prompt (a live run's first answer, a
 * resumed run's first message loaded): the next resume loads from there (reader.ts loadSession); `system_prompt`:
 * what the system prompt was built from, on the run's first request and where it changed (prompt/prompt-record.ts).
 */
export type CacheFields = {
  fixed_hash?: string;
  summary_failed?: true;
  rebuilt?: boolean;
  task_note?: string;
  history_from?: string;
  system_prompt?: PromptRecord;
};

/** The fields of `e` (Output `usage`, or a usage line read) that CacheFields names, when it holds them. */
export const cacheFields = (e: {
  fixed_hash?: unknown;
  summary_failed?: unknown;
  rebuilt?: unknown;
  task_note?: unknown;
  history_from?: unknown;
  system_prompt?: unknown;
}): CacheFields => ({
  ...(typeof e.fixed_hash === "string" ? { fixed_hash: e.fixed_hash } : {}),
  ...(e.summary_failed === true ? { summary_failed: true as const } : {}),
  ...(typeof e.rebuilt === "boolean" ? { rebuilt: e.rebuilt } : {}),
  ...(typeof e.task_note === "string" ? { task_note: e.task_note } : {}),
  ...(typeof e.history_from === "string" && e.history_from !== "" ? { history_from: e.history_from } : {}),
  ...((r) => (r ? { system_prompt: r } : {}))(e.system_prompt === undefined ? undefined : promptRecordOf(e.system_prompt)),
});

// What a usage line keeps for `hey -c`'s replay of the prompt cache (Output `usage`), as format.ts
// writes and reads it. Pure.

/**
 * `fixed_hash`: the request's system prompt and tools; `summary_failed`: its summary failed; `rebuilt`: it went with every
 * rewrite due; `history_from`: the id of the message its history began with after the first prompt (a live run's first
 * answer, a resumed run's first message loaded): the next resume loads from there (reader.ts loadSession).
 */
export type CacheFields = { fixed_hash?: string; summary_failed?: true; rebuilt?: boolean; history_from?: string };

/** The fields of `e` that a usage entry keeps, those that hold what they should. */
export const cacheFields = (e: { fixed_hash?: unknown; summary_failed?: unknown; rebuilt?: unknown; history_from?: unknown }): CacheFields => ({
  ...(typeof e.fixed_hash === "string" ? { fixed_hash: e.fixed_hash } : {}),
  ...(e.summary_failed === true ? { summary_failed: true as const } : {}),
  ...(typeof e.rebuilt === "boolean" ? { rebuilt: e.rebuilt } : {}),
  ...(typeof e.history_from === "string" && e.history_from !== "" ? { history_from: e.history_from } : {}),
});

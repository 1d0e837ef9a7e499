// read_file's memory of its own results this run, so that a re-read of unchanged lines answers
// with a short note pointing at the earlier result instead of sending the same lines again (each
// copy stays in the context, and in every request's cached prefix, until a summary). Kept with
// what the agent saw of each file (SeenFile.reads); the decisions, pure. context/read-stubs.ts
// keeps a note already sent honest: where the earlier result is no longer whole in a request,
// the note is sent as that result was.
import type { Message } from "../kernel/ir.ts";
import type { EarlierRead, SeenFiles } from "./seen-files.ts";

/**
 * Forgets the reads whose results `sent` (a request's messages) does not show whole: a summary or
 * `/clear` took them, dedup or a trim cut them. Those lines are read again in full.
 */
export function keepShown(seen: SeenFiles, sent: readonly Message[]): void {
  const shown = new Map<string, string>();
  for (const m of sent) if (m.role === "tool" && m.toolCallId && m.content[0]?.type === "text") shown.set(m.toolCallId, m.content[0].text);
  for (const [file, saw] of seen) {
    if (!saw.reads) continue;
    const kept = saw.reads.filter((r) => shown.get(r.callId)?.startsWith(r.output));
    if (kept.length < saw.reads.length) seen.set(file, { ...saw, reads: kept });
  }
}

/**
 * The earlier read whose result already shows lines `first`..`last` of a file that hashes to
 * `hash` now: same bytes, a range that covers them. The newest such; undefined when none (the
 * file changed, or the lines were not all shown).
 */
export function coveringRead(reads: readonly EarlierRead[] | undefined, hash: string, first: number, last: number): EarlierRead | undefined {
  return reads?.findLast((r) => r.hash === hash && r.first <= first && r.last >= last);
}

/** The reads of a file after a full read `read`: those of other bytes are stale and go; the last few are kept. */
export function withRead(reads: readonly EarlierRead[] | undefined, read: EarlierRead): EarlierRead[] {
  return [...(reads ?? []).filter((r) => r.hash === read.hash), read].slice(-MAX_READS_PER_FILE);
}

const MAX_READS_PER_FILE = 8;

/** What read_file answers for lines `first`..`last` (of `total`) of `path` when `earlier` already shows them (context/read-stubs.ts STUB_CALL reads it back). */
export function stubText(path: string, first: number, last: number, total: number, earlier: EarlierRead): string {
  const lines = first === last ? `line ${first}` : `lines ${first}-${last}`;
  const whole = first === 1 && last === total ? ` (all ${total})` : ` of ${total}`;
  return (
    `[unchanged: ${path} ${lines}${whole} are the same bytes as your earlier read_file result ` +
    `of lines ${earlier.first}-${earlier.last} above (call ${earlier.callId}); not sent again]`
  );
}

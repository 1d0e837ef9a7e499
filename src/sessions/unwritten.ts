// The writer of a session a command that only reads has loaded (`hey -c /usage` while another hey
// has it open: reader.ts resumeSession with `readOnly`): the file is that hey's to write, so this
// run writes nothing to it, not even the model entry each run adds.
import type { SessionWriter } from "./writer.ts";

/** A SessionWriter that writes nothing; `path` is the session's, for what names it. */
export function unwrittenSession(path: string): SessionWriter {
  return { path, model() {}, emit() {}, sync() {}, close() {}, leave() {}, holding: () => undefined };
}

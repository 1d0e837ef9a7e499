// The notes hey puts before the user's next message that depend on the session as it stands: where
// hey works now (kernel/user-notes.ts moveNote), whether the skills list in the system prompt
// has caught up with the skills notes the conversation holds (prompt/skill-listing.ts), and whether
// the project's .hey/ loads (prompt/trust-note.ts), and, at a resume that sends the session's system
// prompt again, what changed since it was built (prompt/prompt-record.ts). The REPL's lines and a one-shot run's message
// (`hey -c -p`) come through here. Pure.
import type { ContentBlock } from "./kernel/ir.ts";
import { withMoveNote } from "./kernel/user-notes.ts";
import { withSkillsNote } from "./prompt/skill-listing.ts";
import { trustNote } from "./prompt/trust-note.ts";
import type { Runtime } from "./runtime.ts";

/**
 * `content`, the user's next message, after the notes hey puts before it: `told` (the REPL's:
 * `/reload`'s skills note, a `!` command's output), whether the skills list in the system prompt
 * has caught up with the skills notes the conversation holds (`hey -c`, `/resume`, a rebuilt list),
 * whether the project's .hey/ loads when the model last heard otherwise (a `/trust` or `/untrust`
 * since the system prompt was built), and where hey works now
 * when the model last heard of another directory.
 */
export function withSessionNotes(runtime: Runtime, cwd: string, told: readonly string[], content: ContentBlock[]): ContentBlock[] {
  const history = runtime.agent.messages;
  const shown = runtime.skillsShown();
  const trust = trustNote(shown.trust, history);
  const said = new Set(history.flatMap((m) => (m.role === "user" ? m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])) : [])));
  const resumed = (shown.resumed ?? []).filter((text) => !said.has(text));
  const notes = [...resumed, ...withSkillsNote(history, told, shown.notes), ...(trust ? [trust] : [])].map((text): ContentBlock => ({ type: "text", text }));
  return withMoveNote(cwd, runtime.startDir, history, [...notes, ...content]);
}

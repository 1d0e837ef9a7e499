// What the model hears of a change to the project's trust within a session. The system prompt's
// guide (system.ts skillGuide) says what is true of the project at start in any run, and stays: a
// `/trust` or `/untrust`, then `/reload`, that rewrote it billed the whole conversation again (x154).
// So the change goes in a note before the user's words — history, which the prompt cache keeps —
// once each way, and again only if a summary left it out. Pure.
import type { Message } from "../kernel/ir.ts";
import { heyNote } from "../kernel/user-notes.ts";

/** What the guide told the model of the project's .hey/, whether it loads now (as of start-up or the last `/reload`), and the user's folders. */
export interface GuideTrust {
  /** true: the guide names the project's folders; false: it says the project is untrusted */
  said: boolean;
  loads: boolean;
  /** the user's skills folder and config.toml, as the model should write them (`~/…`) */
  userSkills: string;
  userConfig: string;
}

const UNTRUSTED_START = "[hey: this project is not trusted now: its .hey/ does not load;";

/** The note when the project's .hey/ no longer loads (`/untrust`, then `/reload`): where skills and servers go instead. */
export const untrustedNote = (t: GuideTrust): string => `${UNTRUSTED_START} skills go in ${t.userSkills}/, MCP servers in ${t.userConfig}]`;

/** The note when it loads though the guide said it did not (`/trust`, then `/reload`). */
export const TRUSTED_NOTE = heyNote("this project is trusted now: its .hey/ loads (skills in .hey/skills/, MCP servers in .hey/config.toml)");

/**
 * The note the user's next message needs, given what the model last heard (the last trust note in
 * `history`; none: the guide's word) and whether the project's .hey/ loads now; undefined when it
 * knows, or when the guide said nothing of the project (`trust` undefined: it names the user's
 * folders, which load in any run).
 */
export function trustNote(trust: GuideTrust | undefined, history: readonly Message[]): string | undefined {
  if (!trust) return undefined;
  let heard = trust.said;
  for (const m of history)
    for (const b of m.role === "user" ? m.content : [])
      if (b.type === "text" && b.text.startsWith(UNTRUSTED_START)) heard = false;
      else if (b.type === "text" && b.text === TRUSTED_NOTE) heard = true;
  if (heard === trust.loads) return undefined;
  return trust.loads ? TRUSTED_NOTE : untrustedNote(trust);
}

// What the model hears of the project's trust. The system prompt's guide (system.ts skillGuide)
// names the project's .hey/ whatever the trust: an interactive run trusts a project with nothing to
// guard and a `-p` run does not, so a guide that followed the answer gave the same session two
// system prompts, and every move between the REPL and `hey -c -p` billed the whole conversation
// again (x154). So the trust goes in a note before the user's words instead — history, which the
// prompt cache keeps: once when the project's .hey/ does not load, and once when it loads again
// after such a note (`/trust`, then `/reload`; the REPL after a `-p` run). Pure.
import type { Message } from "../kernel/ir.ts";
import { heyNote } from "../kernel/user-notes.ts";

/** Whether the project's .hey/ loads in this run (as of start-up or the last `/reload`), and the user's folders that load everywhere. */
export interface GuideTrust {
  loads: boolean;
  /** the user's skills folder and config.toml, as the model should write them (`~/…`) */
  userSkills: string;
  userConfig: string;
}

const UNTRUSTED_START = "[hey: this project is not trusted: its .hey/ does not load;";

/** The note when the project's .hey/ does not load: where skills and servers go instead, and how the user trusts it (`oneShot`: from a shell). */
export function untrustedNote(t: GuideTrust, oneShot: boolean): string {
  return `${UNTRUSTED_START} skills go in ${t.userSkills}/, MCP servers in ${t.userConfig} (the user can ${oneShot ? "`hey trust` it" : "/trust it"})]`;
}

/** The note when it loads again, after an untrustedNote. */
export const TRUSTED_NOTE = heyNote("this project is trusted now: its .hey/ loads; skills and MCP servers go where the system prompt says");

/**
 * The note the user's next message needs, given what the model last heard (the last trust note in
 * `history`; none: the system prompt's guide, which has the project's .hey/ load) and `trust` now;
 * undefined when it knows — or when the guide names no project (`--no-skills`, the home directory:
 * `trust` undefined). A note a summary left out is said again.
 */
export function trustNote(trust: GuideTrust | undefined, history: readonly Message[], oneShot: boolean): string | undefined {
  if (!trust) return undefined;
  let heard = true;
  for (const m of history)
    for (const b of m.role === "user" ? m.content : [])
      if (b.type === "text" && b.text.startsWith(UNTRUSTED_START)) heard = false;
      else if (b.type === "text" && b.text === TRUSTED_NOTE) heard = true;
  if (heard === trust.loads) return undefined;
  return trust.loads ? TRUSTED_NOTE : untrustedNote(trust, oneShot);
}

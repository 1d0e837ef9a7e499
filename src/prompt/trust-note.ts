// What the model hears of a change to the project's trust within a session. The system prompt's
// guide (system.ts skillGuide) says what is true of the project at start in any run, and stays: a
// `/trust` or `/untrust`, then `/reload`, that rewrote it billed the whole conversation again (x154).
// So the change goes in a note before the user's words — history, which the prompt cache keeps —
// once each way, and again only if a summary left it out. Pure.
import type { Message } from "../kernel/ir.ts";

/**
 * The project files trust gates (fs/root-probe.ts gatedResources), as the guide and the notes name
 * them: not `.hey/` alone, or a project with only `.claude/skills/` would read as loading it.
 */
export const PROJECT_FILES = ".hey/config.toml, .mcp.json and skills in .hey/, .claude/ or .agents/";

/** What the guide told the model of the project's files, whether they load now (as of start-up or the last `/reload`), and where new skills and servers go. */
export interface GuideTrust {
  /** true: the guide names the project's folders; false: it says the project is untrusted; undefined: neither (the user's folders alone) */
  said?: boolean;
  loads: boolean;
  /** the user's skills folder and config.toml, as the model should write them (`~/…`) */
  userSkills: string;
  userConfig: string;
  /** the project root's `.hey/skills` and `.hey/config.toml`, as the guide writes them (from a subdirectory: not relative to it) */
  projectSkills: string;
  projectConfig: string;
}

// a note is known by its start (`[hey: …`, kernel/user-notes.ts heyNote): its paths and words may differ from one hey to the next
const UNTRUSTED_START = "[hey: this project is not trusted now:";
const TRUSTED_START = "[hey: this project is trusted now:";

/** The note when the project's files no longer load (`/untrust`, then `/reload`): where skills and servers go instead. */
export const untrustedNote = (t: GuideTrust): string =>
  `${UNTRUSTED_START} its ${PROJECT_FILES} do not load; skills go in ${t.userSkills}/, MCP servers in ${t.userConfig}]`;

/** The note when they load though the model last heard they did not (`/trust`, then `/reload`). */
export const trustedNote = (t: GuideTrust): string =>
  `${TRUSTED_START} its ${PROJECT_FILES} load; new skills go in ${t.projectSkills}/, MCP servers in ${t.projectConfig}]`;

/**
 * The note the user's next message needs, given what the model last heard (the last trust note in
 * `history`; none: the guide's word) and whether the project's files load now; undefined when it
 * knows, or when it heard nothing either way (the guide named the user's folders, which load in
 * any run, and no note since).
 */
export function trustNote(trust: GuideTrust | undefined, history: readonly Message[]): string | undefined {
  if (!trust) return undefined;
  let heard = trust.said;
  for (const m of history)
    for (const b of m.role === "user" ? m.content : [])
      if (b.type === "text" && b.text.startsWith(UNTRUSTED_START)) heard = false;
      else if (b.type === "text" && b.text.startsWith(TRUSTED_START)) heard = true;
  if (heard === undefined || heard === trust.loads) return undefined;
  return trust.loads ? trustedNote(trust) : untrustedNote(trust);
}

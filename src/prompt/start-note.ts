// What the model hears of its own skill files that start-up found broken (a SKILL.md whose front
// matter it wrote wrong in an earlier run of the session): the user is warned on stderr, but
// without this note the model of `hey -c -p` would never learn it, nor fix it. Only a file the
// session's write_file or edit calls named: one the user wrote by hand is the user's to fix, and
// asking the model to would spend tokens on every run and edit the user's file unasked. It rides
// on the run's first request, after the last message, as /reload's note does (config/reload.ts):
// the prompt's cached prefix stays as it is. Pure.
import { sep } from "node:path";
import { RELOAD_NOTE_MAX_CHARS } from "../config/reload.ts";
import { modelHears, type SkillProblem } from "../skills/frontmatter.ts";
import { heyNote } from "../kernel/user-notes.ts";

/**
 * The note for `problems` (start-up's skill problems, each message starting with its file's path)
 * that lie in one of `own`, the folders the agent writes its skills to, in a file of `written` (the
 * absolute paths the session's write_file and edit calls named); undefined when none do. A
 * `note` (a later folder's skill won a name, on purpose) is nothing to fix: never in it; nor is
 * hey's refusal of a project's link out of the project (`userOnly`): the model did not make it, a
 * "fix" would copy the target into the project, and the target's path is the user's.
 */
export function skillStartNote(problems: readonly SkillProblem[], own: readonly string[], written: readonly string[], separator = sep): string | undefined {
  const wrote = (message: string) => written.some((file) => message.startsWith(`${file}:`) || message.startsWith(`${file} `));
  const mine = problems.filter((p) => modelHears(p) && own.some((dir) => p.message.startsWith(dir + separator)) && wrote(p.message)).map((p) => p.message);
  if (mine.length === 0) return undefined;
  const head =
    "these skill files in hey's skills folders could not be loaded as written (the user was told too); fix them — a fix loads at /reload or in the next run:";
  const text = heyNote(`${head}${mine.map((p) => `\nwarning: ${p}`).join("")}`);
  return text.length > RELOAD_NOTE_MAX_CHARS ? `${text.slice(0, RELOAD_NOTE_MAX_CHARS - 2)}…]` : text;
}

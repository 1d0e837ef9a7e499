// What is said of a skill of yours held out of the prompt under a permission list (prompt/source.ts):
// waiting for your yes, or left out after your no at `/reload` (trust/instruction-yes.ts), with when hey
// asks again. `/skills` tells the two apart by these words (command-context.ts).

/** What PromptSource.unloadedSkill says of your own skill held out for want of approval (trust/instructions.ts). */
export const HELD_SKILL = "is new or changed since you approved your instruction files";

/**
 * Why a skill waiting for the user's yes is not loaded: hey asks a person, at the REPL's `/reload`
 * (trust/instruction-yes.ts askAtReload) or at an interactive start — never in a one-shot run, and
 * never under the agent's commands, so no `hey -p /reload` or script approves it. Said at /reload
 * and at /skill:NAME.
 */
export const waitingLine = (path: string) =>
  `${path} ${HELD_SKILL}: it waits for your yes, which hey asks at /reload in the interactive prompt or at its next interactive start`;

/** What PromptSource.unloadedSkill says of your own skill whose text the user said no to at `/reload` (trust/instruction-yes.ts). */
export const DECLINED_SKILL = "left out: you said no to its text at /reload";

/** After the user's no at `/reload`: the skill stays out, and when hey asks again (never at a later /reload while it is unchanged). */
export const declinedLine = (path: string) => `${path}: ${DECLINED_SKILL}; hey asks again at its next interactive start, or at a /reload once the file changes`;

/** What is said of one of the user's files changed since the start with no copy of what was approved: left out. */
export const LEFT_OUT_CHANGED = "changed since the start and hey has no copy of what you approved: left out; /reload or the next start asks about it";

/** What is said of one of the user's files changed since the start, loaded as approved (trust/instructions.ts loadable). */
export const KEPT_AS_APPROVED = "changed since the start: kept as you approved it; /reload or the next start asks about the new text";

// `/resume` in the REPL (issue 14): pick one of this directory's sessions from a numbered list
// (or name it: `/resume 2`, `/resume ID-PREFIX`) and load it. The caller swaps the conversation.
import { findSession, listSessions } from "../sessions/listing.ts";
import { resumeSession, type LoadedSession } from "../sessions/reader.ts";
import { RESUME_CHOICES, resumeChoices } from "./intro.ts";

export interface ResumeContext {
  /** the sessions directory */
  dir: string;
  cwd: string;
  /** the current session's file: not offered */
  current: string;
  ask(question: string): Promise<string | undefined>;
  say(text: string): void;
}

/**
 * The session to switch to, or undefined when there is none to offer (said so) or the user
 * cancelled. Throws with a message naming the problem when the named or numbered session cannot
 * be found or read, or another hey is writing it.
 */
export async function resumeCommand(arg: string, ctx: ResumeContext): Promise<LoadedSession | undefined> {
  const here = listSessions(ctx.dir)
    .filter((s) => s.cwd === ctx.cwd && s.path !== ctx.current)
    .slice(0, RESUME_CHOICES);
  let choice = arg;
  if (choice === "") {
    if (here.length === 0) {
      ctx.say("No other sessions in this directory (/sessions all lists every directory's).\n");
      return undefined;
    }
    ctx.say(resumeChoices(here));
    choice = (await ctx.ask(`resume which? (1-${here.length}, Enter to cancel) `)) ?? "";
    if (choice === "") return undefined;
  }
  const pick: { path: string } | undefined = /^\d+$/.test(choice) ? here[Number(choice) - 1] : findSession(ctx.dir, choice, "/sessions");
  // shown as the REPL shows every failed line: `hey: …`
  if (!pick)
    throw new Error(
      here.length === 0 ? `no session ${choice}: there are no other sessions in this directory` : `no session ${choice} in the list (1-${here.length})`,
    );
  return resumeSession(pick.path, ctx.cwd); // throws when another hey is writing it
}

// `/resume` in the REPL (issue 14): pick one of this directory's sessions — its project's when it
// has no other (sessions/scope.ts) — from a numbered list (or name it: `/resume 2`,
// `/resume ID-PREFIX`) and load it. The caller swaps the conversation.
import { basename } from "node:path";
import { projectOf } from "../fs/root-probe.ts";
import { findSession, scanSessions, unreadableNote } from "../sessions/listing.ts";
import { lockedByOther } from "../sessions/lock.ts";
import { loadRepaired, resumeSession, type LoadedSession } from "../sessions/reader.ts";
import { sessionsHere } from "../sessions/scope.ts";
import { dim, RESUME_CHOICES, resumeChoices, shortPath } from "./intro.ts";
import { visible } from "./visible.ts";

export interface ResumeContext {
  /** the sessions directory */
  dir: string;
  cwd: string;
  /** the project root, and the home directory paths are shown from */
  root: string;
  home: string;
  /** the current session's file: not offered */
  current: string;
  /** what a session this REPL left still holds back from a full disk (SessionWriter.holding): not resumed until written */
  holding?(path: string): string | undefined;
  ask(question: string): Promise<string | undefined>;
  say(text: string): void;
  /** the terminal's width (0: none) and a text's columns on it: each choice is kept to a row */
  fit?: { columns: number; width(text: string): number };
  /** the line about sessions beyond the list is dim */
  color?: boolean;
}

/** How many sessions are not in the list, and how to reach them (the list shows the newest RESUME_CHOICES). */
const moreThan = (hidden: number) => `… ${hidden} more: /resume ID (hey --sessions lists them all)`;

/**
 * The session to switch to, or undefined when there is none to offer (said so) or the user
 * cancelled. Throws with a message naming the problem when the named or numbered session cannot
 * be found or read, or another hey is writing it.
 */
export async function resumeCommand(arg: string, ctx: ResumeContext): Promise<LoadedSession | undefined> {
  const { sessions, unreadable } = scanSessions(ctx.dir);
  const scoped = sessionsHere(sessions, ctx, projectOf(ctx.home), ctx.current);
  const here = scoped.sessions.slice(0, RESUME_CHOICES);
  const hidden = scoped.sessions.length - here.length;
  let choice = arg;
  if (choice === "") {
    const note = unreadableNote(unreadable); // files the list cannot show: not passed over without a word
    if (note) ctx.say(`hey: ${visible(note)}\n`);
    if (here.length === 0) {
      ctx.say(`No other sessions in this directory${ctx.root === ctx.cwd ? "" : " or its project"} (/sessions all lists every directory's).\n`);
      return undefined;
    }
    if (scoped.project) ctx.say(`No other sessions in this directory; its project's, ${visible(shortPath(ctx.root, ctx.home))}:\n`);
    ctx.say(resumeChoices(here, scoped.project ? ctx.home : undefined, (s) => lockedByOther(s.path), ctx.fit));
    if (hidden > 0) ctx.say(dim(moreThan(hidden), ctx.color ?? false) + "\n");
    choice = (await ctx.ask(`resume which? (1-${here.length}, Enter to cancel) `)) ?? "";
    if (choice === "") return undefined;
  }
  const pick: { path: string } | undefined = /^\d+$/.test(choice) ? here[Number(choice) - 1] : findSession(ctx.dir, choice, "/sessions");
  // shown as the REPL shows every failed line: `hey: …`
  if (!pick)
    throw new Error(
      here.length === 0
        ? `no session ${choice}: there are no other sessions in this directory${ctx.root === ctx.cwd ? "" : " or its project"}`
        : `no session ${choice} in the list (1-${here.length})${hidden > 0 ? `; ${moreThan(hidden).replace(/^… /, "")}` : ""}`,
    );
  // the session this REPL writes (`/resume ID` of its own): read again, its writer hands the lock on when the swap closes it
  if (pick.path === ctx.current) return loadRepaired(pick.path, ctx.cwd);
  const held = ctx.holding?.(pick.path); // read now, it would lack what its writer still holds
  if (held) throw new Error(`session ${basename(pick.path, ".jsonl")} ${held}; /resume it after that`);
  return resumeSession(pick.path, ctx.cwd); // throws when another hey is writing it
}

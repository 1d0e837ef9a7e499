// `hey --sessions [--all]`: this directory's sessions (its project's when it has none), or every
// directory's, as a table (and any unreadable session named); with `--output json` a `command`
// event carrying the listing as data, then `done`. Foreign text is made visible.
import { basename } from "node:path";
import type { Places } from "../fs/places.ts";
import { projectOf } from "../fs/root-probe.ts";
import { formatSessionList, type ListFit, type SessionInfo } from "../sessions/format.ts";
import { scanSessions, sessionShortIds, unreadableNote } from "../sessions/listing.ts";
import { lockedByOther } from "../sessions/lock.ts";
import { sessionsHere } from "../sessions/scope.ts";
import { IN_USE, shortPath } from "./intro.ts";
import { doneEvent } from "./json.ts";
import { visible } from "./visible.ts";
import { cutToWidth } from "./wrap.ts";
import { terminalWidth } from "./term.ts";

/**
 * What `/sessions` and `hey --sessions` list of `sessions`: every one (`all`), else this
 * directory's, else its project's (sessions/scope.ts) — then with a line saying so above the table.
 */
export function listedHere(
  sessions: readonly SessionInfo[],
  here: Pick<Places, "cwd" | "root" | "home">,
  all: boolean,
): { shown: SessionInfo[]; heading: string; scope: "all" | "directory" | "project" } {
  if (all) return { shown: [...sessions], heading: "", scope: "all" };
  const scoped = sessionsHere(sessions, here, projectOf(here.home));
  // the directory has none of its own, and the project has some (started below it, also at its root)
  const project = scoped.project && scoped.sessions.length > 0;
  const heading = project ? `No sessions in this directory; its project's, ${visible(shortPath(here.root, here.home))}:\n` : "";
  return { shown: scoped.sessions, heading, scope: project ? "project" : "directory" };
}

/** `sessions` as a listing shows them: one another hey has open says so before its first prompt (resuming it is refused). */
export const markInUse = (sessions: readonly SessionInfo[]): SessionInfo[] =>
  sessions.map((s) => (lockedByOther(s.path) ? { ...s, firstPrompt: IN_USE + (s.firstPrompt || "(no prompt)") } : s));

/** A session listing fitted to a terminal `columns` wide (0: none), its foreign text measured as shown. */
export function listFit(columns: number): ListFit {
  const width = (text: string) => terminalWidth(visible(text));
  return { columns, width, cut: (text, room) => cutToWidth(text, room, width, true) };
}

/**
 * What `hey --sessions` prints on stdout: this directory's sessions (listedHere), or every one's (`all`), each
 * on one line of a terminal `columns` wide (0: stdout is no terminal; JSON is never cut).
 */
export function sessionsListing(here: Pick<Places, "sessionsDir" | "cwd" | "root" | "home">, all: boolean, json: boolean, columns: number): string {
  const { sessions, unreadable } = scanSessions(here.sessionsDir);
  const note = unreadableNote(unreadable);
  const { shown, heading, scope } = listedHere(sessions, here, all);
  const short = sessionShortIds(here.sessionsDir);
  const table =
    shown.length === 0 && sessions.length > 0
      ? `No sessions in this directory${here.root === here.cwd ? "" : " or its project"}; hey --sessions --all lists all ${sessions.length}.\n`
      : heading + visible(formatSessionList(markInUse(shown), here.home, undefined, short, listFit(json ? 0 : columns)));
  const list = table + (note ? `\nhey: ${visible(note)}\n` : ""); // a file's name is foreign text
  if (!json) return list;
  // for scripts, the listing as data too: `jq '.sessions[].id'`
  const rows = shown.map((s) => ({
    id: s.id,
    short: short.get(basename(s.path, ".jsonl")) ?? s.id,
    cwd: s.cwd,
    modified: new Date(s.modified).toISOString(),
    size: s.size,
    first_prompt: s.firstPrompt,
    ...(lockedByOther(s.path) ? { in_use: true } : {}), // as the table's "(open in another hey)": hey --resume refuses it
  }));
  return (
    JSON.stringify({ type: "command", name: "--sessions", ok: true, output: list.trimEnd(), scope, sessions: rows }) +
    "\n" +
    JSON.stringify(doneEvent("end")) +
    "\n"
  );
}

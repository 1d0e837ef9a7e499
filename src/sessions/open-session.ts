// Which saved session a run continues (`--resume ID`, `-c`), opened and locked for it.
import { join } from "node:path";
import type { Places } from "../fs/places.ts";
import { projectOf } from "../fs/root-probe.ts";
import { errorText } from "../kernel/errors.ts";
import { oneLine } from "./format.ts";
import { holderOf, lockedByOther, SessionLockedError } from "./lock.ts";
import type { LoadedSession } from "./reader.ts";

/** A `--resume` or `-c` that cannot be followed: a usage error. */
export class SessionError extends Error {}

/**
 * `--resume ID` (id, or a unique start or end of it) or `-c` (the latest session of this directory,
 * else of its project: sessions/scope.ts), locked for this process (a second writer is refused) —
 * unless `readOnly` (a command that only reads it), which takes no lock and writes nothing.
 * `-c` mentions session files too damaged to tell their directory when one is newer than the
 * session it picks. A session another hey has open throws SessionLockedError; any other
 * failure is a SessionError.
 */
export async function openSession(
  here: Places,
  resume: string | undefined,
  latestHere: boolean,
  readOnly: boolean,
  warn: (line: string) => void,
): Promise<LoadedSession | undefined> {
  if (!resume && !latestHere) return undefined;
  try {
    // loaded only to resume: a new session's run never reads one (the short task's peak RSS)
    const [{ findSession, scanSessions, unreadableNote }, { resumeSession }, { sessionsHere }] = await Promise.all([
      import("./listing.ts"),
      import("./reader.ts"),
      import("./scope.ts"),
    ]);
    if (resume) return resumeSession(findSession(here.sessionsDir, resume).path, here.cwd, { readOnly });
    const { sessions, unreadable } = scanSessions(here.sessionsDir);
    const scope = sessionsHere(sessions, here, projectOf(here.home));
    const offered = scope.sessions;
    const newest = offered[0];
    const note = unreadableNote(unreadable.filter((u) => !newest || u.modified > newest.modified));
    if (note) warn(note);
    if (!newest) warn(`no earlier session in this directory${here.root === here.cwd ? "" : " or its project"}; starting a new one`);
    if (!newest) return undefined;
    if (readOnly) return resumeSession(newest.path, here.cwd, { readOnly }); // a command that only reads takes no lock, and reads the newest
    // the newest one not open in another hey (a second terminal; a crashed hey's own session is the one before it), said.
    // Taking its lock is the test: another hey started at the same moment may take the one that looked free, so on to the next
    for (const s of offered) {
      if (lockedByOther(s.path)) continue;
      let loaded: LoadedSession;
      try {
        loaded = resumeSession(s.path, here.cwd, { readOnly });
      } catch (e) {
        if (e instanceof SessionLockedError) continue;
        throw e;
      }
      if (s !== newest)
        warn(
          `the latest session here, ${newest.id}, is open in another hey; continuing ${s.id}, the latest one that is not: “${oneLine(s.firstPrompt, 50) || "(no prompt)"}”`,
        );
      return loaded;
    }
    throw new SessionLockedError(
      everyOneOpen(
        offered.map((s) => s.id),
        offered.map((s) => holderOf(s.path)),
        scope.project,
        here.sessionsDir,
      ),
    );
  } catch (e) {
    if (e instanceof SessionLockedError) throw e; // in use: retried later, not fixed on the command line
    throw new SessionError(errorText(e));
  }
}

/** How many holders a refusal names: more heys than this at once in one directory are a script's. */
const NAMED_HOLDERS = 5;

/**
 * Why `-c` continues none of the sessions offered here (`ids`): each is open in a live hey
 * (`holders`, as lockOwner says them; undefined for one that let go meanwhile). Not the lock's own
 * refusal, whose "delete the lock" is for a hey that may be gone: these were checked alive, but for one
 * on another host or in another container (`dir`: the sessions folder, to name its lock).
 */
export function everyOneOpen(ids: readonly string[], holders: readonly (string | undefined)[], project: boolean, dir?: string): string {
  const named = [...new Set(holders.filter((h) => h !== undefined))];
  const by = named.length ? ` (${named.slice(0, NAMED_HOLDERS).join(", ")}${named.length > NAMED_HOLDERS ? ", …" : ""})` : "";
  const where = project ? "of this project" : "of this directory";
  const which = ids.length === 1 ? `the one session ${where}, ${ids[0]}, is` : `every session ${where} (${ids.length} of ${ids.length}) is`;
  // a hey on another host or in another container cannot be checked from here: one killed there (a container gone) leaves its lock
  const unseen = ids.findIndex((_, i) => / on | in another /.test(holders[i] ?? ""));
  const gone = unseen < 0 || !dir ? "" : ` — if that hey no longer runs, delete ${join(dir, `${ids[unseen]}.jsonl.lock`)}`;
  return `${which} open in another hey${by}; \`hey\` without -c starts a new session, or wait for one to finish${gone}`;
}

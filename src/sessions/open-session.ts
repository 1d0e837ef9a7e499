// Which saved session a run continues (`--resume ID`, `-c`), opened and locked for it.
import type { Places } from "../fs/places.ts";
import { projectOf } from "../fs/root-probe.ts";
import { errorText } from "../kernel/errors.ts";
import { oneLine } from "./format.ts";
import { lockedByOther, SessionLockedError } from "./lock.ts";
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
    const offered = sessionsHere(sessions, here, projectOf(here.home)).sessions;
    const newest = offered[0];
    const note = unreadableNote(unreadable.filter((u) => !newest || u.modified > newest.modified));
    if (note) warn(note);
    if (!newest) warn(`no earlier session in this directory${here.root === here.cwd ? "" : " or its project"}; starting a new one`);
    // the newest one open in another hey (a second terminal; a crashed hey's own session is the one before it): the
    // newest that is not, said; a command that only reads takes no lock, and reads the newest
    const latest = readOnly ? newest : (offered.find((s) => !lockedByOther(s.path)) ?? newest);
    if (latest && latest !== newest)
      warn(
        `the latest session here, ${newest!.id}, is open in another hey; continuing ${latest.id}, the latest one that is not: “${oneLine(latest.firstPrompt, 50) || "(no prompt)"}”`,
      );
    return latest ? resumeSession(latest.path, here.cwd, { readOnly }) : undefined;
  } catch (e) {
    if (e instanceof SessionLockedError) throw e; // in use: retried later, not fixed on the command line
    throw new SessionError(errorText(e));
  }
}

// What hey said once per project of other agents' files (peers/found.ts): a notice is given at the
// first start that finds it, and again only when it changes (a rule added to the deny list), so a
// user who read it is not told on every run. Kept in the state directory, one hash per notice.
import { writeFileAtomic } from "../fs/atomic.ts";
import { withFileLock } from "../fs/file-lock.ts";
import { readOwnFile } from "../fs/own-files.ts";

/** The record is a few hashes per project; anything bigger is not hey's. */
const SAID_MAX_BYTES = 1024 * 1024;

/**
 * How long a start waits for another hey's lock of the record: a "said once" record is not worth a
 * slow start, and a lock left by a killed hey or another machine (a synced home) is held for a minute
 * or for good — the notice is then said again next time, nothing worse.
 */
const SAID_LOCK_WAIT_MS = 200;

type Said = Record<string, string[]>;

// Bun's hasher, not node:crypto's: importing that module costs every run ~3 MB of memory
const hashOf = (notice: string) => new Bun.CryptoHasher("sha256").update(notice).digest("hex").slice(0, 16);

/** What a start says once (saidRecord): the notices not said before, each call recording its own. */
export interface SaidRecord {
  /**
   * The notices of `notices` not said before in `project` (its key, trust/store.ts projectKey), which
   * are recorded as said now; `topic` keeps a kind of notice apart (each call records what its kind
   * says now: none, and one that comes back is said again). Never throws: a record that cannot be
   * read or written costs only a notice said again.
   */
  unsaid(project: string, notices: readonly string[], topic?: string): Promise<string[]>;
}

/**
 * The record in `file` as one start of hey reads it: once, at its first question (a start asks up to
 * five: the trust notice, other agents' files, the deny entries, the user's lists, the start's held
 * lines — each read the file again, ~4 opens and stats before the first request), then answered
 * from what was read. A call that changes its key reads the file again under its lock and writes
 * back that key alone: another hey starting meanwhile (its questions span the skills, AGENTS.md and
 * MCP servers' start) keeps what it wrote, a key it dropped too. `read` reads the file (fs/own-files.ts readOwnFile).
 */
export function saidRecord(file: string, read: typeof readOwnFile = readOwnFile): SaidRecord {
  let said: Said | undefined;
  const load = (): Said => {
    try {
      const got = read(file, SAID_MAX_BYTES);
      const data: unknown = got ? JSON.parse(got.text) : {};
      if (typeof data === "object" && data !== null && !Array.isArray(data)) return data as Said;
    } catch {
      // unreadable or not JSON: started again
    }
    return {};
  };
  const record = (key: string, hashes: string[]) =>
    withFileLock(
      file,
      async () => {
        const now = load();
        if (hashes.length > 0) now[key] = hashes;
        else delete now[key];
        await writeFileAtomic(file, JSON.stringify(now) + "\n", { own: true, private: true });
      },
      { private: true, waitMs: SAID_LOCK_WAIT_MS },
    );
  return {
    async unsaid(project, notices, topic = "") {
      said ??= load();
      const key = topic ? `${project}#${topic}` : project;
      const before = Array.isArray(said[key]) ? said[key] : [];
      const now = notices.map(hashOf);
      const fresh = notices.filter((_, i) => !before.includes(now[i]!));
      if (fresh.length === 0 && now.length === before.length) return []; // nothing new, nothing gone
      if (now.length > 0)
        said[key] = now; // what is there now: a notice gone and back is said again
      else delete said[key];
      try {
        await record(key, now);
      } catch {
        // a read-only state directory, or a lock another hey holds: said again next time
      }
      return fresh;
    },
  };
}

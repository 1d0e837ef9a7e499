// What hey said once per project of other agents' files (peers/found.ts): a notice is given at the
// first start that finds it, and again only when it changes (a rule added to the deny list), so a
// user who read it is not told on every run. Kept in the state directory, one hash per notice.
import { writeFileAtomic } from "../fs/atomic.ts";
import { readOwnFile } from "../fs/own-files.ts";

/** The record is a few hashes per project; anything bigger is not hey's. */
const SAID_MAX_BYTES = 1024 * 1024;

type Said = Record<string, string[]>;

// Bun's hasher, not node:crypto's: importing that module costs every run ~3 MB of memory
const hashOf = (notice: string) => new Bun.CryptoHasher("sha256").update(notice).digest("hex").slice(0, 16);

/**
 * The notices of `notices` not said before in `project` (its key, trust/store.ts projectKey), which
 * are recorded in `file` as said now; `topic` keeps a kind of notice apart (each call records what
 * its kind says now: none, and one that comes back is said again). A record that cannot be read or
 * written costs only a notice said again: never an error.
 */
export async function unsaid(file: string, project: string, notices: readonly string[], topic = ""): Promise<string[]> {
  const key = topic ? `${project}#${topic}` : project;
  let said: Said = {};
  try {
    const read = readOwnFile(file, SAID_MAX_BYTES);
    const data: unknown = read ? JSON.parse(read.text) : {};
    if (typeof data === "object" && data !== null && !Array.isArray(data)) said = data as Said;
  } catch {
    // unreadable or not JSON: started again
  }
  const before = Array.isArray(said[key]) ? said[key] : [];
  const now = notices.map(hashOf);
  const fresh = notices.filter((_, i) => !before.includes(now[i]!));
  if (fresh.length === 0 && now.length === before.length) return []; // nothing new, nothing gone
  if (now.length > 0)
    said[key] = now; // what is there now: a notice gone and back is said again
  else delete said[key];
  try {
    await writeFileAtomic(file, JSON.stringify(said) + "\n", { own: true, private: true });
  } catch {
    // a read-only state directory: said again next time
  }
  return fresh;
}

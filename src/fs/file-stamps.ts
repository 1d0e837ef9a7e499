// What a reading of files keeps to tell, at the next call, whether what it worked out still holds:
// the identity of each file and directory it looked at (device and inode, size, modification and
// change times in nanoseconds), one stat(2) each, as git's index tells a changed file. A file changed
// within RACY_MS of being looked at may change again within the same clock tick and keep its stamp
// (git's "racy" entries): it gets a stamp that never matches, so the next call reads it again. The
// later of its modification and change times says when: `cp -p`, `touch -d`, `tar x` put the first back.
// Without a deadline, as the readings that keep them (permission/repository-programs.ts).
import { statSync } from "node:fs";

/** How recent a change makes a stamp untrustworthy: file systems keep times at a clock tick's grain, FAT at 2 s. */
const RACY_MS = 2000;

/** A path's stamp as a reading took it, by path. */
export type Stamps = Map<string, string>;

/** `path`'s identity now: "-" where nothing is there. Never throws. */
export function stampOf(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return "-";
  }
}

/** Notes `path` as looked at, before it is read or moments after (a change in between is a recent one); a recent change notes it as never the same. */
export function look(stamps: Stamps, path: string, now = Date.now()): void {
  if (stamps.has(path)) return;
  const stamp = stampOf(path);
  const [mtime, ctime] = stamp === "-" ? [0n, 0n] : stamp.split(":").slice(3).map(BigInt);
  const changed = Number((mtime! > ctime! ? mtime! : ctime!) / 1_000_000n);
  stamps.set(path, now - changed < RACY_MS ? "racy" : stamp);
}

/** Whether every path of `stamps` is as it was when it was looked at. */
export const unchanged = (stamps: Stamps): boolean => [...stamps].every(([path, stamp]) => stampOf(path) === stamp);

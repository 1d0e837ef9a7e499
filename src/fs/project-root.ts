// The project a directory belongs to (issue 26's definition, which issue 28's per-project history
// uses): the nearest ancestor holding `.hey/`, else the git root (the nearest holding `.git`), else
// the directory itself. Pure: the caller says what exists.
import { dirname, join } from "node:path";

/** The project root of `cwd` (absolute); `exists(path)` tells whether a file or directory is there. */
export function projectRoot(cwd: string, exists: (path: string) => boolean): string {
  const up = (marker: string): string | undefined => {
    for (let dir = cwd; ; dir = dirname(dir)) {
      if (exists(join(dir, marker))) return dir;
      if (dirname(dir) === dir) return undefined;
    }
  };
  return up(".hey") ?? up(".git") ?? cwd;
}

/**
 * Where the REPL history of the project at `root` is kept, under `dir` (`<state>/hey/histories`):
 * the path made a readable name (`-home-ana-src-app`, its last 60 characters) and a hash of it, so
 * two roots never share a file.
 */
export function projectHistoryFile(dir: string, root: string): string {
  const readable = root.replace(/[^A-Za-z0-9._]+/g, "-").slice(-60);
  return join(dir, `${readable}-${fnv1a(root)}`);
}

/** FNV-1a, 32 bits, in hex: a short stable name for a path (not a secret, not security). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

// A git worktree's place in its main checkout (SPEC §15): `git worktree add` makes a checkout whose
// `.git` is a file, `gitdir: <repo>/.git/worktrees/<id>`; that directory's `gitdir` names the
// worktree's `.git` file back, and its `commondir` the repository's own git directory. Trust keys a
// worktree by the main checkout's path, and a worktree's config file with no approval of its own is
// weighed against the main checkout's (config/load.ts), as Codex CLI resolves a worktree to its repository for trust: a worktree is the same project on another branch, as a
// `git switch` in the main checkout would be. The link is followed only when both ends agree and the
// record lies in the repository it names (`<common>/worktrees/<id>`) — a `.git` file, and a record
// beside it, are anyone's to write (an archive could claim any repository); a `.git` that is a link
// is never a worktree's, as git writes a file — while a second clone is another repository and is
// asked about again. Never throws.
import { lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";

/** A `.git` file is one line; the worktree records are one path each. */
const MAX_BYTES = 64 * 1024;

const read = (path: string) => (statSync(path).size <= MAX_BYTES ? readFileSync(path, "utf8") : "");

/**
 * `path` (a real path) as the main checkout names it when it lies in a linked worktree that its
 * repository lists (`/src/shop-fix/.hey/config.toml` → `/src/shop/.hey/config.toml`); a worktree of
 * a bare repository maps onto the repository's directory. Else `path` itself.
 */
export function inMainCheckout(path: string): string {
  for (let dir = path; ; dir = dirname(dir)) {
    const main = mainOf(dir);
    if (main !== null) return main === undefined ? path : join(main, relative(dir, path));
    if (dirname(dir) === dir) return path;
  }
}

/** The main checkout of the checkout at `dir`: undefined when `dir` holds a `.git` that is not a listed worktree's, null when it holds none. */
function mainOf(dir: string): string | undefined | null {
  const dotGit = join(dir, ".git");
  try {
    if (!lstatSync(dotGit).isFile()) return undefined; // a repository of its own (or its main checkout), or a link
  } catch {
    return null;
  }
  try {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(read(dotGit))?.[1];
    if (!pointer) return undefined;
    const gitdir = realpathSync(resolve(dir, pointer));
    // the repository lists this worktree: its record names this very `.git` file (`dir` is a real path)
    if (realpathSync(resolve(gitdir, read(join(gitdir, "gitdir")).trim())) !== dotGit) return undefined;
    const common = realpathSync(resolve(gitdir, read(join(gitdir, "commondir")).trim()));
    // …and the record is one of that repository's, not one written beside the `.git` file
    if (dirname(gitdir) !== join(common, "worktrees")) return undefined;
    return basename(common) === ".git" ? dirname(common) : common;
  } catch {
    return undefined; // a submodule (no record names it back), or a worktree whose repository moved
  }
}

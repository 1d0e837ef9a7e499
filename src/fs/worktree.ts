// A git worktree's place in its main checkout (SPEC §15): `git worktree add` makes a checkout whose
// `.git` is a file, `gitdir: <repo>/.git/worktrees/<id>`; that directory's `gitdir` names the
// worktree's `.git` file back, and its `commondir` the repository's own git directory. Trust keys a
// worktree by the main checkout's path, and a worktree's config file with no approval of its own is
// weighed against the main checkout's (config/load.ts), as Codex CLI resolves a worktree to its repository for trust: a worktree is the same project on another branch, as a
// `git switch` in the main checkout would be. The link is followed only when both ends agree and the
// record lies in the repository it names (`<common>/worktrees/<id>`) — a `.git` file, and a record
// beside it, are anyone's to write (an archive could claim any repository); a `.git` that is a link
// is never a worktree's, as git writes a file — while a second clone is another repository and is
// asked about again. Where a `.git` leads — a worktree's or a submodule's git directory, and the
// common one — is gitDirsOf's, which also finds the exclude files git reads (fs/ignore-files.ts).
// Never throws.
import { realpathSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { readHead } from "./read-head.ts";
import { lookAt } from "./root-probe.ts";

/** A `.git` file is one line; the worktree records are one path each. */
const MAX_BYTES = 64 * 1024;

/** A small file's text ("" when longer than MAX_BYTES); throws where there is none, and for a FIFO or device, which could hang a read. */
const read = (path: string) => {
  const head = readHead(path, MAX_BYTES);
  return head.truncated ? "" : head.text;
};

/** A repository's directories, as git finds them from a `.git` (real paths). */
export interface GitDirs {
  /** `.git` itself, or the directory a `.git` file names (`<repo>/.git/worktrees/<id>`, `<super>/.git/modules/<name>`) */
  gitDir: string;
  /** where the repository's shared files are (`info/exclude`, `config`): the `commondir` a linked worktree's git directory names, else gitDir */
  commonDir: string;
  /** what the `.git` is: a directory; a file naming a linked worktree's git directory (it has a commondir); another file (a submodule's) */
  kind: "directory" | "worktree" | "file";
}

/**
 * The git directories of the `.git` in `dir`, as git resolves them: a directory is its own; a file
 * `gitdir: PATH` (a linked worktree's, a submodule's) names one, relative to `dir`, whose
 * `commondir` (relative to it) holds what the worktrees share. Undefined when `dir` holds no
 * `.git`, or a file that names no readable directory. Never throws.
 */
export function gitDirsOf(dir: string): GitDirs | undefined {
  const dotGit = join(dir, ".git");
  try {
    if (!lookAt(dotGit).isFile()) {
      const gitDir = realpathSync(dotGit); // a directory, or a link to one
      return { gitDir, commonDir: gitDir, kind: "directory" };
    }
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(read(dotGit))?.[1];
    if (!pointer) return undefined;
    const gitDir = realpathSync(resolve(dir, pointer));
    let common: string | undefined;
    try {
      common = read(join(gitDir, "commondir")).trim();
    } catch {
      // none: a submodule's git directory is its repository's own
    }
    return common ? { gitDir, commonDir: realpathSync(resolve(gitDir, common)), kind: "worktree" } : { gitDir, commonDir: gitDir, kind: "file" };
  } catch {
    return undefined;
  }
}

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
    if (!lookAt(dotGit, false).isFile()) return undefined; // a repository of its own (or its main checkout), or a link
  } catch {
    return null;
  }
  const dirs = gitDirsOf(dir);
  if (dirs?.kind !== "worktree") return undefined; // a submodule (it names no commondir), or a `.git` file that names nothing
  const { gitDir, commonDir } = dirs;
  try {
    // the repository lists this worktree: its record names this very `.git` file (`dir` is a real path)
    if (realpathSync(resolve(gitDir, read(join(gitDir, "gitdir")).trim())) !== dotGit) return undefined;
    // …and the record is one of that repository's, not one written beside the `.git` file
    if (dirname(gitDir) !== join(commonDir, "worktrees")) return undefined;
    return basename(commonDir) === ".git" ? dirname(commonDir) : commonDir;
  } catch {
    return undefined; // a worktree whose repository moved
  }
}

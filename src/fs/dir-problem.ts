// Why one of hey's own directories (the sessions directory, under XDG_STATE_HOME) or files cannot be used,
// said as one sentence that names the path at fault and what to do — not "ENOTDIR: mkdir …",
// which names a directory that does not exist rather than the file in its way.
import { accessSync, constants, lstatSync, readlinkSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { errnoCode, errorText } from "../kernel/errors.ts";

/**
 * What went wrong making, listing or writing into `dir` (`e`: the system error), naming the path
 * at fault: a link to nothing, a file where a directory of the path should be, a directory hey may
 * not use, else the error as it came. `variable` is what puts `dir` elsewhere (with HOME, when it
 * is unset): the fix for a directory that is not the user's to change (`/`, another user's home).
 */
export function dirProblem(dir: string, e: unknown, variable = "XDG_STATE_HOME", uid = process.getuid?.()): string {
  const code = errnoCode(e);
  const broken = code === "ENOENT" || code === "EEXIST" ? brokenLink(dir) : undefined;
  if (broken) return broken;
  if (code === "ENOTDIR" || code === "EEXIST") {
    const file = firstNonDirectory(dir);
    // HOME=/dev/null (a service account, a CI sandbox): no file to move away
    if (file && !isFile(file)) return `${file} is not a directory, so hey cannot keep ${dir}; set ${variable} (or HOME) to a directory this user may write`;
    if (file === dir) return `${dir} is a file, not a directory; move it away (hey makes the directory again)`;
    if (file) return `${file} is a file, not a directory, so hey cannot keep ${dir}; move the file away (hey makes the directory again)`;
  }
  const elsewhere = `set ${variable} (or HOME) to a directory this user may write`;
  if (code === "EACCES" || code === "EPERM") {
    const existing = deepestExisting(dir);
    const chmod = (how: string, path: string) => (ownedBy(path, uid) ? `chmod ${how} ${path}, or ${elsewhere}` : elsewhere);
    if (existing && existing !== dir) return `${dir} cannot be made: this user may not write ${existing} (${code}); ${chmod("u+w", existing)}`;
    return `${dir} cannot be used: permission denied; ${ownedBy(dir, uid) ? `give your user access to it (chmod u+rwx ${dir}, and x on each directory above it), or ${elsewhere}` : elsewhere}`;
  }
  if (code === "EROFS") return `${dir} is on a read-only file system; set ${variable} to a writable directory`;
  return `cannot use ${dir}: ${errorText(e)}`;
}

/**
 * Why nothing could be started in `cwd` when the directory is at fault, not the program: a spawn in
 * a directory that is gone fails ENOENT naming the program (`posix_spawn '/bin/sh'`), which sends
 * the user and the model after the shell setting. Deleted while hey ran (`rm -rf build` run
 * elsewhere, a `git checkout` that removed it), it works again once restored: a directory made again
 * at the path is used (fs/work-dir.ts). Said for a directory hey did not start in (an embedder's);
 * of the one it started in, movedFrom speaks first. Undefined when `cwd` is still a directory, or
 * cannot be looked at.
 */
export function goneDirectory(cwd: string): string | undefined {
  try {
    if (statSync(cwd).isDirectory()) return undefined;
    return `the working directory ${cwd} is no longer a directory (replaced by a file while hey ran); cd elsewhere and restart hey`;
  } catch (e) {
    const code = errnoCode(e);
    if (code !== "ENOENT" && code !== "ENOTDIR") return undefined;
    return `the working directory ${cwd} no longer exists (deleted while hey ran); restore it (a checkout back), or cd elsewhere and restart hey`;
  }
}

/**
 * Why `dir` could not be made or written, looked at without writing anything (the nearest directory
 * that exists, its permissions, its file system): dirProblem's sentence; undefined when it could be.
 */
export function unusableDir(dir: string, variable: string, uid = process.getuid?.()): string | undefined {
  const file = firstNonDirectory(dir);
  if (file) return dirProblem(dir, Object.assign(new Error("not a directory"), { code: "ENOTDIR" }), variable, uid);
  const existing = deepestExisting(dir);
  try {
    if (existing) accessSync(existing, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (e) {
    return dirProblem(dir, e, variable, uid);
  }
}

/**
 * What a failed write of one of hey's own files (`file`, kept where `variable` says) means: the
 * disk's problem, its directory's (dirProblem) when that is what cannot be made or written, the
 * file's permissions, else the error as it came.
 */
export function fileProblem(file: string, e: unknown, variable: string): string {
  const dir = dirname(file);
  const code = errnoCode(e);
  const inDir = ["ENOTDIR", "EEXIST", "ENOENT"].includes(code ?? "") || ((code === "EACCES" || code === "EPERM") && !writable(dir));
  return diskProblem(e) ?? (inDir ? dirProblem(dir, e, variable) : diskProblem(e, file)) ?? errorText(e);
}

/** Whether user `uid` owns `path`, and so may change its permissions (`/`, another user's home: not its own to chmod). */
function ownedBy(path: string, uid: number | undefined): boolean {
  try {
    return uid !== undefined && statSync(path).uid === uid;
  } catch {
    return false;
  }
}

/** Whether `dir` exists and this user may make files in it. */
function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a failed write into one of hey's files means for the user, when it is the disk (full, over
 * quota, read-only), a size limit or, given the `file`, its permissions; undefined for anything else.
 */
export function diskProblem(e: unknown, file?: string): string | undefined {
  switch (errnoCode(e)) {
    case "EACCES":
    case "EPERM":
      return file === undefined
        ? undefined
        : `this user may not write it (${errnoCode(e)}: read-only, or made by another user — under sudo?); see ls -l ${file}`;
    case "ENOSPC":
      return "its disk is full (ENOSPC); free some space — what was saved before stays";
    case "EDQUOT":
      return "your disk quota is used up (EDQUOT); free some space — what was saved before stays";
    case "EFBIG":
      return "the file would be larger than this process may write (EFBIG: see `ulimit -f`)";
    case "EROFS":
      return "its file system is read-only (EROFS)";
  }
  return undefined;
}

/** `dir`, or the nearest directory above it, that exists as a directory (undefined when none can be seen). */
function deepestExisting(dir: string): string | undefined {
  for (let p = dir; ; p = dirname(p)) {
    try {
      if (statSync(p).isDirectory()) return p;
    } catch {
      // missing, or in a directory this user may not search: look above
    }
    if (dirname(p) === p) return undefined;
  }
}

/** The path nearest the root, among `dir` and the directories above it, that exists and is not a directory. */
export function firstNonDirectory(dir: string): string | undefined {
  for (const p of fromRoot(dir)) {
    try {
      if (!statSync(p).isDirectory()) return p;
    } catch {
      return undefined; // missing (or unreadable): nothing in the way from here down
    }
  }
  return undefined;
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * When `dir` or a directory above it is a symbolic link to a path that does not exist (a disk not
 * mounted, a dotfiles folder moved), the sentence that says so; else undefined. hey does not make
 * the target: on an unmounted disk it would land on the mount point, out of the user's sight.
 */
export function brokenLink(dir: string): string | undefined {
  for (const p of fromRoot(dir)) {
    try {
      if (!lstatSync(p).isSymbolicLink()) continue;
      statSync(p);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") return undefined;
      try {
        const target = resolve(dirname(p), readlinkSync(p));
        return `${p} is a symbolic link to ${target}, which does not exist (a disk not mounted, or a folder moved?); make ${target} or remove the link`;
      } catch {
        return undefined; // missing: nothing in the way from here down
      }
    }
  }
  return undefined;
}

/** `dir` and the directories above it, the root first. */
function fromRoot(dir: string): string[] {
  const chain: string[] = [];
  for (let p = dir; ; p = dirname(p)) {
    chain.unshift(p);
    if (dirname(p) === p) return chain;
  }
}

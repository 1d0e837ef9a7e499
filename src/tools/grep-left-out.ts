// The files a grep leaves out because the permission rules keep them from it (ToolContext.refusedFile):
// counted, never named or read. The built-in walk meets every file and counts as it goes; ripgrep
// names only the files that match — counting those would tell the model which denied file holds
// the pattern, a guess at a time — so its files are listed once more (`rg --files`, the same
// scope), which costs a listing, not a search.
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { shownName } from "../fs/odd-names.ts";
import { eachRecord } from "./ripgrep.ts";
import { leftOutDirs, type Scope } from "./walk.ts";

/** The files left out, by absolute path (a Set: ripgrep's matches and its listing name a file twice). */
export type LeftOut = Set<string>;

/**
 * Counts into `out` each file ripgrep `rg` would search with `scope` (its arguments that say which
 * files: ignore handling, skipped names, the glob) under `paths` that `searched` lets through and
 * `refused` keeps out. Never throws; stops when `signal` aborts.
 */
export async function countLeftOut(
  rg: string,
  run: { scope: string[]; paths: string[]; cwd: string; env: Record<string, string | undefined> | undefined; signal: AbortSignal },
  searched: (abs: string) => boolean,
  refused: (abs: string) => boolean,
  out: LeftOut,
): Promise<void> {
  let proc: Bun.Subprocess<"ignore", "pipe", "ignore">;
  try {
    proc = Bun.spawn([rg, ...run.scope, "--null", "--files", "--", ...run.paths], {
      cwd: run.cwd,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      ...(run.env ? { env: run.env } : {}),
    });
  } catch {
    return;
  }
  const kill = () => proc.kill();
  run.signal.addEventListener("abort", kill, { once: true });
  try {
    await eachRecord(
      proc.stdout,
      0,
      (name) => {
        const abs = resolve(run.cwd, shownName(name));
        if (searched(abs) && refused(abs)) out.add(abs);
      },
      () => run.signal.aborted,
    );
  } catch {
    proc.kill();
  } finally {
    run.signal.removeEventListener("abort", kill);
    await proc.exited;
  }
}

/** The result's line for `files` files and `folders` folders left out by the rules; "" for none. */
export function leftOutNote(files: number, folders = 0): string {
  if (files + folders === 0) return "";
  const some = (n: number, one: string) => (n === 0 ? [] : [`${n} ${n === 1 ? one : `${one}s`}`]);
  return `[${[...some(files, "file"), ...some(folders, "folder")].join(" and ")} not searched: the permission rules keep ${files + folders === 1 ? "it" : "them"} from grep]`;
}

/**
 * Whether the rules (`refused`, absent: none) keep a path grep met but could not read, or a folder
 * it did not enter, from grep: the path itself, or, for a folder, every file in it — asked of a
 * child named NUL, a name no file has, so only an entry covering the whole folder (`**\/secretdir`,
 * `secretdir/**`) says yes. One kept is added to `count`, when given.
 */
export const keptFromGrep =
  (refused: ((abs: string) => boolean) | undefined) =>
  (abs: string, count?: LeftOut): boolean => {
    const kept = !!refused && (refused(abs) || refused(join(abs, "\0")));
    if (kept) count?.add(abs);
    return kept;
  };

/** The folders under `root` its scope leaves out (walk.ts leftOutDirs), by absolute path, but those the rules keep from grep (`kept`). */
export async function ignoredDirs(root: string, scope: Scope, kept: (abs: string) => boolean): Promise<string[]> {
  return (await leftOutDirs(root, scope)).map((name) => join(root, name)).filter((abs) => !kept(abs));
}

/**
 * `unreadable` (paths grep met but could not read, as shown from `cwd`) without those the rules
 * keep from grep (`kept`), which are counted instead: a folder into `folders`, a file into `files`.
 */
export async function dropKept<T extends { path: string }>(
  unreadable: T[],
  cwd: string,
  kept: (abs: string, count?: LeftOut) => boolean,
  files: LeftOut,
  folders: LeftOut,
): Promise<T[]> {
  const left: T[] = [];
  for (const entry of unreadable) {
    const abs = resolve(cwd, entry.path);
    if (!kept(abs)) left.push(entry);
    else if ((await stat(abs).catch(() => undefined))?.isDirectory()) folders.add(abs);
    else files.add(abs);
  }
  return left;
}

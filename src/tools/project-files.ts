// The project's files as ripgrep lists them (`rg --files`, its ignore rules): what the model may
// have meant by a missing file (missing-file.ts), and what a user's `@name` may mean (Tab in the
// REPL, a message's `@cli.ts`). The list for `@` is kept for the session and listed again in the
// background once it is REFRESH_MS old, so a keystroke never waits for it.
import { realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { shownName } from "../fs/odd-names.ts";
import { kernelDirsIn, rgKeepOut } from "./kernel-dirs.ts";

const LIST_MS = 1500; // a listing is cut off after this (a home directory holding no project may be vast): what it found is kept
const FILES_MAX = 200_000; // and after this many files, which is all Tab can rank between two keystrokes
const REFRESH_MS = 5000; // a list older than this is listed again when next asked: files come and go as the agent works

/**
 * Each file ripgrep `rg` lists under `dir` (its ignore rules, dotfiles, not the `skip` names nor the
 * kernel's /proc and /sys), given to `take` as its path relative to `dir` in bytes; `take` returning
 * false stops the listing, as does `ms` passing. False when ripgrep could not run. Never throws.
 */
export async function listFiles(rg: string, dir: string, skip: readonly string[], ms: number, take: (path: Uint8Array) => boolean | void): Promise<boolean> {
  const argv = [rg, "--no-config", "--files", "--hidden", "--null", ...skip.flatMap((name) => ["--glob", `!${name}`])];
  // nor /proc and /sys, where the project is `/` (kernel-dirs.ts)
  const real = await realpath(dir).catch(() => dir);
  argv.push(...rgKeepOut(await kernelDirsIn(dir, real), [dir, real]));
  let proc: Bun.Subprocess<"ignore", "pipe", "ignore">;
  try {
    proc = Bun.spawn(argv, { cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  } catch {
    return false;
  }
  let stopped = false;
  const stop = () => {
    stopped = true;
    proc.kill();
  };
  const timer = setTimeout(stop, ms);
  try {
    const each = (path: Uint8Array) => void (take(path) === false && stop());
    const { eachRecord } = await import("./ripgrep.ts"); // grep's reader, loaded when a listing runs (a one-shot run without @names never does)
    await eachRecord(proc.stdout, 0, each, () => stopped);
  } catch {
    proc.kill();
  }
  clearTimeout(timer);
  // 0: files listed, 1: none, 2: some directory could not be read, the rest listed
  const code = await proc.exited;
  return stopped || code === 0 || code === 1 || code === 2;
}

/** The project's files for `@`: what is known now, and a list at most REFRESH_MS old. */
export interface ProjectFiles {
  /** the files listed so far (none before the first listing ends), relative to the working directory, `/`-separated; starts a listing when stale. Never blocks. */
  known(): readonly string[];
  /** the files, listed again first when the list is stale. Never throws. */
  fresh(): Promise<readonly string[]>;
}

/** One list per project root and working directory, for the process: the REPL's Tab and its messages share it. */
const lists = new Map<string, ProjectFiles>();

/**
 * The files of the project at `root` as paths from `cwd`, listed by the ripgrep `ripgrep` finds
 * (tools/ripgrep.ts), else by a walk of the first FILES_MAX files.
 */
export function projectFiles(root: string, cwd: string, ripgrep: () => Promise<string | null>): ProjectFiles {
  const key = `${root}\0${cwd}`;
  const known = lists.get(key);
  if (known) return known;
  let files: readonly string[] = [];
  let listedAt = -Infinity;
  let listing: Promise<readonly string[]> | undefined;
  const fromCwd = (rel: string) => {
    const path = root === cwd ? rel : relative(cwd, join(root, rel));
    return sep === "/" ? path : path.replaceAll(sep, "/");
  };
  const list = () =>
    (listing ??= listProject(root, ripgrep)
      .then((found) => {
        files = found.map(fromCwd);
        listedAt = Date.now();
        return files;
      })
      .finally(() => {
        listing = undefined;
      }));
  const stale = () => Date.now() - listedAt > REFRESH_MS;
  const made: ProjectFiles = {
    known() {
      if (stale()) void list();
      return files;
    },
    fresh: () => (stale() ? list() : Promise.resolve(files)),
  };
  lists.set(key, made);
  return made;
}

/** The files under `root`, relative to it: by ripgrep when there is one that runs, else by a walk. Never throws. */
async function listProject(root: string, ripgrep: () => Promise<string | null>): Promise<string[]> {
  const { ALWAYS_SKIP, walkFiles } = await import("./walk.ts");
  const found: string[] = [];
  const rg = await ripgrep().catch(() => null);
  const take = (path: Uint8Array) => {
    found.push(shownName(path));
    return found.length < FILES_MAX;
  };
  if (rg && (await listFiles(rg, root, ALWAYS_SKIP, LIST_MS, take))) return found;
  found.length = 0;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), LIST_MS);
  try {
    for await (const file of walkFiles(root, stop.signal)) {
      found.push(relative(root, file));
      if (found.length >= FILES_MAX) stop.abort();
    }
  } catch {
    // what was found before the walk failed is still the project's
  }
  clearTimeout(timer);
  return found;
}

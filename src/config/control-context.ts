// What the permission checks of a run need to know of the file system (issue 24, SPEC §8): how a
// path names one of hey's control files (links, hard links, `..`), for the file tools and the bash
// checker, what the git config says about a plain `git push` forcing, and whether a file a command
// would empty or check out holds anything, and the scripts `npm run NAME` runs. Built once per run.
// Every look is within fs/bounded-reads.ts's deadline; one that does not answer (a hung network
// mount, a huge tree) is "cannot tell", in words naming the path, never "no".
import { gitAliasConfig, pushForcing } from "../fs/git-config-files.ts";
import { gitOwnership, gitPlaces, workTreeTop } from "../fs/git-places.ts";
import { namesRevision } from "../fs/git-refs.ts";
import { stagedOnly } from "../fs/git-staged.ts";
import { boundedList, boundedTree, checkNumber } from "../fs/bounded-reads.ts";
import { sep } from "node:path";
import { packageScripts } from "../fs/package-scripts.ts";
import { workspacePackages } from "../fs/workspace-packages.ts";
import { fileId, fileLinks, fileState, hardLinkUnder, realTargetBounded } from "../fs/real-target.ts";
import { resolveUserPath } from "../fs/user-path.ts";
import { CACHE_WHY, COPIES_WHY, type ControlFiles, GIT_CONFIG_WHY, type Guarded, inGit, PATH_WHY } from "../permission/control-files.ts";
import { KNOWN_VARIABLES } from "../permission/control-globs.ts";
import { controlNamed, type ControlNames } from "./control-files.ts";

/** Why a directory is guarded: hey's cache, or a PATH directory the user can write. */

/**
 * `g` with where its directory really is (a link to hey's cache, a PATH entry that is a link),
 * looked up once, at the first check that asks: not when the check is built, since the bounded
 * look starts the disk worker (~6 MB), which a run that checks no command never needs.
 */
function withReal<G extends { dir: string }>(g: G): G & { readonly real?: string } {
  let found: { real?: string } | undefined;
  return Object.defineProperty({ ...g }, "real", { enumerable: true, get: () => (found ??= realOnce(g.dir)).real }) as G & { readonly real?: string };
}

/** Where a directory really is; none when it is not there or did not answer. */
function realOnce(dir: string): { real?: string } {
  try {
    return { real: realTargetBounded(dir) };
  } catch {
    return {};
  }
}

/** Where hey runs, for its guard: its control files, its cache, the PATH directories and git's global configs it keeps writes out of. */
export interface ControlPlace {
  cwd: string;
  home: string;
  controls: readonly string[];
  cacheDir?: string;
  /** hey's copies of the user's approved instruction files (trust/instruction-copies.ts), guarded as the approvals record is */
  copiesDir?: string;
  pathDirs?: readonly string[];
  gitConfigs?: readonly string[];
  /** the environment the agent's commands get, as git there reads it (`GIT_DIR`, `GIT_CONFIG_GLOBAL`…); none: hey's own */
  gitEnv?: Record<string, string | undefined>;
}

export function controlContext(place: ControlPlace): {
  target: ControlNames & { abs(path: string, base?: string): string | undefined };
  control: ControlFiles;
} {
  const env = place.gitEnv ?? process.env;
  const target = {
    abs: (path: string, base = place.cwd) => {
      const where = resolveUserPath(path, base, place.home);
      return "abs" in where ? where.abs : undefined;
    },
    real: realTargetBounded,
    id: fileId,
    controls: place.controls,
    dirs: [...(place.cacheDir ? [place.cacheDir] : []), ...(place.copiesDir ? [place.copiesDir] : []), ...(place.pathDirs ?? []), ...(place.gitConfigs ?? [])],
    gitFiles: place.gitConfigs ?? [],
    shallow: place.pathDirs ?? [],
    fold: process.platform === "darwin" || process.platform === "win32",
    links: fileLinks,
    cache: place.cacheDir,
    copies: place.copiesDir,
    gitOwn: (abs: string) => gitOwnership(abs, [place.cwd], place.home, env),
  };
  const guarded = [
    ...(place.cacheDir ? [{ dir: place.cacheDir, why: CACHE_WHY }] : []),
    ...(place.copiesDir ? [{ dir: place.copiesDir, why: COPIES_WHY }] : []),
    ...(place.pathDirs ?? []).map((dir) => ({ dir, why: PATH_WHY, shallow: true as const })),
    ...(place.gitConfigs ?? []).map((dir) => ({ dir, why: GIT_CONFIG_WHY, git: true as const })),
  ].map(withReal);
  let fromGit = { check: -1, places: [] as Guarded[] };
  const control: ControlFiles = {
    paths: [...place.controls],
    // and what git in the start directory runs commands from, read afresh at each check (a glob or a run-time word is matched against these by name)
    get guarded() {
      if (fromGit.check !== checkNumber()) fromGit = { check: checkNumber(), places: placesOf(place.cwd, place.home, env) };
      return [...guarded, ...fromGit.places];
    },
    home: place.home,
    cwd: place.cwd,
    vars: Object.fromEntries(KNOWN_VARIABLES.map((name) => [name, name === "HOME" ? place.home : env[name]])),
    fold: target.fold,
    links: (abs: string) => {
      try {
        return fileLinks(abs);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
    named: (abs: string) => {
      try {
        return controlNamed(abs, target) !== undefined;
      } catch (e) {
        return (e as Error).message; // it did not answer in time
      }
    },
    pushForcing: (dir: string) => pushForcing(dir, place.home),
    gitAliases: (dir: string) => gitAliasConfig(dir, place.home),
    fileState,
    sameFile: (abs, named, under) => {
      try {
        const id = fileId(abs);
        if (id !== undefined && id === fileId(named)) return true;
        if (!under) return false;
        const dir = realTargetBounded(named);
        if (realTargetBounded(abs).startsWith(dir.endsWith(sep) ? dir : dir + sep)) return true;
        // a hard link's other names are not found from it: looked for below the directory
        return hardLinkUnder(abs, dir);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
    packageScripts,
    workspacePackages,
    gitOwn: (abs, from) => {
      try {
        return gitOwnership(abs, [place.cwd, ...(from ?? [])], place.home, env);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
    workTreeTop: (dir, gitDir) => {
      try {
        return workTreeTop(dir, env, gitDir);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
    gitRevision: (dir, name) => {
      try {
        return namesRevision(dir, name, env);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
    stagedOnly: (abs) => {
      try {
        return stagedOnly(abs, env);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
    realDir: (dir) => {
      try {
        return realTargetBounded(dir);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
    names: (dir) => {
      try {
        return boundedList(dir);
      } catch (e) {
        // not there, or no directory: a glob matches nothing in it; anything else (it did not answer, too many names) is unknown
        return ["ENOENT", "ENOTDIR"].includes((e as { code?: string }).code ?? "") ? undefined : { unknown: (e as Error).message };
      }
    },
    tree: (dir) => {
      try {
        return boundedTree(dir);
      } catch (e) {
        return { unknown: (e as Error).message }; // it did not answer in time
      }
    },
  };
  return { target, control };
}

/** The places git in `cwd` runs commands from (fs/git-places.ts), as the guard keeps them; none where they cannot be read in time (each write's own look says so). */
function placesOf(cwd: string, home: string, env: Record<string, string | undefined>): Guarded[] {
  try {
    // a `.git` directory is guarded by its name already, and refused in those words
    return gitPlaces(cwd, home, env)
      .filter(({ path }) => !inGit(path))
      .map(({ path, why, workTrees }) => withReal({ dir: path, why, git: true as const, ...(workTrees?.length ? { except: workTrees } : {}) }));
  } catch {
    return [];
  }
}

// Which directories no walk of the file tools enters (grep's, in either search, and the project's
// file lists): the kernel's own file systems below the walk's root, /proc and /sys wherever they
// are mounted (fs/mounts.ts kernelDirsBelow). A search of `/` went down into every
// `/proc/PID/environ`, so a match count told a key a guess at a time; as root it also read files
// that wait for ever (/proc/kmsg). A file in them named as grep's `path` is searched as any file
// is, but for a process's environment (fs/special-files.ts).
import { readFile, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { kernelDirsBelow, type Mount, MOUNTINFO, parseMountinfo } from "../fs/mounts.ts";

const toSlash = (path: string) => (sep === "/" ? path : path.replaceAll(sep, "/"));

/** The mounts this process sees (fs/mounts.ts); none where there is no table to read (not Linux). Never throws. */
export async function mountTable(): Promise<Mount[]> {
  return parseMountinfo(await readFile(MOUNTINFO, "utf8").catch(() => ""));
}

/**
 * The directories below `root` that no walk enters, named as a walk of `root` names them
 * (`realRoot`: its real path): /proc, /sys and the kernel's other file systems mounted there
 * (fs/mounts.ts kernelDirsBelow; `mounts`: default mountTable's). A search of `/` went down into
 * every `/proc/PID/environ`. Never throws.
 */
export async function kernelDirsIn(root: string, realRoot: string, mounts?: readonly Mount[]): Promise<string[]> {
  return kernelDirsBelow(toSlash(realRoot), mounts ?? (await mountTable())).map((dir) => join(root, relative(realRoot, dir)));
}

/**
 * What ripgrep is given to search `paths` (`root`, or directories below it a glob names; `realRoot`
 * is root's real path) run in `cwd`, so that it enters none of the directories kernelDirsIn names:
 * the paths not inside one (`root` when none is left) and the globs that keep it out of those below
 * them (rgKeepOut). `mounts`: mountTable's. Never throws.
 */
export async function rgKeptOut(
  root: string,
  realRoot: string,
  paths: readonly string[],
  cwd: string,
  mounts: readonly Mount[],
): Promise<{ paths: string[]; args: string[] }> {
  const away = kernelDirsBelow(toSlash(realRoot), mounts);
  if (away.length === 0) return { paths: [...paths], args: [] };
  const below = (path: string, dir: string) => path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
  const named: string[] = []; // as ripgrep names them: the path it was given, then the names below
  const kept: string[] = [];
  for (const path of paths) {
    const real = toSlash(await realpath(path).catch(() => path));
    if (path !== root && away.some((dir) => real === dir || below(real, dir))) continue;
    kept.push(path);
    for (const dir of away.filter((d) => below(d, real))) named.push(`${path.endsWith("/") ? path : `${path}/`}${relative(real, dir)}`);
  }
  if (kept.length === 0) return rgKeptOut(root, realRoot, [root], cwd, mounts);
  return { paths: kept, args: rgKeepOut(named, [cwd, await realpath(cwd).catch(() => cwd)]) };
}

/**
 * ripgrep's arguments that keep it out of `dirs` (absolute, as ripgrep names them: the path it was
 * given, then the names below), run in a directory named `cwds` (as given and its real path).
 * ripgrep matches a `--glob` against a path's part below its working directory where the path lies
 * there, else against the whole path; a leading `/` anchors the glob, so `!//proc` is /proc itself. Pure.
 */
export function rgKeepOut(dirs: readonly string[], cwds: readonly string[]): string[] {
  const literal = (path: string) => toSlash(path).replace(/[\\*?[\]{}!]/g, "\\$&");
  return dirs.flatMap((dir) => {
    const below = cwds.filter((cwd) => dir.startsWith(cwd.endsWith(sep) ? cwd : cwd + sep)).map((cwd) => relative(cwd, dir));
    return [...new Set([dir, ...below])].flatMap((path) => ["--glob", `!/${literal(path)}`]);
  });
}

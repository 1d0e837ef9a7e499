// Whether git could count a file as ignored, for `git clean -X` at a project root (x140): it deletes
// only ignored files, so a `.hey/config.toml` no exclude rule can match is safe from it. Read the
// way git reads them — each `.gitignore` from the repository's root down to the file, the
// repository's `info/exclude`, the global excludes file — with every `!` rule set aside, so a
// file git would ignore is always said to be; anything hey cannot read or tell says so too.
import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { compileIgnore } from "./gitignore.ts";
import { gitExcludeFiles } from "./ignore-files.ts";
import { readHead } from "./read-head.ts";

const MAX_BYTES = 1 << 20; // an exclude file longer than this is not read: the file may be ignored

/** The lines of an exclude file, [] where there is none, or undefined where it cannot be read whole. */
function linesOf(path: string): string[] | undefined {
  try {
    const { text, truncated } = readHead(path, MAX_BYTES);
    return truncated ? undefined : text.split(/\r?\n/);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR" ? [] : undefined;
  }
}

/** Whether a rule of git's (a `!` rule set aside) could ignore the absolute `abs` or a directory above it in its repository; true when hey cannot tell. Never throws. */
export function mayBeIgnored(abs: string, env: Record<string, string | undefined>, home: string): boolean {
  let repo: string | undefined;
  for (let dir = dirname(abs); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) {
      repo = dir;
      break;
    }
    if (dirname(dir) === dir) return true; // git clean fails outside a repository; nothing to weigh
  }
  const excludes = gitExcludeFiles(repo, env, home);
  if (!excludes || typeof excludes.global !== "string") return true;
  // each exclude file with the directory its rules are relative to
  const files: [string, string][] = [
    [excludes.global, repo],
    [excludes.repo, repo],
  ];
  for (let dir = dirname(abs); ; dir = dirname(dir)) {
    files.push([join(dir, ".gitignore"), dir]);
    if (dir === repo) break;
  }
  for (const [file, base] of files) {
    const lines = linesOf(file);
    if (lines === undefined) return true;
    const rules = compileIgnore(lines.filter((l) => !l.startsWith("!")));
    // the file, and each directory between it and the rules' base (an ignored `.hey/` takes the file with it)
    for (let p = abs, isDir = false; p !== base && p.startsWith(base); p = dirname(p), isDir = true)
      if (rules(relative(base, p).split(sep).join("/"), isDir) === "ignore") return true;
  }
  return false;
}

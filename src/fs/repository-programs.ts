// The programs the repositories a command may run git in name in their own config (x67): a
// textconv driver, a diff driver's command, `diff.external`, a filter's clean, smudge or process
// command (permission/git-env.ts repositoryProgram), which plan mode and `/diff` make harmless. The
// repositories are the one git finds from the working directory and from each directory the
// command's words name (`cd ../other`, `git -C /src/x`, `--git-dir=…`): a path hidden in a
// variable or a command's output is not seen. A bare repository is found only by `.git` or
// GIT_DIR, as under `safe.bareRepository = explicit`. Read without a deadline; never throws.
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { explicitBareRepositories, guardedGit, PROGRAMS_WITHOUT_NAMES, REFUSED, repositoryProgram } from "../permission/git-env.ts";
import { gitDirs, readConfigFile, walkGitConfig } from "./git-config-files.ts";

/** Words of a command looked at, at most: each is a stat(2). */
const MAX_WORDS = 64;

/** The words of `command` that may be paths: split at blanks, quotes and shell punctuation, and at `=` (`--git-dir=DIR`, `GIT_DIR=DIR`). Pure. */
export function pathWords(command: string): string[] {
  const words = command.split(/[\s;&|()<>`"'=]+/).filter((w) => w !== "" && !w.startsWith("-") && !w.includes("$"));
  return [...new Set(words)].slice(0, MAX_WORDS);
}

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The `section.sub.key` of every such program the repositories of `cwd` and of the directories `command` names set; `home` for `~/`. */
export function repositoryPrograms(cwd: string, command: string, home: string, env: Record<string, string | undefined>): string[] {
  const named = pathWords(command).map((w) => (w === "~" ? home : w.startsWith("~/") ? join(home, w.slice(2)) : resolve(cwd, w)));
  const dirs = [...new Set([cwd, ...named.filter(isDirectory)])];
  const found = new Set<string>();
  const seen = new Set<string>();
  for (const dir of dirs) {
    try {
      const [gitDir, common] = gitDirs(dir, env);
      if (!gitDir || seen.has(gitDir)) continue;
      seen.add(gitDir);
      const stop = walkGitConfig(
        [join(common ?? gitDir, "config"), join(gitDir, "config.worktree")],
        readConfigFile,
        () => true,
        home,
        (setting) => {
          const key = repositoryProgram(setting);
          if (key) found.add(key);
          return false;
        },
      );
      // hey stopped reading where git reads on (an include over 1 MB, over 200 files): what comes
      // after may set any program, so every one is made harmless, the drivers by the names git lists
      if (stop && stop !== "found" && !stop.gitStops) for (const key of everyProgram(dir, env)) found.add(key);
    } catch {
      // a directory that vanished while it was read: nothing found there
    }
  }
  return [...found].sort();
}

/** How long git may take to list a repository's config keys (everyProgram): it runs before the command, which waits. */
const LIST_MS = 5000;

/**
 * Every program key (repositoryProgram's) the config of the repository of `dir` may set: those
 * without a subsection name, and each driver's by the names git itself lists from the repository's
 * own files (`git config --list`, includes followed: it reads what hey did not). When git does not
 * list them in time or fails, REFUSED: git in that command then runs nothing at all.
 */
function everyProgram(dir: string, env: Record<string, string | undefined>): string[] {
  const listed = Bun.spawnSync(["git", "config", "--list", "--includes", "--show-scope", "--name-only", "-z"], {
    cwd: dir,
    env: explicitBareRepositories(env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
    timeout: LIST_MS,
  });
  if (listed.exitCode !== 0) return [REFUSED];
  const words = listed.stdout.toString().split("\0"); // scope, name, scope, name…
  const drivers: string[] = [];
  for (let i = 0; i + 1 < words.length; i += 2) {
    if (words[i] !== "local" && words[i] !== "worktree") continue;
    const name = words[i + 1]!;
    const [section, key] = [name.slice(0, name.indexOf(".")), name.slice(name.lastIndexOf(".") + 1)];
    const sub = name.slice(section.length + 1, -key.length - 1);
    const program = sub === "" ? undefined : repositoryProgram({ section, sub, key });
    if (program) drivers.push(program);
  }
  return [...PROGRAMS_WITHOUT_NAMES, ...drivers];
}

/** The commands' environment, made for each command: `env`, guarded (guardedGit) for the repositories it may run git in while `on()` says so (plan mode, which comes and goes). */
export function guardedWhile(on: () => boolean, env: Record<string, string | undefined>, cwd: string, home: string) {
  return (command: string) => (on() ? guardedGit(env, repositoryPrograms(cwd, command, home, env)) : env);
}

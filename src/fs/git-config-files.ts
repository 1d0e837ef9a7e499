// git's config files, read in git's order with the files they include (walkGitConfig), as git
// reads them: for the global excludes file (fs/ignore-files.ts), and for the permission checker
// (SPEC §8), what a `git push` run from a directory reads (git-config(1) "FILES"): the system file,
// the global ones, the repository's (found as git finds it: `.git` a directory, or a file
// `gitdir: …` for a worktree, whose `commondir` holds the shared config) and its `config.worktree`.
// Read here, by hey, never by a git the command could configure. Never throws: a file that cannot be
// read says nothing, one over MAX_BYTES, a FIFO or a device that it may force (git reads it all, or
// what a writer sends).
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { forcingOf } from "./git-config-forcing.ts";
import { type GitConfigEntry, type IncludeContext, includeConditionMet, parseGitConfig } from "./git-config-syntax.ts";
import { boundedHead, boundedStat, Hung, type Stat } from "./bounded-reads.ts";
import { isDevNull, readHeadBytes } from "./read-head.ts";

const MAX_BYTES = 1 << 20;
const MAX_DEPTH = 10; // git's own limit on nested includes

/** A config file's text; a FIFO or device (an include naming /dev/stdin, a `mkfifo .git/config`) is not read, so it cannot hang the check. */
function text(path: string): string | undefined {
  const read = bounded(path);
  return typeof read === "string" ? read : undefined;
}

/** What `bounded` gives for a file over MAX_BYTES: git reads it all, hey cannot tell what it sets. */
const TOO_LARGE = Symbol("too large");
/** What `bounded` gives for a FIFO or device (not /dev/null): git reads what a writer sends it, which hey cannot read ahead. */
const NOT_REGULAR = Symbol("not a regular file");

/** A config file's text within the permission checks' deadline (bounded-reads.ts), or why it cannot be read; may throw Hung. */
export function bounded(path: string): string | typeof TOO_LARGE | typeof NOT_REGULAR | undefined {
  try {
    const { bytes, size } = boundedHead(path, MAX_BYTES);
    return size > bytes.length ? TOO_LARGE : Buffer.from(bytes).toString("utf8");
  } catch (e) {
    if (e instanceof Hung) throw e; // pushForcing says so
    return (e as NodeJS.ErrnoException).code === "EINVAL" && !isDevNull(path) ? NOT_REGULAR : undefined;
  }
}

/** stat(2) of `path`, undefined where nothing is; throws Hung (and a vanished directory's errors). */
export function statOrNone(path: string): Stat | undefined {
  try {
    return boundedStat(path);
  } catch (e) {
    if (e instanceof Hung) throw e;
    return undefined;
  }
}

/** The repository's git directory and its common directory (a worktree's main `.git`), from `cwd` up. */
export function gitDirs(cwd: string, env: Record<string, string | undefined>): string[] {
  let dir = env.GIT_DIR ? resolve(cwd, env.GIT_DIR) : undefined;
  for (let d = resolve(cwd); !dir; d = dirname(d)) {
    const dotGit = join(d, ".git");
    const st = statOrNone(dotGit);
    if (st) {
      const pointer = st.kind === "file" ? /^gitdir:\s*(.+)$/m.exec(text(dotGit) ?? "")?.[1]?.trim() : undefined;
      dir = pointer ? resolve(d, pointer) : dotGit;
    }
    if (dirname(d) === d) break;
  }
  if (!dir) return [];
  const common = text(join(dir, "commondir"))?.trim();
  return common ? [dir, resolve(dir, common)] : [dir];
}

/** git's global config files for `env` (git-config(1) "FILES"): `$GIT_CONFIG_GLOBAL`, or `$XDG_CONFIG_HOME/git/config` and `~/.gitconfig`. */
export function globalGitConfigs(home: string, env: Record<string, string | undefined>): string[] {
  return env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [join(env.XDG_CONFIG_HOME || join(home, ".config"), "git", "config"), join(home, ".gitconfig")];
}

/** The config files git reads before a repository's own, in its order (git-config(1) "FILES"): the system file (unless `$GIT_CONFIG_NOSYSTEM`), then the global ones. */
export function userGitConfigs(home: string, env: Record<string, string | undefined>): string[] {
  const noSystem = env.GIT_CONFIG_NOSYSTEM !== undefined && !/^(false|no|off|0|)$/i.test(env.GIT_CONFIG_NOSYSTEM);
  return [...(noSystem ? [] : [env.GIT_CONFIG_SYSTEM || "/etc/gitconfig"]), ...globalGitConfigs(home, env)];
}

/** The files, in git's order: system, global, the repository's, the worktree's. */
export function configFiles(cwd: string, home: string, env: Record<string, string | undefined>): string[] {
  const [dir, common] = gitDirs(cwd, env);
  const repo = dir ? [join(common ?? dir, "config"), join(dir, "config.worktree")] : [];
  return [...userGitConfigs(home, env), ...repo];
}

/** How a config file is read: its text, nothing (undefined), or why it cannot be (too large, a FIFO or device); may throw Hung. */
export type ConfigReader = (path: string) => string | typeof TOO_LARGE | typeof NOT_REGULAR | undefined;

/** One setting as git reads it, with the file it came from (undefined for one from the environment). */
export interface GitSetting extends GitConfigEntry {
  file: string | undefined;
}

/** Why a walk stopped before its end: the file and what is wrong with it; `gitStops` when git itself would stop there (and run nothing). */
export interface WalkTrouble {
  trouble: string;
  gitStops?: boolean;
}

/** Files read in one walk, at most: a file may include many, and each include may be read again. */
const MAX_FILES = 200;

/**
 * Hands each setting of `files`, and of the files they include (in place of the include, as git
 * reads them), to `each` in git's order, until `each` returns true ("found"). `includeIf` says
 * whether an `[includeIf "COND"]` in a file is met; a relative include path is the including
 * file's neighbour, `~/` is below `home`, a missing one is skipped. Stops with a reason where git
 * would stop, or hey cannot read what git reads: an unreadable line, nesting deeper than git's 10
 * (an include loop), over MAX_FILES files, a file over MAX_BYTES, a FIFO or device. May throw Hung.
 */
export function walkGitConfig(
  files: string[],
  read: ConfigReader,
  includeIf: (cond: string, file: string) => boolean,
  home: string,
  each: (setting: GitSetting) => boolean | undefined,
): "found" | WalkTrouble | undefined {
  let count = 0;
  const visit = (path: string, depth: number): "found" | WalkTrouble | undefined => {
    if (depth > MAX_DEPTH) return { trouble: `${path}: included more than ${MAX_DEPTH} deep (an include loop?), where git stops`, gitStops: true };
    if (++count > MAX_FILES) return { trouble: `${path}: more than ${MAX_FILES} config files to read` };
    const content = read(path);
    if (content === TOO_LARGE) return { trouble: `${path}: over ${MAX_BYTES / 1048576} MB, more than hey reads` };
    if (content === NOT_REGULAR) return { trouble: `${path}: not a regular file (a FIFO or device), whose contents hey cannot read ahead` };
    if (content === undefined) return undefined;
    const parsed = parseGitConfig(content);
    for (const entry of parsed.entries) {
      if (each({ ...entry, file: path })) return "found";
      const include =
        entry.key === "path" && entry.value && (entry.section === "include" || (entry.section === "includeif" && includeIf(entry.sub ?? "", path)));
      if (!include) continue;
      const stop = visit(includedFile(entry.value!, path, home), depth + 1);
      if (stop) return stop;
    }
    return parsed.badLine === undefined ? undefined : { trouble: `${path}: line ${parsed.badLine} is no setting git can read`, gitStops: true };
  };
  for (const file of files) {
    const stop = visit(file, 0);
    if (stop) return stop;
  }
  return undefined;
}

/** The file an include's `path` value names: `~/` below `home`, a relative one beside the including `file`. */
export const includedFile = (value: string, file: string, home: string) =>
  value.startsWith("~/") ? join(home, value.slice(2)) : isAbsolute(value) ? value : join(dirname(file), value);

/** A config file's text without a deadline (read-head.ts: a FIFO is not waited on), for reads outside the permission checks. */
export function readConfigFile(path: string): ReturnType<ConfigReader> {
  try {
    const { bytes, size } = readHeadBytes(path, MAX_BYTES);
    return size > bytes.length ? TOO_LARGE : Buffer.from(bytes).toString("utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EINVAL" && !isDevNull(path) ? NOT_REGULAR : undefined;
  }
}

/** A repository as its config files see it: the git directory (for `config.worktree`), the common one (for `config`), and the paths `[includeIf "gitdir:…"]` is matched against. */
export interface ConfigRepo {
  gitDir: string;
  commonDir: string;
  /** the git directory as found and as a real path: git tries both */
  matchAs: string[];
}

/**
 * Every setting git reads for `repo` (none: outside any repository), in git's order: the system and
 * global files, the repository's `config`, its `config.worktree` where `extensions.worktreeConfig`
 * is set, each with what it includes — an `[includeIf]` only where its condition is met
 * (git-config-syntax.ts), `onbranch:` against `branch` (undefined: git's early config, read before
 * it knows the branch, as for aliases and help.autocorrect), `hasconfig:remote.*.url:` against the
 * remotes' URLs, which git collects first without those includes. Or why the walk stopped (walkGitConfig).
 */
export function gitSettings(
  home: string,
  env: Record<string, string | undefined>,
  repo: ConfigRepo | undefined,
  read: ConfigReader,
  branch: string | undefined,
): GitSetting[] | WalkTrouble {
  const at: IncludeContext = { gitDirs: repo?.matchAs ?? [], branch, home: realOr(home), remoteUrls: [] }; // git expands `gitdir:~/` to the real home
  let settings: GitSetting[] = [];
  let worktreeConfig = false;
  const remoteUrls: string[] = [];
  const each = (s: GitSetting) => {
    settings.push(s);
    if (s.section === "extensions" && s.sub === undefined && s.key === "worktreeconfig") worktreeConfig = !/^(false|no|off|0|)$/i.test(s.value ?? "true");
    if (s.section === "remote" && s.sub !== undefined && s.key === "url" && s.value) remoteUrls.push(s.value);
    return false;
  };
  const walk = (files: string[]) => walkGitConfig(files, read, (cond, file) => includeConditionMet(cond, file, at), home, each);
  const walkAll = () => {
    settings = [];
    worktreeConfig = false;
    return (
      walk([...userGitConfigs(home, env), ...(repo ? [join(repo.commonDir, "config")] : [])]) ??
      (repo && worktreeConfig ? walk([join(repo.gitDir, "config.worktree")]) : undefined)
    );
  };
  let stop = walkAll();
  if (remoteUrls.length > 0 && !stop) {
    at.remoteUrls = remoteUrls.splice(0);
    stop = walkAll();
  }
  return stop && stop !== "found" ? stop : settings;
}

const realOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** What git's early config (read before a command runs, for aliases) says of its aliases: each name's value (the last; names in lower case), and whether help.autocorrect lets git run a command for an unknown one. */
export interface GitAliasConfig {
  aliases: Map<string, string>;
  /** each submodule's `submodule.NAME.update` (the last) where it is `!CMD`: `git submodule update` runs CMD (git-submodule(1)) */
  updates: Map<string, string>;
  /** help.autocorrect's value where git may run what it guesses a misspelt command meant: `immediate`, a number of deciseconds other than 0, `prompt`, or a value no git reads as "never" */
  autocorrect: string | undefined;
}

/** help.autocorrect's values under which git runs nothing it guesses (git-config(1), git 2.39 and later): unset, `0`, `never`, `show`, false. */
const NO_AUTOCORRECT = /^(never|show|false|no|off|[+-]?0+[kmg]?)$/i;

/**
 * The aliases a git run from `cwd` reads (git-config(1) "FILES" with conditional includes weighed
 * as git does: gitSettings) and whether it autocorrects a misspelt command; or why that cannot be
 * told: a file hey cannot read through, an `[alias "…"]` section, or the environment's
 * GIT_CONFIG_KEY_n naming an alias, an include or help.autocorrect.
 */
export function gitAliasConfig(cwd: string, home: string, env: Record<string, string | undefined> = process.env): GitAliasConfig | { unknown: string } {
  const count = /^\d+$/.test(env.GIT_CONFIG_COUNT ?? "") ? Number(env.GIT_CONFIG_COUNT) : 0;
  for (let i = 0; i < count; i++)
    if (/^(alias|include|includeif|help)\./i.test(env[`GIT_CONFIG_KEY_${i}`] ?? "")) return { unknown: `the environment's GIT_CONFIG_KEY_${i} may set it` };
  let settings: GitSetting[] | WalkTrouble;
  try {
    const [dir, common] = gitDirs(cwd, env);
    const repo = dir ? { gitDir: dir, commonDir: common ?? dir, matchAs: [...new Set([dir, realOr(dir)])] } : undefined;
    settings = gitSettings(home, env, repo, bounded, undefined);
  } catch (e) {
    if (e instanceof Hung) return { unknown: `${e.message}, so it may set it` };
    return { unknown: (e as Error).message };
  }
  if (!Array.isArray(settings)) return { unknown: `${settings.trouble}, so it may set it` };
  const aliases = new Map<string, string>();
  const updates = new Map<string, string>();
  let autocorrect: string | undefined;
  for (const s of settings) {
    if (s.section === "submodule" && s.sub !== undefined && s.key === "update") updates.set(s.sub, s.value ?? "");
    if (s.section === "alias" && s.sub !== undefined) return { unknown: `${s.file}: an [alias "${s.sub}"] section, which hey does not read` };
    if (s.section === "alias") aliases.set(s.key, s.value ?? "");
    if (s.section === "help" && s.sub === undefined && s.key === "autocorrect")
      autocorrect = s.value === undefined || !NO_AUTOCORRECT.test(s.value) ? (s.value ?? "") : undefined;
  }
  for (const [name, value] of updates) if (!value.startsWith("!")) updates.delete(name);
  return { aliases, updates, autocorrect };
}

/**
 * The first setting that makes a `git push` from `cwd` without refspecs force (git-config-forcing.ts), as
 * `FILE: remote.NAME.push = +…`, or undefined. Includes are followed whatever their condition.
 */
export function pushForcing(cwd: string, home: string, env: Record<string, string | undefined> = process.env): string | undefined {
  let found: string | undefined;
  try {
    const stop = walkGitConfig(
      configFiles(cwd, home, env),
      bounded,
      () => true,
      home,
      (setting) => {
        const forcing = forcingOf(setting);
        if (forcing) found = `${setting.file}: ${forcing}`;
        return forcing !== undefined;
      },
    );
    // a file too large or not regular may set anything; an include loop or a bad line stops git itself, so no push runs
    if (stop && stop !== "found" && !stop.gitStops) return `${stop.trouble}, so it may set anything`;
  } catch (e) {
    // a read that did not answer in time may hide a forcing setting; a directory that vanished while it was read: nothing seen
    if (e instanceof Hung) return `${e.message}, so it may set anything`;
  }
  return found;
}

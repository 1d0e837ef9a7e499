// hey's control files (issue 24): the files whose content decides what the agent may do — the user
// config, a `--config` file, a project's `.hey/config.toml` and `.mcp.json`, trust.json and the approvals record.
// While a permission list is set, the agent's file tools may not write them (the bash checker is
// given the same list), so a restricted agent cannot loosen its own rules; config/guard.ts catches
// what reaches them another way. Nor may they write git's own files in any repository (its config
// and hooks run commands) or anything in hey's cache (the ripgrep grep runs). Pure: the caller
// resolves links and inodes (fs/real-target.ts).
import { dirname, resolve } from "node:path";
import type { Places } from "../fs/places.ts";
import { isWithin } from "../fs/within.ts";
import { BUILTIN_TOOLS, TOOL } from "../kernel/tool-names.ts";
import { inGit } from "../permission/control-files.ts";

/**
 * The control files of a run, as absolute paths (links not resolved): user config, trust.json,
 * the approvals record, the project's `.hey/config.toml` and `.mcp.json`, the `.hey/config.toml` of
 * each directory above the project whose deny entries apply (Places.outerConfigs), and the
 * `--config` file when one is given (relative to `cwd`). The one list both the file tools' guard and
 * the bash checker use. A config between the launch directory and the project root is not one: there
 * is none (it would be the project's), and one made there moves the project, every deny list still applying.
 */
export function controlFiles(here: Places, configFile: string | undefined): string[] {
  const above = here.outerConfigs.filter((f) => !isWithin(f, here.root));
  const files = [here.userConfig, here.trustFile, here.approvalsFile, here.projectConfig, here.projectMcpJson, ...above];
  if (configFile !== undefined) files.push(resolve(here.cwd, configFile));
  return files;
}

/** Whether a permission list is set: only then are control files refused to the agent. */
export const listsSet = (p: { allow: readonly string[]; deny: readonly string[]; narrow: readonly { allow: readonly string[] }[] }) =>
  p.allow.length > 0 || p.deny.length > 0 || p.narrow.some((n) => n.allow.length > 0);

/** Tools whose `path` argument is a file they write. */
const WRITERS = new Set<string>([TOOL.writeFile, TOOL.edit]);

/**
 * The argument names under which an MCP tool is taken to name a file or directory (`path`,
 * `paths`, `source`, `destination`, `file_path`, …). An MCP tool's arguments are only what its
 * schema calls them: hey cannot know what the server does with them, so this guards the paths a
 * tool names plainly, not every file a server might write.
 */
const PATH_KEY =
  /^(paths?|files?|file_?names?|file_?paths?|sources?|destinations?|dest|src|targets?|dirs?|directory|directories|from|to|(old|new)_?paths?|uri)$/i;

/**
 * The paths a tool call would write, as its arguments give them: a built-in writer's `path`; for
 * an MCP tool (any tool not hey's own), every string or list of strings under a path-like name
 * (PATH_KEY), a `file://` URI as its path. hey's other built-ins write nothing.
 */
export function pathsWritten(tool: string, args: Record<string, unknown>): string[] {
  const name = tool.toLowerCase();
  if (WRITERS.has(name)) return typeof args.path === "string" && args.path !== "" ? [args.path] : [];
  if (BUILTIN_TOOLS.includes(name)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (!PATH_KEY.test(key)) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v !== "string" || v === "") continue;
      if (!/^file:/i.test(v)) out.push(v);
      else if (URL.canParse(v)) out.push(decodeURIComponent(new URL(v).pathname));
    }
  }
  return out;
}

/** How control files are found by another name: `real` maps a path to the file it really names (fs/real-target.ts), `id` to its device and inode; either may throw (a path that did not answer in time). */
export interface ControlNames {
  real(abs: string): string;
  /** undefined: no such file */
  id(abs: string): string | undefined;
  controls: readonly string[];
  /** compare names case-insensitively (macOS, Windows) */
  fold: boolean;
  /** directories the file tools may not write anything in: hey's cache, which holds the ripgrep grep runs, and the PATH directories the user can write */
  dirs?: readonly string[];
  /** those of `dirs` in which only a file directly inside counts: the PATH directories (a program is looked up there, not below) */
  shallow?: readonly string[];
  /** hey's cache, one of `dirs` */
  cache?: string;
  /** hey's copies of the user's approved instruction files, one of `dirs` */
  copies?: string;
  /** git's global config files, among `dirs` (files, not directories: a write to one is refused) */
  gitFiles?: readonly string[];
  /** why writing the absolute `abs` writes what git runs commands from, found by what it is (fs/git-places.ts: a git directory whatever its name, an included config file, core.hooksPath's directory), or undefined; may throw (did not answer in time) */
  gitOwn?(abs: string): string | undefined;
  /** how many names (hard links) the regular file at `abs` has, undefined when none is there; may throw (did not answer in time) */
  links?(abs: string): number | undefined;
}

/**
 * The control file that writing the absolute path `abs` would write, or undefined: the same name,
 * the same file once links and `..` are resolved (also for a file not created yet, or a link whose
 * target is not), or the same device and inode (a hard link). One test for the file tools and the
 * bash checker's redirections.
 */
export function controlNamed(abs: string, names: ControlNames): string | undefined {
  const norm = (p: string) => (names.fold ? p.toLowerCase() : p);
  const real = norm(names.real(abs));
  const id = names.id(abs);
  return names.controls.find((c) => norm(c) === norm(abs) || norm(names.real(c)) === real || (id !== undefined && names.id(c) === id));
}

/** The directory among `names.dirs` that holds the absolute path `abs`, as written or once links and `..` are resolved, or undefined. */
export function guardedDir(abs: string, names: ControlNames): string | undefined {
  const norm = (p: string) => (names.fold ? p.toLowerCase() : p);
  // a PATH directory (`names.shallow`): only the programs directly in it run
  const inside = (path: string, dir: string) => (names.shallow?.includes(dir) ? path === dir || dirname(path) === dir : isWithin(path, dir));
  const real = norm(names.real(abs));
  return names.dirs?.find((d) => inside(norm(abs), norm(d)) || inside(real, norm(names.real(d))));
}

/**
 * The refusal for a tool call that would write a control file (controlNamed), a file in hey's
 * cache (guardedDir: the ripgrep grep runs is there) or one of git's own files in any repository
 * (inGit: `.git/config`, `.git/hooks/…`, a `.git` file), or undefined: hey's file tools by their
 * `path`, an MCP tool by each path its arguments name (pathsWritten), read from each directory in
 * `bases` the server may resolve a relative path against (mcp/answers.ts serverBases; none: hey's).
 * The message starts with the permission marker, as any refusal does.
 */
export function controlRefusal(
  tool: string,
  args: Record<string, unknown>,
  target: Target,
  bases: readonly (string | undefined)[] = [undefined],
): string | undefined {
  const mcp = !WRITERS.has(tool.toLowerCase());
  for (const path of pathsWritten(tool, args))
    for (const base of bases) {
      const abs = target.abs(path, base);
      const refusal = abs === undefined ? undefined : pathRefusal(path, abs, target);
      if (!refusal) continue;
      if (!mcp) return refusal;
      // named as the server reads it when that is not where hey would look
      const read = abs === target.abs(path) ? "" : `(${abs} where the server reads it) `;
      return refusal.replace(`: ${path} `, `: ${tool}'s argument ${path} ${read}`);
    }
  return undefined;
}

type Target = ControlNames & { abs(path: string, base?: string): string | undefined };

/** controlRefusal for one path a tool call names, `abs` where it points. */
function pathRefusal(path: string, abs: string, target: Target): string | undefined {
  let hit: string | undefined;
  let dir: string | undefined;
  let git = false;
  let own: string | undefined;
  let linked = false;
  try {
    hit = controlNamed(abs, target);
    dir = hit ? undefined : guardedDir(abs, target);
    git = !hit && !dir && (inGit(abs) || inGit(target.real(abs)));
    own = hit || dir || git ? undefined : target.gitOwn?.(abs);
    linked = !hit && !dir && !git && !own && (target.links?.(abs) ?? 1) > 1;
  } catch (e) {
    // a look that did not answer in time (a hung network mount): refused, saying which path
    return `blocked by permission rules: cannot verify that ${path} is none of the files hey guards (its own configuration, git's config and hooks): ${(e as Error).message}; while a permission list is set the agent may not write it`;
  }
  if (dir)
    return target.gitFiles?.includes(dir)
      ? `blocked by permission rules: ${path} is ${dir}, git's global config (git runs commands its settings name: core.fsmonitor, core.hooksPath, aliases); while a permission list is set the agent may not write it`
      : dir === target.copies
        ? `blocked by permission rules: ${path} is in ${dir}, hey's copies of your approved instruction files (what hey loads in place of one changed since); while a permission list is set the agent may not write there`
        : dir === target.cache
          ? `blocked by permission rules: ${path} is in hey's cache (${dir}), which holds the ripgrep the grep tool runs; while a permission list is set the agent may not write there`
          : `blocked by permission rules: ${path} is in ${dir}, a directory on the commands' PATH (the grep tool and every command run programs from there); while a permission list is set the agent may not write there`;
  if (linked)
    return `blocked by permission rules: ${path} has other hard links, which could be git's or hey's own files (hey cannot find every name of a file); while a permission list is set the agent may not write it`;
  if (own)
    return `blocked by permission rules: ${path} is git's own: ${own} (git runs the commands its config and hooks name); while a permission list is set the agent may not write it`;
  if (git)
    return `blocked by permission rules: ${path} is git's own (in a \`.git\` directory, or a \`.git\` file: git runs commands its config and hooks name); while a permission list is set the agent may not write it — git commands write there themselves`;
  if (!hit) return undefined;
  return `blocked by permission rules: ${path} is ${hit === abs ? "" : `${hit} (by another name), `}one of hey's control files; while a permission list is set the agent may not change its own rules — ask the user to edit it`;
}

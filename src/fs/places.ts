// Where hey keeps its own files (SPEC §3, §17, §19, §24), and where the user's Claude Code and Codex
// keep theirs: every directory and file computed once, from the environment, the home directory and
// the platform, each absolute, then passed down — no other file reads XDG_*, CLAUDE_CONFIG_DIR or
// CODEX_HOME, or guesses a home. Pure: the caller says what HOME and the platform are.
import { dirname, isAbsolute, join } from "node:path";

type Env = Record<string, string | undefined>;

/** Where the user's own files of other agents are, which hey reads so a setup carries over (README "Coming from another agent"). */
export interface PeerDirs {
  /** `$CLAUDE_CONFIG_DIR`, else `~/.claude`: Claude Code's CLAUDE.md, skills, commands, settings.json */
  claudeDir: string;
  /** `$CODEX_HOME`, else `~/.codex`: Codex's AGENTS.md and config.toml */
  codexDir: string;
}

/** Which agent a variable of PeerDirs moves, and where (`peerRelative`). */
export const PEER_VARS = { CLAUDE_CONFIG_DIR: ["Claude Code", "claudeDir"], CODEX_HOME: ["Codex", "codexDir"] } as const;

export interface Places extends PeerDirs {
  /** CLAUDE_CONFIG_DIR or CODEX_HOME set to a relative path, ignored: said, for the user's files there go unread (peers/found.ts) */
  peerRelative: { name: keyof typeof PEER_VARS; value: string }[];
  home: string;
  /** where hey runs (the launch directory): tools' relative paths, sessions, AGENTS.md down to here */
  cwd: string;
  /**
   * the project root (projectRoot): its `.hey/` (config.toml, skills, task.md), `.agents/skills`,
   * `.mcp.json` and the trust key; `cwd` or one of its ancestors
   */
  root: string;
  /** `$XDG_CONFIG_HOME/hey`, else `~/.config/hey`: config.toml, AGENTS.md, skills, trust.json, MCP sign-ins */
  configDir: string;
  /** `$XDG_STATE_HOME/hey`, else `~/.local/state/hey`: sessions, history, logs, the approvals record */
  stateDir: string;
  /**
   * `$XDG_CACHE_HOME/hey`, else the platform's cache dir (`~/Library/Caches/hey`,
   * `%LOCALAPPDATA%\hey\cache`, `~/.cache/hey`): what hey can recreate — the embedded ripgrep, bash's
   * full outputs, MCP servers' tool lists
   */
  cacheDir: string;
  userConfig: string;
  /** the project's `.hey/config.toml` (read only when the project is trusted) */
  projectConfig: string;
  /** the project's `.mcp.json` (the `mcpServers` of Claude Code, Cursor and VS Code; read only when trusted) */
  projectMcpJson: string;
  /** the other `.hey/config.toml` files whose deny entries apply, there or not (outerConfigs; at start those the approvals record holds above too: withRecordedAbove) */
  outerConfigs: string[];
  trustFile: string;
  approvalsFile: string;
  /** what was said once per project of other agents' files (peers/said.ts) */
  peerNoticesFile: string;
  sessionsDir: string;
  /** the REPL history of every project: read where a project's own history runs out */
  historyFile: string;
  /** one REPL history per project root (fs/history-file.ts) */
  historiesDir: string;
  /** `--verbose` / HEY_LOG=debug request logs */
  logsDir: string;
  /** bash's full outputs, one folder per session (tools/outputs.ts) */
  outputsDir: string;
}

/**
 * Every place of hey's, for `env` (XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, LOCALAPPDATA),
 * `home`, the launch directory `cwd`, its project `root` (projectRoot; `cwd` when not given) and
 * `platform` (`process.platform`); CLAUDE_CONFIG_DIR and CODEX_HOME move the user's folder of
 * Claude Code and of Codex (never a project's `.claude/`). The XDG spec says a relative XDG_* value
 * is invalid and must be ignored: so it is, for all three, and for the two agents' variables too —
 * a relative one would mean another folder in every directory hey starts in.
 */
export function places(env: Env, home: string, cwd: string, platform: string, root = cwd, outer: string[] = []): Places {
  const configDir = join(absolute(env.XDG_CONFIG_HOME) ?? join(home, ".config"), "hey");
  const stateDir = join(absolute(env.XDG_STATE_HOME) ?? join(home, ".local", "state"), "hey");
  const cacheDir = cacheOf(env, home, platform);
  return {
    home,
    cwd,
    root,
    configDir,
    stateDir,
    cacheDir,
    claudeDir: absolute(env.CLAUDE_CONFIG_DIR) ?? join(home, ".claude"),
    codexDir: absolute(env.CODEX_HOME) ?? join(home, ".codex"),
    peerRelative: (Object.keys(PEER_VARS) as (keyof typeof PEER_VARS)[]).flatMap((name) => {
      const value = env[name];
      return value && !absolute(value) ? [{ name, value }] : [];
    }),
    userConfig: join(configDir, "config.toml"),
    projectConfig: join(root, ".hey", "config.toml"),
    projectMcpJson: join(root, ".mcp.json"),
    outerConfigs: outer,
    trustFile: join(configDir, "trust.json"),
    approvalsFile: join(stateDir, "approvals.json"),
    peerNoticesFile: join(stateDir, "peer-notices.json"),
    sessionsDir: join(stateDir, "sessions"),
    historyFile: join(stateDir, "history"),
    historiesDir: join(stateDir, "histories"),
    logsDir: join(stateDir, "logs"),
    outputsDir: join(cacheDir, "outputs"),
  };
}

/**
 * `path` with its drive letter in upper case on Windows (`c:\proj` is `C:\proj`). A terminal may
 * start hey in `c:\…` (VS Code's does; `cd /d c:\proj` in cmd too) and another in `C:\…`; the
 * launch directory names sessions, history and the project, compared as strings, so the two
 * spellings kept apart what is one directory (`hey -c` found nothing), and a home of `C:\Users\ann`
 * was not seen above a `c:\Users\ann\…` launch directory. Other names keep their case as written.
 */
export function driveUpper(path: string, platform: string): string {
  return platform === "win32" && /^[a-z]:/.test(path) ? path[0]!.toUpperCase() + path.slice(1) : path;
}

/**
 * The home directory `~` means, for `env` on `platform`; `fallback` asks the system. On Windows the
 * user folder, %USERPROFILE%, whatever HOME says: Git Bash, MSYS2 and Cygwin set HOME to their own
 * home (`C:\msys64\home\ann`), and hey's config, sessions and trust would change with the terminal
 * that started it (Claude Code and Codex take the user folder too). Elsewhere HOME, as a shell's `~`.
 * Without a trailing separator (`HOME=/home/ann/`): home is compared with directories as a string
 * (projectRoot), and `/home/ann/` never equalled `/home/ann`, so home became a project.
 */
export function homeOf(env: Env, platform: string, fallback: () => string): string {
  const home = (platform === "win32" ? env.USERPROFILE : env.HOME) || fallback();
  // the root itself (`/`, `C:\`) keeps its separator
  return home.replace(platform === "win32" ? /(?<=[^\\/:])[\\/]+$/ : /(?<=[^/])\/+$/, "");
}

/** The value when it is an absolute path (a Windows drive path counts on every host), else undefined. */
function absolute(value: string | undefined): string | undefined {
  return value && (isAbsolute(value) || /^[A-Za-z]:[\\/]/.test(value)) ? value : undefined;
}

function cacheOf(env: Env, home: string, platform: string): string {
  const xdg = absolute(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, "hey");
  if (platform === "darwin") return join(home, "Library", "Caches", "hey");
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "hey", "cache");
  return join(home, ".cache", "hey");
}

/** What projectRoot asks of the file system: whether `path` is a directory (a `.hey`), whether it exists (a `.git`, which may be a file). */
export interface RootProbe {
  isDir(path: string): boolean;
  exists(path: string): boolean;
}

/**
 * The project of a launch directory (issue 26): the nearest ancestor (`cwd` included) holding a
 * `.hey/` directory with the project's own files in it (`config.toml` or `skills/`), else the git
 * root (the nearest holding `.git`), else the nearest holding a bare `.hey/` (weakHey), else `cwd`
 * itself. A bare `.hey/` below a stronger marker is passed over: the agent makes one by writing
 * `.hey/task.md` relative to a subdirectory, and taking it for the project would silently drop the
 * root's skills, MCP servers and trust. The search stops at the git root — a `.hey/` above the
 * repository is not its project — and below the home directory, which never counts as a project
 * (a stray `~/.hey` would otherwise capture everything under home, and a dotfiles repository in
 * `~` every project without one). Pure: `probe` looks.
 */
export function projectRoot(cwd: string, home: string, probe: RootProbe): string {
  let weak: string | undefined;
  for (let dir = cwd; dir !== home; dir = dirname(dir)) {
    if (probe.isDir(join(dir, ".hey"))) {
      if (!weakHey(dir, probe)) return dir;
      weak ??= dir;
    }
    if (probe.exists(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) break;
  }
  return weak ?? cwd;
}

/**
 * The `.hey/config.toml` paths, there or not, of every directory from `cwd` up to its git root (the
 * nearest holding `.git`) — or up to its project `root` when that is higher or there is no git root
 * — other than the project's own: their `[permission] deny` entries apply too (config/load.ts).
 * What the agent writes can move the project: a `web/.hey/skills/x/SKILL.md` written from `web/`
 * makes `web/` the project at the next start from there (x136), and the root's config with its deny
 * list would no longer be read; a rule keeping the root instead let the agent drop a package's deny
 * list by writing a file at the root (x143). With every config on the way applying its deny
 * entries, no choice of project takes one out of force; the git root itself the agent can move
 * too (`git init ..`), which withRecordedAbove answers. Never home or above it, as for
 * projectRoot. Nearest first. Pure: `probe` looks.
 */
export function outerConfigs(cwd: string, root: string, home: string, probe: RootProbe): string[] {
  const dirs: string[] = [];
  let git: string | undefined;
  for (let dir = cwd; dir !== home; dir = dirname(dir)) {
    dirs.push(dir);
    if (probe.exists(join(dir, ".git"))) git ??= dir;
    if ((git !== undefined && dirs.includes(root)) || dirname(dir) === dir) break;
  }
  // no git root: up to the project root (a bare .hey/ above the launch directory, or the launch directory itself)
  const top = git === undefined ? dirs.indexOf(root) : dirs.length - 1;
  return dirs
    .slice(0, top + 1)
    .filter((dir) => dir !== root)
    .map((dir) => join(dir, ".hey", "config.toml"));
}

/**
 * `outer` (outerConfigs) with every other `.hey/config.toml` of a directory from `cwd` up to below
 * `home` that `recorded` says the approvals record holds, whatever `.git` or project root lies
 * between: the agent can move those bounds (`git init ..` from a package, or a skill written from a
 * subdirectory of a folder with no git), and a deny entry the user approved keeps binding where it
 * bound before the move (x152). The record is read already: no file is looked at here. Nearest
 * first, the project `root`'s own left out. Pure.
 */
export function withRecordedAbove(outer: readonly string[], cwd: string, root: string, home: string, recorded: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (let dir = cwd; dir !== home; dir = dirname(dir)) {
    const file = join(dir, ".hey", "config.toml");
    if (dir !== root && (outer.includes(file) || recorded(file))) out.push(file);
    if (dirname(dir) === dir) break;
  }
  return out;
}

/** Whether `dir`'s `.hey/` holds none of the project's own files (no `config.toml`, no `skills/`): a task.md at most. */
function weakHey(dir: string, probe: RootProbe): boolean {
  return !probe.exists(join(dir, ".hey", "config.toml")) && !probe.isDir(join(dir, ".hey", "skills"));
}

/**
 * The `.hey/task.md` files between `cwd` and its project `root` (projectRoot; the root left out):
 * in a `.hey/` passed over for the root, so never the project's task.md, though the model wrote
 * it there by following "keep .hey/task.md current" from a subdirectory. Pure: `probe` looks.
 */
export function strayTaskNotes(cwd: string, root: string, probe: RootProbe): string[] {
  const out: string[] = [];
  for (let dir = cwd; dir !== root && dirname(dir) !== dir; dir = dirname(dir)) {
    const task = join(dir, ".hey", "task.md");
    if (probe.exists(task)) out.push(task);
  }
  return out;
}

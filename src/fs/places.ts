// Where hey keeps its own files (SPEC §3, §17, §19, §24): every directory and file computed once,
// from the environment, the home directory and the platform, each absolute, then passed down — no
// other file reads XDG_* or guesses a home. Pure: the caller says what HOME and the platform are.
import { isAbsolute, join } from "node:path";

type Env = Record<string, string | undefined>;

export interface Places {
  home: string;
  /** where hey runs: the project */
  cwd: string;
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
  trustFile: string;
  approvalsFile: string;
  sessionsDir: string;
  /** the REPL history of every project: read where a project's own history runs out */
  historyFile: string;
  /** one REPL history per project root (fs/project-root.ts) */
  historiesDir: string;
  /** `--verbose` / HEY_LOG=debug request logs */
  logsDir: string;
  /** bash's full outputs, one folder per session (tools/outputs.ts) */
  outputsDir: string;
}

/**
 * Every place of hey's, for `env` (XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, LOCALAPPDATA),
 * `home`, the project at `cwd` and `platform` (`process.platform`). The XDG spec says a relative
 * XDG_* value is invalid and must be ignored: so it is, for all three.
 */
export function places(env: Env, home: string, cwd: string, platform: string): Places {
  const configDir = join(absolute(env.XDG_CONFIG_HOME) ?? join(home, ".config"), "hey");
  const stateDir = join(absolute(env.XDG_STATE_HOME) ?? join(home, ".local", "state"), "hey");
  const cacheDir = cacheOf(env, home, platform);
  return {
    home,
    cwd,
    configDir,
    stateDir,
    cacheDir,
    userConfig: join(configDir, "config.toml"),
    projectConfig: join(cwd, ".hey", "config.toml"),
    trustFile: join(configDir, "trust.json"),
    approvalsFile: join(stateDir, "approvals.json"),
    sessionsDir: join(stateDir, "sessions"),
    historyFile: join(stateDir, "history"),
    historiesDir: join(stateDir, "histories"),
    logsDir: join(stateDir, "logs"),
    outputsDir: join(cacheDir, "outputs"),
  };
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

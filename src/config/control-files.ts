// hey's control files (issue 24): the files whose content decides what the agent may do — the user
// config, a `--config` file, a project's `.hey/config.toml`, trust.json and the approvals record.
// While a permission list is set, the agent's file tools may not write them (the bash checker is
// given the same list), so a restricted agent cannot loosen its own rules; config/guard.ts catches
// what reaches them another way. Pure: paths only; the caller resolves links (fs/real-target.ts).
import { isAbsolute, join, resolve } from "node:path";

type Env = Record<string, string | undefined>;

/** Where hey's own files are, for `env` (XDG_CONFIG_HOME, XDG_STATE_HOME), `home` and the project at `cwd`. */
export function heyFiles(env: Env, home: string, cwd: string): { userConfig: string; projectConfig: string; trust: string; approvals: string } {
  // the XDG spec says a relative XDG_CONFIG_HOME (or _STATE_HOME) is invalid and must be ignored
  const config = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, ".config");
  const state = env.XDG_STATE_HOME || join(home, ".local", "state");
  return {
    userConfig: join(config, "hey", "config.toml"),
    projectConfig: join(cwd, ".hey", "config.toml"),
    trust: join(config, "hey", "trust.json"),
    approvals: join(state, "hey", "approvals.json"),
  };
}

/**
 * The control files of a run, as absolute paths (links not resolved): user config, trust.json,
 * the approvals record, the project's `.hey/config.toml` and the `--config` file when one is
 * given (relative to `cwd`). The one list both the file tools' guard and the bash checker use.
 */
export function controlFiles(place: { env: Env; home: string; cwd: string; configFile?: string }): string[] {
  const f = heyFiles(place.env, place.home, place.cwd);
  const files = [f.userConfig, f.trust, f.approvals, f.projectConfig];
  if (place.configFile !== undefined) files.push(resolve(place.cwd, place.configFile));
  return files;
}

/** Whether a permission list is set: only then are control files refused to the agent. */
export const listsSet = (p: { allow: readonly string[]; deny: readonly string[]; narrow: readonly { allow: readonly string[] }[] }) =>
  p.allow.length > 0 || p.deny.length > 0 || p.narrow.some((n) => n.allow.length > 0);

/** Tools whose `path` argument is a file they write. */
const WRITERS = new Set(["write_file", "edit"]);

/**
 * The refusal for a file tool call that would write a control file, or undefined. `real` maps a
 * path to the file it really names (links resolved, also for a file not yet created), so neither a
 * link nor `..` reaches a control file by another name; `fold` compares names case-insensitively
 * (macOS, Windows). The message starts with the permission marker, as any refusal does.
 */
export function controlRefusal(
  tool: string,
  args: Record<string, unknown>,
  target: { abs(path: string): string | undefined; real(abs: string): string; controls: readonly string[]; fold: boolean },
): string | undefined {
  if (!WRITERS.has(tool.toLowerCase()) || typeof args.path !== "string" || args.path === "") return undefined;
  const abs = target.abs(args.path);
  if (abs === undefined) return undefined; // the tool reports the bad path itself
  const norm = (p: string) => (target.fold ? p.toLowerCase() : p);
  const real = norm(target.real(abs));
  const hit = target.controls.find((c) => norm(target.real(c)) === real || norm(c) === norm(abs));
  if (!hit) return undefined;
  return `blocked by permission rules: ${args.path} is ${hit === abs ? "" : `${hit} (by another name), `}one of hey's control files; while a permission list is set the agent may not change its own rules — ask the user to edit it`;
}

// hey's control files (issue 24): the files whose content decides what the agent may do — the user
// config, a `--config` file, a project's `.hey/config.toml` and `.mcp.json`, trust.json and the approvals record.
// While a permission list is set, the agent's file tools may not write them (the bash checker is
// given the same list), so a restricted agent cannot loosen its own rules; config/guard.ts catches
// what reaches them another way. Pure: paths only; the caller resolves links (fs/real-target.ts).
import { resolve } from "node:path";
import type { Places } from "../fs/places.ts";
import { TOOL } from "../kernel/tool-names.ts";

/**
 * The control files of a run, as absolute paths (links not resolved): user config, trust.json,
 * the approvals record, the project's `.hey/config.toml` and `.mcp.json`, and the `--config` file
 * when one is given (relative to `cwd`). The one list both the file tools' guard and the bash checker use.
 */
export function controlFiles(here: Places, configFile: string | undefined): string[] {
  const files = [here.userConfig, here.trustFile, here.approvalsFile, here.projectConfig, here.projectMcpJson];
  if (configFile !== undefined) files.push(resolve(here.cwd, configFile));
  return files;
}

/** Whether a permission list is set: only then are control files refused to the agent. */
export const listsSet = (p: { allow: readonly string[]; deny: readonly string[]; narrow: readonly { allow: readonly string[] }[] }) =>
  p.allow.length > 0 || p.deny.length > 0 || p.narrow.some((n) => n.allow.length > 0);

/** Tools whose `path` argument is a file they write. */
const WRITERS = new Set<string>([TOOL.writeFile, TOOL.edit]);

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

// The permission check of a run (SPEC §8), built once from the lists and where hey runs: the file
// tools' guard of hey's control files, then every list (the user's, then each a trusted project
// narrows them with). One call is one check: the disk it reads waits at most one deadline in all
// (fs/bounded-reads.ts oneCheck), however many paths it looks at.
import { controlContext, type ControlPlace } from "./config/control-context.ts";
import { controlRefusal, listsSet } from "./config/control-files.ts";
import type { Settings } from "./config/settings.ts";
import { TOOL } from "./kernel/tool-names.ts";
import type { GuideGrants } from "./prompt/system.ts";
import { oneCheck } from "./fs/bounded-reads.ts";
import type { PermissionCheck, ToolOrigin } from "./kernel/tool-calls.ts";
import { shortPath } from "./ui/intro.ts";
import { realTargetBounded } from "./fs/real-target.ts";
import { anyRefuses, searchedFileRefusal } from "./permission/searched-files.ts";
import { ALLOWS_NOTHING, CASELESS_FILES, compileRules, decide, type CompiledRules, type PermissionRules, type ShellFacts } from "./permission/rules.ts";

/**
 * where hey runs: its control files, and its cache dir (the file tools may not write in it while a list is set);
 * `bases`: the directories an MCP server may read a relative path from (mcp/answers.ts serverBases; none: hey's own)
 */
type Place = ControlPlace & { bases?: (server: string) => readonly string[] };

/**
 * SPEC §8: the rules compiled once for the shell that will run the commands; deny first, every
 * segment checked; a refusal is the error result the model sees. (Config resolution has already
 * refused rules that do not compile.) A trusted project's allow list is one more a call must match
 * (issue 24), and while any list is set hey's control files (`place.controls`) are refused to the
 * file tools and to bash redirections, and so is `place.cacheDir` to the file tools.
 */
export function permissionCheck(lists: Settings["permission"], shell: string | ShellFacts, place: Place): PermissionCheck {
  return permissionRules(lists, shell, place).check;
}

/** permissionCheck, and the rules it compiled (each list once: a deny entry's equivalents are ~20 patterns to parse). */
export function permissionRules(
  lists: Settings["permission"],
  shell: string | ShellFacts,
  place: Place,
): { check: PermissionCheck; compiled: CompiledRules[] } {
  const guarded = listsSet(lists);
  const { target, control } = controlContext(place);
  // a refusal names the list's file as the user writes it: `~/.config/hey/config.toml`
  // path entries (`read_file: src/**`) judge the file a path really names, links followed within the deadline
  const files = { cwd: place.cwd, home: place.home, real: realTargetBounded, fold: CASELESS_FILES };
  const all = everyList(lists);
  // an allow list that lets nothing through until the user approves (a removed approvals record, entries all replaced):
  // adding an entry to the file would only wait for approval too, so a refusal says how to approve instead
  const unapproved = all.map((l) => l.allow.includes(ALLOWS_NOTHING));
  const compile = (l: PermissionRules) => compileRules(shortPaths(l, place.home), shell, control, CASELESS_FILES, files).rules;
  const checks = all.map(compile);
  // for a refusal by no entry at all: without the file, whose "add an entry there" would not help
  const fileless = all.map((l, i) => (unapproved[i] ? compile({ ...l, file: undefined }) : undefined));
  const searched = (tool: string) => anyRefuses(checks.map((rules) => searchedFileRefusal(tool, rules)));
  const check: PermissionCheck = (tool, args, origin) =>
    oneCheck(() => {
      const bases = origin && place.bases ? place.bases(origin.server) : undefined;
      const refusal = guarded ? controlRefusal(tool, args, target, bases) : undefined;
      if (refusal) return refusal;
      for (const [i, rules] of checks.entries()) {
        const decision = decide(tool, args, rules, origin);
        if (decision.allowed) continue;
        const bare = fileless[i] && decision.reason.includes(UNLISTED) ? decide(tool, args, fileless[i], origin) : undefined;
        return bare && !bare.allowed ? bare.reason + UNAPPROVED_HINT : decision.reason;
      }
      return undefined;
    });
  // a grep over a tree passes by the files a path entry keeps from it (permission/searched-files.ts)
  check.files = searched;
  return { check, compiled: checks };
}

const UNLISTED = " matches no allow entry";
const UNAPPROVED_HINT =
  "; no allow entry counts until you approve your config files: run `hey` at a terminal and answer its question (read-only commands run meanwhile)";

/** `l` with its files as the user writes them (`~/.config/hey/config.toml`), as a refusal names them. */
function shortPaths(l: PermissionRules, home: string): PermissionRules {
  const denyAt = l.denyAt && Object.fromEntries(Object.entries(l.denyAt).map(([entry, at]) => [entry, shortPath(at, home)]));
  return { ...l, ...(l.file ? { file: shortPath(l.file, home) } : {}), ...(denyAt ? { denyAt } : {}) };
}

/**
 * The check of a run's calls: the lists as the settings say now (`live.configured`, which a /reload
 * replaces), then plan mode (`start.plan`), which narrows them; `exempt` (find_tools, which loads
 * only what the lists allow) always runs. An MCP tool is judged by its server's names for it
 * (`mcp.origin`). A grep passes by the files the lists keep from it (PermissionCheck.files).
 */
export function runCheck(
  live: { configured: { check: PermissionCheck; shell: { name: string } } },
  start: { plan?: { check(tool: string, args: Record<string, unknown>, shell: string, origin?: ToolOrigin): string | undefined } },
  mcp: { origin(tool: string): ToolOrigin | undefined },
  exempt: string,
): PermissionCheck {
  const check: PermissionCheck = (tool, args, origin = mcp.origin(tool)) =>
    tool === exempt ? undefined : (live.configured.check(tool, args, origin) ?? start.plan?.check(tool, args, live.configured.shell.name, origin));
  check.files = (tool, args) => live.configured.check.files?.(tool, args);
  return check;
}

/** The user's lists, then each list a trusted project narrows them with (its `source`: how warnings name it). */
export function everyList(permission: Settings["permission"]): (PermissionRules & { source: string })[] {
  const { allow, deny, file, denyAt } = permission;
  const waiting = (source: string | undefined) => (source && permission.waiting?.[source] ? { pending: permission.waiting[source] } : {});
  return [
    { allow, deny, source: "", ...(file ? { file } : {}), ...(denyAt ? { denyAt } : {}), ...waiting(file) },
    ...permission.narrow.map((n) => ({ allow: n.allow, deny: [], source: `${n.source}: `, file: n.source, ...waiting(n.source) })),
  ];
}

/**
 * What the skill guide may offer the model (prompt/system.ts GuideFacts): whether it may write hey's
 * config files (no list is set), whether a tool that writes files is offered (`refused`: the run's
 * check of a tool by name, as the request's tool list is made), and whether MCP servers run (not --no-mcp).
 */
export function guideGrants(permission: Settings["permission"], refused: (name: string) => unknown, servers: boolean): GuideGrants {
  return { configs: !listsSet(permission), files: [TOOL.writeFile, TOOL.edit].some((name) => !refused(name)), servers };
}

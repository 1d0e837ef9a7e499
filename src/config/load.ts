// Reading configuration (SPEC §3): which files, in which order, and what the approvals record says
// of each; one file read and parsed is config/read-layer.ts's. Everything after parsing — merging,
// checking, precedence, messages — is config/resolve.ts's.
import { accessSync, constants, existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Places } from "../fs/places.ts";
import type { Approvals } from "./approvals.ts";
import { guardedOf, type Guarded, type LayerRole } from "./guard.ts";
import { pathKey, recordedFor, recordKey } from "./record-key.ts";
import { resolveConfig, type LayerGuard } from "./resolve.ts";
import { loadLayer, loadMcpJson } from "./read-layer.ts";
import { sharedMcpJson } from "./mcp-json-layer.ts";
import { checkLayer } from "./schema.ts";
import { unrunnableTools } from "./unrunnable-tools.ts";
import { denyApproved, denyEntries, goneLayer, RECORD_LOST, withRecordedRest } from "./vanished.ts";
import { isTable, type Table } from "./table.ts";
import { anchoredEntry, projectFolder } from "../permission/file-paths.ts";
import { ALLOWS_NOTHING } from "../permission/rules.ts";
import { type ConfigFlags, ConfigError, type ConfigLayer, type Settings, type Written } from "./settings.ts";

type Env = Record<string, string | undefined>;

/** What loading configuration gives: the settings, and the same files resolved again with other flags. */
export interface LoadedConfig {
  settings: Settings;
  /** the flags `settings` was resolved with (`/model` and `/reload` resolve again with them, changed or not) */
  flags: ConfigFlags;
  warnings: string[];
  /** the project file's path when it exists but was not loaded for lack of trust */
  skipped?: string;
  /** the deny entries of that file applied all the same (projectDenyLayer): they only narrow */
  projectDeny?: string[];
  /** each file above the project root (Places.outerConfigs) whose deny entries apply too, nearest first, with them as the settings hold them */
  outerDeny?: { file: string; deny: string[] }[];
  /** each guarded file's guard (config/guard.ts), `key` its real path (the approvals record's key), `alias` the link's it was read by, and more (load.ts keysOf) */
  guards: (LayerGuard & GuardKeys)[];
  /** the files already read, resolved with `flags` instead (`/model`); throws ConfigError */
  resolve(flags: ConfigFlags): Settings;
  /**
   * The same files read again and resolved with `flags` (`/reload`) against `approvals` (what the
   * user approved so far this run), the project's read when `trustProject` (`/trust` may have
   * changed it): every error collected instead of the first thrown — syntax (`path:line:col`),
   * wrong types and values (every one), resolution errors. What start-up only warns about (unknown
   * keys, variables that resolve to nothing) stays a warning. Never throws ConfigError.
   */
  reload(
    flags: ConfigFlags,
    approvals: Approvals | undefined,
    trustProject: boolean,
  ): { config: LoadedConfig; errors?: undefined } | { config?: undefined; errors: string[] };
  /**
   * the same files with everything they set approved: what the user said yes to at the prompt;
   * without `servers` (--no-mcp: the question did not show them) MCP servers stay as approved
   * before. Throws ConfigError.
   */
  approve(servers?: boolean): LoadedConfig;
  /** what `/reload` would find were `written.path` to hold `written.text` (the project's file read even untrusted: `/trust` loads it) */
  vet(written: Written, approvals: Approvals | undefined): { errors: string[]; warnings: string[] };
}

interface LoadOptions {
  env: Env;
  /** the user file, the project's files and where a relative `--config` path starts (fs/places.ts) */
  here: Pick<Places, "userConfig" | "projectConfig" | "projectMcpJson" | "cwd"> & Partial<Pick<Places, "outerConfigs">>;
  configFile?: string;
  trustProject: boolean;
  flags: ConfigFlags;
  /**
   * What the user approved (config/approvals.ts); undefined on hey's first run (no record yet):
   * then every file is taken as it is, and recorded.
   */
  approvals: Approvals | undefined;
  /** `approvals` stands in for a record that was removed (trust/approve.ts ApprovalState.lost): a file it lacks is approved in nothing */
  recordLost?: boolean;
  /**
   * trust.json holds an answer for the project: with the record lost, that (or the project's `.hey/`
   * folder) shows its `.hey/config.toml` may have been there, so one gone is asked about
   */
  projectAnswered?: boolean;
  /** `--approve`: the project's file is used as it is for this run, and not recorded */
  approveProject?: boolean;
  /**
   * the run is one of the agent's commands (agent-mark.ts): a `--config` file it names is
   * not adopted — what it gives beyond its record is left out, as any widening in a one-shot run
   */
  agent?: boolean;
  /**
   * the project's files as the trust question listed what they run, which the user just answered
   * yes (trust/store.ts settleTrust): what they set then is approved, and recorded; a change made
   * since — a server added while the question was up — is weighed as any is
   */
  projectApproved?: readonly { source: string; data: Table }[];
  written?: Written; // one file's text as a write would leave it, read instead of the disk's (config/write-check.ts)
  /** --no-mcp: the project's `.mcp.json` holds nothing else, and is not read */
  noMcp?: boolean;
}

/**
 * Loads the user file, the project file when `trustProject`, and `configFile` (relative to
 * `here.cwd`), then resolves them with `env` and `flags`. Throws ConfigError.
 */
export function loadConfig(opts: LoadOptions): LoadedConfig {
  const warnings: string[] = [];
  const layers = readLayers(
    opts,
    (e) => {
      throw e;
    },
    warnings,
  );
  return loaded(layers, opts, warnings).config;
}

/**
 * The files in order, later winning: the user's, then — trusted — the project's `.mcp.json` and
 * `.hey/config.toml` (which wins a server both define), then `--config`. Warnings of `.mcp.json`
 * go to `warnings`.
 */
function readLayers(opts: LoadOptions, onError: (e: ConfigError) => void, warnings: string[] = []): ConfigLayer[] {
  const { userConfig, projectConfig, projectMcpJson, cwd } = opts.here;
  const files: [string, boolean, LayerRole][] = [[userConfig, false, "base"]];
  if (opts.trustProject) files.push([projectMcpJson, false, "narrowing"], [projectConfig, false, "narrowing"]);
  if (opts.configFile !== undefined) files.push([resolve(cwd, opts.configFile), true, "replacing"]);
  const guardedFiles = new Set([userConfig, projectConfig, projectMcpJson].map(recordKey));
  const layers: ConfigLayer[] = [];
  for (const [path, required, role] of files) {
    try {
      const layer =
        path === projectMcpJson
          ? sharedMcpJson(path, (warn, written, drop) => loadMcpJson(path, warn, written, drop), opts, warnings)
          : loadLayer(path, { required, written: opts.written });
      const project = path === projectConfig || path === projectMcpJson;
      // a file that is gone took its lists with it: those the user approved of it (not of a main checkout's) apply until a yes;
      // recorded by its real path or, a link removed with its target unknown, by the path hey read it by; after the
      // record was removed, what it held cannot be known: a user or trusted project's file waits for a yes, gone or not
      // — a project's only when something shows it was ever there: else the question lists a file that never existed
      const mayHaveBeen = path !== projectConfig || opts.projectAnswered === true || existsSync(dirname(projectConfig));
      const recordedGone = (a: Approvals) =>
        a.configs[recordKey(path)] ??
        a.configs[pathKey(path)] ??
        (opts.recordLost && mayHaveBeen && guardedFiles.has(recordKey(path)) ? RECORD_LOST : undefined);
      const gone = !layer && opts.approvals && path !== projectMcpJson && role !== "replacing" && goneLayer(path, recordedGone(opts.approvals), role, project);
      if (gone) layers.push(gone);
      if (!layer) continue;
      // what the user approved of the file, by its real path; on the first run all of it, and so of
      // a --config file named for the first time (the user just chose it) — unless the agent named
      // it, or it is the user's or a project's file by another name (its own record, or none, counts);
      // a user or project file hey has not seen yet is approved in nothing: the agent may be the one that created it; after the record was removed (RECORD_LOST), not even its allow list
      const lost = opts.recordLost && guardedFiles.has(recordKey(path)) ? RECORD_LOST : undefined;
      const recorded = opts.approvals && (recordedOf(opts.approvals, layer) ?? lost);
      const adopted = !opts.approvals || (role === "replacing" && !recorded && !opts.agent && !guardedFiles.has(recordKey(path)));
      const shown = project ? opts.projectApproved?.find((f) => f.source === path) : undefined;
      const approved: Guarded | undefined | "current" = adopted ? "current" : shown ? guardedOf(shown.data) : recorded;
      const guard = project && opts.approveProject ? {} : { guard: { approved, role } };
      layers.push({ ...layer, ...(project ? { project: true } : {}), ...guard });
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      // the user's file behind a directory this user cannot enter (HOME another user's, or under a file): what to do
      onError(path === userConfig && !reachable(dirname(path)) ? new ConfigError(`${e.message}; ${UNREACHABLE_HOME}`, e.warnings) : e);
    }
  }
  // the other configs from the launch directory up to the git root, and those above it the record holds deny entries of (trust/start.ts),
  // narrow too, trusted or not: no move of the project or of the git root takes their deny entries out of force
  const outer = (opts.here.outerConfigs ?? []).filter((path) => path !== projectConfig).map((path) => projectDenyLayer(path, opts.approvals));
  const project = opts.trustProject ? undefined : projectDenyLayer(projectConfig, opts.approvals);
  const narrowing = [...outer.reverse(), project].filter((l) => l !== undefined);
  layers.splice(layers[0]?.source === userConfig ? 1 : 0, 0, ...narrowing); // where the trusted file would be, the outermost first
  return layers;
}

/**
 * The user's config file (at `path`) as a run reads it, for what runs without the rest of
 * configuration (`hey upgrade`): guarded by what `approvals` records of it, so what the user has not
 * approved — a `[proxy] url`, a `[network] ca_file` — is left out when it is resolved; all of it on
 * hey's first run (`approvals` undefined). Undefined when there is none. Throws ConfigError.
 */
export function loadUserLayer(path: string, approvals: Approvals | undefined): ConfigLayer | undefined {
  const layer = loadLayer(path, { required: false });
  return layer && { ...layer, guard: { approved: approvals ? recordedOf(approvals, layer) : "current", role: "base" } };
}

/** What the user approved of a config file read as `layer`, by its own record or its main checkout's (recordedFor). */
const recordedOf = (approvals: Approvals, layer: ConfigLayer) =>
  recordedFor(approvals, layer.source, () => guardedOf(checkLayer(layer.source, layer.data, layer.locate ?? layer.text).data));

/**
 * An untrusted project's `.hey/config.toml`, or one above the project (Places.outerConfigs), as far as it cannot hurt the user: its deny entries that
 * are rules (vanished.ts denyEntries), weighed against those the record holds of it, so one removed
 * (the file edited, broken or gone) applies until the user says yes. Undefined when neither has any:
 * a broken file in a cloned repository never stops hey.
 */
function projectDenyLayer(path: string, approvals: Approvals | undefined): ConfigLayer | undefined {
  let layer: ConfigLayer | undefined;
  let broken = false;
  try {
    layer = loadLayer(path, { required: false });
  } catch {
    broken = true;
  }
  const approved = approvals ? denyApproved(approvals.configs[recordKey(path)]) : "current";
  const deny = layer ? denyEntries(layer.data) : [];
  if (deny.length === 0 && (approved === "current" || !approved.deny?.length)) return undefined;
  const data = deny.length > 0 ? { permission: { deny } } : {};
  return { source: path, data, project: true, ...(layer || broken ? {} : { gone: true as const }), guard: { approved, role: "narrowing" } };
}

/** What to do when the user's config directory cannot be entered. */
const UNREACHABLE_HOME = "set HOME or XDG_CONFIG_HOME to a directory this user can read";

/** Whether `dir` can be entered, every directory above it too: false when one is not ours to enter (EACCES) or is a file (ENOTDIR). */
function reachable(dir: string): boolean {
  try {
    accessSync(dir, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A guarded file's record keys: its real path, and the path hey read it by when that differs (a
 * link, of the file or of its folder) — recorded too, so the file is found gone after the link went. `lost`: gone, and what it
 * set unknown: the record removed, or rewritten since with RECORD_LOST; `untrusted`: an untrusted
 * project's file, of which only the deny entries were weighed; `outer`: a file above the project
 * (Places.outerConfigs), of which likewise. Those two only of the deny-only layer (projectDenyLayer),
 * never of the same file named by `--config`, which is read whole.
 */
function keysOf(source: string, opts: LoadOptions, denyOnly: "untrusted" | "outer" | undefined): GuardKeys {
  const key = recordKey(source);
  // a linked file's own path; else, its folder a link (a `.hey/` shared from dotfiles), the path the file has once that link goes
  const alias = [pathKey(source), join(pathKey(dirname(source)), basename(source))].find((k) => k !== key) ?? key;
  const recorded = opts.approvals?.configs[key] ?? opts.approvals?.configs[alias];
  return {
    key,
    ...(alias !== key ? { alias } : {}),
    ...(!existsSync(source) && (recorded ? recorded.allow?.includes(ALLOWS_NOTHING) : opts.recordLost) ? { lost: true as const } : {}),
    ...(denyOnly ? { [denyOnly]: true as const } : {}),
  };
}

type GuardKeys = { key: string; alias?: string; lost?: true; untrusted?: true; outer?: true };

/** Whether `layer` holds only the deny entries of its file (projectDenyLayer), and why: the project is not trusted, or the file is above it. */
function denyOnlyOf(layer: ConfigLayer | undefined, opts: LoadOptions): "untrusted" | "outer" | undefined {
  if (!layer?.project || layer.guard?.role !== "narrowing") return undefined;
  if (layer.source === opts.here.projectConfig) return opts.trustProject ? undefined : "untrusted";
  return opts.here.outerConfigs?.includes(layer.source) ? "outer" : undefined;
}

function loaded(layers: ConfigLayer[], opts: LoadOptions, read: string[] = []): { config: LoadedConfig; unresolved: string[] } {
  const project = opts.here.projectConfig;
  const skipped = !opts.trustProject && existsSync(project) ? project : undefined;
  const applied = skipped ? layers.find((l) => l.source === project)?.data.permission : undefined;
  // anchored at the project as the settings' deny list holds them (config/resolve.ts), so run.ts can tell them apart
  const deny = isTable(applied) && Array.isArray(applied.deny) ? (applied.deny as string[]).map((e) => anchoredEntry(e, projectFolder(project))) : undefined;
  const { settings, warnings, unresolved, guards: resolved } = resolveConfig(layers, opts.env, opts.flags);
  const guarded = layers.filter((l) => l.guard); // one guard each, in the same order (config/resolve.ts)
  const guards = resolved.map((g, i) => ({ ...g, ...keysOf(g.source, opts, denyOnlyOf(guarded[i], opts)) }));
  // the deny entries each file above the project applies, those dropped from it but still recorded too (as the settings hold them)
  const outerDeny = guards
    .filter((g) => g.outer && g.used.deny?.length)
    .map((g) => ({ file: g.source, deny: (g.used.deny ?? []).map((e) => anchoredEntry(e, projectFolder(g.source))) }))
    .reverse();
  // only the deny entries of an untrusted project's file, or of one above the project, were weighed (projectDenyLayer): the rest of its record stays as it was
  const rest = (g: GuardKeys & LayerGuard) =>
    opts.approvals && (g.untrusted || g.outer) && { used: withRecordedRest(g.used, opts.approvals.configs[recordKey(g.source)]) };
  const stillLost = (approvals: Approvals | undefined) => opts.recordLost === true && approvals === opts.approvals;
  const config: LoadedConfig = {
    settings,
    flags: opts.flags,
    warnings: [...read, ...warnings, ...unrunnableTools(settings, layers)],
    ...(skipped ? { skipped } : {}),
    ...(deny ? { projectDeny: deny } : {}),
    ...(outerDeny.length ? { outerDeny } : {}),
    guards: guards.map((g) => ({ ...g, ...rest(g) })),
    resolve: (flags) => resolveConfig(layers, opts.env, flags).settings,
    // the record written since start-up (what the user said then is in it): a file it lacks is weighed as any new one; while
    // none is (a removed record is rewritten at the model's first answer) the same stand-in comes back, and is still lost
    reload: (flags, approvals, trustProject) =>
      reloadConfig({ ...opts, flags, approvals, trustProject, projectApproved: undefined, recordLost: stillLost(approvals) }),
    vet: (written, approvals) =>
      found(
        reloadConfig({
          ...opts,
          approvals,
          written,
          recordLost: stillLost(approvals),
          trustProject: opts.trustProject || projectFile(written.path, opts.here),
        }),
      ),
    approve: (servers = true) =>
      loaded(
        layers.map((l) => approved(l, servers ? undefined : guards)),
        opts,
      ).config,
  };
  return { config, unresolved };
}

/**
 * `layer` with all it sets approved; with `guards` (this resolution's), its servers stay as
 * approved before (a file adopted whole stays so).
 */
function approved(layer: ConfigLayer, guards?: readonly LayerGuard[]): ConfigLayer {
  if (!layer.guard) return layer;
  const was = layer.guard.approved;
  const current = guards?.find((g) => g.source === layer.source)?.current;
  const now = current && was !== "current" ? { ...current, mcp: was?.mcp ?? {} } : ("current" as const);
  return { ...layer, guard: { ...layer.guard, approved: now } };
}

const projectFile = (path: string, here: LoadOptions["here"]) => path === here.projectConfig || path === here.projectMcpJson;
const found = (r: ReturnType<typeof reloadConfig>) => ({ errors: r.errors ?? [], warnings: r.config?.warnings ?? [] });
function reloadConfig(opts: LoadOptions): ReturnType<LoadedConfig["reload"]> {
  const errors: string[] = [];
  const warnings: string[] = [];
  const layers = readLayers(opts, (e) => errors.push(...e.message.split("\n")), warnings);
  for (const layer of layers) errors.push(...checkLayer(layer.source, layer.data, layer.locate ?? layer.text).errors);
  if (errors.length > 0) return { errors };
  try {
    // as at start-up, a variable that resolves to nothing is a warning (its value is ""), not an error
    return { config: loaded(layers, opts, warnings).config };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { errors: e.message.split("\n") };
  }
}

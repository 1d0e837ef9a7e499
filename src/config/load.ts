// Reading configuration (SPEC §3): where the files are, reading and parsing them. Everything
// after parsing — merging, checking, precedence, messages — is config/resolve.ts's.
import type TOMLModule from "@iarna/toml";
import { redefinedReason } from "./toml-reason.ts";
import { accessSync, constants, existsSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Places } from "../fs/places.ts";
import { inMainCheckout } from "../fs/worktree.ts";
import { isDevNull, readHeadText } from "../fs/read-head.ts";
import type { Approvals } from "./approvals.ts";
import { guardedOf, type Guarded, type LayerRole } from "./guard.ts";
import { withMainApprovals } from "./main-approvals.ts";
import { resolveConfig, type LayerGuard } from "./resolve.ts";
import { fromMcpJson } from "./mcp-formats.ts";
import { sharedMcpJson } from "./mcp-json-layer.ts";
import { checkLayer } from "./schema.ts";
import { unrunnableTools } from "./unrunnable-tools.ts";
import { isTable, type Table } from "./table.ts";
import { readEntry } from "../permission/entries.ts";
import { anchoredEntry, projectFolder } from "../permission/file-paths.ts";
import { type ConfigFlags, ConfigError, type ConfigLayer, type Settings, type Written } from "./settings.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

type Env = Record<string, string | undefined>;

/** @iarna/toml's TomlError: `line`/`col` are 0-based; `message` ends with " at row N, col M, pos P:" and a code excerpt. */
interface TomlError extends Error {
  fromTOML: true;
  line: number;
  col: number;
}

const isTomlError = (e: unknown): e is TomlError => e instanceof Error && (e as Partial<TomlError>).fromTOML === true;

/** The short reason of a TomlError: its excerpt cut off, and a character code shown as the character. */
function reason(e: TomlError): string {
  return e.message
    .replace(/ at row \d+, col \d+, pos \d+:[\s\S]*$/, "")
    .replace(/Unknown character "(\d+)"/, (_, code: string) => `Unknown character ${JSON.stringify(String.fromCodePoint(Number(code)))}`);
}

/**
 * Reads and parses one config file. A missing file (or one below a file: ENOTDIR) is undefined, or a ConfigError when
 * `required` (the `--config` file). Throws ConfigError `PATH:LINE:COL: reason` (1-based) on a
 * syntax error and `PATH: ...` when the file cannot be read.
 */
export function loadLayer(path: string, opts: { required: boolean; written?: Written }): ConfigLayer | undefined {
  let text: string;
  try {
    text = (opts.written?.path === path ? opts.written.text : undefined) ?? readConfigText(path);
  } catch (e) {
    const code = errnoCode(e);
    if (absent(code) && !opts.required) return undefined;
    if (code === "ENOENT") throw new ConfigError(`--config ${path}: no such file`);
    throw unreadable(path, e);
  }
  return { source: path, data: parseToml(path, text), text };
}

/**
 * Reads a project's `.mcp.json` as a config layer (config/mcp-formats.ts): undefined when there is
 * none; its warnings go to `warn`; `written`: a write's text read instead of the disk's. Throws
 * ConfigError when it is not JSON (`path:line:col`), or a server entry is not an object, or it cannot be read.
 */
export function loadMcpJson(path: string, warn: (message: string) => void, written?: Written): ConfigLayer | undefined {
  let text: string;
  try {
    text = (written?.path === path ? written.text : undefined) ?? readConfigText(path);
  } catch (e) {
    if (absent(errnoCode(e))) return undefined;
    throw unreadable(path, e);
  }
  const read = fromMcpJson(path, text);
  if (read.errors.length) throw new ConfigError(read.errors.join("\n"));
  for (const w of read.warnings) warn(w);
  return { source: path, data: read.data, locate: read.locate, origins: read.origins };
}

/**
 * A config file's text, read only from a regular file (fs/read-head.ts opens it without waiting): a
 * FIFO would hold start-up in open() until something wrote to it. /dev/null reads as empty
 * (`--config /dev/null`: no settings). UTF-16 with a byte-order mark (Windows PowerShell 5.1's
 * `>`) is read as such, as read_file reads it. Throws the system error, EISDIR or EINVAL (not a file).
 */
function readConfigText(path: string): string {
  return isDevNull(path) ? "" : readHeadText(path, Number.MAX_SAFE_INTEGER).text;
}

/**
 * No file there: none by that name, or a file where a directory of its path would be (HOME=/dev/null,
 * a `.hey` that is a file) — nothing can exist below a file, as git counts it for its config files.
 * Not EACCES: a file this user cannot read may hold deny rules, and is refused.
 */
const absent = (code: string | undefined) => code === "ENOENT" || code === "ENOTDIR";

/** The ConfigError for a config file that is there but cannot be read. */
function unreadable(path: string, e: unknown): ConfigError {
  const code = errnoCode(e);
  if (code === "EINVAL") return new ConfigError(`${path} is not a regular file (a FIFO, device or socket); hey reads config only from a file`);
  return new ConfigError(`${path}: cannot read (${code ?? errorText(e)})`);
}

/**
 * Bun's native parser for the common case; @iarna/toml only to locate an error, because
 * Bun.TOML's errors carry no line or column and @iarna/toml costs ~14 ms of start-up to load.
 */
function parseToml(path: string, text: string): Record<string, unknown> {
  const clean = text.replace(/^\uFEFF/, ""); // editors on Windows may write a byte-order mark
  try {
    return Bun.TOML.parse(clean) as Record<string, unknown>;
  } catch (fast) {
    const TOML = require("@iarna/toml") as typeof TOMLModule;
    try {
      // CRLF as LF, same lines: @iarna/toml takes a CR in a comment for the mistake, on line 1 (Windows files end lines so)
      TOML.parse(clean.replace(/\r\n/g, "\n"));
    } catch (e) {
      if (isTomlError(e)) {
        const why = reason(e);
        const said = (why === "Can't redefine existing key" && redefinedReason(clean, e.line)) || why;
        throw new ConfigError(`${path}:${e.line + 1}:${e.col + 1}: ${said}`);
      }
      throw e;
    }
    // the two parsers disagree (e.g. an integer beyond 2^53): Bun's reason, without a position
    throw new ConfigError(`${path}: ${errorText(fast).replace(/^TOML Parse error: /, "")}`);
  }
}

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
  /** each guarded file's guard (config/guard.ts), `key` its real path (the approvals record's key) */
  guards: (LayerGuard & { key: string })[];
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
  here: Pick<Places, "userConfig" | "projectConfig" | "projectMcpJson" | "cwd">;
  configFile?: string;
  trustProject: boolean;
  flags: ConfigFlags;
  /**
   * What the user approved (config/approvals.ts); undefined on hey's first run (no record yet):
   * then every file is taken as it is, and recorded.
   */
  approvals: Approvals | undefined;
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
          ? sharedMcpJson(path, (warn, written) => loadMcpJson(path, warn, written), opts, warnings)
          : loadLayer(path, { required, written: opts.written });
      if (!layer) continue;
      const project = path === projectConfig || path === projectMcpJson;
      // what the user approved of the file, by its real path; on the first run all of it, and so of
      // a --config file named for the first time (the user just chose it) — unless the agent named
      // it, or it is the user's or a project's file by another name (its own record, or none, counts);
      // a user or project file hey has not seen yet is approved in nothing: the agent may be the one that created it
      const recorded = opts.approvals && recordedOf(opts.approvals, layer);
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
  const narrowing = opts.trustProject ? undefined : projectDenyLayer(projectConfig);
  if (narrowing) layers.splice(layers[0]?.source === userConfig ? 1 : 0, 0, narrowing); // where the trusted file would be
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
 * An untrusted project's `.hey/config.toml` as far as it cannot hurt the user: its `[permission]
 * deny` entries that are rules, and nothing else (README "A project narrows your lists, never
 * widens them"; in CI no one is there to trust the project, and its `deny = ["bash: git push *"]`
 * should hold). Undefined when it has none, or cannot be read or parsed: the file is not loaded,
 * as the trust notice says, and a broken file in a cloned repository never stops hey.
 */
function projectDenyLayer(path: string): ConfigLayer | undefined {
  let layer: ConfigLayer | undefined;
  try {
    layer = loadLayer(path, { required: false });
  } catch {
    return undefined;
  }
  const permission = layer?.data.permission;
  const written = isTable(permission) && Array.isArray(permission.deny) ? permission.deny : [];
  const deny = written.filter((e): e is string => typeof e === "string" && !("error" in readEntry(e, "deny")));
  return deny.length > 0 ? { source: path, data: { permission: { deny } }, project: true } : undefined;
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
 * The approvals record's key of a config file: its real path, so a linked config (dotfiles) keeps
 * its record. A git worktree's file has its own: what the user approves there never replaces what
 * they approved in the main checkout, so going back and forth between the two asks nothing again.
 */
export function recordKey(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * `configs` (approvals by recordKey) with a git worktree's file's also under its main checkout's
 * path while `a` holds no record of that one: a first yes given in a worktree approves the main
 * checkout's file as far as it is the same, as a yes there would. A record the main checkout has is
 * never replaced.
 */
export function seedMainCheckout(a: Approvals, configs: Record<string, Guarded>): Record<string, Guarded> {
  const seeds = Object.entries(configs).flatMap(([key, g]) => {
    const main = inMainCheckout(key);
    return main !== key && a.configs[main] === undefined && configs[main] === undefined ? [[main, g] as const] : [];
  });
  return { ...Object.fromEntries(seeds), ...configs };
}

/**
 * What the user approved of the config file at `path`: its own record, else — in a git worktree
 * with none of its own yet — the main checkout's file's (fs/worktree.ts), so a worktree's
 * `.mcp.json` is approved as far as it is the same as the main checkout's, and a change is asked
 * about. A worktree's file that has both is approved in what either approves of it as it is
 * `now` (withMainApprovals): what the user approved in the main checkout since counts there too.
 */
export function recordedFor(approvals: Approvals, path: string, now?: () => Guarded): Guarded | undefined {
  const key = recordKey(path);
  const [own, main] = [approvals.configs[key], approvals.configs[inMainCheckout(key)]];
  return own && main && own !== main && now ? withMainApprovals(own, main, now()) : (own ?? main);
}

function loaded(layers: ConfigLayer[], opts: LoadOptions, read: string[] = []): { config: LoadedConfig; unresolved: string[] } {
  const project = opts.here.projectConfig;
  const skipped = !opts.trustProject && existsSync(project) ? project : undefined;
  const applied = skipped ? layers.find((l) => l.source === project)?.data.permission : undefined;
  // anchored at the project as the settings' deny list holds them (config/resolve.ts), so run.ts can tell them apart
  const deny = isTable(applied) && Array.isArray(applied.deny) ? (applied.deny as string[]).map((e) => anchoredEntry(e, projectFolder(project))) : undefined;
  const { settings, warnings, unresolved, guards } = resolveConfig(layers, opts.env, opts.flags);
  const config: LoadedConfig = {
    settings,
    flags: opts.flags,
    warnings: [...read, ...warnings, ...unrunnableTools(settings, layers)],
    ...(skipped ? { skipped } : {}),
    ...(deny ? { projectDeny: deny } : {}),
    guards: guards.map((g) => ({ ...g, key: recordKey(g.source) })),
    resolve: (flags) => resolveConfig(layers, opts.env, flags).settings,
    reload: (flags, approvals, trustProject) => reloadConfig({ ...opts, flags, approvals, trustProject, projectApproved: undefined }),
    vet: (written, approvals) => found(reloadConfig({ ...opts, approvals, written, trustProject: opts.trustProject || projectFile(written.path, opts.here) })),
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

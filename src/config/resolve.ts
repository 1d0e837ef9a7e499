// Configuration resolution (SPEC §3): the parsed files, the environment and the flags in, the
// settings hey runs with out. Pure: reading the files is config/load.ts's job; the types are
// config/settings.ts's.
//
// Precedence, later wins, key by key: defaults < user file < project file < --config file <
// HEY_* variables < flags. Tables merge into tables; arrays and scalars replace.
import type { Effort } from "../kernel/ir.ts";
import { redactProxyUrl } from "../net/proxy.ts";
import { caFile, checkProxy, placeIn, refuseInProject } from "./network-keys.ts";
import { aboutServers, replacedServers } from "./replaced-servers.ts";
import { anchoredEntry, projectFolder, type ReadDeny, denyFacts } from "../permission/file-paths.ts";
import { gluedMark } from "../permission/entries.ts";
import { validateRules } from "../permission/rules.ts";
import { guardedOf, guardLayer, pendingAllows, type Below, type Guarded } from "./guard.ts";
import { camel, resolveTable, SECTIONS, variableValue, type Key } from "./keys.ts";
import { envValue } from "./presets.ts";
import { chooseProvider } from "./providers.ts";
import { fallbackModels } from "./fallback-models.ts";
import { checkLayer, checkRange, checkValue, type ConfigFile, expandVars, keyLine, type Kind, type Miss, where } from "./schema.ts";
import { secretVariables, withWrittenSecrets } from "./secrets.ts";
import { isTable, type Table } from "./table.ts";
import { selectionKey } from "./mcp-formats.ts";
import { serverDir } from "./server-dir.ts";
import { ConfigError, type ConfigFlags, type ConfigLayer, type McpServerSettings, type ProviderSettings, type Settings } from "./settings.ts";

/** The keys a HEY_* variable or a flag sets (config/keys.ts): above every file, the flags above the variables. */
const OVERRIDES = Object.entries(SECTIONS).flatMap(([section, keys]) =>
  Object.entries(keys as Record<string, Key>)
    .map(([key, spec]) => ({ path: [section, key], spec }))
    .filter((k) => k.spec.env || k.spec.flag),
);

const pathKey = (path: readonly string[]) => path.join("\u0000");

/**
 * Resolves the layers (user file, trusted project file, --config file, in that order), the
 * environment and the flags into settings. Throws ConfigError (the whole user-facing message) on
 * a wrong type, a missing base_url, a bad MCP server, an unknown provider or a missing model —
 * also in a part of a guarded file left out for want of approval;
 * unknown keys and unset variables only produce warnings (one line each, no prefix); those about
 * unset variables are also in `unresolved` (`/reload` refuses them).
 */
export function resolveConfig(layers: ConfigLayer[], env: Record<string, string | undefined>, flags: ConfigFlags): Resolved {
  const warnings: string[] = [];
  try {
    // the files are checked as written first: a part left out for want of approval is still reported when wrong, as in a new file; its secrets are kept
    const written = layers.some((l) => l.guard && l.guard.approved !== "current") ? resolveInto(layers.map(asWritten), env, flags, warnings) : undefined;
    warnings.length = 0;
    const used = resolveInto(layers, env, flags, warnings);
    return written ? { ...used, settings: withWrittenSecrets(used.settings, written.settings) } : used;
  } catch (e) {
    // the warnings found before the error travel with it: printed first, one run tells everything
    if (e instanceof ConfigError) throw e.withWarnings([...new Set(warnings)]);
    throw e;
  }
}

/** What resolution gives: the settings, warnings (one line each), the unset-variable warnings apart, and each guarded file's guard. */
export interface Resolved {
  settings: Settings;
  warnings: string[];
  unresolved: string[];
  /** per file with a `guard`: its guarded keys as written and as used, and what was left out (config/guard.ts) */
  guards: LayerGuard[];
}

export interface LayerGuard {
  source: string;
  /** the file's guarded keys as written now (what approving it records) */
  current: Guarded;
  /** as this run uses them */
  used: Guarded;
  /** what was left out, one line each; empty when nothing was */
  widenings: string[];
  /** servers whose approved table changed, the change left out (config/guard.ts Guard.kept) */
  kept: string[];
  /** the file is gone (ConfigLayer.gone): its widenings are the lists it no longer sets */
  gone?: true;
}

/** `providers` with the base_url of each of `names` taken out. */
function withoutBaseUrls(providers: Table, names: readonly string[]): Table {
  const out: Table = { ...providers };
  for (const name of names) {
    const { base_url: _, ...rest } = out[name] as Table;
    out[name] = rest;
  }
  return out;
}

/** The providers whose base_url in force was not approved where it was set: name → that file. */
function unapprovedEndpoints(steps: readonly { source: string; data: Table; withheld: readonly string[] }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { source, data, withheld } of steps)
    for (const [name, p] of Object.entries(isTable(data.provider) ? data.provider : {})) {
      if (!isTable(p) || p.base_url === undefined) continue;
      if (withheld.includes(name)) out.set(name, source);
      else out.delete(name); // a later file's approved base_url is the one in force
    }
  return out;
}

function resolveInto(layers: ConfigLayer[], env: Record<string, string | undefined>, flags: ConfigFlags, warnings: string[]): Resolved {
  const errors: string[] = [];
  const merged: Table = {};
  const sources = new Map<string, string>();
  const guards: LayerGuard[] = [];
  const narrow: { source: string; allow: string[] }[] = [];
  const projectDeny: string[] = [];
  const entryNotes: string[] = []; // Settings.permission.entryNotes
  const reads: ReadDeny[] = []; // every file's deny entries, judged against the lists in force at the end
  const origins = new Map<string, string>();
  const endpointSteps: { source: string; data: Table; withheld: string[] }[] = [];
  let heldProxy: string | undefined; // the [proxy] url in force, were it approved (Settings.network.heldProxy)
  let allowAsWritten: string[] = []; // the allow list in force were every file so far approved: what a yes at the question lets through
  const checkedAll = layers.map((l) => checkLayer(l.source, l.data, l.locate ?? l.text));
  const serversOf = (data: Table) => (data as ConfigFile).mcp?.servers ?? {};
  const shadowed = replacedServers(layers.map((l, i) => ({ source: l.source, servers: serversOf(checkedAll[i]!.data), place: (n) => placeIn(l, ["mcp", n]) })));
  warnings.push(...shadowed.warnings);
  for (const [i, layer] of layers.entries()) {
    const checked = checkedAll[i]!;
    const replaced = shadowed.replaced.get(layer.source); // a table replaced whole never runs: not asked about
    errors.push(...checked.errors);
    // a server's origin is the last file that defines it whole: another agent's spelling, or hey's own
    const defined = serversOf(checked.data);
    for (const [name, s] of Object.entries(defined)) {
      const origin = checked.origins[name] ?? layer.origins?.[name];
      if (origin) origins.set(name, origin);
      else if (s.command !== undefined || s.url !== undefined) origins.delete(name);
    }
    if (layer.project) errors.push(...refuseInProject(layer, checked.data));
    warnings.push(...checked.warnings);
    let data = checked.data;
    let withheld: string[] = [];
    if (layer.guard) {
      const approved = layer.guard.approved === "current" ? guardedOf(data) : layer.guard.approved;
      const role = layer.guard.role;
      const guard = guardLayer(data, approved, role === "replacing" ? listsOf(merged) : role === "narrowing" ? { narrowed: allowAsWritten } : {});
      const widenings = guard.widenings.filter((w) => !aboutServers(w, replaced));
      const kept = guard.kept.filter((n) => !replaced?.has(n));
      guards.push({ source: layer.source, current: guardedOf(data), used: guard.used, widenings, kept, ...(layer.gone ? { gone: true as const } : {}) });
      data = guard.data;
      // a base_url not approved over one a file before it sets: that one stands, as for a moved one
      const below = isTable(merged.provider) ? merged.provider : {};
      const standing = guard.withheld.filter((name) => isTable(below[name]) && below[name].base_url !== undefined);
      if (standing.length) data = { ...data, provider: withoutBaseUrls(data.provider as Table, standing) };
      withheld = guard.withheld.filter((name) => !standing.includes(name));
      const written = (checked.data as ConfigFile).proxy?.url ?? "";
      if (guard.proxyHeld) heldProxy = `[proxy] url = ${JSON.stringify(redactProxyUrl(written))} in ${placeIn(layer, ["proxy", "url"])}`;
    }
    if ((data as ConfigFile).proxy?.url) heldProxy = undefined; // a later file's approved proxy is the one in force
    endpointSteps.push({ source: layer.source, data, withheld });
    // each entry of the file's lists that is no rule, with the file's other mistakes (a misspelt key beside it)
    const written = (checked.data as ConfigFile).permission;
    errors.push(...ruleErrors({ allow: written?.allow ?? [], deny: written?.deny ?? [] }, (list) => placeIn(layer, ["permission", list])));
    const denyAt = placeIn(layer, ["permission", "deny"]);
    for (const entry of written?.deny ?? [])
      reads.push({ entry, anchored: layer.project ? anchoredEntry(entry, projectFolder(layer.source)) : entry, file: denyAt });
    for (const w of (written?.allow ?? []).map(gluedMark)) if (w) entryNotes.push(`${placeIn(layer, ["permission", "allow"])}: [permission] allow ${w}`);
    if (!layer.project) allowAsWritten = written?.allow ?? allowAsWritten;
    else {
      // a project narrows the user's lists, never widens them: its allow list is one more a call must match, its deny
      // entries add to the user's (issue 24); its path entries name the project's files: relative ones are under the folder holding .hey/, wherever hey starts
      const { permission, ...rest } = data as ConfigFile & Table;
      const root = projectFolder(layer.source);
      const lists = { allow: (permission?.allow ?? []).map((e) => anchoredEntry(e, root)), deny: (permission?.deny ?? []).map((e) => anchoredEntry(e, root)) };
      if (lists.allow.length) narrow.push({ source: layer.source, allow: lists.allow });
      projectDeny.push(...lists.deny);
      data = rest;
    }
    mergeInto(merged, data, layer.source, [], sources);
  }
  // every problem of every file at once: fixing one should not reveal the next
  if (errors.length) throw new ConfigError(errors.join("\n"));
  const sourceOf = (path: string[]) => {
    for (let n = path.length; n > 0; n--) {
      const source = sources.get(pathKey(path.slice(0, n)));
      if (source) return source;
    }
    return "config";
  };
  const bySource = new Map(layers.map((l) => [l.source, l]));
  /** `FILE:LINE` of the key (or table) at `path`, for messages; `FILE` when the line cannot be told. */
  const lineOf = (path: string[]) => {
    const source = sourceOf(path);
    const layer = bySource.get(source);
    const locate = layer?.locate ?? (layer?.text === undefined ? undefined : (p: readonly string[]) => keyLine(layer.text!, p));
    // a server is written [mcp.NAME], or [mcp_servers.NAME] in Codex's spelling
    const written = path[0] === "mcp" && path[1] === "servers" ? ["mcp", "mcp_servers"].map((top) => [top, ...path.slice(2)]) : [path];
    // a key inside an inline table or array (`headers = { X-Team = "${TEAM}" }`): the line of the key holding it
    const line = written
      .flatMap((p) => p.map((_, n) => p.slice(0, p.length - n)))
      .map((p) => locate?.(p))
      .find((n) => n !== undefined);
    return line ? `${source}:${line}` : source;
  };

  const misses: Miss[] = [];
  // never inside [permission] (SPEC §24): an unset variable would widen a rule to "everything"
  const { permission, ...expandable } = merged;
  const file = { ...(expandVars(expandable, [], env, misses) as Table), ...(permission === undefined ? {} : { permission }) } as ConfigFile;
  const overridden = applyOverrides(file as Table, env, flags);
  const effort = checkedEffort(env, flags);
  const missing = (path: string[]) => misses.filter((m) => pathKey(m.path) === pathKey(path)).map((m) => m.name);
  const withheld = guards.flatMap((g) => (g.current.vars ?? []).filter((v) => !g.used.vars?.includes(v)));
  const input = { file, raw: merged as ConfigFile, sourceOf, lineOf, missing, withheld, env, flags };
  const choice = chooseProvider(input);
  const fallbacks = fallbackModels(input, overridden.has(pathKey(["default", "fallback_models"])), warnings, choice.provider.name);
  // a base_url the user has not approved: the provider stays as written, its requests are refused (endpoint.ts)
  const unapproved = unapprovedEndpoints(endpointSteps);
  const mark = (p: ProviderSettings): ProviderSettings => (unapproved.has(p.name) && !p.preset ? { ...p, unapproved: unapproved.get(p.name)! } : p);
  choice.providers = choice.providers.map(mark);
  choice.provider = mark(choice.provider);
  const projectFile = (name: string) => {
    const source = sourceOf(["mcp", "servers", name, "command"]);
    return bySource.get(source)?.project ? source : undefined;
  };
  const servers = mcpServers(file, lineOf, warnings, projectFile).map((s) => (origins.has(s.name) ? { ...s, origin: origins.get(s.name)! } : s));
  warnings.push(...choice.warnings, ...(choice.notice ? [choice.notice] : []));
  if (choice.provider.insecure)
    warnings.push(
      `${sourceOf(["provider", choice.provider.name, "insecure"])}: [provider.${choice.provider.name}] insecure = true: TLS certificates of ${choice.provider.baseUrl} are NOT verified; anyone on the network path can read and change what hey sends and receives`,
    );
  const unresolved = [...choice.warnings]; // the provider's only warning: an api_key variable without a value

  // Unset variables are worth a warning only where this run uses them: not in providers it does
  // not talk to, not in disabled MCP servers, not in keys an override replaced.
  const disabled = new Set(servers.filter((s) => !s.enabled).map((s) => s.name));
  for (const m of misses) {
    const [top, name, key] = m.path;
    if (!m.unset || overridden.has(pathKey(m.path))) continue;
    if (top === "provider" && (name !== choice.provider.name || key === "api_key")) continue;
    if (top === "mcp" && name === "servers" && key !== undefined && disabled.has(key)) continue;
    const warning = `${lineOf(m.path)}: ${where(m.path)}: \${${m.name}} is not set (using "")`;
    warnings.push(warning);
    unresolved.push(warning);
  }

  const f = file;
  if (f.proxy?.url?.trim()) checkProxy(f.proxy.url, overridden.has(pathKey(["proxy", "url"])) ? "HEY_PROXY" : `${lineOf(["proxy", "url"])}: [proxy] url`);
  const settings: Settings = {
    provider: choice.provider,
    model: choice.model,
    ...(choice.defaultModel ? { defaultModel: true } : {}),
    providers: choice.providers,
    ...(fallbacks ? { fallbacks } : {}),
    effort: effort ?? sessionEffort(flags.session, choice) ?? choice.provider.effort,
    network: { ...caFile(f.network?.ca_file, sourceOf(["network", "ca_file"]), env), ...(heldProxy && !f.proxy?.url ? { heldProxy } : {}) },
    proxy: f.proxy?.url || undefined,
    ...(f.proxy?.url ? { proxySource: overridden.has(pathKey(["proxy", "url"])) ? "HEY_PROXY" : `[proxy] url in ${lineOf(["proxy", "url"])}` } : {}),
    bashFilterSource: overridden.has(pathKey(["tools", "bash_filter"])) ? "HEY_BASH_FILTER" : lineOf(["tools", "bash_filter"]),
    agent: resolveTable(SECTIONS.agent, f.agent),
    retry: resolveTable(SECTIONS.retry, f.retry),
    compaction: resolveTable(SECTIONS.compaction, f.compaction),
    permission: {
      ...resolveTable(SECTIONS.permission, f.permission),
      narrow,
      file: sourceOf(["permission", "allow"]),
      waiting: projectWaiting(pendingAllows(guards), layers),
    },
    tools: resolveTable(SECTIONS.tools, f.tools),
    mcp: { servers, ...resolveTable(SECTIONS.mcp, f.mcp) },
    input: resolveTable(SECTIONS.input, f.input),
    secretVars: secretVariables(merged),
  };
  settings.permission.deny = [...new Set([...settings.permission.deny, ...projectDeny])];
  Object.assign(settings.permission, denyFacts(reads, settings.permission.deny, entryNotes));
  return { settings, warnings: [...new Set(warnings)], unresolved: [...new Set(unresolved)], guards };
}

/** The effort a resumed session last sent (or the one in force at `/model`), with its model or another (`-c -m`: that model's
 * adapter maps it to its levels), unless it was only the earlier provider's configured default, which gives way to the new one's. */
function sessionEffort(session: ConfigFlags["session"], choice: Pick<Settings, "provider" | "providers" | "model">): Effort | undefined {
  if (!session || (session.provider === choice.provider.name && session.model === choice.model)) return session?.effort;
  return session.effort === choice.providers.find((p) => p.name === session.provider)?.effort ? undefined : session.effort;
}

/** The allow entries waiting for approval (pendingAllows), a project file's anchored at its project as its list is. */
function projectWaiting(waiting: Record<string, string[]>, layers: readonly ConfigLayer[]): Record<string, string[]> {
  const project = new Set(layers.filter((l) => l.project).map((l) => l.source));
  return Object.fromEntries(
    Object.entries(waiting).map(([source, entries]) => [source, project.has(source) ? entries.map((e) => anchoredEntry(e, projectFolder(source))) : entries]),
  );
}

/** A layer with all of it used, whatever was approved of it. */
const asWritten = ({ guard: _, ...layer }: ConfigLayer): ConfigLayer => layer;

/** The lists a replacing file's lists replace: those of the files merged so far (a project's never merge: they only narrow). */
function listsOf(merged: Table): Below {
  const { permission, tools } = merged as ConfigFile;
  return { allow: permission?.allow, deny: permission?.deny, keep_env: tools?.keep_env };
}

/** Each entry that is no rule, named, after `at(list)` (`FILE:LINE`): it would silently allow or deny nothing (SPEC §24). */
function ruleErrors(lists: { allow: string[]; deny: string[] }, at: (list: "allow" | "deny") => string): string[] {
  return (["allow", "deny"] as const).flatMap((list) => validateRules({ allow: [], deny: [], [list]: lists[list] }).map((e) => `${at(list)}: ${e}`));
}

/** Merges one checked layer into `target`, recording which source set each key and table. */
function mergeInto(target: Table, layer: Table, source: string, path: string[], sources: Map<string, string>): void {
  for (const [key, value] of Object.entries(layer)) {
    if (key === "__proto__") continue;
    const at = [...path, key];
    sources.set(pathKey(at), source);
    if (!isTable(value)) {
      target[key] = value;
      continue;
    }
    // An MCP server that names its transport replaces the earlier definition: a command from
    // one file and a url (or args) from another never make a working server.
    const replaces = path.length === 2 && path[0] === "mcp" && path[1] === "servers" && ("command" in value || "url" in value);
    const current = target[key];
    const into: Table = isTable(current) && !replaces ? current : (target[key] = {});
    mergeInto(into, value, source, at, sources);
  }
}

/** Writes the HEY_* variables and the flags that set file keys into `file`; returns the keys they set. */
function applyOverrides(file: Table, env: Record<string, string | undefined>, flags: ConfigFlags): Set<string> {
  const set = new Set<string>();
  const put = (path: string[], value: unknown) => {
    let table = file;
    for (const key of path.slice(0, -1)) {
      const next = table[key];
      table = isTable(next) ? next : (table[key] = {});
    }
    table[path.at(-1)!] = value;
    set.add(pathKey(path));
  };
  const override = (path: string[], kind: Kind, value: unknown, label: string) => {
    const bad = checkValue(kind, value, label) ?? checkRange(path, value, label);
    if (bad) throw new ConfigError(bad);
    put(path, value);
  };
  for (const { path, spec } of OVERRIDES) {
    const text = spec.env ? envValue(env, spec.env) : undefined;
    if (text !== undefined) override(path, spec.kind, variableValue(spec.kind, text), spec.env!);
  }
  for (const { path, spec } of OVERRIDES) {
    const value = spec.flag ? (flags as Record<string, unknown>)[camel(path[1]!)] : undefined;
    if (value !== undefined) override(path, spec.kind, value, spec.flag!);
  }
  return set;
}

/** -t / HEY_EFFORT, checked; undefined when neither is given. */
function checkedEffort(env: Record<string, string | undefined>, flags: ConfigFlags): Effort | undefined {
  const [value, label] = flags.effort !== undefined ? [flags.effort, "--effort"] : [envValue(env, "HEY_EFFORT"), "HEY_EFFORT"];
  if (value === undefined) return undefined;
  const bad = checkValue("effort", value, label);
  if (bad) throw new ConfigError(bad);
  return value as Effort;
}

/**
 * The MCP servers of the merged files; `projectFile` names the project file that wrote a server's
 * command (server-dir.ts: it runs in the project root). Throws ConfigError listing every server that is neither local nor remote.
 */
function mcpServers(
  file: ConfigFile,
  lineOf: (path: string[]) => string,
  warnings: string[],
  projectFile: (name: string) => string | undefined,
): McpServerSettings[] {
  const errors: string[] = [];
  const servers = Object.entries(file.mcp?.servers ?? {}).map(([name, s]): McpServerSettings => {
    const path = ["mcp", "servers", name];
    const at = `${lineOf(path)}: ${where(path)}`;
    const atLine = (key?: string) => `${lineOf(key ? [...path, key] : path)}: ${where(path)}`;
    if (s.command === undefined && s.url === undefined) errors.push(`${atLine()} needs command (a local server) or url (a remote one)`);
    if (s.command !== undefined && s.url !== undefined) errors.push(`${atLine("url")} has both command and url; keep one`);
    const unused = s.url !== undefined ? (["args", "env", "cwd"] as const) : (["headers", "client_id", "client_secret"] as const);
    for (const key of unused)
      if (s[key] !== undefined) warnings.push(`${atLine(key)} ${key} is only used with ${s.url !== undefined ? "command" : "url"} (ignored)`);
    if (s.url !== undefined && s.client_secret !== undefined && !s.client_id)
      warnings.push(`${atLine("client_secret")} client_secret is used only with client_id (ignored)`);
    const tools = selectionKey(s.tools, s.enabled_tools, "tools", "enabled_tools", atLine, warnings);
    const excludeTools = selectionKey(s.exclude_tools, s.disabled_tools, "exclude_tools", "disabled_tools", atLine, warnings);
    return {
      name,
      at,
      command: s.command,
      args: s.args ?? [],
      env: s.env ?? {},
      cwd: s.command === undefined ? undefined : serverDir(s.cwd, projectFile(name)),
      url: s.url,
      headers: s.headers ?? {},
      enabled: s.enabled ?? true,
      timeoutMs: s.timeout_ms ?? 60_000,
      ...(s.max_timeout_ms !== undefined ? { maxTimeoutMs: s.max_timeout_ms } : {}),
      ...(tools ? { tools } : {}),
      ...(excludeTools ? { excludeTools } : {}),
      ...(s.defer === false ? { defer: false } : {}), // only when set: the tool-list cache is keyed by the table
      ...(s.url !== undefined && s.client_id ? { oauthClient: { id: s.client_id, ...(s.client_secret ? { secret: s.client_secret } : {}) } } : {}),
    };
  });
  if (errors.length) throw new ConfigError(errors.join("\n"));
  return servers;
}

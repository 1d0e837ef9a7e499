// The agent never widens its own rules (issue 24). The keys of a config file that decide what the
// agent may do, what hey runs or where the keys go — `[permission] allow`/`deny`, `[tools]
// bash_filter`, `shell`, `rg`, `keep_env`, every `[mcp.NAME]` server, each `[provider.NAME]
// base_url`, `[proxy] url`, `[network] ca_file` and every `${VAR}` the file's values name — come
// from the user. hey remembers them as the user last approved them (config/approvals.ts); a file
// whose guarded keys now give the agent more is used with the approved values instead until the
// user confirms the change. Changes that only take away (a deny entry added, an allow entry or a
// server removed, an allow list set where none was) need no confirmation. Pure.
import { varsIn, where, withoutVars } from "./schema.ts";
import { isTable, type Table } from "./table.ts";
import { globMatch } from "../permission/match.ts";
import { sealedUrl, sealedUrls, unsealedUrl } from "./sealed-url.ts";
import { ALLOWS_NOTHING } from "../permission/rules.ts";
import { EXACT_NOTE, isExact } from "../permission/entries.ts";
import { redactProxyUrl } from "../net/proxy.ts";
import { type ApprovedSelection, describeServer, selectionOf, serverParts, urlOnScreen, weighSelection, withSelection } from "./server-approval.ts";

export { describeServer, hideCredentials } from "./server-approval.ts";

/** One file's guarded keys. Lists and strings as written (`${VAR}` unexpanded); servers by fingerprint. */
export interface Guarded {
  /** undefined: the file does not set the key */
  allow?: string[];
  deny?: string[];
  bash_filter?: string;
  shell?: string;
  rg?: string;
  keep_env?: string[];
  /** every server table that can start something: name → fingerprint of what it runs */
  mcp: Record<string, string>;
  /**
   * each of those servers as the approval showed it (server-approval.ts serverParts: values, a
   * secret as its hash), to show a later change old → new. Undefined in a record an earlier hey wrote.
   */
  servers?: Record<string, Record<string, string>>;
  /**
   * the tool selection of each of those servers that sets one (`tools`, `exclude_tools`): one
   * that offers more waits for a yes. Undefined in a record an earlier hey wrote: the file's
   * selections then count as approved, and are recorded from then on.
   */
  selections?: Record<string, ApprovedSelection>;
  /**
   * where each provider's requests go, with its key: name → `base_url` as written. Undefined in a
   * record an earlier hey wrote, which kept none: the file's endpoints and proxy then count as
   * approved, as on a first run, and are recorded from then on.
   */
  endpoints?: Record<string, string>;
  /** `[proxy] url` as written */
  proxy?: string;
  /** `[network] ca_file` as written: the CAs hey trusts for model requests (a project's config may not set it) */
  ca_file?: string;
  /**
   * each environment variable the file's values name, where it stands (`[provider.x] api_key
   * ${OPENAI_API_KEY}`), sorted: its value goes where that key sends it — a request's key, a
   * header, a model name — and it may be a key hey hides from the agent's commands. Not those in
   * `[permission]` (never expanded) nor in `[mcp]` (a server's fingerprint holds them). Undefined
   * in a record an earlier hey wrote: the file's count as approved, as on a first run, and are
   * recorded from then on.
   */
  vars?: string[];
}

/**
 * How a file's lists combine with the files below it: `base` (the user file, lowest), `narrowing`
 * (a project's file: its allow list intersects, its deny list adds up), `replacing` (a `--config`
 * file: arrays replace key by key, so where it sets a list the lists below no longer count, and
 * where it drops one they count again). Only a replacing file is weighed with what is below it
 * (guardLayer's `below`).
 */
export type LayerRole = "base" | "narrowing" | "replacing";

/** The lists of the files below a replacing file, as this run uses them: what its own lists replace; `narrowed`: the allow list a narrowing file's sits over, the files before it approved as written (said, never weighed). */
export type Below = Pick<Guarded, "allow" | "deny" | "keep_env"> & { narrowed?: string[] };

/** A file hey has no approval for yet: nothing of what it sets is approved. */
export const NOTHING_APPROVED: Guarded = { mcp: {}, endpoints: {}, vars: [] };

const SERVER_RUNS = ["command", "args", "env", "cwd", "url", "headers"] as const;

/** What an MCP server table sets that decides what runs (or where hey connects), or undefined when it starts nothing. */
function serverIdentity(table: Table): Table | undefined {
  if (table.enabled === false) return undefined; // kept without starting
  const out: Table = {};
  for (const key of SERVER_RUNS) if (table[key] !== undefined) out[key] = sortKeys(table[key]);
  if (table.enabled === true) out.enabled = true; // turns on a server another file defines
  return Object.keys(out).length ? out : undefined;
}

function sortKeys(v: unknown): unknown {
  if (!isTable(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k])]),
  );
}

/** node:crypto is loaded only here: at start-up it added ~1 MB to every run, MCP servers or not */
function fingerprint(v: unknown): string {
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(JSON.stringify(v)).digest("hex").slice(0, 32);
}

/** The guarded keys of one checked file (config/schema.ts checkLayer's `data`). */
export function guardedOf(data: Table): Guarded {
  const permission = isTable(data.permission) ? data.permission : {};
  const tools = isTable(data.tools) ? data.tools : {};
  const servers = isTable(data.mcp) && isTable(data.mcp.servers) ? data.mcp.servers : {};
  const out: Guarded = { mcp: {}, servers: {}, selections: {} };
  if (Array.isArray(permission.allow)) out.allow = permission.allow as string[];
  if (Array.isArray(permission.deny)) out.deny = permission.deny as string[];
  for (const key of ["bash_filter", "shell", "rg"] as const) if (typeof tools[key] === "string") out[key] = tools[key] as string;
  if (Array.isArray(tools.keep_env)) out.keep_env = tools.keep_env as string[];
  for (const [name, table] of Object.entries(servers)) {
    const identity = isTable(table) ? serverIdentity(table) : undefined;
    if (!identity) continue;
    out.mcp[name] = fingerprint(identity);
    out.servers![name] = serverParts(table as Table);
    const selection = selectionOf(table as Table);
    if (selection) out.selections![name] = selection;
  }
  dropEmpty(out);
  out.endpoints = {};
  for (const [name, p] of Object.entries(isTable(data.provider) ? data.provider : {}))
    if (isTable(p) && typeof p.base_url === "string") out.endpoints[name] = sealedUrl(p.base_url);
  const proxy = isTable(data.proxy) ? data.proxy.url : undefined;
  if (typeof proxy === "string" && proxy) out.proxy = sealedUrl(proxy);
  const ca = isTable(data.network) ? data.network.ca_file : undefined;
  if (typeof ca === "string" && ca) out.ca_file = ca;
  out.vars = [...new Set(sentVars(data).map((v) => varPlace(v.name, v.path)))].sort();
  return out;
}

/** The `${NAME}`s of a file whose values hey sends (Guarded.vars), with the key path of each. */
export function sentVars(data: Table): { name: string; path: string[]; written: string }[] {
  const { permission: _rules, mcp: _servers, ...rest } = data;
  return varsIn(rest);
}

/** A variable where it stands, as Guarded.vars records it: `[provider.x] api_key ${OPENAI_API_KEY}`. */
const varPlace = (name: string, path: readonly string[]) => `${where(path)} \${${name}}`;

/** What guardLayer makes of one file. */
export interface Guard {
  /** the file's checked data with every widening replaced by the approved value */
  data: Table;
  /** one line per widening, in the file's words: `+ [permission] allow "bash"` */
  widenings: string[];
  /** the guarded keys as this run uses them: what the record holds unless the user approves more */
  used: Guarded;
  /**
   * servers whose approved table was changed, the change left out: the record keeps only a
   * fingerprint, so the approved table is the one running — `/reload` keeps it running
   */
  kept: string[];
  /**
   * providers whose base_url this file sets and the user never approved there: the table stays (a
   * run that names the provider must not quietly get another one), but no request may go there
   * (ProviderSettings.unapproved) — unless a file before it sets one, which then stands (resolve.ts)
   */
  withheld: string[];
  /**
   * the file's `[proxy] url` is left out and no approved one can stand in (none approved, another
   * password): the requests it would route may not go out (ProxySources.held) — unless a file
   * before it sets one, which then stands (resolve.ts)
   */
  proxyHeld?: true;
}

const quote = (s: string) => JSON.stringify(s);

/**
 * The `[network] ca_file` that `guards` (one per file) left out for want of approval, as a
 * certificate error names it (`[network] ca_file = "…" in FILE`); undefined when none was.
 */
export function pendingCaFile(guards: readonly { source: string; widenings: readonly string[] }[]): string | undefined {
  for (const g of guards) {
    const line = g.widenings.find((l) => /^[+~] \[network\] ca_file = /.test(l));
    if (line) return `${line.slice(2).replace(/: its CAs.*$/, "")} in ${g.source}`;
  }
  return undefined;
}

/**
 * Compares a file's checked `data` with what the user approved of it and keeps only what is not
 * wider. A list is weighed by what it leaves in force — the file's own, or when the file sets none,
 * `below` (the lists it would replace; nothing for a file whose lists do not replace) — so a list
 * set where none was only narrows. Wider: an allow list in force that holds an entry the approved
 * one did not (or none, where the approved one restricted), a deny entry no longer in force, a
 * bash_filter, shell or rg command that changed, a keep_env variable added, a new or changed MCP
 * server, a provider's new or changed base_url (its key would go there: the agent cannot read the
 * key, hey keeps it from the commands it runs, but it can write a config file), a new or changed
 * proxy. Each widening is left out — the approved value is used; a base_url with none approved is
 * `withheld`, a proxy `proxyHeld` — and named in `widenings`.
 * `approved` undefined: nothing of the file is approved.
 */
export function guardLayer(data: Table, approved: Guarded | undefined, below: Below = {}): Guard {
  const was = approved ?? NOTHING_APPROVED;
  const now = guardedOf(data);
  const widenings: string[] = [];
  const kept: string[] = [];
  const used: Guarded = { mcp: {} };
  const permission: Table = isTable(data.permission) ? { ...data.permission } : {};
  const tools: Table = isTable(data.tools) ? { ...data.tools } : {};
  // what each version of the file leaves in force; an empty or missing allow list allows everything
  const wasAllow = was.allow ?? below.allow ?? [];
  const nowAllow = now.allow ?? below.allow ?? [];

  // allow: a list that lets through no more than the approved one is narrower (or the same)
  const narrower = wasAllow.length === 0 || (nowAllow.length > 0 && nowAllow.every((e) => wasAllow.includes(e)));
  if (!narrower) {
    const more = nowAllow.filter((e) => !wasAllow.includes(e)).map(quote);
    // a narrowing file's list gone over one below it: a yes lets through what that list allows, not every call
    const goes = below.narrowed?.length ? "what the allow list of the files before it allows would run" : "every tool call would run";
    if (nowAllow.length === 0) widenings.push(`- [permission] allow (the whole list: ${goes})`);
    else if (now.allow === undefined) widenings.push(`- [permission] allow (the list of the files before it would count, which adds ${more.join(", ")})`);
    else widenings.push(...nowAllow.filter((e) => !wasAllow.includes(e)).map((e) => `+ [permission] allow ${quote(e)}${isExact(e) ? ` (${EXACT_NOTE})` : ""}`));
    setOrDelete(permission, "allow", nowAllow.length === 0 ? was.allow : keptAllow(wasAllow, nowAllow));
  }
  if (permission.allow !== undefined) used.allow = permission.allow as string[];

  // deny: an entry no longer in force is a widening; it stays, beside what the file adds
  const wasDeny = was.deny ?? below.deny ?? [];
  const nowDeny = now.deny ?? below.deny ?? [];
  const removed = wasDeny.filter((e) => !nowDeny.includes(e));
  for (const e of removed)
    widenings.push(`- [permission] deny ${quote(e)}${was.deny?.includes(e) ? "" : " (this file's deny list replaces the one before it)"}`);
  if (removed.length) permission.deny = [...nowDeny, ...removed];
  if (permission.deny !== undefined) used.deny = permission.deny as string[];

  // commands hey runs: bash's output filter, the shell, ripgrep
  for (const key of ["bash_filter", "shell", "rg"] as const) {
    const value = now[key];
    const harmless = value === undefined || (key === "bash_filter" && (value === "builtin" || value === "none"));
    if (value !== was[key] && !harmless) {
      widenings.push(`${was[key] === undefined ? "+" : "~"} [tools] ${key} = ${quote(value)}`);
      setOrDelete(tools, key, was[key]);
    }
    if (tools[key] !== undefined) used[key] = tools[key] as string;
  }

  // keep_env: each variable added shows an API key to the commands the model runs
  const wasKeep = was.keep_env ?? below.keep_env ?? [];
  const nowKeep = now.keep_env ?? below.keep_env ?? [];
  const added = nowKeep.filter((v) => !wasKeep.includes(v));
  for (const v of added) widenings.push(`+ [tools] keep_env ${quote(v)}`);
  if (added.length) tools.keep_env = nowKeep.filter((v) => wasKeep.includes(v));
  if (tools.keep_env !== undefined) used.keep_env = tools.keep_env as string[];

  // MCP servers: a table that starts something new is left out whole (a lower file's definition stands)
  const servers: Table = isTable(data.mcp) && isTable(data.mcp.servers) ? { ...data.mcp.servers } : {};
  // a record an earlier hey wrote kept no selections: the file's count as approved
  const wasSelections = approved !== undefined && approved.selections === undefined ? (now.selections ?? {}) : (was.selections ?? {});
  used.servers = {};
  used.selections = {};
  for (const [name, print] of Object.entries(now.mcp)) {
    if (was.mcp[name] === print) {
      used.mcp[name] = print;
      used.servers[name] = now.servers![name]!;
      // the tool selection: one that offers a tool the approved one left out keeps the approved list
      const selection = weighSelection(wasSelections[name], now.selections?.[name]);
      for (const w of selection.widenings) widenings.push(`+ [mcp.${name}] ${w}`);
      if (selection.widenings.length) servers[name] = withSelection(servers[name] as Table, selection.used);
      if (selection.used) used.selections[name] = selection.used;
      continue;
    }
    widenings.push(`${was.mcp[name] === undefined ? "+" : "~"} [mcp.${name}] ${describeServer(servers[name] as Table, was.servers?.[name])}`);
    if (was.mcp[name] !== undefined) {
      kept.push(name);
      used.mcp[name] = was.mcp[name];
      if (was.servers?.[name]) used.servers[name] = was.servers[name];
      if (wasSelections[name]) used.selections[name] = wasSelections[name];
    }
    delete servers[name];
  }
  dropEmpty(used);

  // where requests go with a provider's key: a moved endpoint goes back to the approved one, a new one is withheld
  const legacy = approved !== undefined && approved.endpoints === undefined;
  const wasEndpoints = legacy ? (now.endpoints ?? {}) : sealedUrls(was.endpoints ?? {});
  const providers: Table = isTable(data.provider) ? { ...data.provider } : {};
  const withheld: string[] = [];
  used.endpoints = {};
  for (const [name, url] of Object.entries(now.endpoints ?? {})) {
    const before = wasEndpoints[name];
    if (before === url) {
      used.endpoints[name] = url;
      continue;
    }
    // the approved URL, its password (hashed in the record) taken from the file when unchanged
    const usable = before === undefined ? undefined : unsealedUrl(before, (providers[name] as Table).base_url);
    const went =
      before === undefined
        ? ""
        : ` (was ${quote(urlOnScreen(before))}${usable ? "" : ", with another password or key: no request goes to either until you approve"})`;
    widenings.push(`${before === undefined ? "+" : "~"} [provider.${name}] base_url = ${quote(urlOnScreen(url))}${went}: its requests and key would go there`);
    if (before !== undefined) used.endpoints[name] = before;
    if (usable === undefined) withheld.push(name);
    else providers[name] = { ...(providers[name] as Table), base_url: usable };
  }
  // the proxy model requests go through: a changed one goes back to the approved one; where none can
  // be used (none approved, another password) the route stays closed — going direct or through
  // HTTPS_PROXY instead would leave out a proxy the network may require, and say nothing
  const proxy: Table = isTable(data.proxy) ? { ...data.proxy } : {};
  const wasProxy = legacy ? now.proxy : was.proxy && sealedUrl(was.proxy);
  let proxyHeld = false;
  if (now.proxy !== undefined && now.proxy !== wasProxy) {
    const usable = wasProxy && unsealedUrl(wasProxy, proxy.url);
    // credentials as every proxy message shows them (net/proxy.ts redactProxyUrl), not a base_url's `user:[secret]@`
    const went = wasProxy === undefined ? "" : ` (was ${quote(redactProxyUrl(wasProxy))}${usable ? "" : ", with another password"})`;
    const closed = usable ? "" : "; none goes out, directly or through another proxy, until you approve";
    widenings.push(
      `${wasProxy === undefined ? "+" : "~"} [proxy] url = ${quote(redactProxyUrl(now.proxy))}${went}: model requests would go through it${closed}`,
    );
    setOrDelete(proxy, "url", usable);
    proxyHeld = !usable;
    if (wasProxy !== undefined) used.proxy = wasProxy; // the approval stands until the user answers
  }
  if (typeof proxy.url === "string" && proxy.url) used.proxy = sealedUrl(proxy.url);
  // a CA added to those hey trusts would let whoever holds it answer for any endpoint, and read its key
  const network: Table = isTable(data.network) ? { ...data.network } : {};
  const older = approved !== undefined && approved.vars === undefined; // a record an earlier hey wrote kept no CA file, nor variables
  const wasCa = older ? now.ca_file : was.ca_file;
  if (now.ca_file !== undefined && now.ca_file !== wasCa) {
    widenings.push(`${wasCa === undefined ? "+" : "~"} [network] ca_file = ${quote(now.ca_file)}: its CAs would be trusted for model requests`);
    setOrDelete(network, "ca_file", wasCa);
  }
  if (typeof network.ca_file === "string" && network.ca_file) used.ca_file = network.ca_file;

  // a variable named where the user approved none would send its value there (it may be a key hey
  // hides from the agent's commands): it is left out — empty — until approved
  const wasVars = older ? (now.vars ?? []) : (was.vars ?? []);
  const unsent = new Set((now.vars ?? []).filter((v) => !wasVars.includes(v)));
  const written = new Map(sentVars(data).map((v) => [varPlace(v.name, v.path), `${where(v.path)} ${v.written}`])); // `${M:-m1}` as the file has it
  for (const place of unsent) widenings.push(`+ ${written.get(place) ?? place}: its value would be sent`);
  used.vars = (now.vars ?? []).filter((v) => !unsent.has(v));

  let out: Table = { ...data };
  if (isTable(data.provider)) out.provider = providers;
  if (isTable(data.proxy)) out.proxy = proxy;
  if (isTable(data.network)) out.network = network;
  // a list the file dropped comes back when dropping it widened (`permission` then holds the approved one)
  if (isTable(data.permission) || Object.keys(permission).length) out.permission = permission;
  if (isTable(data.tools) || Object.keys(tools).length) out.tools = tools;
  if (isTable(data.mcp) && isTable(data.mcp.servers)) out.mcp = { ...data.mcp, servers };
  if (unsent.size) {
    const { permission: rules, mcp, ...rest } = out;
    out = {
      ...(withoutVars(rest, (name, path) => unsent.has(varPlace(name, path))) as Table),
      ...(rules === undefined ? {} : { permission: rules }),
      ...(mcp === undefined ? {} : { mcp }),
    };
  }
  return { data: out, widenings, used, kept, withheld, ...(proxyHeld ? { proxyHeld: true as const } : {}) };
}

/**
 * The allow list a widened one is used as: the approved entries the file's list still holds or
 * covers (`"bash: ls"` under `"bash"`) — an entry the file removed stays removed beside one it adds
 * — or, when none is left, ALLOWS_NOTHING (an empty list would allow every call).
 */
function keptAllow(approved: string[], now: string[]): string[] {
  const tools = now.filter((e) => !/^bash\s*:/.test(e));
  const covered = (e: string) => now.includes(e) || tools.some((glob) => globMatch(glob, /^bash\s*:/.test(e) ? "bash" : e));
  const both = approved.filter(covered);
  return both.length ? both : [ALLOWS_NOTHING];
}

/** Each file's allow entries that wait for the user's approval (written there, left out of the list in use): file → entries. */
export function pendingAllows(guards: readonly { source: string; current: Guarded; used: Guarded }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { source, current, used } of guards) {
    const waiting = used.allow === undefined ? [] : (current.allow ?? []).filter((e) => !used.allow!.includes(e));
    if (waiting.length) out[source] = waiting;
  }
  return out;
}

/**
 * `g` without an empty `servers` or `selections`: a record that needs neither reads as before (an
 * empty selections record and none approve the same: a file's selections can then only narrow).
 */
function dropEmpty(g: Guarded): void {
  if (g.servers && Object.keys(g.servers).length === 0) delete g.servers;
  if (g.selections && Object.keys(g.selections).length === 0) delete g.selections;
}

function setOrDelete(table: Table, key: string, value: unknown): void {
  if (value === undefined) delete table[key];
  else table[key] = value;
}

/** Whether a line of guardLayer's `widenings` is about an MCP server (`+ [mcp.NAME] …`, `~ [mcp.NAME] …`). */
export const aboutServer = (line: string): boolean => /^[+~] \[mcp\./.test(line);

/** Whether two records of a file's guarded keys say the same (to skip writing an unchanged record). */
export function sameGuarded(a: Guarded | undefined, b: Guarded | undefined): boolean {
  return JSON.stringify(a && sortKeys(a as unknown as Table)) === JSON.stringify(b && sortKeys(b as unknown as Table));
}

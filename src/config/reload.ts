// `/reload` (SPEC §14, §23): everything hey reads from files is read again and validated first;
// only when nothing is wrong does anything switch. Each part of the live state — configuration,
// skills, AGENTS.md, MCP servers — is a Reloadable: `check` reads and validates without
// changing anything, and the Staged result's `apply` switches. Pure: the parts do the reading.
import { camel, SECTIONS } from "./keys.ts";
import type { ProviderSettings, Settings } from "./settings.ts";

/** What one part found: its errors and warnings (one line each, naming file and line), and what would change. */
export interface Staged {
  /** any error: nothing switches, in any part */
  errors: string[];
  warnings: string[];
  /** one short line each: `+ skill x`, `- skill y`, `~ model a → b` */
  changes: string[];
  /** switches this part to what was checked; called only when no part has errors; must not throw */
  apply(): void | Promise<void>;
}

/**
 * One part of hey's live state. `check` is given the settings as they will be after this reload
 * (the current ones when the configuration itself has errors), reads what it needs and changes
 * nothing; it reports bad input as errors rather than throwing.
 */
export interface Reloadable {
  name: string;
  check(settings: Settings): Promise<Staged>;
}

/** The configuration's own check also yields the settings the other parts are checked against. */
export type StagedConfig = Staged & { settings: Settings };

/** What `/reload` did; the `reload` JSON event carries it as is. */
export interface ReloadReport {
  ok: boolean;
  changes: string[];
  errors: string[];
  warnings: string[];
}

/** Checks the configuration, then every part against its new settings; applies all or nothing. */
export async function reloadAll(config: () => Promise<StagedConfig>, parts: readonly Reloadable[]): Promise<ReloadReport> {
  const first = await config();
  const staged = [first, ...(await Promise.all(parts.map((p) => p.check(first.settings))))];
  const errors = staged.flatMap((s) => s.errors);
  const warnings = staged.flatMap((s) => s.warnings);
  if (errors.length > 0) return { ok: false, changes: [], errors, warnings };
  for (const s of staged) await s.apply();
  return { ok: true, changes: staged.flatMap((s) => s.changes), errors: [], warnings };
}

/** The lines `/reload` prints: the summary, or the errors and that nothing changed. */
export function formatReload(r: ReloadReport): string {
  const warnings = r.warnings.map((w) => `hey: ${w}\n`).join("");
  if (!r.ok) return `${warnings}hey: /reload changed nothing; fix these and /reload again:\n${r.errors.map((e) => `  ${e}`).join("\n")}`;
  if (r.changes.length === 0) return `${warnings}reloaded: nothing changed`;
  return `${warnings}reloaded:\n${r.changes.map((c) => `  ${c}`).join("\n")}`;
}

/** `-m` spelled out: provider/model. */
const modelOf = (s: Settings) => `${s.provider.name}/${s.model}`;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a new configuration changes, one line each, in the file's words. Values are shown for
 * numbers, booleans and the model; never for keys, headers or the proxy URL, which may hold secrets.
 */
export function settingsChanges(before: Settings, after: Settings): string[] {
  const out: string[] = [];
  if (modelOf(before) !== modelOf(after)) out.push(`~ model ${modelOf(before)} → ${modelOf(after)}`);
  if (before.effort !== after.effort) out.push(`~ effort ${before.effort ?? "(default)"} → ${after.effort ?? "(default)"}`);
  out.push(...namedChanges("provider", before.providers, after.providers));
  if (before.proxy !== after.proxy) out.push("~ [proxy] url");
  for (const section of ["agent", "retry", "compaction", "tools"] as const) {
    const a = before[section] as Record<string, unknown>;
    const b = after[section] as Record<string, unknown>;
    for (const key of Object.keys(SECTIONS[section])) {
      if (same(a[camel(key)], b[camel(key)])) continue;
      const shown = (v: unknown) => (typeof v === "number" || typeof v === "boolean" ? String(v) : v === undefined ? "(default)" : JSON.stringify(v));
      out.push(`~ [${section}] ${key} ${shown(a[camel(key)])} → ${shown(b[camel(key)])}`);
    }
  }
  for (const key of ["allow", "deny"] as const) if (!same(before.permission[key], after.permission[key])) out.push(`~ [permission] ${key}`);
  if (!same(before.permission.narrow, after.permission.narrow)) out.push("~ [permission] allow of the project");
  // MCP servers are the MCP part's to tell (mcp/manager.ts): only it knows which ones run
  return out;
}

/** `+ provider x`, `- provider x`, `~ provider x` for lists of named settings. */
export function namedChanges(what: string, before: readonly { name: string }[], after: readonly { name: string }[]): string[] {
  const old = new Map(before.map((p) => [p.name, p]));
  const now = new Map(after.map((p) => [p.name, p]));
  const out: string[] = [];
  for (const [name, p] of now) {
    const was = old.get(name);
    if (!was) out.push(`+ ${what} ${name}`);
    else if (!same(comparable(was), comparable(p))) out.push(`~ ${what} ${name}`);
  }
  for (const name of old.keys()) if (!now.has(name)) out.push(`- ${what} ${name}`);
  return out;
}

/** Key order does not make a change, nor does a definition that only moved (`at`). */
function comparable(v: object): unknown {
  return Object.fromEntries(
    Object.entries(v as ProviderSettings)
      .filter(([k]) => k !== "at")
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

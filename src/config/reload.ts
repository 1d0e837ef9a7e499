// `/reload` (SPEC §14, §23, issue 26): start-up's rules, applied as a diff. Everything hey reads
// from files is read again and validated first. What start-up only warns about stays a warning
// (that part is left out, the rest loads); a hard error (bad TOML, a permission entry that cannot
// be parsed, a missing MCP command) switches nothing, in any part: the last good state stays. Each
// part of the live state — configuration, skills, AGENTS.md, MCP servers — is a Reloadable:
// `check` reads and validates without changing anything, and the Staged result's `apply`
// switches. What it did reaches the model too, as a note on the next request (reloadNote). Pure:
// the parts do the reading.
import { camel, SECTIONS, type DeferMode } from "./keys.ts";
import type { ProviderSettings, Settings } from "./settings.ts";
import { ALLOWS_NOTHING } from "../permission/rules.ts";
import { heyNote } from "../kernel/user-notes.ts";

/** What one part found: its errors and warnings (one line each, naming file and line), and what would change. */
export interface Staged {
  /** any error: nothing switches, in any part */
  errors: string[];
  warnings: string[];
  /** those of `warnings` for the user alone, never in the model's note (skills/frontmatter.ts SkillProblem.userOnly) */
  userOnly?: string[];
  /** one short line each: `+ skill x`, `- skill y`, `~ model a → b` */
  changes: string[];
  /**
   * what the model keeps in its conversation, with the user's next message, rather than the
   * one-shot reload note: the skills that changed, while the system prompt stays as it was (prompt/skill-listing.ts skillsChangedNote)
   */
  note?: string;
  /**
   * switches this part to what was checked; called only when no part has errors; must not throw.
   * May say how it went where that is known only by doing it (an MCP server that failed to start
   * and was kept as it was): its `changes` then replace the checked ones, its `warnings` add up.
   */
  apply(): void | Applied | Promise<void | Applied>;
}

/** What an apply found out. */
export interface Applied {
  changes: string[];
  warnings: string[];
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
  /** those of `warnings` the model's note leaves out (Staged.userOnly) */
  userOnly?: string[];
  /** the parts' Staged.note, when it applied: the model keeps it with the next message; the changes it tells are left out of reloadNote's */
  note?: string;
}

/**
 * The parts' errors were the settings `settings`, nothing else of their checks: the configuration's
 * check runs it on what a change would make before it asks the user about that change, so a
 * change that cannot apply (an MCP server whose command is not found) is the reload's error, not
 * a question.
 */
export type Vet = (settings: Settings) => Promise<string[]>;

/** Checks the configuration, then every part against its new settings; applies all or nothing. */
export async function reloadAll(config: (vet: Vet) => Promise<StagedConfig>, parts: readonly Reloadable[]): Promise<ReloadReport> {
  const vet: Vet = async (settings) => (await Promise.all(parts.map((p) => p.check(settings)))).flatMap((s) => s.errors);
  const first = await config(vet);
  const staged = [first, ...(await Promise.all(parts.map((p) => p.check(first.settings))))];
  // an error the vet found can be found again against the settings now (a stopped server's command gone)
  const errors = [...new Set(staged.flatMap((s) => s.errors))];
  const warnings = staged.flatMap((s) => s.warnings);
  const userOnly = staged.flatMap((s) => s.userOnly ?? []);
  if (errors.length > 0) return { ok: false, changes: [], errors, warnings, ...(userOnly.length ? { userOnly } : {}) };
  const changes: string[] = [];
  for (const s of staged) {
    const applied = await s.apply();
    changes.push(...(applied ? applied.changes : s.changes));
    if (applied) warnings.push(...applied.warnings);
  }
  const note = staged.flatMap((s) => s.note ?? []).join("\n");
  return { ok: true, changes, errors: [], warnings, ...(userOnly.length ? { userOnly } : {}), ...(note ? { note } : {}) };
}

/** The note is cut here: it rides on one request, and a flood of warnings must not crowd out the rest. */
export const RELOAD_NOTE_MAX_CHARS = 2_000;

/**
 * The line the model reads at the tail of the first request after `/reload` (issue 26), so it can
 * use what it just added or fix what it got wrong: the changes (skills, MCP servers, settings),
 * the tools that request offers and the one before did not (and the reverse), and every problem
 * with its file and line — but those the user alone reads (`userOnly`). `before`/`after`: the tool names of those two requests;
 * `deferred`: those of the MCP tools left to find_tools now (a switch of `[mcp] defer_tools`), said apart from tools gone. Undefined when the
 * model would read nothing it can use — no change, no tool gained or lost, no problem: the screen's
 * "reloaded: nothing changed" is the user's; a note that says nothing costs tokens and is one more
 * tail the next request leaves out.
 */
export function reloadNote(r: ReloadReport, before: readonly string[], after: readonly string[], deferred: readonly string[] = []): string | undefined {
  const old = new Set(before);
  const now = new Set(after);
  const added = after.filter((t) => !old.has(t));
  const removed = before.filter((t) => !now.has(t));
  const gone = removed.filter((t) => !deferred.includes(t));
  const waiting = removed.filter((t) => deferred.includes(t));
  // the skills' changes the model keeps in its conversation (ReloadReport.note: `+ skill NAME: …`) are not said twice
  const parts = r.ok ? r.changes.filter((c) => !r.note?.includes(`\n${c}:`)) : [];
  if (added.length) parts.push(`+ tools ${added.join(", ")}`);
  if (gone.length) parts.push(`- tools ${gone.join(", ")}`);
  if (waiting.length) parts.push(`~ tools left to find_tools (a call by name still runs one): ${waiting.join(", ")}`);
  const hidden = new Set(r.userOnly);
  const problems = [...r.errors.map((e) => `error: ${e}`), ...r.warnings.filter((w) => !hidden.has(w)).map((w) => `warning: ${w}`)];
  if (parts.length === 0 && problems.length === 0) return undefined;
  const head = r.ok
    ? parts.length
      ? "the user ran /reload:"
      : "the user ran /reload; nothing changed" // but its problems
    : "the user ran /reload and nothing changed; fix these and ask them to /reload again:";
  let text = heyNote(`${head}${[...parts, ...problems].map((p) => `\n${p}`).join("")}`);
  if (text.length > RELOAD_NOTE_MAX_CHARS) text = `${text.slice(0, RELOAD_NOTE_MAX_CHARS - 2)}…]`;
  return text;
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
  const fallbacks = (s: Settings) => s.fallbacks?.models.join(", ") || "(none)";
  if (fallbacks(before) !== fallbacks(after)) out.push(`~ fallback models ${fallbacks(before)} → ${fallbacks(after)}`);
  // a provider the user said no to (or was not asked about) is there, but gets no request: said on its line
  const refused = new Set(after.providers.filter((p) => p.unapproved).map((p) => `provider ${p.name}`));
  out.push(
    ...namedChanges("provider", before.providers, after.providers).map((l) =>
      refused.has(l.slice(2)) ? `${l} (base_url not approved: it gets no request)` : l,
    ),
  );
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
  if (before.mcp.startupWaitMs !== after.mcp.startupWaitMs) out.push(`~ [mcp] startup_wait_ms ${before.mcp.startupWaitMs} → ${after.mcp.startupWaitMs}`);
  if (before.mcp.deferTools !== after.mcp.deferTools)
    out.push(`~ [mcp] defer_tools ${before.mcp.deferTools} → ${after.mcp.deferTools}${DEFER_SWITCH[after.mcp.deferTools]}`);
  for (const key of ["allow", "deny"] as const) {
    const line = entryChanges(key, before.permission[key], after.permission[key]);
    if (line) out.push(line);
  }
  if (!same(before.permission.narrow, after.permission.narrow)) out.push("~ [permission] allow of the project");
  // MCP servers are the MCP part's to tell (mcp/manager.ts): only it knows which ones run
  return out;
}

/**
 * What a `defer_tools` switch does (mcp/deferred.ts planTools): it applies from the next request, as
 * a cost-minded user who turns it on to pay less would have it, and says the one cache break it costs.
 */
const DEFER_SWITCH: Record<DeferMode, string> = {
  always: " (from the next request, MCP tools not called yet wait behind find_tools; the provider's prompt cache breaks once)",
  auto: " (from the next request, past 10 % of the context budget MCP tools not called yet wait behind find_tools; the provider's prompt cache breaks once then)",
  never: " (from the next request, every MCP tool's schema goes in every request)",
};

/** A permission list's entries shown in one line, at most this many; the rest counted. */
const SHOWN_ENTRIES = 4;

/**
 * `~ [permission] allow + "bash: make *", - "bash: rm *"`: the entries a list gained and lost,
 * briefly; an allow list that starts or ends says what that means. undefined: the same entries.
 */
export function entryChanges(key: "allow" | "deny", was: readonly string[], now: readonly string[]): string | undefined {
  // guard.ts's marker of an allow list emptied while its additions wait for approval is no entry: it is said in words
  const entriesOf = (list: readonly string[]) => list.filter((e) => e !== ALLOWS_NOTHING);
  const before = entriesOf(was);
  const after = entriesOf(now);
  const nothing = now.includes(ALLOWS_NOTHING) && !was.includes(ALLOWS_NOTHING);
  const added = after.filter((e) => !before.includes(e));
  const removed = before.filter((e) => !after.includes(e));
  if (added.length === 0 && removed.length === 0 && !nothing) return undefined;
  const shown = (sign: string, entries: readonly string[]) => {
    const listed = entries.slice(0, SHOWN_ENTRIES).map((e) => `${sign} ${JSON.stringify(e)}`);
    return entries.length > SHOWN_ENTRIES ? [...listed, `${sign} ${entries.length - SHOWN_ENTRIES} more`] : listed;
  };
  const entries = [...shown("+", added), ...shown("-", removed)].join(", ");
  if (key === "allow" && nothing) return `~ [permission] allow ${entries || "emptied"} (nothing runs until an entry is approved)`;
  if (key === "allow" && was.length === 0) return `~ [permission] allow ${entries} (a list now: only calls it matches run)`;
  if (key === "allow" && after.length === 0) return `~ [permission] allow ${entries} (no list now: any call runs unless denied)`;
  return `~ [permission] ${key} ${entries}`;
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

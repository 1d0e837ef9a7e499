// Other agents' settings beyond permission lists, in hey's words (README "Coming from another
// agent"): Claude Code's `defaultMode: "plan"`, its hooks and the `env` its settings set, and
// Codex's model providers and MCP servers. hey applies none of them — another agent's file never
// decides what hey runs or where it sends your code, and a setting edited for that agent would
// change hey behind the user's back — it says what is there and what to write instead. Pure: the
// caller reads and parses the files (peers/found.ts).
import { PRESETS } from "../config/presets.ts";
import { shownUrl } from "../config/server-approval.ts";
import { codexSetting } from "../permission/peer-rules.ts";

type Table = Record<string, unknown>;

const tableOf = (v: unknown): Table | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Table) : undefined);

/** A Claude Code settings file: its name as the user would write it, and its parsed JSON. */
export interface ClaudeSettings {
  label: string;
  data: unknown;
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items.at(-1)}` : (items[0] ?? ""));

/**
 * The settings files whose `permissions.defaultMode` is "plan": Claude Code starts there in plan
 * mode, hey does not (it would take another agent's file as its own, and a one-shot run could not
 * leave it) — the notice names hey's plan mode; undefined when none sets it.
 */
export function planNotice(files: readonly ClaudeSettings[]): string | undefined {
  const plan = files.filter((f) => tableOf(tableOf(f.data)?.permissions)?.defaultMode === "plan").map((f) => f.label);
  if (plan.length === 0) return undefined;
  return `warning: ${listed(plan)} ${plan.length > 1 ? "set" : "sets"} Claude Code's defaultMode "plan", which hey does not apply: hey starts able to change files. hey's plan mode is hey --plan (alias hey='hey --plan' starts in it every time); Shift+Tab or /plan turns it on and off at the prompt`;
}

/** The hook commands of one settings file by event (`PreToolUse`: 2); none when its `disableAllHooks` is true. */
function hookCounts(data: unknown): [string, number][] {
  const settings = tableOf(data);
  const hooks = tableOf(settings?.hooks);
  if (!hooks || settings?.disableAllHooks === true) return [];
  const out: [string, number][] = [];
  for (const [event, matchers] of Object.entries(hooks)) {
    if (!Array.isArray(matchers)) continue;
    const n = matchers.reduce((sum: number, m) => sum + (Array.isArray(tableOf(m)?.hooks) ? (tableOf(m)!.hooks as unknown[]).length : 0), 0);
    if (n > 0) out.push([event, n]);
  }
  return out;
}

/**
 * Claude Code's hooks in `files`, none of which hey runs: a PreToolUse guard the user relied on
 * (one that blocks `rm -rf`) would otherwise silently not be there. Undefined when there are none.
 */
export function hooksNotice(files: readonly ClaudeSettings[]): string | undefined {
  let total = 0;
  const parts: string[] = [];
  let guards = false;
  for (const f of files) {
    const counts = hookCounts(f.data);
    if (counts.length === 0) continue;
    total += counts.reduce((sum, [, n]) => sum + n, 0);
    guards ||= counts.some(([event]) => event === "PreToolUse");
    parts.push(`${counts.map(([event]) => event).join(", ")} in ${f.label}`);
  }
  if (total === 0) return undefined;
  const guard = guards ? "; what a PreToolUse hook refuses, refuse with [permission] deny entries" : "";
  return `warning: ${total} Claude Code hook${total > 1 ? "s" : ""} not run (${parts.join("; ")}): hey has no hooks${guard}`;
}

/** The variables hey reads itself (config/presets.ts): a key, an address or a model of a built-in provider. */
const HEY_VARS = new Set(PRESETS.flatMap((p) => [...p.keyVars, ...(p.urlVar ? [p.urlVar] : []), ...(p.modelVar ? [p.modelVar] : [])]));

/** A variable whose value is a secret: never shown. */
const isKey = (name: string) => /KEY|TOKEN|SECRET/i.test(name);

/**
 * A value of another agent's file as a notice shows it: a URL's password, a user name alone, each
 * credential-named query value (`?token=…`) and any credential shape (`sk-…`, `ghp_…`) as a short
 * hash, as an MCP server's approval shows them (config/server-approval.ts shownUrl). These lines
 * reach the screen, a terminal's scrollback and, under an agent, its model's context.
 */
const shown = (value: string) => shownUrl(value);

/** The comment that follows a line some of whose values are hidden: where the user finds them. */
const hiddenNote = (line: string, keys: boolean, file: string) => {
  const marks = [...(keys ? ["…"] : []), ...(line.includes("[secret #") ? ["[secret #…]"] : [])];
  return marks.length ? `  # ${marks.join(" and ")} ${marks.length > 1 ? "are the values" : "is the value"} in ${file}` : "";
};

/** `value` for a shell's `export`: as it is when plain, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** The variables of a settings file's `env` that hey reads and `env` does not already hold with that value. */
function unsetVars(data: unknown, env: Record<string, string | undefined>): string[] {
  const block = tableOf(tableOf(data)?.env) ?? {};
  return Object.keys(block).filter((k) => HEY_VARS.has(k) && typeof block[k] === "string" && block[k] !== "" && env[k] !== block[k]);
}

/**
 * The model servers other agents' files name that hey does not read, for the help after the
 * default Ollama did not answer: the user's Claude Code `env` (`claude`) and Codex's providers
 * (`codex`); undefined when they name none.
 */
export function elsewhereLine(
  claude: ClaudeSettings | undefined,
  codex: ClaudeSettings | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  const vars = claude ? unsetVars(claude.data, env) : [];
  const providers = codex ? codexProviders(codex.data).providers.map(([n]) => `[model_providers.${tomlKey(n)}]`) : [];
  const named = [
    ...(vars.length ? [`${claude!.label}'s env (${vars.join(", ")})`] : []),
    ...(providers.length ? [`${codex!.label}'s ${providers.join(", ")}`] : []),
  ];
  return named.length
    ? `or use the model server your other agents' files name, which hey does not read (hey doctor says what to write): ${named.join("; ")}`
    : undefined;
}

/**
 * The user's `~/.claude/settings.json` `env` (`file` its name): the variables in it that hey reads
 * (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_MODEL — how Claude Code is pointed at a
 * gateway) and hey's environment does not already hold, with the line that sets them; keys are
 * not shown. Undefined when there are none. A project's `env` is never offered: a cloned
 * repository's would send your key where it says.
 */
export function envNotice(file: ClaudeSettings, env: Record<string, string | undefined>): string | undefined {
  const block = tableOf(tableOf(file.data)?.env) ?? {};
  const names = unsetVars(file.data, env);
  if (names.length === 0) return undefined;
  const words = names.map((k) => `${k}=${isKey(k) ? "…" : shellWord(shown(block[k] as string))}`);
  const line = `  export ${words.join(" ")}`;
  return [
    `not used: ${file.label}'s "env" sets ${listed(names)} for Claude Code only; hey reads ${names.length > 1 ? "them" : "it"} from its environment: set ${names.length > 1 ? "them" : "it"} there (your shell's profile), as`,
    line + hiddenNote(line, names.some(isKey), file.label),
  ].join("\n");
}

/** A TOML key as written in a table header: bare when it can be. */
const tomlKey = (name: string) => (/^[\w-]+$/.test(name) ? name : JSON.stringify(name));

/** Codex's `[model_providers.NAME]` keys that hey's table says the same with. */
const PROVIDER_KEYS = new Set(["name", "base_url", "env_key", "wire_api", "env_http_headers", "env_key_instructions"]);

/**
 * Codex's `[model_providers.NAME]` as hey's `[provider.NAME]` lines: `wire_api` as `protocol`,
 * `env_key` as `api_key = "${VAR}"`, `env_http_headers` as headers from variables, `model` (the one
 * Codex uses it with) as its models. Keys hey has none for are named, their values not shown (an
 * `http_headers` value may be a key); a secret in the base_url is hidden (`shown`), with a comment
 * that names `file`, where it is.
 */
export function heyProviderTable(name: string, codex: unknown, file: string, model?: string): string[] {
  const t = tableOf(codex) ?? {};
  const str = (k: string) => (typeof t[k] === "string" ? (t[k] as string) : undefined);
  const wire = str("wire_api");
  const headers = Object.entries(tableOf(t.env_http_headers) ?? {}).filter((e): e is [string, string] => typeof e[1] === "string");
  const other = Object.keys(t).filter((k) => !PROVIDER_KEYS.has(k));
  return [
    `  [provider.${tomlKey(name)}]`,
    ...(wire === "responses" ? ['  protocol = "responses"'] : wire === "chat" ? ['  protocol = "openai"'] : []),
    ...(str("base_url") ? [shownLine(`  base_url = ${JSON.stringify(shown(str("base_url")!))}`, file)] : []),
    ...(str("env_key") ? [`  api_key = "\${${str("env_key")}}"`] : []),
    ...(model ? [shownLine(`  models = [${JSON.stringify(shown(model))}]`, file)] : []),
    ...(headers.length ? [`  headers = { ${headers.map(([h, v]) => `${JSON.stringify(h)} = "\${${v}}"`).join(", ")} }`] : []),
    ...(other.length ? [`  # not carried over: ${other.join(", ")}`] : []),
  ];
}

const shownLine = (line: string, file: string) => line + hiddenNote(line, false, file);

/** The model providers a Codex config (parsed) defines, and the one it uses with its model (a selected profile's win: codexSetting). */
function codexProviders(data: unknown): { providers: [string, unknown][]; chosen?: string; model?: string } {
  const providers = Object.entries(tableOf(tableOf(data)?.model_providers) ?? {}).filter(([, v]) => tableOf(v) !== undefined);
  return { providers, chosen: codexSetting(data, "model_provider")?.value, model: codexSetting(data, "model")?.value };
}

/**
 * Codex's `[model_providers.NAME]` tables in the user's config.toml (`file` its name; `where`: hey's
 * config file) as hey's `[provider.NAME]` tables to paste, with `[default] provider` when Codex uses
 * one of them; undefined when it defines none.
 */
export function codexProviderNotice(file: string, data: unknown, where: string): string | undefined {
  const { providers, chosen, model } = codexProviders(data);
  if (providers.length === 0) return undefined;
  const names = providers.map(([n]) => n);
  const used = chosen !== undefined && names.includes(chosen);
  return [
    `not used: ${file}'s model provider${names.length > 1 ? "s" : ""} (${names.join(", ")}${used ? `, Codex's model_provider` : ""}): hey reads [provider.NAME] tables, not Codex's [model_providers]; as hey's, in ${where}:`,
    ...(used ? ["  [default]", `  provider = ${JSON.stringify(chosen)}`] : []),
    ...providers.flatMap(([name, t]) => heyProviderTable(name, t, file, name === chosen ? model : undefined)),
  ].join("\n");
}

/**
 * What follows "unknown provider NAME" when NAME is a `[model_providers.NAME]` of the user's Codex
 * config (`file`), with hey's table to write in `where`; undefined when it is not one.
 */
export function codexProviderHint(name: string, file: string, data: unknown, where: string): string | undefined {
  const { providers, chosen, model } = codexProviders(data);
  const found = providers.find(([n]) => n === name);
  if (!found) return undefined;
  const table = heyProviderTable(name, found[1], file, name === chosen ? model : undefined);
  return `; ${file} defines it as Codex's [model_providers.${tomlKey(name)}], which hey does not read: write it as hey's in ${where}:\n${table.join("\n")}`;
}

/**
 * Codex's `[mcp_servers.NAME]` in the user's config.toml (`file` its name), which hey does not
 * start: hey reads that very table in its own config (`where`), so copying it is all it takes. Its
 * values are not shown (a server's `env` holds keys). Undefined when there are none enabled.
 */
export function codexMcpNotice(file: string, data: unknown, where: string): string | undefined {
  const servers = Object.entries(tableOf(tableOf(data)?.mcp_servers) ?? {})
    .filter(([, v]) => tableOf(v) !== undefined && tableOf(v)!.enabled !== false)
    .map(([n]) => n);
  if (servers.length === 0) return undefined;
  const them = servers.length > 1 ? "those tables" : "that table";
  return `not started: ${file}'s MCP server${servers.length > 1 ? "s" : ""} (${servers.join(", ")}): hey reads Codex's [mcp_servers.NAME] tables as they are in its own config; copy ${them} into ${where}`;
}

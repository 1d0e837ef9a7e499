// Claude Code's permission rules (`permissions.deny/ask/allow` in a `.claude/settings.json`) and
// Codex's approval settings (`approval_policy`, `sandbox_mode` in `~/.codex/config.toml`) in hey's
// words. hey never applies another agent's file — a cloned repository's would then decide what hey
// may run — it says what is there and the `[permission]` entries that come closest. Both agents ask
// before running what their settings leave out; hey never asks, so without a list it runs every
// call: a rule to ask becomes one to refuse, and Claude's allow list becomes hey's (fail-closed,
// so what it leaves out is refused instead of asked about). Pure: the caller reads the file.
import { bashEntry, heyToolName, readEntry } from "./entries.ts";

/** The rules of one settings file, as written there. */
export interface PeerRules {
  deny: string[];
  ask: string[];
  allow: string[];
}

/** `permissions` of a parsed settings file; lists that are not arrays of strings count as empty. */
export function claudeRules(data: unknown): PeerRules {
  const p = (data as { permissions?: unknown } | null)?.permissions;
  const list = (key: string): string[] => {
    const v = typeof p === "object" && p !== null ? (p as Record<string, unknown>)[key] : undefined;
    return Array.isArray(v) ? v.filter((e): e is string => typeof e === "string" && e.trim() !== "") : [];
  };
  return { deny: list("deny"), ask: list("ask"), allow: list("allow") };
}

/**
 * The hey tools a Claude tool's rule stands for, in an allow and a deny list: its `Edit` covers
 * every tool that edits files (hey's edit and write_file), its `Read` every tool that reads them:
 * read_file, and grep, which hands the model the lines it finds. A file Claude may not read it
 * cannot edit either (its Edit needs a Read first), and hey's edit shows lines of the file it
 * edits (the diff, where old_string nearly matched), so a Read deny refuses edit too; a Read
 * allow never allows an edit.
 */
const PATH_RULE_TOOLS: Record<string, { allow: string[]; deny: string[] }> = {
  edit: { allow: ["edit", "write_file"], deny: ["edit", "write_file"] },
  read: { allow: ["read_file", "grep"], deny: ["read_file", "grep", "edit"] },
};

/**
 * One of Claude's rules as hey's entries for `list`, or why hey has none (a phrase: `WebFetch` "names
 * a tool hey does not have"). Its paths become hey's path entries (heyGlob), anchored at `root`
 * when the rule is a project's.
 */
function heyEntry(rule: string, list: "allow" | "deny", root?: string): { entries: string[] } | { none: string } {
  const r = rule.trim();
  const call = /^([A-Za-z_][\w-]*)\s*(?:\((.*)\))?$/s.exec(r);
  if (/^mcp__/i.test(r)) return { entries: [r.toLowerCase()] };
  if (!call) return { none: "is no rule hey can read" };
  const tool = heyToolName(call[1]!);
  const arg = call[2]?.trim();
  if (!tool) return { none: "names a tool hey does not have" };
  const tools = PATH_RULE_TOOLS[call[1]!.toLowerCase()]?.[list] ?? [tool];
  if (arg === undefined || arg === "" || arg === "*") return { entries: tools };
  if (tool !== "bash") {
    const glob = heyGlob(arg, root);
    if ("none" in glob) return glob;
    const entries = tools.map((t) => `${t}: ${glob.glob}`);
    const bad = entries.map((e) => readEntry(e, list)).find((r) => "error" in r);
    return bad && "error" in bad ? { none: `as "${entries[0]}" ${bad.error}` } : { entries };
  }
  const entry = bashEntry(arg, list);
  const read = readEntry(entry, list);
  return "error" in read ? { none: `as "${entry}" ${read.error}` } : { entries: [entry] };
}

/**
 * A path of Claude's Read/Edit rules (gitignore's syntax, README "Coming from another agent") as
 * hey's pattern: `//abs` is `/abs`, `~/x` stays, a name without a `/` matches in every directory
 * below (hey's `**` and a `/` before it). A project's rule (`root`: its folder) is anchored there,
 * as Claude Code anchors it, so it holds wherever in the project hey starts: `.env` matches in
 * every directory of the project, `./x`, `x/y` and `/x` are under ROOT. `root` "" gives the same
 * patterns relative, for the project's own `.hey/config.toml`, which anchors them at the project
 * itself (and so holds in a teammate's checkout too). The user's rules stay relative to where hey
 * runs, as Claude Code reads them; their `/x`, relative to the settings file's directory, has none.
 */
function heyGlob(path: string, root?: string): { glob: string } | { none: string } {
  if (path.startsWith("//")) return { glob: path.slice(1) };
  if (path.startsWith("~/")) return { glob: path };
  const under = !root ? (rest: string) => rest : (rest: string) => `${root.replace(/[\\/]+$/, "")}/${rest}`;
  if (path.startsWith("/")) {
    if (root === undefined) return { none: "is relative to the settings file's directory, hey's patterns to where it runs: give the full path" };
    return { glob: under(path.slice(1)) };
  }
  if (path.startsWith("./")) return { glob: under(root === undefined ? path : path.slice(2)) };
  if (path.replace(/\/$/, "").includes("/")) return { glob: under(path) };
  return { glob: under(`**/${path}`) };
}

/** One of Claude's deny or ask rules as hey's deny entries (heyEntry); `root`: the project's folder, for a project's rule. */
export const heyDenyEntry = (rule: string, root?: string) => heyEntry(rule, "deny", root);

/** Claude Code never asks before reading or searching files, nor would about hey's compress (it only shortens the context): hey's allow list names them too. */
const READERS = ["read_file", "grep", "compress"];

/**
 * The entries hey would need for `rules`: deny for the deny and ask lists (hey never asks: a rule
 * to ask becomes one to refuse), allow for the allow list with the readers (none without one), and
 * the rules it has no entry for.
 */
function heyLists(rules: PeerRules, root?: string): { deny: string[]; allow: string[]; none: string[] } {
  const deny: string[] = [];
  const allow: string[] = [];
  const none: string[] = [];
  const add = (rule: string, list: "allow" | "deny", into: string[]) => {
    const h = heyEntry(rule, list, root);
    if ("entries" in h) {
      for (const entry of h.entries) if (!into.includes(entry)) into.push(entry);
    } else none.push(`${rule} (${h.none})`);
  };
  for (const rule of [...rules.deny, ...rules.ask]) add(rule, "deny", deny);
  for (const rule of rules.allow) add(rule, "allow", allow);
  if (allow.length > 0) allow.push(...READERS.filter((t) => !allow.includes(t)));
  return { deny, allow, none };
}

/** What the entries to paste do, by the lists there are. */
function pasteIntro(deny: boolean, allow: boolean): string {
  if (!allow) return "To refuse the same";
  return `To run only what they allow (hey cannot ask: what the list leaves out is refused)${deny ? " and refuse the same" : ""}`;
}

/**
 * What hey says of settings files with rules (`files` as the user would name them, whose rules are
 * `rules` together: one [permission] table to paste; `where`: the config file to write them in),
 * or undefined when they have none. For a project's (`project`), `where` is its `.hey/config.toml`,
 * given the rules' paths relative (that file anchors them at the project); the user's config
 * (`project.user`), where they must name the project's folder (`project.root`), is offered those
 * anchored when they differ.
 */
export function peerRulesNotice(
  files: readonly string[],
  rules: PeerRules,
  where: string,
  project?: { root: string; user: string },
  listed = false,
): string | undefined {
  const counts = [
    rules.deny.length && `${rules.deny.length} deny`,
    rules.ask.length && `${rules.ask.length} ask`,
    rules.allow.length && `${rules.allow.length} allow`,
  ]
    .filter(Boolean)
    .join(", ");
  if (!counts) return undefined;
  const file = files.length > 1 ? `${files.slice(0, -1).join(", ")} and ${files.at(-1)} have` : `${files[0]} has`;
  const { deny, allow, none } = heyLists(rules, project && "");
  const lines = [
    `warning: ${file} Claude Code permission rules (${counts}) that hey does not apply: ${listed ? OWN_LIST : "with no [permission] list of its own hey runs every tool call without asking."}`,
  ];
  const table = tableLines(deny, allow);
  const anchored = project ? heyLists(rules, project.root) : undefined;
  const theirs = anchored ? tableLines(anchored.deny, anchored.allow) : table;
  const same = theirs.join("\n") === table.join("\n");
  const into = project && same ? `${where} or ${project.user}` : where;
  if (table.length) lines.push(`  ${pasteIntro(deny.length > 0, allow.length > 0)}, write in ${into}:`, "  [permission]", ...table);
  if (project && table.length && !same)
    lines.push(`  Or for you alone, in ${project.user} (its paths named under the project's folder):`, "  [permission]", ...theirs);
  if (none.length) lines.push(`  No hey entry for: ${none.join("; ")}`);
  return lines.join("\n");
}

/** What the notices say when the user has a `[permission]` list of hey's own (`hey doctor` shows them then too, below that list). */
const OWN_LIST = "hey applies its own [permission] list alone (the one shown), not these.";

const tableLines = (deny: string[], allow: string[]) =>
  [deny.length && `  deny = ${entryList(deny)}`, allow.length && `  allow = ${entryList(allow)}`].filter((l) => typeof l === "string");

const entryList = (entries: readonly string[]) => `[${entries.map((e) => JSON.stringify(e)).join(", ")}]`;

/** Codex's settings that decide when it asks: `approval_policy` and `sandbox_mode`, as written. */
export interface CodexSettings {
  approval?: string;
  sandbox?: string;
  /** the profile (`profile = "NAME"`) whose `[profiles.NAME]` table set one of them */
  profile?: string;
}

const tableOf = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * Codex's string setting `key` as Codex runs with it, from its config.toml parsed (as a TOML
 * parser reads it: dotted keys, inline tables and multi-line strings too): the profile its top-level
 * `profile = "NAME"` selects (`[profiles.NAME]`) wins where it sets the key (`profile` then names
 * it), else the top level's; other tables' keys are not settings. Undefined when neither sets it.
 */
export function codexSetting(data: unknown, key: string): { value: string; profile?: string } | undefined {
  const top = tableOf(data);
  const name = typeof top.profile === "string" ? top.profile : undefined;
  const own = name === undefined ? undefined : tableOf(tableOf(top.profiles)[name])[key];
  if (typeof own === "string") return { value: own, profile: name };
  return typeof top[key] === "string" ? { value: top[key] as string } : undefined;
}

/** The `approval_policy` and `sandbox_mode` Codex runs with by its config.toml parsed (codexSetting). */
export function codexSettings(data: unknown): CodexSettings {
  const approval = codexSetting(data, "approval_policy");
  const sandbox = codexSetting(data, "sandbox_mode");
  const profile = approval?.profile ?? sandbox?.profile;
  return {
    ...(approval ? { approval: approval.value } : {}),
    ...(sandbox ? { sandbox: sandbox.value } : {}),
    ...(profile !== undefined ? { profile } : {}),
  };
}

const CODEX_ASKS = ["untrusted", "on-request", "on-failure"];
const CODEX_CONFINES = ["read-only", "workspace-write"];
/**
 * Codex's read-only sandbox, or what it runs unasked under `untrusted`: hey's tools that read (and
 * find_tools, which only loads tools) and commands that only read whatever their options, so an
 * allow list of them changes nothing. Plan mode (plan-mode.ts) starts from it.
 */
export const READING = [
  ...READERS,
  ...["ls", "cat", "head", "tail", "wc", "git status", "git diff", "git log", "git show"].map((c) => `bash: ${c}`),
  "find_tools",
];
/** Codex's workspace sandbox keeps the network out: hey has no sandbox, its closest is refusing the commands that reach it. */
const NETWORK = ["bash: git push *", "bash: curl *", "bash: wget *", "bash: ssh *"];

/**
 * What hey says of a Codex config (`file` as the user would name it; `where`: hey's config file)
 * whose settings ask before running or confine what runs, or undefined when they do neither.
 */
export function codexNotice(file: string, settings: CodexSettings, where: string, listed = false): string | undefined {
  const { approval, sandbox } = settings;
  const said = [
    approval && CODEX_ASKS.includes(approval) && `approval_policy = "${approval}"`,
    sandbox && CODEX_CONFINES.includes(sandbox) && `sandbox_mode = "${sandbox}"`,
  ].filter((s) => typeof s === "string");
  if (said.length === 0) return undefined;
  const reads = sandbox === "read-only" || approval === "untrusted";
  const profile = settings.profile === undefined ? "" : ` (its profile "${settings.profile}")`;
  return [
    `warning: ${file} has Codex's ${said.join(" and ")}${profile}, which hey does not apply: hey never asks, and ${listed ? OWN_LIST : "with no [permission] list of its own it runs every tool call."}`,
    reads ? `  Closest, reading only, in ${where}:` : `  Closest (hey has no sandbox: refuse what reaches the network), in ${where}:`,
    "  [permission]",
    reads ? `  allow = ${entryList(READING)}` : `  deny = ${entryList(NETWORK)}`,
    ...(sandbox === "read-only" ? ["  Or for one run: hey --plan (it reads and searches, and changes nothing; Shift+Tab turns it off at the prompt)"] : []),
  ].join("\n");
}

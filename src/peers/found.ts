// Other agents' files that hey finds and does not use (README "Coming from another agent"): Claude
// Code's permission rules, instruction files hey does not read, Claude Code's command files. hey
// never takes them as its own configuration — a cloned repository's would then decide what hey
// may run — it says what is there and what to write instead: at start-up once (peers/said.ts) and
// in `hey doctor` every time. What hey does read of theirs (their skills folders, CLAUDE.md,
// `.claude/CLAUDE.md`, the user's `~/.claude/CLAUDE.md`) is not said. The user's folders of theirs
// are where those agents keep them (fs/places.ts PeerDirs: `$CLAUDE_CONFIG_DIR`, `$CODEX_HOME`).
import { existsSync, readdirSync } from "node:fs";
import { lookAt, realPathAt, rootProbe } from "../fs/root-probe.ts";
import { basename, dirname, join, relative, resolve } from "node:path";
import { readHead, readHeadText } from "../fs/read-head.ts";
import { redactShapes } from "../config/secret-shapes.ts";
import { importRefs } from "../prompt/imports.ts";
import { AGENTS_MD_MAX_BYTES } from "../prompt/system.ts";
import type { ProviderSettings } from "../config/settings.ts";
import { setupHint, type Failure } from "../ui/setup-help.ts";
import { agentsPlaces, PROJECT_NAMES, readAgentsFiles, userPeerFiles } from "../prompt/agents-md.ts";
import { loadSkills, skillFolders } from "../skills/load.ts";
import { capInstructions, instructionsMaxBytes } from "../prompt/instruction-cap.ts";
import { skillsListCut } from "../prompt/skill-listing.ts";
import { promptSkills, shownPath } from "../prompt/source.ts";
import { claudeRules, codexNotice, codexSettings, peerRulesNotice, type PeerRules } from "../permission/peer-rules.ts";
import { shortPath } from "../ui/intro.ts";
import { PEER_VARS, type Places } from "../fs/places.ts";
import {
  codexMcpNotice,
  codexProviderHint,
  codexProviderNotice,
  elsewhereLine,
  envNotice,
  hooksNotice,
  planNotice,
  type ClaudeSettings,
} from "./unused-settings.ts";

/** A settings file is a few KB; one bigger is not read for this. */
const SETTINGS_MAX_BYTES = 1024 * 1024;

export interface PeerPlaces extends Pick<Places, "claudeDir" | "codexDir" | "peerRelative"> {
  home: string;
  cwd: string;
  root: string;
  /** ~/.config/hey: the user's AGENTS.md and config.toml */
  configDir: string;
}

/**
 * One line (or block) per file of another agent's that hey does not use, with why and what to do;
 * first, one per CLAUDE_CONFIG_DIR or CODEX_HOME that is no full path, which hey does not follow.
 * `listed`: hey has a `[permission]` list of its own — the user has written hey's rules, so
 * another agent's are not brought up, unless `always` (`hey doctor`: it shows them, saying hey applies its own list).
 */
export function peerNotices(at: PeerPlaces, listed: boolean, env: Record<string, string | undefined> = {}, always = false): string[] {
  const out = at.peerRelative.map(({ name, value }) => {
    const [agent, dir] = PEER_VARS[name];
    const why = value.startsWith("~") ? "a shell expands ~ only when it is not quoted" : "relative, it names another folder in each directory";
    return `${name}=${value} is not a full path (${why}): hey reads your ${agent} files in ${label(at[dir], at)}/ instead; set ${name} to one`;
  });
  const claude = claudeSettings(at);
  const codex = codexConfig(at); // read once: the permission notice and the settings notices both look at it
  if (!listed || always) out.push(...permissionNotices(at, claude, codex, listed));
  out.push(...settingsNotices(at, claude, codex, env));
  out.push(...instructionNotices(at));
  for (const place of commandDirs(at)) {
    const names = commandNames(place.dir);
    if (names.length > 0)
      out.push(
        `not used: ${place.agent}'s ${place.what}s in ${label(place.dir, at)}/ (${names.join(", ")}): hey runs skills — copy one to ${skillsFolder(place, at)}/NAME.md with name and description front matter, then /skill:NAME runs it`,
      );
  }
  return out;
}

/**
 * The project's lines a run says once until they change (run.ts, peers/said.ts) and `hey doctor`
 * every time: the imports its CLAUDE.md files leave out, the skills that replace others by name,
 * and — given `[agent] budget_tokens` — instruction files or skills' descriptions over what they
 * may take of each request (prompt/instruction-cap.ts). `trusted`: the project's skills load and
 * its imports from outside it are followed; `redact`: a skill's description as the prompt shows it.
 */
export function projectNotes(at: PeerPlaces, trusted: boolean, budgetTokens?: number, redact = (text: string) => text): string[] {
  const agents = readAgentsFiles(agentsPlaces(at.cwd, at.configDir, at), { outside: { home: at.home, trusted } });
  const skills = loadSkills(skillFolders({ ...at, project: trusted }));
  const sizes =
    budgetTokens === undefined
      ? []
      : [
          capInstructions(agents.files, instructionsMaxBytes(budgetTokens), (p) => shownPath(p, at.cwd, at.home)).leftOut?.warning,
          skillsListCut(promptSkills(skills.skills, { ...at, redact })),
        ];
  return [...agents.imports, ...skills.problems.filter((p) => p.level === "note").map((p) => p.message), ...sizes.filter((l) => l !== undefined)];
}

/**
 * Claude Code's settings files with rules: one notice for the files whose entries go in the same
 * place (the project's two: one [permission] table to paste); then the user's Codex config when it
 * asks before running (permission/peer-rules.ts).
 */
function permissionNotices(at: PeerPlaces, files: readonly ClaudeFile[], codexFile: CodexFile | undefined, listed: boolean): string[] {
  const places = new Map<string, { files: string[]; rules: PeerRules; project?: { root: string; user: string } }>();
  const user = userConfigShown(at);
  for (const f of files) {
    const rules = claudeRules(f.data);
    if (rules.deny.length === 0 && rules.ask.length === 0 && rules.allow.length === 0) continue;
    const place = places.get(f.where) ?? { files: [], rules: { deny: [], ask: [], allow: [] }, ...(f.root ? { project: { root: f.root, user } } : {}) };
    place.files.push(f.label);
    place.rules = { deny: [...place.rules.deny, ...rules.deny], ask: [...place.rules.ask, ...rules.ask], allow: [...place.rules.allow, ...rules.allow] };
    places.set(f.where, place);
  }
  // a rule may spell out a key (`Bash(curl -H "Authorization: Bearer sk-…" …)`): shown hidden, as every value of theirs is
  const hidden = (files: string[], text: string) =>
    redactShapes(text) === text ? text : `${redactShapes(text)}\n  [secret: …] stands for a value written in ${files.join(" and ")}`;
  const claude = [...places].flatMap(([where, p]) => hidden(p.files, peerRulesNotice(p.files, p.rules, where, p.project, listed) ?? "") || []);
  const codex = codexFile && codexNotice(codexFile.label, codexSettings(codexFile.data), user, listed);
  return codex ? [...claude, codex] : claude;
}

/** A Claude Code settings file that parsed, and the config file hey's entries for it go in. */
interface ClaudeFile extends ClaudeSettings {
  where: string;
  /** the user's own (`~/.claude/settings.json`), not a project's */
  user: boolean;
  /** a project's: the folder its rules' paths are anchored at (Claude Code anchors a project's rules there) */
  root?: string;
}

/**
 * Claude Code's settings files that are there and parse: the project's two, then the user's. Started
 * in the home directory, its `.claude` is the user's: its files are the user's alone, their rules
 * relative to where hey runs (a home holds no project's `.hey/config.toml`).
 */
function claudeSettings(at: PeerPlaces): ClaudeFile[] {
  const user = userConfigShown(at);
  const project = ".hey/config.toml (loaded once the project is trusted)";
  const home = join(at.root, ".claude") === at.claudeDir;
  const files = [
    ...(home ? [] : [{ path: join(at.root, ".claude", "settings.json"), where: project, root: at.root }]),
    { path: join(at.root, ".claude", "settings.local.json"), where: home ? user : project, ...(home ? {} : { root: at.root }) },
    { path: join(at.claudeDir, "settings.json"), where: user },
  ];
  const out: ClaudeFile[] = [];
  for (const f of files) {
    try {
      out.push({
        label: label(f.path, at),
        data: JSON.parse(readHead(f.path, SETTINGS_MAX_BYTES).text),
        where: f.where,
        user: f.path === join(at.claudeDir, "settings.json"),
        ...(f.root ? { root: f.root } : {}),
      });
    } catch {
      // none, unreadable or not JSON: nothing hey could point at
    }
  }
  return out;
}

/**
 * Other agents' settings that no [permission] list of hey's stands for (peers/unused-settings.ts):
 * Claude Code's plan mode by default and hooks, the `env` of the user's settings, and the model
 * providers and MCP servers of the user's Codex config.
 */
function settingsNotices(at: PeerPlaces, claude: readonly ClaudeFile[], codex: CodexFile | undefined, env: Record<string, string | undefined>): string[] {
  const user = claude.find((f) => f.user);
  const where = userConfigShown(at);
  const notices = [
    planNotice(claude),
    hooksNotice(claude),
    user && envNotice(user, env),
    codex && codexProviderNotice(codex.label, codex.data, where),
    codex && codexMcpNotice(codex.label, codex.data, where),
  ];
  return notices.filter((n): n is string => typeof n === "string");
}

/** The user's Codex `config.toml`, parsed, and how it is named. */
interface CodexFile {
  label: string;
  data: unknown;
}

/** The user's hey config file as notices name it (`~/.config/hey/config.toml`). */
const userConfigShown = (at: Pick<PeerPlaces, "configDir" | "home">) => shortPath(join(at.configDir, "config.toml"), at.home);

/** The user's Codex config.toml, parsed; undefined when there is none, or it cannot be read or parsed. */
function codexConfig(at: Pick<PeerPlaces, "codexDir" | "home" | "cwd">): CodexFile | undefined {
  const file = join(at.codexDir, "config.toml");
  try {
    return { label: label(file, at), data: Bun.TOML.parse(readHead(file, SETTINGS_MAX_BYTES).text.replace(/^\uFEFF/, "")) };
  } catch {
    return undefined;
  }
}

/**
 * Where the help after a failed request points (ui/setup-help.ts setupHint): hey's user config
 * file, and the model servers the user's Claude Code `env` and Codex config name, which hey does not read;
 * whether the approvals record exists (read at the failure: a provider added now waits for a yes only then).
 */
export function setupPlaces(at: PeerPlaces & { userConfig: string; approvalsFile: string }, env: Record<string, string | undefined>) {
  const user = claudeSettings(at).find((f) => f.user);
  const recorded = existsSync(at.approvalsFile);
  return { userFile: at.userConfig, home: at.home, env, elsewhere: elsewhereLine(user, codexConfig(at), env), recorded };
}

/** The help for a failed request of a run whose provider and model `now` gives (setupHint, with setupPlaces read at the failure). */
export function failureHelp(
  at: PeerPlaces & { userConfig: string; approvalsFile: string },
  env: Record<string, string | undefined>,
  now: () => { provider: ProviderSettings; model: string },
) {
  return (e: Failure) => setupHint(now().provider, now().model, e, setupPlaces(at, env));
}

/**
 * What follows "unknown provider NAME" when the user's Codex config defines NAME among its
 * `[model_providers]`: that file, and hey's table to write; "" when it does not.
 */
export function peerProviderHint(at: Pick<PeerPlaces, "codexDir" | "home" | "cwd" | "configDir">, name: string): string {
  const codex = codexConfig(at);
  return (codex && codexProviderHint(name, codex.label, codex.data, userConfigShown(at))) ?? "";
}

/**
 * Instruction files of other agents hey leaves out: the user's second one (hey reads one file of
 * the user's rules), `CLAUDE.local.md` files, and the instructions of directories above where hey
 * runs when there is no git repository (hey reads those from the git root down).
 */
function instructionNotices(at: PeerPlaces): string[] {
  const out: string[] = [];
  const own = join(at.configDir, "AGENTS.md");
  const peers = userPeerFiles(at).filter(isFile);
  const read = isFile(own) ? own : peers[0];
  // the advice names hey's own file: copied into another agent's, the rules would change that agent too
  const into = read === own ? "copy what hey should follow there" : `copy what hey should follow of both into ${label(own, at)}, which hey then reads instead`;
  for (const file of peers.filter((f) => f !== read))
    out.push(`not read: ${label(file, at)} (another agent's; hey reads one file of your rules, ${label(read!, at)}): ${into}`);
  const places = agentsPlaces(at.cwd, at.configDir).slice(1);
  for (const place of places) {
    const [read, ...passed] = PROJECT_NAMES.map((n) => join(place.dir, n)).filter(isFile);
    for (const file of passed) if (!onlyImports(file, read!)) out.push(passedOver(file, read!, (path) => label(path, at)));
    const local = join(place.dir, "CLAUDE.local.md");
    if (isFile(local))
      out.push(
        `not read: ${label(local, at)} (Claude Code's personal file; hey reads AGENTS.md, else CLAUDE.md): put its rules in one of those or in ${label(own, at)}`,
      );
  }
  const top = places[0]?.dir;
  if (top !== undefined && !rootProbe.exists(join(top, ".git"))) {
    // no repository: hey reads the working directory's file alone; Claude Code reads every directory's above it
    for (let dir = dirname(top); dir !== at.home && dirname(dir) !== dir; dir = dirname(dir)) {
      const file = PROJECT_NAMES.map((n) => join(dir, n)).find(isFile);
      if (file)
        out.push(
          `not read: ${label(file, at)} (above where hey runs, and there is no git repository: hey reads instructions from the git root down to here): start hey in ${shortPath(dir, at.home)}, or git init there`,
        );
    }
  }
  return out;
}

/**
 * A directory's second file of instructions (its CLAUDE.md beside an AGENTS.md, its
 * `.claude/CLAUDE.md` beside either), which hey does not read, and its imports with it (not one of
 * `read` itself): said as the user's second file is, with how to keep both agents reading the
 * same. Claude Code reads a CLAUDE.md and a `.claude/CLAUDE.md` alike, so when hey reads one of
 * those, moving the rules there is all it takes; an AGENTS.md, which Claude Code does not read, is
 * brought in with an import written from the file's own folder (`@../AGENTS.md` in `.claude/`).
 */
function passedOver(file: string, read: string, shown: (path: string) => string): string {
  const refs = importRefs(readHeadText(file, AGENTS_MD_MAX_BYTES).text).filter((r) => resolve(dirname(file), r.path) !== read);
  const imports = refs.length > 0 ? ", nor its @imports" : "";
  const claudeReads = basename(read) === "CLAUDE.md";
  const keep = claudeReads ? `, which Claude Code reads too` : `, and make ${shown(file)} "@${relative(dirname(file), read)}" so Claude Code reads the same`;
  return `not read: ${shown(file)}${imports} (hey reads one file a directory, ${shown(read)}, first): move what hey should follow into ${shown(read)}${keep}`;
}

/**
 * Whether `file` (a CLAUDE.md) only brings in `read` (the AGENTS.md beside it): the same file, the
 * same text, or nothing but an import of it (`@AGENTS.md`) with headings and comments around.
 */
function onlyImports(file: string, read: string): boolean {
  try {
    if (realPathAt(file) === realPathAt(read)) return true;
    const text = readHeadText(file, AGENTS_MD_MAX_BYTES).text.replace(/^\uFEFF/, "");
    if (
      text.trim() ===
      readHeadText(read, AGENTS_MD_MAX_BYTES)
        .text.replace(/^\uFEFF/, "")
        .trim()
    )
      return true;
    const imports = importRefs(text);
    if (imports.length === 0 || !imports.every((r) => resolve(dirname(file), r.path) === read)) return false;
    const rest = text
      .replace(/<!--[\s\S]*?-->/g, "")
      .split("\n")
      .filter((l) => !/^\s*(#.*)?$/.test(l))
      .join("\n")
      .replace(/(^|\s)@\S+/g, "$1");
    return rest.trim() === "";
  } catch {
    return false; // unreadable: the reading of the prompt says so
  }
}

/**
 * A folder of another agent's commands, which the user runs as `/NAME` (Claude Code's, with
 * `/project:NAME` or `/user:NAME` in its older spelling) or as `/prompts:NAME` (Codex's).
 */
interface CommandDir {
  agent: "Claude Code" | "Codex";
  what: "command" | "prompt";
  dir: string;
  /** the user's own, in every project: its skill goes in the user's skills folder, not one project's */
  user: boolean;
  /** the word before `:` that names this folder alone */
  prefix: string;
}

type CommandPlaces = Pick<PeerPlaces, "home" | "root" | "cwd" | "claudeDir" | "codexDir" | "configDir">;

/** The folders of other agents' commands, the project's first; in the home directory its `.claude` is the user's, once. */
function commandDirs(at: CommandPlaces): CommandDir[] {
  const project = join(at.root, ".claude", "commands");
  const user = join(at.claudeDir, "commands");
  return [
    ...(user === project ? [] : [{ agent: "Claude Code", what: "command", dir: project, user: false, prefix: "project" } as const]),
    { agent: "Claude Code", what: "command", dir: user, user: true, prefix: "user" } as const,
    { agent: "Codex", what: "prompt", dir: join(at.codexDir, "prompts"), user: true, prefix: "prompts" } as const,
  ];
}

/** The names of the `NAME.md` files in `dir`, sorted; none when it cannot be read. */
function commandNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .sort()
      .filter((name) => name.endsWith(".md") && isFile(join(dir, name)))
      .map((name) => basename(name, ".md"));
  } catch {
    return [];
  }
}

/** Where a skill made of a command goes: the project's `.hey/skills`, or for the user's own command the user's skills folder. */
const skillsFolder = (place: CommandDir, at: CommandPlaces) => (place.user ? shortPath(join(at.configDir, "skills"), at.home) : ".hey/skills");

/**
 * What hey says of `/WORD` when it names another agent's command file — `fix-issue` (Claude Code's,
 * the project's before the user's), `project:fix-issue`, `user:changelog`, `prompts:prdesc` (Codex's)
 * — with the file and the skill it would be; undefined when it names none.
 */
export function peerCommandFile(at: CommandPlaces, word: string): string | undefined {
  const colon = word.indexOf(":");
  const prefix = colon < 0 ? undefined : word.slice(0, colon).toLowerCase();
  const name = word.slice(colon + 1);
  for (const place of commandDirs(at)) {
    if (prefix === undefined ? place.agent !== "Claude Code" : place.prefix !== prefix) continue;
    const file = join(place.dir, `${name}.md`);
    if (!isFile(file)) continue;
    // Codex fills $1… with the words after the command; a skill's are $ARGUMENTS[0]… (skills/catalog.ts)
    const numbered = place.agent === "Codex" ? "; its $1, $2… are $ARGUMENTS[0], $ARGUMENTS[1]… in a skill" : "";
    return `/${word} is ${place.agent}'s ${place.what} in ${label(file, at)}, which hey does not run; as a skill it would be: copy it to ${skillsFolder(place, at)}/${name}.md, with name and description front matter, then /skill:${name}${numbered}`;
  }
  return undefined;
}

/** `path` as the user would write it: relative to where hey runs when below it, else with `~`. */
function label(path: string, at: Pick<PeerPlaces, "home" | "cwd">): string {
  const rel = relative(at.cwd, path);
  return rel && !rel.startsWith("..") && !rel.startsWith("/") ? rel : shortPath(path, at.home);
}

// looked at once while hey starts: the prompt's reads ask the same places (fs/root-probe.ts)
function isFile(path: string): boolean {
  try {
    return lookAt(path).isFile();
  } catch {
    return false;
  }
}

/** Whether hey has `[permission]` lists of its own (the user's, or a trusted project's). */
export function hasLists(p: { allow: readonly string[]; deny: readonly string[]; narrow: readonly unknown[] }): boolean {
  return p.allow.length > 0 || p.deny.length > 0 || p.narrow.length > 0;
}

/** The project's skill file named `name` in a skills folder (`.claude/skills/deploy/SKILL.md`), as the user would name it; undefined when none. */
export function projectSkillFile(root: string, name: string): string | undefined {
  for (const dir of [".hey", ".agents", ".claude"])
    for (const file of [join(dir, "skills", name, "SKILL.md"), join(dir, "skills", `${name}.md`)]) if (isFile(join(root, file))) return file;
  return undefined;
}

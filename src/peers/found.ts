// Other agents' files that hey finds and does not use (README "Coming from another agent"): Claude
// Code's permission rules, instruction files hey does not read, Claude Code's command files. hey
// never takes them as its own configuration — a cloned repository's would then decide what hey
// may run — it says what is there and what to write instead: at start-up once (peers/said.ts) and
// in `hey doctor` every time. What hey does read of theirs (their skills folders, CLAUDE.md,
// `.claude/CLAUDE.md`, the user's `~/.claude/CLAUDE.md`) is not said. The user's folders of theirs
// are where those agents keep them (fs/places.ts PeerDirs: `$CLAUDE_CONFIG_DIR`, `$CODEX_HOME`).
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { readHead } from "../fs/read-head.ts";
import { agentsPlaces, PROJECT_NAMES, readAgentsFiles, userPeerFiles } from "../prompt/agents-md.ts";
import { loadSkills, skillFolders } from "../skills/load.ts";
import { capInstructions, instructionsMaxBytes } from "../prompt/instruction-cap.ts";
import { skillsSize } from "../prompt/system.ts";
import { shownPath } from "../prompt/source.ts";
import { claudeRules, codexNotice, codexSettings, peerRulesNotice, type PeerRules } from "../permission/peer-rules.ts";
import { shortPath } from "../ui/intro.ts";
import { PEER_VARS, type Places } from "../fs/places.ts";

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
 * another agent's are not brought up (`hey doctor` passes false: it always shows them).
 */
export function peerNotices(at: PeerPlaces, listed: boolean): string[] {
  const out = at.peerRelative.map(({ name, value }) => {
    const [agent, dir] = PEER_VARS[name];
    const why = value.startsWith("~") ? "a shell expands ~ only when it is not quoted" : "relative, it names another folder in each directory";
    return `${name}=${value} is not a full path (${why}): hey reads your ${agent} files in ${label(at[dir], at)}/ instead; set ${name} to one`;
  });
  if (!listed) out.push(...permissionNotices(at));
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
 * its imports from outside it are followed.
 */
export function projectNotes(at: PeerPlaces, trusted: boolean, budgetTokens?: number): string[] {
  const agents = readAgentsFiles(agentsPlaces(at.cwd, at.configDir, at), { outside: { home: at.home, trusted } });
  const skills = loadSkills(skillFolders({ ...at, project: trusted }));
  const sizes =
    budgetTokens === undefined
      ? []
      : [
          capInstructions(agents.files, instructionsMaxBytes(budgetTokens), (p) => shownPath(p, at.cwd, at.home)).leftOut?.warning,
          skillsSize(skills.skills, at.cwd),
        ];
  return [...agents.imports, ...skills.problems.filter((p) => p.level === "note").map((p) => p.message), ...sizes.filter((l) => l !== undefined)];
}

/**
 * Claude Code's settings files with rules: one notice for the files whose entries go in the same
 * place (the project's two: one [permission] table to paste); then the user's Codex config when it
 * asks before running (permission/peer-rules.ts).
 */
function permissionNotices(at: PeerPlaces): string[] {
  const user = join(at.configDir, "config.toml");
  const project = `.hey/config.toml (loaded once the project is trusted) or ${shortPath(user, at.home)}`;
  const files = [
    { path: join(at.root, ".claude", "settings.json"), where: project, root: at.root },
    { path: join(at.root, ".claude", "settings.local.json"), where: project, root: at.root },
    { path: join(at.claudeDir, "settings.json"), where: shortPath(user, at.home) },
  ];
  const places = new Map<string, { files: string[]; rules: PeerRules; root?: string }>();
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) continue; // hey started in the home directory: its .claude is the user's
    seen.add(f.path);
    let data: unknown;
    try {
      data = JSON.parse(readHead(f.path, SETTINGS_MAX_BYTES).text);
    } catch {
      continue; // none, unreadable or not JSON: nothing hey could point at
    }
    const rules = claudeRules(data);
    if (rules.deny.length === 0 && rules.ask.length === 0 && rules.allow.length === 0) continue;
    const place = places.get(f.where) ?? { files: [], rules: { deny: [], ask: [], allow: [] }, ...(f.root ? { root: f.root } : {}) };
    place.files.push(label(f.path, at));
    place.rules = { deny: [...place.rules.deny, ...rules.deny], ask: [...place.rules.ask, ...rules.ask], allow: [...place.rules.allow, ...rules.allow] };
    places.set(f.where, place);
  }
  const claude = [...places].flatMap(([where, p]) => peerRulesNotice(p.files, p.rules, where, p.root) ?? []);
  const codex = codexPermissionNotice(at);
  return codex ? [...claude, codex] : claude;
}

/** The user's `~/.codex/config.toml` (`$CODEX_HOME/config.toml`) when its settings make Codex ask before running (permission/peer-rules.ts). */
function codexPermissionNotice(at: PeerPlaces): string | undefined {
  const file = join(at.codexDir, "config.toml");
  let text: string;
  try {
    text = readHead(file, SETTINGS_MAX_BYTES).text;
  } catch {
    return undefined; // none or unreadable
  }
  return codexNotice(label(file, at), codexSettings(text), shortPath(join(at.configDir, "config.toml"), at.home));
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
    const local = join(place.dir, "CLAUDE.local.md");
    if (isFile(local))
      out.push(
        `not read: ${label(local, at)} (Claude Code's personal file; hey reads AGENTS.md, else CLAUDE.md): put its rules in one of those or in ${label(own, at)}`,
      );
  }
  const top = places[0]?.dir;
  if (top !== undefined && !existsSync(join(top, ".git"))) {
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

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
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

// The system prompt (SPEC §11), rebuilt for every request. Pure: the caller gathers the facts.
// Layout, most stable first (a prompt cache reuses the longest unchanged prefix): the core prompt
// (with the task.md guidance), the skill-creation guide, the skills list, the AGENTS.md files,
// the MCP servers' instructions, then the facts of this run. The nudge line is added by context/compaction.ts.
import { isAbsolute, join, relative, sep } from "node:path";
import { listSkills, type ListedSkill } from "./skill-listing.ts";
import { PROJECT_FILES } from "./trust-note.ts";

export { LISTED_DESCRIPTION_MAX, type ListedSkill } from "./skill-listing.ts";

/** Each AGENTS.md is cut here, with a note naming it: it is resent with every request (~8k tokens). */
export const AGENTS_MD_MAX_BYTES = 32 * 1024;

/** One AGENTS.md as the prompt shows it: its path (the label) and its text, cut at the cap when `truncated`. */
export interface AgentsFile {
  path: string;
  text: string;
  truncated: boolean;
  /** the CLAUDE.md (or imported file) whose `@path` brought this file in (prompt/imports.ts) */
  importedBy?: string;
  /** cut shorter to keep within the instruction files' share (instruction-cap.ts): the last line kept */
  cutAtLine?: number;
}

export interface PromptFacts {
  core: string;
  cwd: string;
  /** the project root when it is not `cwd` (its `.hey/` holds task.md, skills and config): named in the facts */
  root?: string;
  date: string;
  os: string;
  shell: string;
  /** outermost first */
  agentsMd: readonly AgentsFile[];
  /** the line naming the instruction files left out for their size (instruction-cap.ts); undefined: none */
  agentsLeftOut?: string;
  /** undefined = skills are off (`--no-skills`): neither the list nor the guide */
  skills: readonly ListedSkill[] | undefined;
  /** where the guide says new skills and servers go; DEFAULT_GUIDE when not given */
  guide?: GuideFacts;
  /** the MCP servers' instructions, each under its server's name (mcp/guidance.ts); "" or undefined: none */
  mcp?: string;
}

/**
 * What the guide needs to know: paths as the model should write them (relative to the working
 * directory, or with `~`). It follows what is true of the project in every run, never how this one
 * was started: an interactive run trusts a project with nothing to guard for its session and a
 * `-p` run does not, and a guide that followed that answer gave one session two system prompts, the
 * whole conversation billed again at each move between them (x154). What a `/trust` or `/untrust`
 * changes later is a note's (trust-note.ts): the system prompt stays as it is.
 */
export interface GuideFacts {
  /** where a new skill goes: the project's `.hey/skills` when it is trusted for every run, else the user's skills folder (which loads in any) */
  skillsDir: string;
  /** the project's `.hey/config.toml`, named when it is trusted for every run; else only the user's config is */
  projectConfig?: string;
  /** the user's config.toml */
  userConfig: string;
  /** whether the agent may write the config files (no permission list is set) */
  writable: boolean;
  /** no tool that writes files is offered (an allow list without write_file and edit): the model suggests a skill to the user */
  noFileTools?: true;
  /** MCP servers are off for the run (--no-mcp): a server added starts in another run only */
  mcpOff?: true;
  /** the project has files hey leaves out as it is not trusted (`.hey/`, `.mcp.json`…): said, with how the user trusts it */
  untrusted?: true;
}

/** What the run lets the model do that the guide speaks of (permission-check.ts guideGrants). */
export interface GuideGrants {
  /** no permission list is set: the agent may write hey's config files */
  configs: boolean;
  /** write_file or edit is offered */
  files: boolean;
  /** MCP servers run (not --no-mcp) */
  servers: boolean;
}

/** The guide's facts of `g` (a boolean: whether the config files are writable, every tool offered and servers on). */
export function grantFacts(g: boolean | GuideGrants): Pick<GuideFacts, "writable" | "noFileTools" | "mcpOff"> {
  if (typeof g === "boolean") return { writable: g };
  return { writable: g.configs, ...(g.files ? {} : { noFileTools: true as const }), ...(g.servers ? {} : { mcpOff: true as const }) };
}

export const DEFAULT_GUIDE: GuideFacts = {
  skillsDir: ".hey/skills",
  projectConfig: ".hey/config.toml",
  userConfig: "~/.config/hey/config.toml",
  writable: true,
};

/**
 * How the agent grows itself (SPEC §12, issue 26): a skill, and an MCP server's table, where each
 * goes, and that both load at the user's /reload. In a project whose files are left out for want of
 * trust it says so, and how the user trusts it. Short: it is paid on every request.
 */
export function skillGuide(g: GuideFacts): string {
  const form = `${g.skillsDir}/<name>/SKILL.md: \`---\`, \`name: <name>\` (lowercase, hyphens), \`description: <what, when to use>\`, \`---\`, steps`;
  // no tool of the model's writes files (an allow list without write_file and edit): it suggests, as it does a server under a list
  const skill = g.noFileTools
    ? `Skills are procedures kept as ${form}; no tool of yours writes files: suggest one to the user.`
    : `Keep a procedure as a skill: ${form}.`;
  const configs = g.projectConfig ? `${g.projectConfig} (this project) or ${g.userConfig}` : g.userConfig;
  const table = "`[mcp.NAME]` with `command`, `args`, `env` or `url`, `headers`";
  const mcp = g.mcpOff
    ? "MCP servers are off in this run (--no-mcp): a server added to the config starts only in a run without it."
    : g.writable && !g.noFileTools
      ? `More tools: add an MCP server, ${table}, to ${configs}.`
      : `MCP servers are ${table} in ${configs}: suggest one to the user.`;
  const untrusted = g.untrusted ? ` ${UNTRUSTED_GUIDE}` : "";
  // under a permission list a skill new or changed in the user's folders, or a trusted project's .hey/skills, loads at
  // the user's /reload once they say yes there (trust/instruction-yes.ts), and later runs leave it out (a -p run too)
  // until that yes or one at an interactive start; that holds in every run mode
  const held = !g.writable;
  const loads = g.mcpOff
    ? held
      ? HELD_SKILL_LOADS
      : "A skill loads at the user's /reload or next run."
    : held
      ? HELD_LOADS
      : "Both load at the user's /reload or next run (a new server after their yes).";
  return `${skill}\n${mcp}\n${loads}${untrusted}`;
}

/** When the guide's skill and server load while a permission list holds the user's new skills for their yes. */
export const HELD_LOADS =
  "Both load at the user's /reload after their yes there; later runs leave a new or changed skill out until the user approves it (at /reload, or when hey next starts at a terminal).";

/** HELD_LOADS with MCP servers off (--no-mcp): of a skill alone. */
export const HELD_SKILL_LOADS =
  "A skill loads at the user's /reload after their yes there; later runs leave a new or changed skill out until the user approves it (at /reload, or when hey next starts at a terminal).";

/** The guide's last words in a project whose files are left out for want of trust. */
export const UNTRUSTED_GUIDE = `This project is untrusted: its ${PROJECT_FILES} do not load; ask the user to /trust it.`;

export function buildSystemPrompt(f: PromptFacts): string {
  const parts = [f.core.trim()];
  if (f.skills) {
    parts.push(skillGuide(f.guide ?? DEFAULT_GUIDE));
    const listed = listSkills(f.skills.map((s) => ({ ...s, path: shown(s.path, f.cwd) }))).text;
    if (listed) parts.push(listed);
  }
  for (const file of f.agentsMd) parts.push(agentsSection(file));
  if (f.agentsLeftOut) parts.push(f.agentsLeftOut);
  if (f.mcp) parts.push(f.mcp);
  // the task.md path absolute: written relative to a subdirectory, .hey/task.md would be no project's (fs/places.ts); its
  // .hey/ named for skills and config only where the guide names it: else they go in the user's folders, and would not load there
  const heyDir = (f.guide ?? DEFAULT_GUIDE).projectConfig ? "; its .hey/ holds skills and config" : "";
  const root = f.root && f.root !== f.cwd ? `\nProject root: ${f.root} (keep task.md at ${join(f.root, ".hey", "task.md")}${heyDir})` : "";
  parts.push(`Working directory: ${f.cwd}${root}\nDate: ${f.date}\nOS: ${f.os}; shell: ${f.shell}`);
  return parts.join("\n\n");
}

/** A skill's path inside the working directory relative to it; one given relative (`~/…`) as it is. */
function shown(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel) ? rel : path;
}

function agentsSection(file: AgentsFile): string {
  return `${agentsHeading(file)}:\n${file.text}${cutNote(file)}`;
}

/** `Instructions from PATH`, and which file imported it (a CLAUDE.md's `@path`). */
export function agentsHeading(file: AgentsFile): string {
  return `Instructions from ${file.path}${file.importedBy ? ` (imported by ${file.importedBy})` : ""}`;
}

/** What the model is told after a file cut at the cap. */
export function cutNote(file: AgentsFile): string {
  if (file.cutAtLine !== undefined)
    return `\n[${file.path} is cut here, after line ${file.cutAtLine}, to keep instruction files within their share of each request; read_file it from offset ${file.cutAtLine + 1} for the rest]`;
  return file.truncated ? `\n[${file.path} is cut here, at ${AGENTS_MD_MAX_BYTES / 1024} KB; read the file for the rest]` : "";
}

// The system prompt (SPEC §11), rebuilt for every request. Pure: the caller gathers the facts.
// Layout, most stable first (a prompt cache reuses the longest unchanged prefix): the core prompt
// (with the task.md guidance), the skill-creation guide, the skills list, the AGENTS.md files,
// then the facts of this run. The nudge line is added by context/compaction.ts.
import { isAbsolute, relative, sep } from "node:path";

/** Each AGENTS.md is cut here, with a note naming it: it is resent with every request (~8k tokens). */
export const AGENTS_MD_MAX_BYTES = 32 * 1024;

/** One AGENTS.md as the prompt shows it: its path (the label) and its text, cut at the cap when `truncated`. */
export interface AgentsFile {
  path: string;
  text: string;
  truncated: boolean;
}

/** What the prompt shows of a skill (progressive disclosure): the model reads the file when a task matches. */
export interface ListedSkill {
  name: string;
  description: string;
  /** the SKILL.md (or root .md) file */
  path: string;
}

export interface PromptFacts {
  core: string;
  cwd: string;
  date: string;
  os: string;
  shell: string;
  /** outermost first */
  agentsMd: readonly AgentsFile[];
  /** undefined = skills are off (`--no-skills`): neither the list nor the guide */
  skills: readonly ListedSkill[] | undefined;
}

/** A listed description is cut here (the Agent Skills limit): it is paid on every request. */
export const LISTED_DESCRIPTION_MAX = 1024;

/** How the agent grows a skill (SPEC §12). Short: it is paid on every request. */
export const SKILL_GUIDE =
  "To keep a procedure for next time, write it as a skill: .hey/skills/<name>/SKILL.md starting with `---`, " +
  "`name: <name>` (lowercase, digits, hyphens), `description: <what it does and when to use it>`, `---`, then the steps. " +
  "It is listed after /reload or in the next run.";

const SKILLS_HEADER = "Skills — when a task matches a description, read that file with read_file before acting:";

export function buildSystemPrompt(f: PromptFacts): string {
  const parts = [f.core.trim()];
  if (f.skills) {
    parts.push(SKILL_GUIDE);
    if (f.skills.length > 0) parts.push([SKILLS_HEADER, ...f.skills.map((s) => listLine(s, f.cwd))].join("\n"));
  }
  for (const file of f.agentsMd) parts.push(agentsSection(file));
  parts.push(`Working directory: ${f.cwd}\nDate: ${f.date}\nOS: ${f.os}; shell: ${f.shell}`);
  return parts.join("\n\n");
}

/** `- name: description (path)`, the path relative to the working directory when inside it. */
function listLine(s: ListedSkill, cwd: string): string {
  let description = s.description.replace(/\s+/g, " ").trim();
  if (description.length > LISTED_DESCRIPTION_MAX) description = description.slice(0, LISTED_DESCRIPTION_MAX - 1) + "…";
  return `- ${s.name}: ${description} (${shown(s.path, cwd)})`;
}

function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith(".." + sep) && rel !== ".." && !isAbsolute(rel) ? rel : path;
}

function agentsSection(file: AgentsFile): string {
  const note = file.truncated ? `\n[${file.path} is cut here, at ${AGENTS_MD_MAX_BYTES / 1024} KB; read the file for the rest]` : "";
  return `Instructions from ${file.path}:\n${file.text}${note}`;
}

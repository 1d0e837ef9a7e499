// The system prompt of every request (SPEC §11): the core prompt, the skills (list and creation
// guide) and the AGENTS.md files, read at start-up. Within a run it stays byte-identical, so the
// provider's prompt cache can reuse it (issue 23): the date is the run's first, and edits to
// AGENTS.md and skills switch in at `/reload` (or the next run), after validation. The two are
// Reloadables for `/reload`.
import type { Reloadable, Staged } from "../config/reload.ts";
import { skillChanges } from "../skills/catalog.ts";
import type { Skill } from "../skills/frontmatter.ts";
import { loadSkills, skillFolders } from "../skills/load.ts";
import { agentsChanges, agentsPlaces, readAgentsFiles } from "./agents-md.ts";
import { buildSystemPrompt } from "./system.ts";

export interface PromptSourceOptions {
  core: string;
  cwd: string;
  home: string;
  /** ~/.config/hey (or $XDG_CONFIG_HOME/hey): the user's AGENTS.md and skills */
  configDir: string;
  os: string;
  /** the shell bash runs now (`/reload` may change it) */
  shell(): string;
  /** undefined = `--no-skills`: no skills are read, listed or explained; `project`: the project is trusted */
  skills: { project: boolean } | undefined;
  /** one line per problem found; at start-up every skill problem is only a warning */
  warn(message: string): void;
}

export interface PromptSource {
  /** the system prompt for the next request; files are re-read only when they changed */
  system(): string;
  /** the skills loaded now, sorted by name (none with `--no-skills`) */
  skills(): readonly Skill[];
  /** skills and AGENTS.md, for `/reload` */
  reloadables: Reloadable[];
}

export function createPromptSource(opts: PromptSourceOptions): PromptSource {
  const { cwd, configDir, warn } = opts;
  const folders = opts.skills ? skillFolders({ home: opts.home, configDir, cwd, project: opts.skills.project }) : [];
  const first = opts.skills ? loadSkills(folders) : { skills: [], problems: [] };
  for (const p of first.problems) warn(p.message);
  let skills: readonly Skill[] = first.skills;
  let skillWarnings = new Set(first.problems.map((p) => p.message));
  let agents = readAgentsFiles(agentsPlaces(cwd, configDir));
  for (const w of agents.warnings) warn(w);

  const date = new Date().toISOString().slice(0, 10);
  let built: { key: unknown[]; text: string } | undefined;
  const system = () => {
    const agentsMd = agents.files;
    const key = [agentsMd, skills, opts.shell()];
    if (built?.key.every((k, i) => k === key[i])) return built.text;
    const text = buildSystemPrompt({ core: opts.core, cwd, date, os: opts.os, shell: opts.shell(), agentsMd, skills: opts.skills ? skills : undefined });
    built = { key, text };
    return text;
  };

  const skillsPart: Reloadable = {
    name: "skills",
    async check(): Promise<Staged> {
      if (!opts.skills) return { errors: [], warnings: [], changes: [], apply() {} };
      const next = loadSkills(folders);
      const messages = (level: string) => next.problems.filter((p) => p.level === level).map((p) => p.message);
      return {
        errors: messages("error"),
        warnings: messages("warning").filter((w) => !skillWarnings.has(w)),
        changes: skillChanges(skills, next.skills),
        apply() {
          skills = next.skills;
          skillWarnings = new Set(next.problems.map((p) => p.message));
        },
      };
    },
  };

  const agentsPart: Reloadable = {
    name: "AGENTS.md",
    async check(): Promise<Staged> {
      const places = agentsPlaces(cwd, configDir); // a `git init` since the start moves the root
      const fresh = readAgentsFiles(places);
      const shown = new Set(agents.warnings);
      return {
        errors: [],
        warnings: fresh.warnings.filter((w) => !shown.has(w)),
        changes: agentsChanges(agents.files, fresh.files),
        apply() {
          agents = fresh;
        },
      };
    },
  };

  return { system, skills: () => skills, reloadables: [skillsPart, agentsPart] };
}

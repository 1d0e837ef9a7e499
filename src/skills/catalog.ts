// The skills of a run (SPEC §12): which one wins a name, what changed at `/reload`, and the
// message `/skill:NAME args` sends. Pure.
import type { Skill, SkillProblem } from "./frontmatter.ts";

/**
 * Skills in discovery order (the four locations, lowest precedence first): a later skill with the
 * same name replaces the earlier one, with a warning naming both files. Sorted by name.
 */
export function byPrecedence(found: readonly Skill[]): { skills: Skill[]; problems: SkillProblem[] } {
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const skill of found) {
    const earlier = byName.get(skill.name);
    if (earlier) problems.push({ level: "warning", message: `${skill.path}: skill "${skill.name}" replaces the one in ${earlier.path}` });
    byName.set(skill.name, skill);
  }
  return { skills: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), problems };
}

/** `+ skill x`, `- skill x`, `~ skill x` (its description or file changed) between two loads. */
export function skillChanges(before: readonly Skill[], after: readonly Skill[]): string[] {
  const old = new Map(before.map((s) => [s.name, s]));
  const now = new Map(after.map((s) => [s.name, s]));
  const out: string[] = [];
  for (const [name, s] of now) {
    const was = old.get(name);
    if (!was) out.push(`+ skill ${name}`);
    else if (was.description !== s.description || was.path !== s.path) out.push(`~ skill ${name}`);
  }
  for (const name of old.keys()) if (!now.has(name)) out.push(`- skill ${name}`);
  return out;
}

/** The name of `/skill:NAME args`, and the rest of the line; undefined when `line` is not one. */
export function parseSkillCommand(line: string): { name: string; args: string } | undefined {
  const m = /^\/skill:(\S*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  return m ? { name: m[1]!, args: (m[2] ?? "").trim() } : undefined;
}

/** What `/skill:NAME` cannot use: an unknown name gets the list of known ones. */
export function unknownSkill(name: string, skills: readonly Skill[]): string {
  if (name === "") return `/skill:NAME needs a skill name${skills.length ? ` (${skills.map((s) => s.name).join(", ")})` : ""}`;
  return `no skill named "${name}"${skills.length ? `; skills: ${skills.map((s) => s.name).join(", ")}` : "; none are loaded"}`;
}

/**
 * The text `/skill:NAME args` sends before the args: the whole file, with its path so the model
 * can resolve files the skill names relative to its folder.
 */
export function skillMessage(skill: Skill, text: string, truncated: boolean): string {
  const cut = truncated ? `\n[cut here; read ${skill.path} for the rest]` : "";
  return `Use the skill "${skill.name}" (${skill.path}):\n\n${text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n/g, "\n")
    .trimEnd()}${cut}`;
}

// The skills of a run (SPEC §12): which one wins a name, what changed at `/reload`, and the
// message `/skill:NAME args` sends. Pure.
import { dirname } from "node:path";
import type { Skill, SkillProblem } from "./frontmatter.ts";
import { DEFAULT_TOKENS_PER_CHAR } from "../context/passes.ts";

/**
 * One `/skill:NAME` message takes at most this share of the context budget (16,000 tokens, about
 * 64 KB, of the default 40,000): a 480 KB skill once filled three quarters of it with one message.
 * The rest stays in the file, where the model is told to read it.
 */
export const SKILL_BUDGET_SHARE = 0.4;

/** The most of a skill's file `/skill:NAME` sends: its share of the budget, and no more than an @file mention may bring (`[input] max_bytes`). */
export function skillMaxBytes(budgetTokens: number, inputMaxBytes: number): number {
  return Math.min(inputMaxBytes, Math.floor((budgetTokens * SKILL_BUDGET_SHARE) / DEFAULT_TOKENS_PER_CHAR));
}

/** What the model reads where a skill was cut (at a line end): how much it got and where the rest is. */
export function skillCutNote(path: string, shown: string, total: number): string {
  const next = shown.replace(/\n$/, "").split("\n").length + 1;
  return `[cut here: the first ${kb(new TextEncoder().encode(shown).length)} of ${kb(total)} were sent; read_file ${path} with offset ${next} for the rest]`;
}

/** The user's line for a cut skill, like an @file's (prompt/mentions.ts cutNotice), with why and where the rest is. */
export function skillCutNotice(name: string, shown: number, total: number, budgetTokens: number): string {
  return `/skill:${name}: only the first ${kb(shown)} of ${kb(total)} went into the prompt (a skill takes at most ${Math.round(SKILL_BUDGET_SHARE * 100)}% of the ${budgetTokens.toLocaleString("en-US")}-token context budget, and [input] max_bytes); the model was told to read the rest from the file`;
}

const kb = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/**
 * Skills in discovery order (the four locations, lowest precedence first): a later skill with the
 * same name replaces the earlier one, with a note naming both files (an override on purpose is no
 * problem to fix). Sorted by name.
 */
export function byPrecedence(found: readonly Skill[]): { skills: Skill[]; problems: SkillProblem[] } {
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const skill of found) {
    const earlier = byName.get(skill.name);
    if (earlier) problems.push({ level: "note", message: `${skill.path}: skill "${skill.name}" replaces the one in ${earlier.path}`, replaced: earlier.path });
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

/**
 * The skill `/skill:NAME` runs: the one of that name, else one that has it as another name (its
 * folder's, its title's slug: skills/frontmatter.ts skillName), else either in other letter case.
 */
export function findSkill(name: string, skills: readonly Skill[]): Skill | undefined {
  const lower = name.toLowerCase();
  return (
    skills.find((s) => s.name === name) ??
    skills.find((s) => s.aliases?.includes(name)) ??
    skills.find((s) => s.name.toLowerCase() === lower || s.aliases?.some((a) => a.toLowerCase() === lower))
  );
}

/**
 * Claude Code's variables in a skill's text, filled in as Claude Code does before the model reads
 * it: `$ARGUMENTS` (what follows `/skill:NAME`), `$ARGUMENTS[N]` (its Nth word from 0, "" past
 * the end; quotes keep words together), and `${CLAUDE_SKILL_DIR}` (the skill's folder: a command
 * the model copies out of it would otherwise run `/scripts/…` from bash's empty variable).
 * `$0`, `$1`… are left alone: shell and awk text uses them too.
 */
export function fillSkillVariables(text: string, args: string, skillPath: string): string {
  const words = argWords(args);
  return text
    .replace(/\$ARGUMENTS(?:\[(\d+)\])?(?![\w[])/g, (_, n: string | undefined) => (n === undefined ? args : (words[Number(n)] ?? "")))
    .replace(/\$\{CLAUDE_SKILL_DIR\}|\$CLAUDE_SKILL_DIR(?!\w)/g, () => dirname(skillPath));
}

/** `a "b c" d` → a, b c, d. */
function argWords(args: string): string[] {
  return [...args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The names Tab offers after `/skill:`: each skill's own, none of Claude Code's `user-invocable: false` (background knowledge, kept off its menu). */
export function offeredSkillNames(skills: readonly Skill[]): string[] {
  return skills.filter((s) => s.userInvocable !== false).map((s) => s.name);
}

/** The skill whose title `name` begins, typed whole (`/skill:Generating Commit Messages` gives "Generating"): the name that runs it is said. */
export function titledSkill(name: string, skills: readonly Skill[]): Skill | undefined {
  return name === "" ? undefined : skills.find((s) => s.title?.toLowerCase().startsWith(`${name.toLowerCase()} `));
}

/** What `/skill:NAME` cannot use: an unknown name gets the list of known ones. */
export function unknownSkill(name: string, skills: readonly Skill[]): string {
  if (name === "") return `/skill:NAME needs a skill name${skills.length ? ` (${skills.map((s) => s.name).join(", ")})` : ""}`;
  const titled = titledSkill(name, skills);
  if (titled) return `no skill named "${name}"; the skill titled "${titled.title}" is /skill:${titled.name}`;
  return `no skill named "${name}"${skills.length ? `; skills: ${skills.map((s) => s.name).join(", ")}` : "; none are loaded"}`;
}

/**
 * The text `/skill:NAME args` sends before the args: the whole file (or up to `cutNote`,
 * skillCutNote's; Claude Code's variables filled in from `args`: fillSkillVariables), with its path so the model
 * can resolve files the skill names relative to its folder, between `<skill>` lines: where it ends
 * and the args begin is told apart again when the session is listed (typedSkillLine).
 */
export function skillMessage(skill: Skill, text: string, cutNote: string | false, args = ""): string {
  const cut = cutNote ? `\n${cutNote}` : "";
  const body = fillSkillVariables(
    text
      .replace(/^\uFEFF/, "")
      .replace(/\r\n/g, "\n")
      .trimEnd(),
    args,
    skill.path,
  );
  return `Use the skill "${skill.name}" (${skill.path}):\n\n${SKILL_OPEN}${body}${cut}${SKILL_CLOSE}`;
}

const SKILL_OPEN = "<skill>\n";
const SKILL_CLOSE = "\n</skill>";
/** The start of a message skillMessage made: the skill's name, its path. */
const SKILL_HEAD = /^Use the skill "([^"\n]*)" \([^\n]*\):\n\n/;

/**
 * The line a user message that skillMessage began was typed as, `/skill:NAME args` (the args as
 * sent, mentions expanded), for the session listings; undefined for any other message. A message
 * whose skill text does not end in it (cut short, or sent by a hey that did not close it) gives the
 * name alone: its args cannot be told from the skill's text.
 */
export function typedSkillLine(text: string): string | undefined {
  const head = SKILL_HEAD.exec(text);
  if (!head) return undefined;
  const typed = `/skill:${head[1]}`;
  const body = text.slice(head[0].length);
  if (!body.startsWith(SKILL_OPEN)) return typed;
  // the first close that ends the message or that the args' blank line follows
  for (let at = body.indexOf(SKILL_CLOSE); at >= 0; at = body.indexOf(SKILL_CLOSE, at + 1)) {
    const after = body.slice(at + SKILL_CLOSE.length);
    if (after === "" || after.startsWith("\n\n")) return `${typed} ${after.trim()}`.trimEnd();
  }
  return typed;
}

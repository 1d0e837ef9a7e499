// The skills list of the system prompt (SPEC §12), held to a size: it is paid on every request.
// 1,000 skills once put 91 KB into each one, most of it absolute paths. Now each skill folder is
// named once and its skills under it by name (a path only when it is not NAME/SKILL.md); past the
// cap, the later skills lose their descriptions (the model reads the file for one), and past it
// even by name, the rest are counted with the folder to list. Claude Code does the same: its skill
// listing keeps to a share of the context window and drops the descriptions past it. Pure.
import { posix } from "node:path";
import type { Message } from "../kernel/ir.ts";
import type { GuideTrust } from "./trust-note.ts";

/** What the prompt shows of a skill (progressive disclosure): the model reads the file when a task matches. */
export interface ListedSkill {
  name: string;
  description: string;
  /** the SKILL.md (or root .md) file, as the model should write it (relative, `~/…`, or absolute) */
  path: string;
  /** Claude Code's `disable-model-invocation: true`: only the user runs it (`/skill:NAME`), so it is not listed */
  disableModelInvocation?: boolean;
}

/** A listed description is cut here (the Agent Skills limit). */
export const LISTED_DESCRIPTION_MAX = 1024;

/** The whole list, headings included, stops here (about 4,000 tokens): 80 skills of ~700-character descriptions put 56 KB in every request. */
export const SKILLS_LIST_MAX_BYTES = 16 * 1024;

const HEADER =
  "Skills — when a task matches a description, read that skill's file with read_file before acting (FOLDER/NAME/SKILL.md, unless another file is named):";

/** How the list came out: its text, the skills described, named only and left out (their names), and what describing all would take. */
export interface SkillListing {
  /** "" when no skill is offered to the model */
  text: string;
  described: string[];
  named: string[];
  left: string[];
  /** the bytes of the whole list with every skill described */
  full: number;
}

interface Entry {
  name: string;
  description: string;
  folder: string;
  /** the file relative to its folder, when it is not NAME/SKILL.md */
  file?: string;
}

/**
 * The list of `skills` (sorted by name) that the model may run, within `max` bytes: every skill
 * described when they fit, else the first ones described and the rest by name, else as many names
 * as fit and a count of the rest with the folder to list. A skill only the user runs
 * (disableModelInvocation: a deploy, a release) is not offered.
 */
export function listSkills(skills: readonly ListedSkill[], max = SKILLS_LIST_MAX_BYTES): SkillListing {
  const entries = skills.filter((s) => !s.disableModelInvocation).map(entryOf);
  if (entries.length === 0) return { text: "", described: [], named: [], left: [], full: 0 };
  const full = render(entries, entries.length, entries.length);
  const names = (from: number, to: number) => entries.slice(from, to).map((e) => e.name);
  const result = (described: number, named: number, text: string) => ({
    text,
    described: names(0, described),
    named: names(described, named),
    left: names(named, entries.length),
    full: size(full),
  });
  if (size(full) <= max) return result(entries.length, entries.length, full);
  // the most skills described (in name order) with every other one still named; else the most named
  const described = most(entries.length, (n) => size(render(entries, n, entries.length)) <= max);
  if (described >= 0) return result(described, entries.length, render(entries, described, entries.length));
  const named = Math.max(
    0,
    most(entries.length, (n) => size(render(entries, 0, n)) <= max),
  );
  return result(0, named, render(entries, 0, named));
}

/** The largest n in 0..top for which `fits` holds (it holds for every smaller n too); -1 when none. */
function most(top: number, fits: (n: number) => boolean): number {
  let lo = -1;
  let hi = top;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi + 1) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function entryOf(s: ListedSkill): Entry {
  let description = s.description.replace(/\s+/g, " ").trim();
  if (description.length > LISTED_DESCRIPTION_MAX) description = description.slice(0, LISTED_DESCRIPTION_MAX - 1) + "…";
  const path = s.path.replaceAll("\\", "/");
  const dir = posix.dirname(path);
  // NAME/SKILL.md: the folder is the one above; a root .md file (or a SKILL.md in a folder of another name) names its file
  if (posix.basename(path) === "SKILL.md" && posix.basename(dir) === s.name) return { name: s.name, description, folder: posix.dirname(dir) };
  const folder = posix.basename(path) === "SKILL.md" ? posix.dirname(dir) : dir;
  return { name: s.name, description, folder, file: posix.relative(folder, path) };
}

/** The list with the first `described` entries described and the first `named` named at all, grouped by folder. */
function render(entries: readonly Entry[], described: number, named: number): string {
  const folders = new Map<string, { lines: string[]; names: string[]; left: number }>();
  entries.forEach((e, i) => {
    const f = folders.get(e.folder) ?? { lines: [], names: [], left: 0 };
    folders.set(e.folder, f);
    const label = e.file ? `${e.name} (${e.file})` : e.name;
    if (i < described) f.lines.push(`- ${label}: ${e.description}`);
    else if (i < named) f.names.push(label);
    else f.left++;
  });
  const parts = [HEADER];
  for (const [folder, f] of folders) {
    parts.push(`${folder}/:`, ...f.lines);
    if (f.names.length) parts.push(`- by name only (read the file for what it does): ${f.names.join(", ")}`);
    if (f.left) parts.push(`- and ${f.left} more not listed here: list ${folder}/ to find them`);
  }
  return parts.join("\n");
}

const size = (text: string) => new TextEncoder().encode(text).length;

/** What the skills list leaves out, for the user (said once); undefined when every skill is described. */
export function skillsListCut(skills: readonly ListedSkill[], max = SKILLS_LIST_MAX_BYTES): string | undefined {
  const l = listSkills(skills, max);
  if (l.named.length === 0 && l.left.length === 0) return undefined;
  const kb = (n: number) => `${Math.max(1, Math.round(n / 1024))} KB`;
  const [described, named, left] = [l.described.length, l.named.length, l.left.length];
  const cut = [
    `${described} with descriptions`,
    named ? `${named} by name only` : "",
    left ? `${left} not listed (the model is told which folders to list)` : "",
  ];
  return `${described + named + left} skills would put ${kb(l.full)} into each request; the list is held to ${kb(max)} (${kb(size(l.text))} sent): ${cut.filter(Boolean).join(", ")}; shorten their descriptions, or move the skills you rarely use out of the skills folders`;
}

/**
 * A kept note stops here (about 1,000 tokens: a few skills' lines). It rides in every later request
 * until a summary or trim drops it; past it the system prompt is rebuilt with the new list instead,
 * one cache miss rather than a note 300 skills made 222 KB.
 */
export const SKILLS_NOTE_MAX_BYTES = 4 * 1024;

const NOTE_HEAD = "[hey: the user's /reload changed the skills; as of this message these lines update the skills list in the system prompt:";
/** the head of the note a resumed session's prompt sent again carries (prompt-record.ts): a skill written since, with or without a /reload */
export const RESUMED_NOTE_HEAD =
  "[hey: the skills changed since this session's last request; as of this message these lines update the skills list in the system prompt:";
/** the note's head before the wording above (it said the list "stays as it was"): a session saved then may hold it */
const OLD_NOTE_HEAD = "[hey: the skills changed at the user's /reload;";
/** What the user's next message says when the list in the system prompt has caught up with the notes the conversation holds. */
export const SKILLS_CURRENT_NOTE =
  "[hey: the skills list in the system prompt is up to date as of this message; the skills-changed notes before it no longer apply]";

/**
 * What the model keeps in its conversation when `/reload` changes the skills it may run, `before`
 * → `after` (as the prompt shows them): the system prompt keeps the list it had, byte for byte, so
 * the provider's prompt cache still holds the whole conversation — a new list there re-bills it all
 * (60k tokens to add one skill). A skill gone, or now only the user's to run, must not be used
 * though the list still names it. Undefined: no change the model can see; "rebuild": a note over
 * SKILLS_NOTE_MAX_BYTES, which the system prompt's new list (held to its cap) replaces. `head`: the note's first words, when
 * not /reload's.
 */
export function skillsChangedNote(before: readonly ListedSkill[], after: readonly ListedSkill[], head = NOTE_HEAD): string | "rebuild" | undefined {
  const offered = (list: readonly ListedSkill[]) => new Map(list.filter((s) => !s.disableModelInvocation).map((s) => [s.name, entryOf(s)]));
  const old = offered(before);
  const now = offered(after);
  const line = (e: Entry) => `${e.name}: ${e.description} (${e.file ? `${e.folder}/${e.file}` : `${e.folder}/${e.name}/SKILL.md`})`;
  const lines: string[] = [];
  for (const [name, e] of now) {
    const was = old.get(name);
    if (!was) lines.push(`+ skill ${line(e)}`);
    else if (line(was) !== line(e)) lines.push(`~ skill ${line(e)}`);
  }
  for (const name of old.keys()) if (!now.has(name)) lines.push(`- skill ${name}: removed; do not use it`);
  if (lines.length === 0) return undefined;
  const note = `${head}\n${lines.join("\n")}]`;
  return size(note) > SKILLS_NOTE_MAX_BYTES ? "rebuild" : note;
}

/** The skills a kept note describes (added or changed): the model has their descriptions though the list may name them only. */
export const notedSkills = (note: string): string[] => [...note.matchAll(/^[+~] skill ([^:\n]+):/gm)].map((m) => m[1]!);

const isSkillsNote = (text: string) => [NOTE_HEAD, RESUMED_NOTE_HEAD, OLD_NOTE_HEAD].some((head) => text.startsWith(head));

/**
 * The notes the user's next message carries (`told`, the REPL's, oldest first) given the
 * conversation so far (`history`) and `current`, the kept notes told since the system prompt's
 * list was built: a skills note not among them predates that list (an earlier run's, at `hey -c`
 * or `/resume`, or one from before a rebuild). One not sent yet is left out; for those sent, the
 * message says first, once, that the list is up to date — else a note still shown would say a
 * skill the list holds again is removed.
 */
export function withSkillsNote(history: readonly Message[], told: readonly string[], current: readonly string[]): string[] {
  const kept = told.filter((t) => !isSkillsNote(t) || current.includes(t));
  let stale = false;
  for (const m of history)
    for (const b of m.role === "user" ? m.content : [])
      if (b.type === "text" && b.text === SKILLS_CURRENT_NOTE) stale = false;
      else if (b.type === "text" && isSkillsNote(b.text) && !current.includes(b.text)) stale = true;
  return stale ? [SKILLS_CURRENT_NOTE, ...kept] : kept;
}

/** What the model is shown of the skills now (prompt/source.ts): the system prompt's list as it was built, and the kept notes told since. */
export interface ShownSkills {
  list: SkillListing;
  /** oldest first; the skills they describe (notedSkills) have their descriptions whatever the list says */
  notes: readonly string[];
  /** what the guide said of the project's files and whether they load now (trust-note.ts); undefined: skills are off (`--no-skills`) */
  trust?: GuideTrust;
  /** a resumed session's prompt sent again (prompt-record.ts): the skills changed since and today's date, for the first message that carries them */
  resumed?: readonly string[];
}

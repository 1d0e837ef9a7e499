// What a session keeps of the system prompt its requests were sent with, so `hey -c`, `--resume` and
// `/resume` within the prompt cache's lifetime send that prompt again (x4 #3, #4). Within a run the
// prompt stays byte-identical (source.ts): a skill added, a /trust or a new UTC date reach the model
// as notes. The next run built it afresh from the skills and trust as they were then, and today's
// date, so the first resumed request missed the whole cache. The record holds what can differ
// between two runs that read the same AGENTS.md files — the date, the guide's facts, the skills list
// as listed and the skills the model heard of since — and a hash of the prompt they made (MCP
// servers' instructions left out: they come later), so the resumed run rebuilds it only when
// everything else came out the same. Written on a usage line when it changed in the run. Pure.
import type { Output } from "../kernel/output.ts";
import { RESUMED_NOTE_HEAD, skillsChangedNote, type ListedSkill } from "./skill-listing.ts";
import type { GuideFacts } from "./system.ts";

/** The inputs of the system prompt a request was sent with that a later run may find changed. */
export interface PromptRecord {
  /** the prompt's `Date:` */
  date: string;
  guide: GuideFacts;
  /** the skills list the prompt holds, as listed (paths as the model writes them, descriptions redacted) */
  skills: ListedSkill[];
  /** the skills loaded when the request was made, when a /reload changed them since the list was built */
  known?: ListedSkill[];
  /** the skills notes the conversation carries since the list was built (skill-listing.ts skillsChangedNote) */
  notes?: string[];
  /** the prompt these made, without the MCP servers' instructions (context/window.ts fixedHash) */
  hash: string;
}

/**
 * The record of a prompt built from `facts` (`list`: the skills it lists; `known`: those loaded; `notes`: the skills notes
 * told since the list was built) whose text, without the servers' instructions, hashes to `hash`.
 */
export function promptRecord(
  facts: { date: string; guide: GuideFacts; list: ListedSkill[]; known: ListedSkill[]; notes: string[] },
  hash: string,
): PromptRecord {
  const { date, guide, list, known, notes } = facts;
  const same = JSON.stringify(known) === JSON.stringify(list);
  return { date, guide, skills: list, ...(same ? {} : { known }), ...(notes.length ? { notes } : {}), hash };
}

/**
 * What a resumed run takes of `rec`, the record of the session's last prompt, given `now`: the skills loaded, as listed;
 * today's UTC date; the guide's facts for a project trusted for every run or left out (`guide`), and the hash of the
 * prompt a list, guide and date make with this run's AGENTS.md files and shell (`hash`). Undefined when that hash is
 * not the record's (an AGENTS.md edited, a permission list set: the prompt is built afresh, as for a new session) or
 * when the skills changed more than a note holds. Else the record's date, guide and list; the skills `notes` the
 * conversation keeps (the earlier run's, and the change since); and what the next message `told`s the model: the
 * skills changed since it last heard (a skill written, a /reload), and today's date when the session's is another.
 */
export function resumeWith(
  rec: PromptRecord,
  now: {
    skills: readonly ListedSkill[];
    today: string;
    guide(project: boolean, leftOut: boolean): GuideFacts;
    hash(list: readonly ListedSkill[], at: { guide: GuideFacts; date: string }): string;
  },
) {
  const [project, leftOut] = [rec.guide.projectConfig !== undefined, rec.guide.untrusted === true];
  const guide = now.guide(project, leftOut);
  const note = skillsChangedNote(rec.known ?? rec.skills, now.skills, RESUMED_NOTE_HEAD);
  if (note === "rebuild" || now.hash(rec.skills, { guide, date: rec.date }) !== rec.hash) return undefined;
  const told = [...(note ? [note] : []), ...(rec.date === now.today ? [] : [dateNote(rec.date, now.today)])];
  return { project, leftOut, guide, date: rec.date, list: rec.skills, notes: [...(rec.notes ?? []), ...(note ? [note] : [])], told };
}

/** A record larger than this is not written: the resume then builds the prompt afresh, as before. */
export const PROMPT_RECORD_MAX_BYTES = 64 * 1024;

/**
 * `output` with the record of the system prompt (`record`: the request just made's) on a usage event
 * when it differs from the last one this run passed on, so a session holds it once per change.
 */
export function withPromptRecord(output: Output, record: () => PromptRecord | undefined): Output {
  let last = "";
  return {
    emit(event) {
      if (event.type !== "usage") return output.emit(event);
      const now = record();
      const json = now ? JSON.stringify(now) : "";
      if (!now || json === last || json.length > PROMPT_RECORD_MAX_BYTES) return output.emit(event);
      last = json;
      output.emit({ ...event, system_prompt: now });
    },
  };
}

const isStr = (v: unknown): v is string => typeof v === "string";
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const skillOf = (v: unknown): ListedSkill | undefined =>
  isObj(v) && isStr(v.name) && isStr(v.description) && isStr(v.path)
    ? { name: v.name, description: v.description, path: v.path, ...(v.disableModelInvocation === true ? { disableModelInvocation: true } : {}) }
    : undefined;
const skillsOf = (v: unknown): ListedSkill[] | undefined => {
  const list = Array.isArray(v) ? v.map(skillOf) : undefined;
  return list?.every((s) => s !== undefined) ? (list as ListedSkill[]) : undefined;
};

/** The record on a usage line as read back (an older or a damaged hey's line may hold none, or a broken one): undefined unless whole. */
export function promptRecordOf(v: unknown): PromptRecord | undefined {
  if (!isObj(v) || !isStr(v.date) || !isStr(v.hash) || !isObj(v.guide)) return undefined;
  const g = v.guide;
  if (!isStr(g.skillsDir) || !isStr(g.userConfig) || typeof g.writable !== "boolean") return undefined;
  if (g.projectConfig !== undefined && !isStr(g.projectConfig)) return undefined;
  const guide: GuideFacts = {
    skillsDir: g.skillsDir,
    ...(isStr(g.projectConfig) ? { projectConfig: g.projectConfig } : {}),
    userConfig: g.userConfig,
    writable: g.writable,
    ...(g.untrusted === true ? { untrusted: true as const } : {}),
  };
  const skills = skillsOf(v.skills);
  const known = v.known === undefined ? undefined : skillsOf(v.known);
  const notes = Array.isArray(v.notes) && v.notes.every(isStr) ? v.notes : v.notes === undefined ? undefined : false;
  if (!skills || (v.known !== undefined && !known) || notes === false) return undefined;
  return { date: v.date, guide, skills, ...(known ? { known } : {}), ...(notes ? { notes } : {}), hash: v.hash };
}

/** The note of a resumed run whose system prompt keeps the session's `Date:` line (`was`) on a later UTC day (`today`). */
export const dateNote = (was: string, today: string): string =>
  `[hey: today's date is ${today} (UTC); the Date: line in the system prompt is the session's, ${was}]`;

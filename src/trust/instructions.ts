// The start's step for the user's own instruction files (trust/instruction-approval.ts): while a
// permission list is set, those new or changed since the user last approved them are asked about
// in the REPL, left out of a one-shot run and said; the hashes this run uses go to the approvals
// record with the config files' (approve.ts recordApprovals). Without a list nothing is read here.
import { listsSet } from "../config/control-files.ts";
import type { Settings } from "../config/settings.ts";
import { basename, dirname, join, relative } from "node:path";
import { resolveUserPath } from "../fs/user-path.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { TOOL } from "../kernel/tool-names.ts";
import {
  hashOf,
  hashOfRead,
  instructionHash,
  SKILL_BYTES_MAX,
  SKILL_FILES_MAX,
  UNCHECKED,
  isFolderSkill,
  isLooseSkillFile,
  isUserAgentsFile,
  isUserInstruction,
  linkOutOfProject,
  looseSkill,
  projectSkillFiles,
  userInstructionFiles,
  type InstructionGate,
  type Loadable,
  type UserPlaces,
} from "../prompt/user-instructions.ts";
import { readFileSync } from "node:fs";
import type { Approvals } from "../config/approvals.ts";
import { approvedFiles, COPY_MAX_BYTES, copyBytes, folderChanges, folderOthers, keptBefore, ownHash, readCopy } from "./instruction-copies.ts";
import {
  adoptedInstructionsNotice,
  approvedHashes,
  inUse,
  instructionChange,
  instructionNotices,
  instructionQuestion,
  oneFileQuestion,
  pendingInstructions,
  type PendingInstruction,
  tilde,
  skillText,
  TRUST_SKILL_LINES,
  type TrustSkill,
} from "./instruction-approval.ts";
import { loadSkills, skillFolders } from "../skills/load.ts";
import { readAnswer } from "./policy.ts";
import { pythonCacheNote } from "./python-cache.ts";

/** What of the run's approvals state (approve.ts ApprovalState) this step reads and sets. */
export interface InstructionState {
  record: Approvals | undefined;
  file: string;
  /**
   * the user's instruction files this run uses, path → hash, recorded with the config files'
   * (approve.ts recordApprovals); undefined: no permission list at the start, none weighed
   */
  instructions?: Record<string, string>;
  /** those left out at the start for want of approval: out until the user's yes at the REPL's `/reload` (trust/instruction-yes.ts), whatever they hold since (loadable: held) */
  held?: Record<string, string>;
  /** the bytes hashed at the start, path → bytes: what the question showed, and what the copies keep (instruction-copies.ts keepCopies) */
  texts?: Record<string, Uint8Array>;
  /** the hashes this session's write_file and edit calls left the user's files with (notingWrites): those load at `/reload` */
  wrote?: Record<string, string[]>;
  /** the files a person said no to at `/reload`, path → the hash they saw: not asked about again this session until they change (trust/instruction-yes.ts) */
  declined?: Record<string, string>;
  /** the trusted project's `.hey/skills` weighed at the start with the user's files (UserPlaces.projectSkills) */
  projectSkills?: string;
  /** the project's `.hey/skills` the trust question showed, when the user said yes there (trust/start.ts): approved as a yes to this step's question approves them */
  trustShown?: ShownSkills;
}

/** Skills a question showed, path → the hash and the bytes hashed (what it showed of them). */
export type ShownSkills = Record<string, { hash: string; bytes?: Uint8Array }>;

/**
 * What the record says the user approved of their instruction files, for the start to weigh them
 * against: undefined — all taken as they are — on hey's first run (no record, and hey never kept
 * these hashes here) and, said once (`adopted`), for a record kept before hey weighed these files.
 * A record that lost its `instructions` key after hey kept them (an older hey rewrote it) approves
 * none, as a broken or removed one does (config/approval-store.ts, approve.ts readApprovalState).
 */
export function approvedBefore(state: Pick<InstructionState, "record" | "file">): { approved?: Record<string, string>; adopted?: true } {
  if (state.record?.instructions) return { approved: state.record.instructions };
  // a record an older hey rewrote keeps the mark in `trusted` (config/approvals.ts INSTRUCTIONS_KEPT: read as none
  // approved); the copies folder marks one a hey without that mark wrote. With no record the folder marks nothing:
  // the user removed it for a first run (README), and one removed with hey's sessions left is read as lost (approve.ts)
  if (state.record !== undefined && keptBefore(state.file)) return { approved: {} };
  return state.record === undefined ? {} : { adopted: true };
}

/** `here` with its project's `.hey/skills` weighed as the user's files are, when the project is trusted (UserPlaces.projectSkills; untrusted, none of it loads). */
export const withProjectSkills = <T extends UserPlaces & { root: string }>(here: T, trusted: boolean): T =>
  trusted ? { ...here, projectSkills: join(here.root, ".hey", "skills") } : here;

/**
 * Weighs the user's instruction files against the record when `permission` sets a list: asks with
 * `ask` (the REPL) about those new or changed, showing what changed — all at once, or at `e` each
 * on its own; those not approved are held out of this run (`state.held`, which the prompt reads),
 * each said to `warn`. `state.instructions` gets the hashes to record. Returns whether the user
 * said yes to any (the record is then written at once, as a yes to the config question is).
 * `records` false (`hey doctor`, which writes no record): files adopted are not said to be recorded.
 */
export async function decideInstructions(
  permission: Settings["permission"],
  state: InstructionState,
  at: UserPlaces,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
  warn: (message: string) => void,
  records = true,
): Promise<boolean> {
  if (!listsSet(permission)) return false; // the agent may write anything then: nothing read, nothing held
  state.projectSkills = at.projectSkills;
  const { approved: before, adopted } = approvedBefore(state);
  // a yes at the trust question, which showed the project's skills, approved them as it showed them: one changed since is asked about
  const shownAtTrust = Object.fromEntries(Object.entries(state.trustShown ?? {}).map(([path, s]) => [path, s.hash]));
  const approved = before && { ...before, ...shownAtTrust };
  const files = inUse(userInstructionFiles(at), approved);
  state.texts = Object.fromEntries(files.flatMap((f) => (f.bytes ? [[f.path, f.bytes]] : [])));
  const pending = pendingInstructions(files, approved);
  if (pending.length === 0) {
    state.instructions = approvedHashes(files);
    // a record kept before hey hashed these files: what is there now is taken as it is, said once
    if (adopted && records && files.length > 0) warn(adoptedInstructionsNotice(files, at.home, state.file));
    return false;
  }
  const shown = withChanges(state, pending, approved, at.home);
  const typed = ask ? await ask(instructionQuestion(shown, at.home)) : undefined;
  if (typed !== undefined && readAnswer(typed) === "yes") {
    state.instructions = approvedHashes(files);
    return true;
  }
  // `e`: a pack of skills with one doubtful file is not all or nothing
  const each = ask && typed !== undefined && /^\s*e/i.test(typed);
  const held: PendingInstruction[] = [];
  for (const f of shown) if (!each || readAnswer((await ask(oneFileQuestion(f, at.home))) ?? "") !== "yes") held.push(f);
  state.instructions = approvedHashes(files, held);
  if (held.length > 0) state.held = Object.fromEntries(held.map((f) => [f.path, f.hash]));
  const instead = files.find((f) => f.kind === "AGENTS.md" && !held.some((p) => p.path === f.path))?.path;
  for (const line of instructionNotices(held, at.home, ask !== undefined, instead)) warn(line);
  return held.length < pending.length;
}

/**
 * Each of `pending` with what a question shows of it (`shown`: instructionChange, at most `max`
 * lines), and why a folder skill too big to hash waits. A file changed since the trust question
 * showed it is diffed against what that showed.
 */
export function withChanges(
  state: Pick<InstructionState, "file" | "trustShown">,
  pending: readonly PendingInstruction[],
  approved: Readonly<Record<string, string>> | undefined,
  home: string,
  max?: number,
): PendingInstruction[] {
  const change = (f: PendingInstruction) => {
    const was = approved?.[f.path];
    const atTrust = state.trustShown?.[f.path];
    const copy = readCopy(state.file, f.path, was) ?? (atTrust?.bytes && atTrust.hash === was ? shownText(atTrust.bytes) : undefined);
    const shown = instructionChange(f.was, shownText(f.bytes), copy, basename(f.path) === "SKILL.md", max);
    // too big to hash: whether its other files changed nobody knows, so only its SKILL.md's change is said
    const same = was !== undefined && ownHash(was) === ownHash(f.hash);
    if (f.unchecked)
      return [
        `(${TOO_BIG}: hey cannot check what changed in it, so it asks at every start; ${MOVE_OUT})`,
        ...(same ? ["(SKILL.md as you approved it)"] : shown),
      ];
    // a new folder skill: a yes approves its other files too, so they are named
    if (f.was === "new") return [...shown, ...folderOthers(f.path, f.hash)];
    return withFolder(shown, folderChanges(state.file, f.path, was, f.hash), f.pythonCache);
  };
  return pending.map((f) => {
    const cache =
      f.was === "changed" ? pythonCacheNote(folderChanges(state.file, f.path, approved?.[f.path], f.hash), tilde(dirname(f.path), home)) : undefined;
    const g = { ...f, ...tooBig(f), ...(cache ? { pythonCache: cache } : {}) };
    return { ...g, shown: change(g) };
  });
}

/**
 * The skills of the project's `.hey/skills` as the trust question shows them (instruction-approval.ts
 * trustSkillsBlock): each with its hash, its name and description as the loader reads them from the
 * bytes hashed, and — against what the record approved — what is new or changed in it. A yes to
 * that question approves the skills it names as it showed them (InstructionState.trustShown).
 */
export function skillsForTrust(state: Pick<InstructionState, "record" | "file">, here: UserPlaces & { root: string }): TrustSkill[] {
  const at = withProjectSkills(here, true);
  const files = projectSkillFiles(at);
  if (files.length === 0) return [];
  const { approved } = approvedBefore(state);
  const pending = files.flatMap((f): PendingInstruction[] =>
    approved?.[f.path] === f.hash ? [] : [{ ...f, was: approved?.[f.path] === undefined ? "new" : "changed" }],
  );
  // a new skill's body, its name and description being in its head line (instruction-approval.ts skillText), and its folder's
  // other files, which a yes approves with it (withChanges); a change as a diff
  const body = (p: PendingInstruction) => skillText(shownText(p.bytes), TRUST_SKILL_LINES, relative(here.root, p.path));
  const shown = withChanges(state, pending, approved, here.home, TRUST_SKILL_LINES).map((p) =>
    p.was === "new" && p.shown ? { ...p, shown: p.unchecked ? [p.shown[0]!, ...body(p)] : [...body(p), ...folderOthers(p.path, p.hash)] } : p,
  );
  const bytes = new Map(files.map((f) => [f.path, f.bytes]));
  // the loader's own reading of the bytes hashed: the name and description the prompt would list
  const folder = skillFolders({ ...here, project: true }).filter((f) => f.dir === at.projectSkills); // its `within`: the project, links followed
  const { skills } = loadSkills(folder, (path) => bytes.get(path) ?? "held");
  return files.map((f) => {
    const skill = skills.find((s) => s.path === f.path);
    const pend = shown.find((p) => p.path === f.path);
    const name = skill?.name ?? basename(basename(f.path) === "SKILL.md" ? dirname(f.path) : f.path, ".md");
    // a link outside the project never loads, whatever the answer: said as such, never approved
    const leftOut = f.outside && `a link to ${f.outside}, outside the project`;
    return {
      ...f,
      name,
      description: skill?.description ?? "",
      was: pend?.was ?? "same",
      ...(pend?.shown && !leftOut ? { shown: pend.shown } : {}),
      ...(leftOut ? { leftOut } : {}),
    };
  });
}

/** The run's state loadable reads: what was approved at the start, held, written, and the record beside which the copies are. */
export type LoadState = Pick<InstructionState, "held" | "instructions" | "wrote" | "texts" | "projectSkills" | "declined"> & { file?: string };

/** `at` with the project's `.hey/skills` the start weighed: the files weighed all run are those the start weighed. */
export const weighed = (state: LoadState, at: UserPlaces): UserPlaces => (state.projectSkills ? { ...at, projectSkills: state.projectSkills } : at);

/**
 * What of the file at `path` may load now, or undefined when it is not weighed (no permission list
 * at the start, or not one of the user's instruction files: read it as usual). Under a list one of
 * the user's instruction files loads only as it was approved — at the start, or at the REPL's
 * `/reload` (trust/instruction-yes.ts) — or as this session's own write_file or edit left it (a
 * skill the agent made loads at a `/reload` without `ask`; the REPL's asks about it first): the
 * bytes read are the bytes hashed, so what loads is what was checked. A file changed since another
 * way — the user's editor, a command, another hey — loads as the copy of what was approved (`kept`:
 * the new text waits for the question); without a copy it is held. One left out at the start stays
 * out, whatever it holds since, until a yes at `/reload`.
 */
export function loadable(state: LoadState, path: string, where: UserPlaces): Loadable | undefined {
  const at = weighed(state, where);
  // a project skill linked outside the project: the loader leaves it out, saying so
  if (state.instructions === undefined || !isUserInstruction(path, at) || linkOutOfProject(path, at)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch {
    return { held: true };
  }
  // the text the user said no to at /reload: held, and said so
  const no = state.declined?.[path] !== undefined && state.declined[path] === hashOfRead(path, bytes, at) ? ({ declined: true } as const) : {};
  if (state.held?.[path] !== undefined) return { held: true, ...no };
  // a README.md or a loose .md without frontmatter: the loader never loads it, so it is read as any file
  if (isLooseSkillFile(path, at) && !looseSkill(bytes)) return undefined;
  const hash = hashOfRead(path, bytes, at);
  const approved = state.instructions[path];
  // a folder too big to hash, approved as such at the start: its SKILL.md is what is checked
  const unchecked = hash?.startsWith(UNCHECKED) && approved?.startsWith(UNCHECKED) && ownHash(hash) === ownHash(approved);
  if (hash !== undefined && (hash === approved || unchecked || state.wrote?.[path]?.includes(hash))) return { bytes };
  // the bytes the start read and hashed serve until the record's write has kept them (approve.ts)
  const read = state.texts?.[path];
  const copy =
    (state.file === undefined ? undefined : copyBytes(state.file, path, approved)) ??
    (read && approved && hashOf(read) === ownHash(approved) ? read : undefined);
  return copy ? { bytes: copy, kept: true } : { held: true, changed: approved !== undefined, ...no };
}

/** Whether any skill of the project's `.hey/skills` loads now (`state` weighs it: a `n` at `/reload` holds the only one, say), or the folder has no skill file. */
export function projectSkillsLoad(state: LoadState, here: UserPlaces & { root: string }): boolean {
  const files = projectSkillFiles(withProjectSkills(here, true)).filter((f) => f.outside === undefined);
  return (
    files.length === 0 ||
    files.some((f) => {
      const now = loadable(state, f.path, here);
      return now === undefined || "bytes" in now;
    })
  );
}

/** The prompt's view of the run's approvals `state` (prompt/source.ts): read as it is at each call. */
export const instructionGate = (state: LoadState): InstructionGate => ({
  weighing: () => state.instructions !== undefined,
  loadable: (path, at) => loadable(state, path, at),
});

/**
 * `tool` as it meets the user's instruction files under a permission list: hey's write_file and
 * edit note in `state.wrote` what they left one as (the hash of the file or folder skill written
 * in, just after; a file written another way — bash, another hey — is no write of this session's);
 * read_file of a skill's file (its `.md`, or any file in a folder skill) reads only what the user
 * approved: a skill that loads as it is (loadable), or a file of a folder skill whose own hash is the
 * one approved. A file new or changed since is refused, named — its text is not the user's until their
 * yes at `/reload` or the next start — and so is one that changed during the read. A user AGENTS.md is no skill:
 * the prompt weighs it, read_file reads it as any file.
 */
export function guardingInstructions(tool: Tool, state: LoadState, places: UserPlaces): Tool {
  const writes = tool.name === TOOL.writeFile || tool.name === TOOL.edit;
  if (!writes && tool.name !== TOOL.readFile) return tool;
  const skillOf = (args: Record<string, unknown>, cwd: string) => {
    const at = weighed(state, places);
    const where = typeof args.path === "string" && state.instructions !== undefined ? resolveUserPath(args.path, cwd, at.home) : undefined;
    if (!where || "error" in where) return undefined;
    // a file in a folder skill, at any depth, changes the folder's hash: the skill is its SKILL.md
    const above = (p: string): string[] => (dirname(p) === p ? [] : [join(dirname(p), "SKILL.md"), ...above(dirname(p))]);
    const own = (writes || (where.abs.endsWith(".md") && !isUserAgentsFile(where.abs, at))) && isUserInstruction(where.abs, at);
    const skill = own ? where.abs : above(where.abs).find((p) => isFolderSkill(p, at));
    return skill ? { skill, file: where.abs } : undefined;
  };
  return {
    ...tool,
    async run(args, ctx) {
      const of = skillOf(args, ctx.cwd);
      const path = of?.skill;
      if (!writes) {
        const unread = of && unreadable(state, of.skill, of.file, places);
        if (unread) return toolError(unread);
        const result = await tool.run(args, ctx);
        const after = of && unreadable(state, of.skill, of.file, places);
        return after ? toolError(after) : result;
      }
      const result = await tool.run(args, ctx);
      const hash = !result.isError && path && instructionHash(path, weighed(state, places));
      if (path && hash) (state.wrote ??= {})[path] = [...(state.wrote[path] ?? []), hash];
      return result;
    },
  };
}

/** Why read_file may not read `file` of the skill whose SKILL.md (or `.md`) is `path` (guardingInstructions), or undefined when it may. */
function unreadable(state: LoadState, path: string, file: string, at: UserPlaces): string | undefined {
  const now = loadable(state, path, at);
  if (now === undefined || ("bytes" in now && !now.kept)) return undefined;
  const had = state.instructions?.[path] !== undefined && state.held?.[path] === undefined;
  const own = had && basename(path) === "SKILL.md" ? ownFileChange(state, path, file) : undefined;
  if (own === "same") return undefined; // the skill's folder changed elsewhere (a cache its script wrote): this file is as approved
  const whose = state.projectSkills && path.startsWith(`${state.projectSkills}/`) ? "a skill of the project's .hey/skills" : "the user's own skill";
  const what = file === path ? `${path} is ${whose}` : `${file} is a file of ${whose} ${path}`;
  const since =
    own === "new"
      ? "new in its folder since the user approved the skill"
      : had
        ? `${file !== path && own === undefined ? "whose folder" : ""} changed since the user approved it at the start`.trim()
        : "new or changed since the user last approved it";
  return `blocked by permission rules: ${what}, ${since}, not by this session's write_file or edit; its text now is not approved, so it is not read — it waits for the user's yes at their /reload or the next start of hey at a terminal${had && own !== "new" ? "; /skill sends the text as approved" : ""}`;
}

/**
 * Whether `file` of the folder skill `path` (its SKILL.md), approved at the start, holds what was
 * approved ("same"), is "changed", or "new"; undefined when hey kept no list of the folder's files.
 * Each file is weighed by its own hash: a cache the skill's script wrote beside it changes nothing read.
 */
function ownFileChange(state: LoadState, path: string, file: string): "same" | "changed" | "new" | undefined {
  const approved = state.instructions?.[path];
  const each = file === path ? approved && { "SKILL.md": ownHash(approved) } : state.file && approvedFiles(state.file, path, approved);
  if (!each) return undefined;
  const was = each[relative(dirname(path), file)];
  if (was === undefined) return "new";
  try {
    return hashOf(readFileSync(file)) === was ? "same" : "changed";
  } catch {
    return "changed";
  }
}

const TOO_BIG = `its folder holds over ${SKILL_FILES_MAX} files or ${SKILL_BYTES_MAX / 1024 / 1024} MB`;
const MOVE_OUT = "move a dependency folder in it (node_modules, .venv) out of the skill's folder to have it checked";

/** A folder skill too big to hash (UNCHECKED) with why it waits: it can never match what was approved, so no -p run loads it. */
const tooBig = (f: PendingInstruction): { unchecked?: string } =>
  f.hash.startsWith(UNCHECKED)
    ? {
        unchecked: `whose ${TOO_BIG.slice(4)}, which hey cannot check: it is left out of every -p run and asked about at each start at a terminal; ${MOVE_OUT} and loaded`,
      }
    : {};

/** The text the question shows of a file: the bytes that were hashed (userInstructionFiles), up to COPY_MAX_BYTES. */
const shownText = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes.subarray(0, COPY_MAX_BYTES)).toString("utf8") : "");

/** A folder skill's shown change with the other files that changed in its folder named (folderChanges), when known; or said to be Python's cache alone (`cache`). */
function withFolder(shown: string[], changed: string[] | undefined, cache: string | undefined): string[] {
  if (!changed?.length) return shown;
  const named = cache ?? `changed in its folder: ${changed.join(", ")}`;
  return shown[0]?.startsWith("(SKILL.md as you approved it") ? [`(SKILL.md as you approved it; ${named})`] : [...shown, `(also ${named})`];
}

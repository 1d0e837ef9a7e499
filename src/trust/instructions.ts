// The start's step for the user's own instruction files (trust/instruction-approval.ts): while a
// permission list is set, those new or changed since the user last approved them are asked about
// in the REPL, left out of a one-shot run and said; the hashes this run uses go to the approvals
// record with the config files' (approve.ts recordApprovals). Without a list nothing is read here.
import { listsSet } from "../config/control-files.ts";
import type { Settings } from "../config/settings.ts";
import { basename, dirname, join } from "node:path";
import { resolveUserPath } from "../fs/user-path.ts";
import type { Tool } from "../kernel/tool.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { instructionHash, isUserInstruction, userInstructionFiles, type UserPlaces } from "../prompt/user-instructions.ts";
import type { Approvals } from "../config/approvals.ts";
import { keptBefore, readCopy, textNow } from "./instruction-copies.ts";
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
} from "./instruction-approval.ts";
import { readAnswer } from "./policy.ts";

/** What of the run's approvals state (approve.ts ApprovalState) this step reads and sets. */
export interface InstructionState {
  record: Approvals | undefined;
  file: string;
  /**
   * the user's instruction files this run uses, path → hash, recorded with the config files'
   * (approve.ts recordApprovals); undefined: no permission list at the start, none weighed
   */
  instructions?: Record<string, string>;
  /** those left out at the start for want of approval: out for the whole run, whatever they hold since (heldOut) */
  held?: Record<string, string>;
  /** the hashes this session's write_file and edit calls left the user's files with (notingWrites): those load at `/reload` */
  wrote?: Record<string, string[]>;
}

/**
 * What the record says the user approved of their instruction files, for the start to weigh them
 * against: undefined — all taken as they are — on hey's first run (no record, and hey never kept
 * these hashes here) and, said once (`adopted`), for a record kept before hey weighed these files.
 * A record that lost its `instructions` key after hey kept them (an older hey rewrote it) approves
 * none, as a broken or removed one does (config/approval-store.ts, approve.ts readApprovalState).
 */
export function approvedBefore(state: Pick<InstructionState, "record" | "file">): { approved?: Record<string, string>; adopted?: true } {
  if (state.record?.instructions) return { approved: state.record.instructions };
  if (keptBefore(state.file)) return { approved: {} };
  return state.record === undefined ? {} : { adopted: true };
}

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
  const { approved, adopted } = approvedBefore(state);
  const files = inUse(userInstructionFiles(at), approved);
  const pending = pendingInstructions(files, approved);
  if (pending.length === 0) {
    state.instructions = approvedHashes(files);
    // a record kept before hey hashed these files: what is there now is taken as it is, said once
    if (adopted && records && files.length > 0) warn(adoptedInstructionsNotice(files, at.home, state.file));
    return false;
  }
  const change = (f: PendingInstruction) =>
    instructionChange(f.was, textNow(f.path), readCopy(state.file, f.path, approved?.[f.path]), basename(f.path) === "SKILL.md");
  const shown = pending.map((f) => ({ ...f, shown: change(f) }));
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
 * Whether the file at `path` stays out of the prompt now. Under a permission list (weighed at the
 * start) one of the user's instruction files loads only as it was approved at the start, or as
 * this session's own write_file or edit left it (a skill the agent made loads at `/reload`; the
 * next start asks about it); one left out at the start stays out all run, whatever it holds since
 * — a file another process keeps rewriting is never read on the strength of a hash taken earlier.
 */
export function heldOut(state: Pick<InstructionState, "held" | "instructions" | "wrote">, path: string, at: UserPlaces): boolean {
  if (state.instructions === undefined || !isUserInstruction(path, at)) return false;
  if (state.held?.[path] !== undefined) return true;
  const hash = instructionHash(path, at);
  return hash === undefined || (hash !== state.instructions[path] && !state.wrote?.[path]?.includes(hash));
}

/**
 * `tool` noting in `state.wrote` what its call left one of the user's instruction files as (the
 * hash of the file or folder skill it wrote in, just after): hey's write_file and edit only; a file
 * written another way (bash, another hey) is no write of this session's.
 */
export function notingWrites(tool: Tool, state: Pick<InstructionState, "instructions" | "wrote">, at: UserPlaces): Tool {
  if (tool.name !== TOOL.writeFile && tool.name !== TOOL.edit) return tool;
  return {
    ...tool,
    async run(args, ctx) {
      const result = await tool.run(args, ctx);
      const where = typeof args.path === "string" && state.instructions !== undefined ? resolveUserPath(args.path, ctx.cwd, at.home) : undefined;
      if (result.isError || !where || "error" in where) return result;
      // a file in a folder skill, at any depth, changes the folder's hash: the skill is its SKILL.md
      const above = (p: string): string[] => (dirname(p) === p ? [] : [join(dirname(p), "SKILL.md"), ...above(dirname(p))]);
      const path = [where.abs, ...above(where.abs)].find((p) => isUserInstruction(p, at));
      const hash = path && instructionHash(path, at);
      if (path && hash) (state.wrote ??= {})[path] = [...(state.wrote[path] ?? []), hash];
      return result;
    },
  };
}

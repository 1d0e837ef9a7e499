// The start's step for the user's own instruction files (trust/instruction-approval.ts): while a
// permission list is set, those new or changed since the user last approved them are asked about
// in the REPL, left out of a one-shot run and said; the hashes this run uses go to the approvals
// record with the config files' (approve.ts recordApprovals). Without a list nothing is read here.
import { listsSet } from "../config/control-files.ts";
import type { Settings } from "../config/settings.ts";
import { instructionHash, instructionHead, userInstructionFiles, type UserPlaces } from "../prompt/user-instructions.ts";
import type { Approvals } from "../config/approvals.ts";
import { adoptedInstructionsNotice, approvedHashes, instructionNotices, instructionQuestion, pendingInstructions } from "./instruction-approval.ts";
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
  /** those left out of this run for want of approval, path → hash as they were then (heldOut) */
  held?: Record<string, string>;
}

/**
 * Weighs the user's instruction files against `state.record` when `permission` sets a list: asks
 * with `ask` (the REPL) about those new or changed; those not approved are held out of this run
 * (`state.held`, which the prompt reads), each said to `warn`. `state.instructions` gets the hashes
 * to record. Returns whether the user said yes (the record is then written at once, as a yes to the
 * config question is).
 */
export async function decideInstructions(
  permission: Settings["permission"],
  state: InstructionState,
  at: UserPlaces,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
  warn: (message: string) => void,
): Promise<boolean> {
  if (!listsSet(permission)) return false; // the agent may write anything then: nothing read, nothing held
  const files = userInstructionFiles(at);
  const recorded = state.record?.instructions;
  const pending = pendingInstructions(files, recorded);
  if (pending.length === 0) {
    state.instructions = approvedHashes(files);
    // a record kept before hey hashed these files: what is there now is taken as it is, said once at a terminal
    if (recorded === undefined && state.record !== undefined && ask && files.length > 0) warn(adoptedInstructionsNotice(files, at.home, state.file));
    return false;
  }
  const typed = ask
    ? await ask(
        instructionQuestion(
          pending.map((f) => ({ ...f, head: instructionHead(f.path) })),
          at.home,
        ),
      )
    : undefined;
  if (typed !== undefined && readAnswer(typed) === "yes") {
    state.instructions = approvedHashes(files);
    return true;
  }
  state.instructions = approvedHashes(files, pending);
  state.held = Object.fromEntries(pending.map((f) => [f.path, f.hash]));
  for (const line of instructionNotices(pending, at.home, ask !== undefined)) warn(line);
  return false;
}

/**
 * Whether the file at `path` is held out of this run: left out at the start, and its text still
 * what it was then. One the agent wrote since (a skill it made in this session) loads at
 * `/reload` as before; the next start asks about it.
 */
export function heldOut(state: Pick<InstructionState, "held">, path: string): boolean {
  const hash = state.held?.[path];
  return hash !== undefined && instructionHash(path) === hash;
}

// A person's yes to the user's instruction files outside the start's question (trust/instructions.ts
// decideInstructions): at `/reload` in the REPL, which asks the start's question about those new or
// changed since this run approved them and loads what the user approves in that same reload; and at
// `/trust` or `hey trust`, whose question shows the project's `.hey/skills` as the start's trust
// question does, and whose yes approves them as shown. Only a question typed at the REPL or at
// `hey trust` in a terminal reaches here: a one-shot run, a script and the agent's commands get no `ask`.
import { join } from "node:path";
import { updateApprovals } from "../config/approval-store.ts";
import { withInstructions } from "../config/approvals.ts";
import { ownHash, keepCopies } from "./instruction-copies.ts";
import { inUse, instructionQuestion, approvedAtTrust, oneFileQuestion, pendingInstructions, type TrustSkill } from "./instruction-approval.ts";
import { weighed, withChanges, type InstructionState, type ShownSkills } from "./instructions.ts";
import { readAnswer } from "./policy.ts";
import { UNCHECKED, userInstructionFiles, type UserInstruction, type UserPlaces } from "../prompt/user-instructions.ts";

/**
 * `/reload`'s step for the user's instruction files, while they are weighed (a permission list at
 * the start): a yes another hey recorded since counts as this run's; then, with `ask` (a person at
 * the REPL), those new or changed since this run approved them are shown as the start shows them —
 * all at once, or at `e` each on its own — and those approved load in this reload (`state`, which
 * the prompt and read_file's guard read). `projectTrusted` false (after `/untrust`): the project's
 * `.hey/skills`, which this reload leaves out, are not asked about. A no leaves each as it was: held, or loaded as approved
 * (the copy); one this session's write_file made is then held too, for the user has seen it and
 * said no. Returns whether the user said yes to any: the record is then written as the start's yes
 * writes it (approve.ts recordApprovals, with the copies of what was approved).
 */
export async function askAtReload(
  state: InstructionState,
  where: UserPlaces,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
  projectTrusted = true,
): Promise<boolean> {
  const approved = state.instructions;
  if (approved === undefined) return false; // no list at the start: nothing is weighed this run
  // after /untrust this reload loads none of the project's .hey/skills: nothing of them to ask about
  const at = projectTrusted ? weighed(state, where) : where;
  const recorded = state.record?.instructions ?? {};
  const files = userInstructionFiles(at);
  for (const f of files) if (recorded[f.path] === f.hash && approved[f.path] !== f.hash) approveFile(state, f); // a second terminal's yes
  // what the question says a file changed from, and diffs it against: this run's approval, else the record's
  const before = { ...recorded, ...approved };
  // a text the user said no to at an earlier /reload is not asked about again until it changes (or the next start)
  const pending = pendingInstructions(inUse(files, approved), before).filter(
    (f) => !tooBigAsApproved(f.hash, approved[f.path]) && state.declined?.[f.path] !== f.hash,
  );
  if (pending.length === 0 || ask === undefined) return false;
  const shown = withChanges(state, pending, before, at.home);
  const typed = await ask(instructionQuestion(shown, at.home));
  const all = typed !== undefined && readAnswer(typed) === "yes";
  const each = typed !== undefined && !all && /^\s*e/i.test(typed);
  let yes = false;
  for (const f of shown) {
    if (all || (each && readAnswer((await ask(oneFileQuestion(f, at.home))) ?? "") === "yes")) {
      approveFile(state, f);
      yes = true;
    } else {
      (state.declined ??= {})[f.path] = f.hash;
      if (state.wrote?.[f.path]) state.wrote[f.path] = state.wrote[f.path]!.filter((hash) => hash !== f.hash);
    }
  }
  return yes;
}

/** A folder skill too big to hash whose SKILL.md is as approved: it loads as it did at the start, which asks about it each time. */
const tooBigAsApproved = (hash: string, approved: string | undefined) =>
  hash.startsWith(UNCHECKED) && approved?.startsWith(UNCHECKED) === true && ownHash(hash) === ownHash(approved);

/** `f` approved for the rest of the run as hashed: it loads, read_file reads it, and the record keeps it (with a copy of `bytes`). */
function approveFile(state: InstructionState, f: Pick<UserInstruction, "path" | "hash" | "bytes">): void {
  (state.instructions ??= {})[f.path] = f.hash;
  if (state.held) delete state.held[f.path];
  if (state.declined) delete state.declined[f.path];
  if (f.bytes) (state.texts ??= {})[f.path] = f.bytes;
}

/** The project's skills a trust question showed (trust/instruction-approval.ts approvedAtTrust), as it showed them: what its yes approves. */
export const shownSkills = (skills: readonly TrustSkill[]): ShownSkills =>
  Object.fromEntries(approvedAtTrust(skills).map((s) => [s.path, { hash: s.hash, ...(s.bytes ? { bytes: s.bytes } : {}) }]));

/**
 * After a yes at `/trust` or `hey trust`, whose question showed the project's skills: those it
 * named recorded as approved, as shown, with the copies the next question diffs against — when the
 * record keeps the user's instruction files at all (a permission list was set in a run before; else
 * every file is taken as it is, and a record of these alone would make the others new). `state`:
 * the running session's (`/trust`), whose later `/reload` then loads them asking nothing.
 * Throws as updateApprovals.
 */
export async function recordShownSkills(file: string, skills: readonly TrustSkill[], state?: InstructionState): Promise<void> {
  const shown = shownSkills(skills);
  const hashes = Object.fromEntries(Object.entries(shown).map(([path, s]) => [path, s.hash]));
  if (Object.keys(hashes).length === 0) return;
  // this session's yes holds for this session whatever the record keeps: the skills shown load at /reload, those not shown wait
  if (state?.instructions) for (const [path, s] of Object.entries(shown)) approveFile(state, { path, ...s });
  const next = await updateApprovals(file, (a) => (a.instructions ? withInstructions(a, hashes) : a), "existing");
  if (!next?.instructions) return;
  keepCopies(file, hashes, Object.fromEntries(Object.entries(shown).flatMap(([path, s]) => (s.bytes ? [[path, s.bytes]] : []))));
}

/**
 * When the project becomes trusted mid-session (`/trust`'s yes, or a `/reload` that keeps a trust
 * the session grew: trust/session.ts), its `.hey/skills` are weighed from then on as a project
 * trusted at the start has them weighed (decideInstructions): what the trust question showed and the
 * person said yes to loads (recordShownSkills), anything else — a skill past the question's cap, one
 * the agent wrote or rewrote since — waits for a yes at `/reload`, and read_file reads only what was
 * approved. Nothing when no permission list was set at the start: nothing is weighed this run.
 */
export function weighProjectSkills(state: InstructionState, root: string): void {
  if (state.instructions !== undefined) state.projectSkills ??= join(root, ".hey", "skills");
}

// What `/undo` says to the user and, with the next message, to the model (x57). Pure.
import { relative } from "node:path";
import type { Later, UndoOutcome, UndoReport } from "../tools/undo-outcome.ts";
import { userRanNote } from "../kernel/user-notes.ts";

/** Said when there is no turn to undo. */
export const NOTHING_TO_UNDO = "nothing to undo: no turn of this session changed a file with edit or write_file";

/** Files named at most in the line that says which turn a second `/undo` would undo; the rest are counted. */
const NAMED_FILES = 5;

const nameFrom = (cwd: string) => (path: string) => (path.startsWith(cwd + "/") ? relative(cwd, path) : path);

/** "the last turn ran", "the last 2 turns ran", "1 of the last 3 turns ran": the newer turns, as the user saw them go by. */
function laterTurns(later: Later): string {
  if (later.turns === 1) return "the last turn ran";
  if (later.ranBash === later.turns) return `the last ${later.turns} turns ran`;
  return `${later.ranBash} of the last ${later.turns} turns ran`;
}

/** What is left to undo once `/undo` has put back every turn that changed files: `count` of them. */
const allUndone = (count: number) =>
  count === 1 ? "the only turn that changed files is undone already" : `the ${count} turns that changed files are all undone already`;

/** The user's lines for an `/undo` that undid nothing: none to undo, or one more `/undo` goes past turns that ran bash. */
export function notUndoneText(outcome: Exclude<UndoOutcome, { kind: "undone" }>, cwd: string): string {
  if (outcome.kind === "elsewhere")
    return [
      outcome.unanswered
        ? `nothing undone: the last turn that changed files (${outcome.files.length === 1 ? "1 file" : `${outcome.files.length} files`}) was made in ${outcome.root}, and ${outcome.unanswered} did not answer in time (a hung network mount?), so /undo cannot tell whether that is this project`
        : `nothing undone: the last turn that changed files (${outcome.files.length === 1 ? "1 file" : `${outcome.files.length} files`}) was made in ${outcome.root}, not in this project`,
      `/undo undoes it from there: cd ${outcome.root}, then hey --resume this session`,
    ].join("\n");
  const { later } = outcome;
  // the session's turns of an earlier hey changed files, and their copies went with its outputs
  if (outcome.kind === "none" && outcome.gone)
    return `nothing to undo: no copies are kept of this session's earlier turns that changed files (${outcome.gone}; a run with -p keeps none)`;
  // the turns that changed files are undone already: not that none ever did, which the /undo before has just contradicted
  const undone = outcome.kind === "none" && outcome.undone ? allUndone(outcome.undone) : undefined;
  if (outcome.kind === "none" && undone)
    return later.ranBash === 0
      ? `nothing more to undo: ${undone}`
      : `nothing more to undo: ${laterTurns(later)} bash commands, whose changes /undo cannot put back, and ${undone}`;
  if (outcome.kind === "none")
    return later.ranBash === 0
      ? NOTHING_TO_UNDO
      : `nothing to undo: ${laterTurns(later)} bash commands, whose changes /undo cannot put back, and no turn before changed a file with edit or write_file`;
  const names = outcome.files.map(nameFrom(cwd));
  const shown = names.slice(0, NAMED_FILES).join(", ") + (names.length > NAMED_FILES ? ` and ${names.length - NAMED_FILES} more` : "");
  const before = later.turns === 1 ? "the turn before it" : "the turn before them";
  return [
    `nothing undone yet: ${laterTurns(later)} bash commands, whose changes /undo cannot put back`,
    `/undo again undoes ${before} anyway (its changes to ${shown}); what the commands changed stays`,
  ].join("\n");
}

/** The user's lines: which files came back, which were left and why, that bash's changes stay. Paths relative to `cwd`. */
export function undoText(report: UndoReport, cwd: string): string {
  const name = nameFrom(cwd);
  const { later } = report;
  // no file came back (no copy could be kept, each changed since): said so, not "undid" (x117)
  const none = report.restored.length === 0 && report.removed.length === 0;
  const turn = later.ranBash === 0 ? "the agent's last turn that changed files" : `the turn before ${later.turns === 1 ? "it" : "them"}`;
  const lines = [
    ...(later.ranBash === 0 ? [] : [`passed over newer turns: ${laterTurns(later)} bash commands, whose changes stay`]),
    none ? `nothing undone: no file change of ${turn} could be put back:` : `undid the file changes of ${turn}:`,
  ];
  for (const path of report.restored) lines.push(`  restored ${name(path)}`);
  for (const path of report.removed) lines.push(`  removed ${name(path)} (that turn created it)`);
  for (const path of report.changed) lines.push(`  left ${name(path)}: it changed after the agent's edit (yours, or a command's); not touched`);
  for (const { path, why } of report.skipped) lines.push(`  left ${name(path)}: ${why}`);
  if (report.ranBash) lines.push("that turn also ran bash commands: what they changed is not undone (/undo covers edit and write_file only)");
  // an /undo again finds nothing when no older turn changed files: not offered then
  lines.push(report.older ? "/undo again goes one turn further back; the model is told with your next message" : "the model is told with your next message");
  return lines.join("\n");
}

/** The model's note: which files are back to what they were, so it reads them again before editing. */
export function undoNote(report: UndoReport, cwd: string): string {
  const name = nameFrom(cwd);
  const back = [...report.restored, ...report.removed.map((p) => `${p} (removed: that turn created it)`)].map(name);
  const left = [...report.changed, ...report.skipped.map((s) => s.path)].map(name);
  const laterBash = report.later.ranBash;
  return userRanNote(
    "/undo",
    (back.length === 0 ? " none of your file changes of an earlier turn could be undone" : " your file changes of an earlier turn were undone") +
      (back.length ? `; back to what they were before it: ${back.join(", ")}` : "") +
      (left.length ? `; not undone: ${left.join(", ")}` : "") +
      (report.ranBash ? "; what that turn's bash commands changed was not undone" : "") +
      (laterBash > 0 ? `; what your bash commands changed in the ${laterBash === 1 ? "later turn" : `${laterBash} later turns`} stays as it is` : "") +
      ". Read a file again before you edit it.",
  );
}

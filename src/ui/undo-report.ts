// What `/undo` says to the user and, with the next message, to the model (x57). Pure.
import { relative } from "node:path";
import type { UndoReport } from "../tools/checkpoints.ts";

/** Said when there is no turn to undo. */
export const NOTHING_TO_UNDO = "nothing to undo: no turn of this session (since hey started) changed a file with edit or write_file";

/** The user's lines: which files came back, which were left and why, that bash's changes stay. Paths relative to `cwd`. */
export function undoText(report: UndoReport, cwd: string): string {
  const name = (path: string) => (path.startsWith(cwd + "/") ? relative(cwd, path) : path);
  const lines = ["undid the file changes of the agent's last turn that changed files:"];
  for (const path of report.restored) lines.push(`  restored ${name(path)}`);
  for (const path of report.removed) lines.push(`  removed ${name(path)} (that turn created it)`);
  for (const path of report.changed) lines.push(`  left ${name(path)}: it changed after the agent's edit (yours, or a command's); not touched`);
  for (const { path, why } of report.skipped) lines.push(`  left ${name(path)}: ${why}`);
  if (report.ranBash) lines.push("that turn also ran bash commands: what they changed is not undone (/undo covers edit and write_file only)");
  lines.push("/undo again goes one turn further back; the model is told with your next message");
  return lines.join("\n");
}

/** The model's note: which files are back to what they were, so it reads them again before editing. */
export function undoNote(report: UndoReport, cwd: string): string {
  const name = (path: string) => (path.startsWith(cwd + "/") ? relative(cwd, path) : path);
  const back = [...report.restored, ...report.removed.map((p) => `${p} (removed: that turn created it)`)].map(name);
  const left = [...report.changed, ...report.skipped.map((s) => s.path)].map(name);
  return (
    "The user ran /undo before writing this message: your file changes of an earlier turn were undone" +
    (back.length ? `; back to what they were before it: ${back.join(", ")}` : "") +
    (left.length ? `; not undone: ${left.join(", ")}` : "") +
    (report.ranBash ? "; what that turn's bash commands changed was not undone" : "") +
    ". Read a file again before you edit it."
  );
}

// A one-shot run (`hey -c -p "…"`) on a session whose REPL turns `/undo` can reach keeps no copies
// (checkpoints.ts stays off that path), but it is a turn of the session all the same: without a
// word of it in the record, a later `hey -c` then `/undo` went straight past it, put back an older
// turn's files under it, and never said that the -p turn had run bash commands (x94). So such a
// run appends its turn to the record, without copies: that it ran bash, and each file it changed
// with edit or write_file, with no copy ("a run with -p keeps no copies") and its hash after. A
// session with no record is left alone: its `/undo` already says that -p keeps no copies.
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { appendWhole } from "../fs/append-whole.ts";
import { diskPath } from "../fs/dir-names.ts";
import { diskProblem } from "../fs/dir-problem.ts";
import { errorText } from "../kernel/errors.ts";
import { realTarget } from "../fs/real-target.ts";
import { resolveUserPath } from "../fs/user-path.ts";
import { newId } from "../kernel/ir.ts";
import type { Tool } from "../kernel/tool.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { contentHash } from "./read-file.ts";
import { RECORD_FILE, recordLine, type UndoRecord } from "./undo-record.ts";

/** Why /undo cannot put back what a one-shot run changed. */
export const ONE_SHOT_KEEPS_NONE = "a run with -p keeps no copies; not touched";

/** The run's turn, begun in the record at its first step. */
interface RunTurn {
  id: string;
  begun: boolean;
  ranBash: boolean;
  files: Set<string>;
  /** steps not yet written (a full disk), tried again with the next one */
  pending: string;
  /** the user was told that the record could not be saved: once a run */
  told: boolean;
}

const turns = new Map<string, RunTurn>();

/** The line said once a run when the record of its turn could not be saved in `file`. */
export function unsavedRunNotice(file: string, why: string): string {
  return `hey: /undo's record of this run could not be saved in ${file}: ${why}; until it is (hey tries again with each change), a later hey -c's /undo does not know what this run changed`;
}

/** Whether `file` ends in a line cut short (a hey killed mid-line): the next step must start a line of its own. Never throws. */
function endsMidLine(file: string): boolean {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    if (size === 0) return false;
    fd = openSync(file, "r");
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } catch {
    return false; // not readable: the write that follows fails too, and says so
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * For a run in the project `root`: `tool` with the run's turn recorded in `dir`'s record (the
 * session's outputs folder) where there is one: bash marks it, edit and write_file name the file
 * they changed. Any other tool is returned as it is. Never throws for the record: a step that
 * cannot be written is kept and written with the next, and `notice` says so once.
 */
export const oneShotTurns =
  (root: string) =>
  (tool: Tool, dir: string, home: string, _seen?: unknown, notice?: (line: string) => void): Tool =>
    withOneShotTurn(tool, dir, home, root, notice);

function withOneShotTurn(tool: Tool, dir: string, home: string, root: string, notice?: (line: string) => void): Tool {
  const file = join(dir, RECORD_FILE);
  const turn = () =>
    turns.get(dir) ?? (turns.set(dir, { id: newId(), begun: false, ranBash: false, files: new Set(), pending: "", told: false }), turns.get(dir)!);
  const record = (t: RunTurn, r: UndoRecord) => {
    if (!existsSync(file)) return; // a session with no record: its /undo already says -p keeps no copies
    t.pending += (t.begun ? "" : (endsMidLine(file) ? "\n" : "") + recordLine({ type: "turn", turn: t.id, root })) + recordLine(r);
    t.begun = true;
    const failed = appendWhole(file, t.pending, 0o600);
    if (!failed) {
      t.pending = "";
      return;
    }
    if (failed.torn && !t.pending.startsWith("\n")) t.pending = `\n${t.pending}`; // after what the failed write left of a line
    if (t.told) return;
    t.told = true;
    notice?.(unsavedRunNotice(file, diskProblem(failed.error)?.split(";")[0] ?? errorText(failed.error)));
  };
  if (tool.name === TOOL.bash)
    return {
      ...tool,
      run: (args, ctx) => {
        const t = turn();
        if (!t.ranBash) record(t, { type: "bash", turn: t.id });
        t.ranBash = true;
        return tool.run(args, ctx);
      },
    };
  if (tool.name !== TOOL.edit && tool.name !== TOOL.writeFile) return tool;
  return {
    ...tool,
    run: async (args, ctx) => {
      const result = await tool.run(args, ctx);
      const path = (args as { path?: unknown }).path;
      const where = !result.isError && typeof path === "string" && path !== "" ? resolveUserPath(path, ctx.cwd, home) : undefined;
      const target = where && !("error" in where) ? realTarget(where.abs) : undefined;
      const after = target && (await readFile(diskPath(target)).then(contentHash, () => undefined));
      const t = turn();
      if (!target || !after) return result;
      if (!t.files.has(target)) record(t, { type: "before", turn: t.id, path: target, skipped: ONE_SHOT_KEEPS_NONE });
      t.files.add(target);
      record(t, { type: "after", turn: t.id, path: target, sha256: after });
      return result;
    },
  };
}

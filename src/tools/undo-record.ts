// The record of `/undo`'s turns (checkpoints.ts), one JSON line per step, appended to `undo.jsonl`
// beside the copies in the session's outputs folder, so that a hey started again on the session
// (`hey -c`, `/resume`) rebuilds its turns and `/undo` still reaches them. Appended, never
// rewritten: a hey killed mid-line loses that line only, and a line that does not parse is passed
// over. The record is read only at a session's first turn or `/undo`, never on the way to the
// prompt. Pure.
import { isAbsolute } from "node:path";
import { isWithin } from "../fs/within.ts";
import type { Message } from "../kernel/ir.ts";
import { TOOL } from "../kernel/tool-names.ts";

/** The record file's name in the session's outputs folder. */
export const RECORD_FILE = "undo.jsonl";

/** The copies' names: `undo-<turn id>-<n>`; a name read back from the record must be one. */
const COPY_NAME = /^undo-[a-z0-9]+-\d+$/;

/**
 * One step: a turn began (`root`: the project it was made in); it ran a bash command; what a file was before its first change in the
 * turn (`copy` and its sha-256, `mode`; neither: the turn created it; `skipped`: why no copy was
 * kept); the sha-256 of what the agent's last change left; a folder write_file made; `/undo` undid
 * or passed over the turn and every newer one; `lost`, first in a record begun after an earlier
 * one was lost: the session's turns before it changed files whose copies are gone.
 */
export type UndoRecord =
  | { type: "lost" }
  | { type: "turn"; turn: string; root?: string }
  | { type: "bash"; turn: string }
  | { type: "before"; turn: string; path: string; copy?: string; sha256?: string; mode?: number; skipped?: string }
  | { type: "after"; turn: string; path: string; sha256: string }
  | { type: "folder"; turn: string; path: string }
  | { type: "undone"; turn: string };

/** What one file was before a turn's first change to it, and the hash of what the agent left. */
export interface KeptFile {
  path: string;
  /** the name of the copy of the old bytes in the outputs folder; undefined: the file did not exist (the turn created it) */
  copy?: string;
  /** sha-256 of the copy's bytes: a copy that no longer hashes to it is not put back */
  copyHash?: string;
  mode?: number;
  /** why no copy was kept of a file that existed */
  skipped?: string;
  /** sha-256 of the file after the agent's last successful change to it; undefined: never changed */
  after?: string;
}

/** One turn as the record has it: the files it changed, whether it ran bash, the folders write_file made. */
export interface RecordedTurn {
  id: string;
  files: Map<string, KeptFile>;
  ranBash: boolean;
  folders: Set<string>;
  /** the project root of the hey that made it; undefined in a record written before hey kept it */
  root?: string;
}

/** The line that appends `record`. */
export function recordLine(record: UndoRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/**
 * The turns `text` (the record file) leaves on the undo stack, oldest first; whether the session's
 * earlier turns were `lost`; and how many turns that changed a file `/undo` has `undone` (in any hey
 * on the session), so that a hey started again says what is left as the one before would have.
 * Lines that do not parse (the last one, cut by a hey that was killed; any other) and steps of a
 * turn it does not know are passed over. Never throws.
 */
export function replayRecords(text: string): { turns: RecordedTurn[]; lost: boolean; undone: number } {
  const turns: RecordedTurn[] = [];
  const byId = new Map<string, RecordedTurn>();
  let lost = false;
  let undone = 0;
  for (const line of text.split("\n")) {
    const r = parsed(line);
    if (!r) continue;
    if (r.type === "lost") {
      lost = true;
      continue;
    }
    if (r.type === "turn") {
      if (byId.has(r.turn)) continue;
      const turn: RecordedTurn = { id: r.turn, files: new Map(), ranBash: false, folders: new Set(), ...(r.root !== undefined && { root: r.root }) };
      turns.push(turn);
      byId.set(r.turn, turn);
      continue;
    }
    const turn = byId.get(r.turn);
    if (!turn) continue;
    if (r.type === "bash") turn.ranBash = true;
    else if (r.type === "folder") turn.folders.add(r.path);
    else if (r.type === "after") {
      const kept = turn.files.get(r.path);
      if (kept) kept.after = r.sha256;
    } else if (r.type === "before") turn.files.set(r.path, keptFrom(r));
    else
      for (const gone of turns.splice(turns.indexOf(turn))) {
        byId.delete(gone.id); // undone, or passed over by the /undo that undid an older turn
        if ([...gone.files.values()].some((k) => k.after !== undefined)) undone++;
      }
  }
  return { turns, lost, undone };
}

function keptFrom(r: Extract<UndoRecord, { type: "before" }>): KeptFile {
  if (r.skipped !== undefined) return { path: r.path, skipped: r.skipped, ...(r.mode !== undefined && { mode: r.mode }) };
  if (r.copy === undefined) return { path: r.path }; // created by the turn
  // a copy whose name or hash the record lost cannot be checked: said at /undo, never restored
  if (!COPY_NAME.test(r.copy) || r.sha256 === undefined) return { path: r.path, skipped: "the record of its copy is damaged; not touched" };
  return { path: r.path, copy: r.copy, copyHash: r.sha256, ...(r.mode !== undefined && { mode: r.mode }) };
}

const isText = (v: unknown): v is string => typeof v === "string" && v !== "";
/** a path as the tools resolved it: a relative one would be taken from wherever hey runs now */
const isPath = (v: unknown): v is string => isText(v) && isAbsolute(v);
const HASH = /^[0-9a-f]{64}$/;

/** One line's step, or undefined when it is not one (cut short, damaged, of another kind). */
function parsed(line: string): UndoRecord | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const r = v as Record<string, unknown>;
  if (r.type === "lost") return { type: "lost" };
  if (!isText(r.turn)) return undefined;
  const turn = r.turn;
  switch (r.type) {
    case "turn":
      return isPath(r.root) ? { type: "turn", turn, root: r.root } : { type: "turn", turn };
    case "bash":
    case "undone":
      return { type: r.type, turn };
    case "folder":
      return isPath(r.path) ? { type: "folder", turn, path: r.path } : undefined;
    case "after":
      return isPath(r.path) && typeof r.sha256 === "string" && HASH.test(r.sha256) ? { type: "after", turn, path: r.path, sha256: r.sha256 } : undefined;
    case "before": {
      if (!isPath(r.path)) return undefined;
      const mode = typeof r.mode === "number" && Number.isInteger(r.mode) && r.mode >= 0 && r.mode <= 0o7777 ? { mode: r.mode } : {};
      if (typeof r.skipped === "string") return { type: "before", turn, path: r.path, skipped: r.skipped, ...mode };
      if (r.copy === undefined) return { type: "before", turn, path: r.path };
      const hash = typeof r.sha256 === "string" && HASH.test(r.sha256) ? { sha256: r.sha256 } : {};
      return { type: "before", turn, path: r.path, copy: String(r.copy), ...hash, ...mode };
    }
    default:
      return undefined;
  }
}

/**
 * Whether the agent changed a file with edit or write_file in `history` (a resumed session's
 * messages): a session with no record of its turns then says at `/undo` that their copies are gone.
 */
export function changedFiles(history: readonly Message[]): boolean {
  return history.some((m) => m.role === "tool" && !m.isError && (m.toolName === TOOL.edit || m.toolName === TOOL.writeFile));
}

/**
 * The folders of `folders` that /undo may remove: those above a file the turn created (`files`
 * without a copy or a reason), which write_file had to make for it. A `folder` line the record
 * holds for any other path (stale, damaged, written by something else) removes nothing. Pure.
 */
export function foldersOfCreated(folders: Iterable<string>, files: Iterable<KeptFile>): string[] {
  const created = [...files].filter((k) => k.copy === undefined && k.skipped === undefined).map((k) => k.path);
  return [...folders].filter((folder) => created.some((path) => path !== folder && isWithin(path, folder)));
}

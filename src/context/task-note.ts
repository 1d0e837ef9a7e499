// `.hey/task.md` (SPEC §6, §10): the agent's own notes on a long task, re-injected after any
// compaction, and where the max-turns hand-off is appended. The one file that knows its path (but for
// held-note.ts callsNote, which finds it in the agent's calls).
// It is a project file hey writes into, so it is never followed through a link (SPEC §24).
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { sweepDeadCopies, withFileLock } from "../fs/file-lock.ts";
import { readOwnFile } from "../fs/own-files.ts";
import { likeBefore } from "../fs/text-encoding.ts";
import { handOffTask, type HandOffLimit } from "../kernel/hand-off.ts";
import { textOf, type Message } from "../kernel/ir.ts";
import { cutTaskNote, noteCutLine } from "./budget.ts";
import { callsNote } from "./held-note.ts";

/** Where the note lives, relative to the project root. */
export const TASK_NOTE_PATH = join(".hey", "task.md");
/**
 * A note bigger than this is cut when read (its end and top kept, budget.ts cutTaskNote): it is
 * resent with every request after a compaction, and the budget then cuts it to its own share.
 */
const TASK_NOTE_MAX_CHARS = 32 * 1024;
/** Of a longer file only its end and its start are read (the newest hand-offs and the `# Task` heading). */
const TAIL_BYTES = 2 * TASK_NOTE_MAX_CHARS;
const HEAD_BYTES = 8 * 1024;
/** The task as the hand-off's heading quotes it, when the agent kept no note. */
const TASK_QUOTE_CHARS = 4000;

/** `text` with LF line ends. */
const lf = (text: string) => text.replace(/\r\n/g, "\n");

/**
 * The note when the project has a usable one — over TASK_NOTE_MAX_CHARS, its end (the newest
 * hand-off) and its top, saying what was left out; undefined when it has none, or it is a link or unreadable.
 */
export function readTaskNote(cwd: string): string | undefined {
  try {
    const file = join(cwd, TASK_NOTE_PATH);
    // a note the user wrote themselves may be UTF-16 (Windows PowerShell 5.1's `>`) and have CRLF line ends
    const read = readOwnFile(file, TAIL_BYTES, { tail: true, text: true });
    if (!read?.text.trim()) return undefined;
    let text = lf(read.text);
    if (read.truncated) {
      // the start of the file, up to the first section, then what was not read, then the end from a line start
      const top = lf(readOwnFile(file, HEAD_BYTES, { text: true })?.text ?? "");
      const sections = top.search(/^## /m);
      const head = sections > 0 ? top.slice(0, sections) : "";
      const tail = text.slice(text.indexOf("\n") + 1);
      const left = read.size - Buffer.byteLength(head) - Buffer.byteLength(tail);
      text = `${head}${noteCutLine(Math.max(1, Math.round(left / 1024)))}\n${tail}`;
    }
    return cutTaskNote(text.trim(), TASK_NOTE_MAX_CHARS);
  } catch {
    return undefined; // a link, a directory, unreadable: as if there were none
  }
}

/**
 * `note` when it is this conversation's (`history`): the agent read or wrote it here (a tool call
 * naming .hey/task.md), or the task its last hand-off continues (continuedTask) was asked here — what
 * `hey -c` after a hand-off goes on with —, or, for a resumed session whose loaded messages show
 * neither, `earlier` says its lines before them do (the call a summary took, a request that sent the
 * note: sessions/note-taken.ts), asked only then. A note left by another, finished task is not
 * re-injected into an unrelated conversation (the agent is still told where it is, and reads it when
 * it goes on with that task). Pure.
 */
export function sessionNote(note: string | undefined, history: readonly Message[], earlier: () => boolean = () => false): string | undefined {
  if (note === undefined) return undefined;
  if (history.some(callsNote)) return note;
  const task = continuedTask(note);
  if (task !== undefined && history.some((m) => m.role === "user" && sameTask(taskLine(textOf(m)), task))) return note;
  return earlier() ? note : undefined;
}

/** Two tasks as taskLine quotes them are one when one begins the other (a quote is cut at TASK_LINE_CHARS). */
const sameTask = (a: string, b: string) => a !== "" && b !== "" && (a.startsWith(b) || b.startsWith(a));

/** How much of the task a hand-off appended to a note about another task quotes. */
const TASK_LINE_CHARS = 300;
/** How much of each tool call's arguments the fallback hand-off quotes. */
const CALL_ARGS_CHARS = 300;

/** Which limit ended the run: the hand-off's heading names it. */
const LIMIT_NAMES: Record<HandOffLimit, string> = { max_turns: "the turn limit", max_run_tokens: "the run's token limit" };

/**
 * The note with the hand-off appended: after what the agent kept, else under the task it was
 * given. The section gets this run's task quoted (`Task: …`) unless the task the note's last
 * section continues (continuedTask) is this one, so a hand-off is never read as an earlier task's. Pure.
 */
export function withHandOff(existing: string | undefined, task: string, handOff: string, limit: HandOffLimit, now: Date): string {
  const before = existing !== undefined ? existing.trimEnd() + "\n\n" : `# Task\n\n${task.slice(0, TASK_QUOTE_CHARS)}\n\n`;
  const line = taskLine(task);
  const quoted = existing !== undefined && line !== "" && continuedTask(existing) !== line ? `Task: ${line}\n\n` : "";
  return `${before}## Stopped at ${LIMIT_NAMES[limit]} (${now.toISOString()})\n\n${quoted}${handOff.trim()}\n`;
}

/** A task as a hand-off's `Task:` line quotes it, and as two tasks are compared: one line, its start. */
const taskLine = (task: string) => task.trim().replace(/\s+/g, " ").slice(0, TASK_LINE_CHARS);

/**
 * The task (as taskLine) a hand-off appended to `note` continues: that of the last hand-off
 * section quoting one (`## Stopped at …` then `Task: …`), else the task under the `# Task` heading
 * hey starts a note with; undefined for a note the agent wrote otherwise (it may be about anything). Pure.
 */
export function continuedTask(note: string): string | undefined {
  const quoted = [...note.matchAll(/^## Stopped at [^\n]*\n\nTask: ([^\n]*)$/gm)].at(-1);
  if (quoted) return quoted[1]!.trim();
  const top = /^# Task\n\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(note);
  return top && top.index === 0 ? taskLine(top[1]!) : undefined;
}

/** The hand-off hey writes when the model gave none: what it knows, the last tool calls made. Pure. */
export function fallbackHandOff(lastCalls: readonly { name: string; arguments: string }[]): string {
  const calls = lastCalls.map((c) => `- ${c.name} ${c.arguments.length > CALL_ARGS_CHARS ? c.arguments.slice(0, CALL_ARGS_CHARS) + "…" : c.arguments}`);
  return [
    "(The model gave no hand-off; hey wrote this from what it knows.)",
    ...(calls.length > 0 ? ["Last tool calls:", ...calls] : []),
    "Remaining: check what those calls changed, then continue the task.",
  ].join("\n");
}

/**
 * What hey puts in a `.hey/` it made for a hand-off: a CI job's `git add -A` after `hey -p … --max-turns N`
 * would otherwise commit the note (the prompt, the last calls' arguments). Ignoring itself, it leaves
 * `git status` clean; a config or skill added to `.hey/` later is not ignored.
 */
export const HEY_GITIGNORE =
  "# made by hey with the hand-off in task.md, so a `git add -A` leaves it out; delete this file to commit it\ntask.md\ntask.md.lock\n.gitignore\n";

/**
 * Appends the max-turns (or max-run-tokens) hand-off to the project's note, atomically, never through a link,
 * holding the note's lock from the read to the write (fs/file-lock.ts), so parallel runs' hand-offs all land.
 * Returns the file's path; throws (with a message naming it) when it cannot be written.
 */
export async function saveHandOff(cwd: string, task: string, handOff: string, limit: HandOffLimit, now = new Date()): Promise<string> {
  const file = join(cwd, TASK_NOTE_PATH);
  const madeHere = !existsSync(dirname(file)); // a `.hey/` the user made may be meant to be committed, the note too
  await withFileLock(file, async () => {
    // a killed hey's half-made copy, in the user's project: under the lock no hey writes one now, whatever its age
    sweepDeadCopies(dirname(file), basename(file));
    const existing = readOwnFile(file, Number.MAX_SAFE_INTEGER, { text: true });
    const note = withHandOff(existing && lf(existing.text), task, handOff, limit, now);
    // written in the note's own encoding and line ends, as write_file keeps them
    await writeFileAtomic(file, likeBefore(existing?.bytes, note).bytes, { own: true });
  });
  if (madeHere) await writeFileAtomic(join(dirname(file), ".gitignore"), HEY_GITIGNORE, { own: true }).catch(() => {}); // the note is saved: this is a nicety
  return file;
}

/**
 * The hand-off of a run stopped at `limit`, saved under the task it stopped (saveHandOff): the
 * model's last answer, or, when it called tools instead (`wrote`), what hey knows. Undefined when
 * there is no task to hand off; `error` when the note cannot be written, with the hand-off's `text` (not to be lost).
 */
export async function keepHandOff(
  messages: readonly Message[],
  root: string,
  limit: HandOffLimit,
): Promise<{ wrote: boolean; file?: string; error?: unknown; text?: string } | undefined> {
  const task = handOffTask(messages);
  if (!task) return undefined;
  // the loop keeps the hand-off only when it has text: else the last message is its request
  const last = messages.at(-1)!;
  const answered = last.role === "assistant" ? textOf(last).trim() : "";
  const text = answered || fallbackHandOff(messages.findLast((m) => m.toolCalls?.length)?.toolCalls ?? []);
  try {
    return { wrote: answered === "", file: await saveHandOff(root, textOf(task), text, limit) };
  } catch (error) {
    return { wrote: answered === "", error, text };
  }
}

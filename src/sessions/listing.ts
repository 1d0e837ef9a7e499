// Finding sessions (SPEC §19): the listing (each file's head only), lookup by id or prefix, and
// pruning. Opening one to continue it is reader.ts's; the format lives in format.ts.
import { closeSync, constants, fstatSync, readdirSync, unlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { brokenLink, dirProblem } from "../fs/dir-problem.ts";
import { errnoCode } from "../kernel/errors.ts";
import { typedText } from "../kernel/user-notes.ts";
import { oneLine, parseEntry, parseHeader, promptOfCutLine, salvageHeader, type SessionInfo } from "./format.ts";
import { matchIds, shortIds } from "./ids.ts";
import { closeQuietly, linesForward, onlyNul, openSessionFile, type ForwardLine } from "./lines.ts";
import { openProblem, removeLeftovers } from "./leftovers.ts";
import { lockedByOther, releaseIfUnheld } from "./lock.ts";
import { CUT_HEADER_ALONE, cutHeader } from "./damaged-head.ts";
import { typedSkillLine } from "../skills/catalog.ts";
import { sameDir } from "./scope.ts";

/** `--sessions` reads this much of each file: the header and the start of the first prompt. */
export const LIST_HEAD_BYTES = 4096;

/** The first prompt's line is read whole up to this when it is a skill's message (its text is at most 100 KB), to reach the args after it. */
const SKILL_LINE_MAX_BYTES = 512 * 1024;

/** A session file whose header is damaged beyond reading its directory: listed nowhere, so reported. */
export interface UnreadableSession {
  id: string;
  path: string;
  modified: number;
  /** the file is empty or holds NUL bytes only (a crash), or (`cut`) a header cut short alone: nothing to repair */
  lost?: true;
  cut?: true;
  /** why it cannot be opened (openProblem: no permission, a FIFO, a directory, a link) */
  problem?: string;
}

/**
 * Every session in `dir`, most recently used first. Reads only the head of each file. Throws,
 * naming the path at fault, when `dir` exists but cannot be listed.
 */
export function listSessions(dir: string): SessionInfo[] {
  return scanSessions(dir).sessions;
}

/** listSessions, and the files whose header is too damaged to say which directory they belong to. */
export function scanSessions(dir: string): { sessions: SessionInfo[]; unreadable: UnreadableSession[] } {
  const sessions: SessionInfo[] = [];
  const unreadable: UnreadableSession[] = [];
  for (const id of sessionIds(dir, true)) {
    const info = readInfo(join(dir, `${id}.jsonl`));
    if (info && "cwd" in info) sessions.push(info);
    else if (info) unreadable.push(info);
  }
  return {
    sessions: sessions.sort((a, b) => b.modified - a.modified || (a.id < b.id ? 1 : -1)),
    unreadable: unreadable.sort((a, b) => b.modified - a.modified),
  };
}

/** What `-c`, `--sessions` and `/sessions` say about unreadable session files (none: nothing). */
export function unreadableNote(files: readonly UnreadableSession[]): string | undefined {
  const named = (some: readonly UnreadableSession[]) =>
    some
      .slice(0, 3)
      .map((f) => f.path)
      .join(", ") + (some.length > 3 ? `, and ${some.length - 3} more` : "");
  const damaged = files.filter((f) => !f.lost && !f.problem);
  const lost = files.filter((f) => f.lost && !f.cut);
  const cut = files.filter((f) => f.cut);
  const closed = files.filter((f) => f.problem);
  const notes = [
    ...(closed.length === 0
      ? []
      : [
          `${closed.length === 1 ? "a session file cannot" : `${closed.length} session files cannot`} be opened: ${closed.map((f) => `${f.path} (${f.problem})`).join(", ")}; hey leaves ${closed.length === 1 ? "it" : "them"} alone`,
        ]),
    ...(damaged.length === 0
      ? []
      : [
          `${damaged.length === 1 ? "a session file has" : `${damaged.length} session files have`} a damaged header and cannot be listed: ${named(damaged)}; \`hey --resume ID\` opens one in this directory and repairs it`,
        ]),
    ...(lost.length === 0
      ? []
      : [
          `${lost.length === 1 ? "a session file holds" : `${lost.length} session files hold`} ${LOST}: ${named(lost)}; delete ${lost.length === 1 ? "it" : "them"}`,
        ]),
    ...(cut.length === 0
      ? []
      : [
          `${cut.length === 1 ? "a session file holds" : `${cut.length} session files hold`} only a header cut short — hey stopped while writing it, most often because the disk was full — so there is no conversation to resume: ${named(cut)}; delete ${cut.length === 1 ? "it" : "them"}`,
        ]),
  ];
  return notes.length === 0 ? undefined : notes.join("\nhey: ");
}

/** How many of the sessions an ambiguous id matches are named: hundreds would be a screenful on one line. */
const NAMED_MATCHES = 10;

/** What an empty file or one of NUL bytes is, for the messages that name one. */
const LOST = "nothing — it is empty or NUL bytes only, what a crash can leave of a file not yet on disk — so there is nothing to resume";

/**
 * The session with id `idOrPart`, or the only one whose id starts or ends with it (ids.ts; its
 * header may be damaged). Throws otherwise, naming `lister`, the command that lists the sessions
 * where it runs; several matches are named with their short forms.
 */
export function findSession(dir: string, idOrPart: string, lister = "hey --sessions"): { id: string; path: string } {
  const ids = sessionIds(dir);
  const matches = matchIds(ids, idOrPart);
  if (matches.length === 0) throw new Error(`no session "${idOrPart}" in ${dir} (${lister} lists them)`);
  if (matches.length > 1) {
    const short = shortIds(ids);
    const named = matches.slice(0, NAMED_MATCHES).map((id) => (short.get(id) === id ? id : `${id} (${short.get(id)})`));
    const more = matches.length > NAMED_MATCHES ? `, and ${matches.length - NAMED_MATCHES} more (${lister} lists them)` : "";
    throw new Error(`"${idOrPart}" matches ${matches.length} sessions: ${named.join(", ")}${more}; give the short form in brackets, or more of the id`);
  }
  const path = join(dir, `${matches[0]}.jsonl`);
  closeSync(openSessionFile(path, constants.O_RDONLY)); // a link or not a file: says so
  const info = readInfo(path);
  if (!info) throw new Error(`${path} cannot be read`);
  if ("lost" in info) throw new Error(info.cut ? `${path}: ${CUT_HEADER_ALONE}; delete it` : `${path} holds ${LOST}; delete it`);
  return { id: matches[0]!, path };
}

/** ids.ts shortIds of every session file in `dir`, by the file's id: the listings' SHORT column. */
export function sessionShortIds(dir: string): Map<string, string> {
  return shortIds(sessionIds(dir));
}

/**
 * Deletes the sessions started in `cwd` (every directory's when it is undefined: `/sessions prune
 * all`) that were last used more than `olderThanDays` ago, and all of them but the newest `keep`.
 * A session a live hey holds (this one, or another) is never deleted: `held` names those that
 * would have been. A deleted session's stale lock goes with it. Files a crash left empty or NUL
 * bytes only, or holding a header cut short alone (`lost`: they hold nothing, and belong to no
 * directory), go whatever the options.
 */
export function pruneSessions(
  dir: string,
  opts: { cwd: string | undefined; olderThanDays?: number; keep?: number; now?: number },
): { deleted: string[]; held: string[]; lost: string[] } {
  const now = opts.now ?? Date.now();
  const deleted: string[] = [];
  const held: string[] = [];
  const scan = scanSessions(dir);
  const sessions = scan.sessions.filter((s) => opts.cwd === undefined || sameDir(s.cwd, opts.cwd));
  const remove = (path: string) => {
    if (releaseIfUnheld(path)) return false;
    try {
      unlinkSync(path);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
    return true;
  };
  for (const [i, s] of sessions.entries()) {
    const old = opts.olderThanDays !== undefined && now - s.modified > opts.olderThanDays * 86_400_000;
    const extra = opts.keep !== undefined && i >= opts.keep;
    if (old || extra) (remove(s.path) ? deleted : held).push(s.id);
  }
  const lost = scan.unreadable.filter((f) => f.lost && remove(f.path)).map((f) => f.id);
  return { deleted, held, lost };
}

/** The ids of the session files in `dir`; `tidy`: tidying what killed heys left of their copies first (leftovers.ts). */
function sessionIds(dir: string, tidy = false): string[] {
  try {
    const names = readdirSync(dir);
    if (tidy) names.push(...removeLeftovers(dir, names));
    return names.filter((n) => n.endsWith(".jsonl")).map((n) => n.slice(0, -".jsonl".length));
  } catch (e) {
    if (errnoCode(e) === "ENOENT" && brokenLink(dir) === undefined) return []; // no sessions yet
    // a directory hey cannot read is not "no sessions": `-c` would start afresh beside them
    throw new Error(dirProblem(dir, e));
  }
}

/** What the listing shows of a file; its id, path and time when its header is beyond repair (`lost`: empty or NUL bytes); undefined for no file, or an empty one a live hey is about to write. */
function readInfo(path: string): SessionInfo | UnreadableSession | undefined {
  let fd: number | undefined;
  try {
    fd = openSessionFile(path, constants.O_RDONLY);
    const stat = fstatSync(fd);
    const lines = linesForward(fd, Math.min(stat.size, LIST_HEAD_BYTES));
    const first = lines.next();
    const id = basename(path, ".jsonl");
    // empty: the writer of a live hey may be about to write its header
    if (first.done) return lockedByOther(path) ? undefined : { id, path, modified: stat.mtimeMs, lost: true };
    const parsed = parseHeader(first.value.text);
    const header = parsed ?? salvageHeader(first.value.text, id);
    // a header cut short and nothing after it: the full disk (or the crash) left no conversation
    if (!parsed && first.value.end + 1 >= stat.size && cutHeader(first.value.text))
      return lockedByOther(path) ? undefined : { id, path, modified: stat.mtimeMs, lost: true, cut: true };
    if (!header) return { id, path, modified: stat.mtimeMs, ...(onlyNul(fd, stat.size) ? { lost: true as const } : {}) };
    let prompt = "";
    let start = first.value.end + 1; // where the line read next begins
    for (const line of lines) {
      if (!line.terminated && line.end < stat.size) {
        prompt = promptOfCutLine(line.text) ?? "";
        // a skill's text is long and the args come after it: that one line is read whole
        if (typedSkillLine(prompt)) prompt = userText(linesForward(fd, stat.size, start, SKILL_LINE_MAX_BYTES).next().value) ?? prompt;
        break;
      }
      start = line.end + 1;
      const text = userText(line);
      if (text === null) continue;
      prompt = text;
      break;
    }
    return {
      id, // the file's: what --resume finds, and a copied file's header names the original
      created: header.created,
      modified: stat.mtimeMs,
      cwd: header.cwd,
      firstPrompt: oneLine(typedSkillLine(prompt) ?? prompt), // a `/skill:NAME args` message as it was typed
      size: stat.size,
      path,
      ...(parsed ? {} : { damaged: true as const }),
    };
  } catch (e) {
    const problem = openProblem(path, e);
    return problem && { id: basename(path, ".jsonl"), path, modified: problem.modified, problem: problem.why };
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** The text of the message on `line` when it is a user's, "" for another's; null for a line that is no whole message (cut short, too long, another entry). */
function userText(line: ForwardLine | undefined): string | null {
  if (!line?.terminated || line.oversized) return null;
  const parsed = parseEntry(line.text);
  if (!parsed.ok || parsed.entry.type !== "message") return null;
  return parsed.entry.message.role === "user" ? typedText(parsed.entry.message) : ""; // a note of hey's is no title
}

// A session file whose first line is not a header (SPEC §19): a header cut short (hey stopped while
// creating the file — most often on a full disk — or a crash), one damaged otherwise, or a file
// that is not hey's. Judged here from the file's first lines, so that resume (reader.ts) repairs
// what it can, and says what is wrong with the rest instead of "not a hey session".
import { closeSync, constants, fstatSync } from "node:fs";
import { basename } from "node:path";
import { parseEntry, parseHeader, salvageHeader, TORN_END, type SessionHeader } from "./format.ts";
import { linesForward, openSessionFile } from "./lines.ts";
import { cutShort } from "./torn.ts";

/** The header and the first user message come before this many lines, or the file is not hey's. */
export const HEAD_MAX_LINES = 64;
/** How much of the file's start is read to judge its first line and the lines after it. */
const HEAD_BYTES = 64 * 1024;

/**
 * What the file's start says: `fine` (a header first); `damaged`, with the header to put in its
 * place (`firstIsEntry`: the first line is an entry, the header is missing) when the lines after it
 * are hey's; or `problem`, the sentence that says why there is nothing to resume.
 */
export type Head = { fine: true } | { fine: false; header: SessionHeader; firstIsEntry: boolean; cut: boolean } | { fine: false; problem: string };

/** Judges the head of the session at `path`; `cwd` is the directory a header too damaged to tell its own gets. */
export function judgeHead(path: string, cwd: string): Head {
  const fd = openSessionFile(path, constants.O_RDONLY);
  try {
    const stat = fstatSync(fd);
    const lines = linesForward(fd, Math.min(stat.size, HEAD_BYTES));
    const first = lines.next();
    if (first.done) return { fine: false, problem: notHeys(path) };
    if (parseHeader(first.value.text)) return { fine: true };
    const rest: string[] = [];
    for (let n = 0, line = lines.next(); !line.done && n < HEAD_MAX_LINES; n++, line = lines.next()) if (line.value.terminated) rest.push(line.value.text);
    const firstIsEntry = parseEntry(first.value.text).ok;
    if (firstIsEntry || rest.some((l) => parseEntry(l).ok)) {
      const id = basename(path, ".jsonl");
      const header = (!firstIsEntry && salvageHeader(first.value.text, id)) || {
        type: "header" as const,
        id,
        cwd,
        created: new Date(stat.mtimeMs).toISOString(),
        version: "unknown",
      };
      return { fine: false, header, firstIsEntry, cut: cutHeader(first.value.text) };
    }
    if (cutHeader(first.value.text)) return { fine: false, problem: `${path}: ${CUT_HEADER_ALONE}; delete it` };
    return { fine: false, problem: notHeys(path) };
  } finally {
    closeSync(fd);
  }
}

/** Why the session at `path` cannot be loaded as it is, its first line not being a header. */
export function headProblem(path: string): string {
  const head = judgeHead(path, "");
  return "problem" in head ? head.problem : notHeys(path);
}

const notHeys = (path: string) => `${path} is not a hey session: its first line is not a session header`;

/** What a session file that holds only a header cut short is. */
export const CUT_HEADER_ALONE =
  "its first line, the session header, is cut short — hey stopped while writing it, most often because the disk was full — and nothing was saved after it, so there is no conversation in it to resume";

const HEADER_START = '{"type":"header"';

/** Whether `line` is a session header cut short: the start of one (marked as cut or not), a JSON object never closed. */
export function cutHeader(line: string): boolean {
  const text = line.endsWith(TORN_END) ? line.slice(0, -TORN_END.length) : line.replace(/\0+$/, "");
  if (text.length === 0 || !(text.startsWith(HEADER_START) || HEADER_START.startsWith(text))) return false;
  return text.length < HEADER_START.length || cutShort(text);
}

/** The warning of a resume that loads a damaged header's session without repairing it (`why`: the disk will not take the repair; `cut`: the header is cut short). */
export function unrepairedNote(path: string, why: string, cut: boolean): string {
  const id = basename(path, ".jsonl");
  const what = cut ? "is cut short (most often by a full disk)" : "is damaged";
  return `${path}: the session's header ${what} and cannot be repaired now: ${why}; resumed from the lines after it, as it is — \`hey --resume ${id}\` repairs it once the disk takes writes`;
}

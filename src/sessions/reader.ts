// Reading a session (SPEC §19): resume, which reads big files from the tail, and the usage of what
// earlier runs wrote. Finding one is listing.ts's; the format and the window rules live in format.ts.
import { closeSync, constants, fstatSync } from "node:fs";
import { basename } from "node:path";
import { newId, type Message } from "../kernel/ir.ts";
import { summaryMessage, type Summary } from "../context/passes.ts";
import { DEFAULT_TOKENS_PER_CHAR, SUMMARIZED_BELOW } from "../context/view.ts";
import { alignWindow, coveredEntry, foldSummary, formatSize, idMarker, modelOf, rangeStart } from "./format.ts";
import { readHead } from "./read-head.ts";
import type { ResumedModel, SessionEntry, SessionHeader } from "./format.ts";
import { linesBackward, MAX_LINE_BYTES, openSessionFile, SCAN_LIMIT, type TailLine } from "./lines.ts";
import { lastEntriesBefore } from "./entries-before.ts";
import { lockSession, SessionLockedError, unlockSession } from "./lock.ts";
import { diskProblem } from "../fs/dir-problem.ts";
import { idTime } from "./ids.ts";
import { repairHeader } from "./header-repair.ts";
import { headProblem, judgeHead, unrepairedNote } from "./damaged-head.ts";
import { entryOf, newerNote, skippedWarning } from "./torn.ts";
import { closeOpenEnds } from "./open-ends.ts";
import { planSaid } from "./plan-said.ts";
import { errorText } from "../kernel/errors.ts";
import type { PromptRecord } from "../prompt/prompt-record.ts";
import { cacheStart, requestTimes, type Answered } from "./cache-start.ts";
import { LOOK_BACK_MOST, MAX_WINDOWS, strideFor, WINDOW_STRIDE } from "./window-stride.ts";
import { messageLineBefore } from "./run-start.ts";
import { notePointers, pointedAtIn, resultCallId, withResults } from "./pointed-at.ts";

export { WINDOW_STRIDE } from "./window-stride.ts";
export { usageIn } from "./usage-in.ts"; // what earlier runs cost: wire.ts reads it with the session

/** SPEC §19: resume keeps at least the last 500 messages; older context comes from the summary. */
export const DEFAULT_WINDOW = 500;
/**
 * Opens the session at `path` to continue it: makes this process its one writer (lock.ts; throws
 * SessionLockedError when another hey is writing it), repairs a damaged header — from what is left
 * of it, else with `cwd` as its directory, and only when the lines after it are hey's — then loads
 * it. The caller's writer releases the lock when it closes. A lock or a repair the disk will not
 * take (full, read-only, not this user's) does not stop the resume: the session is read as it is
 * (a damaged header not repaired, with a warning), and the writer, failing the same way, says once
 * that it is not saved (SPEC §19). `readOnly` (a command that only reads it: `hey -c /usage`): no
 * lock, no repair, and the session is marked so that nothing writes it — another hey may have it
 * open. Throws, saying what is wrong, when there is nothing to resume, and SessionLockedError when
 * a writer of this process holds it (loadRepaired reads that one).
 */
export function resumeSession(path: string, cwd: string, opts: { readOnly?: boolean } = {}): LoadedSession {
  if (opts.readOnly) return { ...loadUnrepaired(path, cwd, "a command that only reads leaves the file as it is"), readOnly: true };
  try {
    lockSession(path);
  } catch (e) {
    const why = e instanceof SessionLockedError ? undefined : diskProblem(e, path);
    if (why === undefined) throw e;
    return loadUnrepaired(path, cwd, why);
  }
  try {
    return loadRepaired(path, cwd);
  } catch (e) {
    unlockSession(path);
    throw e;
  }
}

/**
 * The session at `path`, a damaged header repaired first, no lock made: resumeSession's load, and the REPL's
 * `/resume` of the session its own writer holds (whose lock goes when it closes; the next writer makes its own).
 */
export function loadRepaired(path: string, cwd: string): LoadedSession {
  let repaired: string | undefined;
  try {
    repaired = repairIfDamaged(path, cwd);
  } catch (e) {
    const why = e instanceof Error && e.cause ? diskProblem(e.cause) : undefined; // a full disk: resumed as it is
    if (why === undefined) throw e;
    return loadUnrepaired(path, cwd, why);
  }
  const loaded = loadSession(path);
  return repaired ? { ...loaded, warnings: [repaired, ...loaded.warnings] } : loaded;
}

/** Rewrites a damaged header (see resumeSession); the warning that says so, or undefined when the header was fine. */
function repairIfDamaged(path: string, cwd: string): string | undefined {
  const head = judgeHead(path, cwd);
  if (!("header" in head)) return undefined; // fine, or nothing to resume: loadSession says why
  repairHeader(path, head.header, head.firstIsEntry);
  return `${path}: the session's header was damaged; repaired (directory ${head.header.cwd})`;
}

/** A session read as it is when the disk takes no lock or repair (`why`): a damaged header is not repaired, the lines after it are loaded. */
function loadUnrepaired(path: string, cwd: string, why: string): LoadedSession {
  const head = judgeHead(path, cwd);
  if (head.fine) return loadSession(path);
  if ("problem" in head) throw new Error(head.problem);
  if (head.firstIsEntry) throw new Error(`${path}: the session's header is missing and cannot be added now: ${why}`);
  const loaded = loadSession(path, { header: head.header });
  return { ...loaded, warnings: [unrepairedNote(path, why, head.cut), ...loaded.warnings] };
}

export type { Answered } from "./cache-start.ts";

export interface LoadedSession {
  header: SessionHeader; // `id`: the file's, which the writer appends to (a copy's header keeps the original's)
  /**
   * first user message, then the aligned window; every tool call has exactly one result. Each
   * summary whose last message the window reaches stands in its place for the whole range it
   * covers, as in the requests before (so the window counts what those requests held); one that
   * ends before the window follows the first user message (foldSummary).
   */
  messages: Message[];
  /**
   * the summaries among the lines read (the window's and those of the ranges folded in), oldest
   * first, else the latest one within SCAN_LIMIT before the window (none further back): the last
   * one is the latest, with the results that read_file notes in `messages` point at and `messages`
   * lack (Summary.results): found in a range read to fold it in, not searched for further back
   */
  summaries: Summary[];
  /**
   * the latest model entry found the same way, else the one written before the first message;
   * `window`: the context window a context-length error taught that model, when one did since
   * (each run writes its model again: an earlier entry of it with no other model's after it counts);
   * `limit`: an endpoint's limit on one request it learned instead, a hint a resume does not apply
   */
  model?: ResumedModel;
  /** the newest window a context-length error taught each model the session used, by `provider/model`: a return to one starts within it; the output caps likewise (context/output-cap.ts) */
  windows?: Record<string, number>;
  outputCaps?: Record<string, { window: number; asked: number }>;
  /** skipped lines, each a sentence naming its line or byte offset */
  warnings: string[];
  /** synthetic results for calls a crash left open, and the marker of a question it left unanswered (open-ends.ts): in `messages`, not yet in the file */
  appended: Message[];
  /** torn lines an older hey ended that this resume said first: the writer records them as said (torn.ts) */
  torn: string[];
  /** the file and its size when it was read: what earlier runs wrote (`/usage` sums their usage) */
  path: string;
  bytes: number;
  /**
   * where the last run's prompt cache began (cache-start.ts): `upTo` messages were judged for rewrites since then, and its
   * last request was made at `at` (ms since the epoch); `answers`: by the id of each request's answer, when it came, the
   * estimate's ratio the request was built with and its model (the replay takes each model's own: context/replay-cache.ts);
   * `starts`: by `provider/model`, where a window of that model's own began its cache again. Undefined when the lines read do not tell.
   */
  cache?: { upTo: number; at: number; answers: ReadonlyMap<string, Answered>; starts?: Record<string, number> };
  /** the context estimate's ratio after the last response, from the newest usage entry read that has it */
  tokensPerChar?: number;
  /** what the system prompt of the last request that says was built from (prompt/prompt-record.ts): `hey -c` sends it again */
  prompt?: PromptRecord;
  /** the jobs the last run left running, which ended with it, when no message came since (format.ts `jobs`) */
  endedJobs?: string[];
  /** the plan mode the newest note among the lines read says (plan-said.ts), those a summary took from `messages` too; undefined: none said */
  plan?: boolean;
  /** loaded without the lock by a command that only reads (resumeSession): nothing may write the file */
  readOnly?: true;
}

/**
 * Resumes from `path` without reading it whole: the head gives the header and the first user
 * message; the tail is read backwards until `window` messages are collected — a summary counts
 * as one, and the lines of the range it covers are passed over (only compaction and model lines
 * and the range's first message are parsed; at most SCAN_LIMIT bytes of them, else the read stops
 * there) — then only as far as needed (at most SCAN_LIMIT) to find the latest summary and model
 * entry, by a byte search for their line prefix; the model falls back to the one written before
 * the first message. The window starts where the last run's history began (its usage lines' history_from: run-start.ts)
 * when that lies within MAX_WINDOWS windows and strides, else at the stride's boundary (window-stride.ts).
 * Bad lines are skipped with a warning. Throws when the file cannot be read or its first line is
 * not a session header.
 */
export function loadSession(path: string, opts: { window?: number; stride?: number; header?: SessionHeader } = {}): LoadedSession {
  const [window, stride] = [opts.window ?? DEFAULT_WINDOW, opts.stride ?? WINDOW_STRIDE];
  let fd: number;
  try {
    fd = openSessionFile(path, constants.O_RDONLY);
  } catch (e) {
    throw new Error(`cannot read session ${path}: ${errorText(e)}`);
  }
  try {
    const size = fstatSync(fd).size;
    const { header, firstUser, firstModel, firstCut } = readHead(fd, size, opts.header);
    if (!header) throw new Error(headProblem(path));
    // skipped lines; `callId`, the call whose result a damaged one held (its call is closed as lost, not as interrupted)
    const warnings: { offset: number; fromEnd: number; reason: string; torn?: "last" | "line"; nul?: number; callId?: string }[] = [];
    const noted = new Set<string>(); // torn lines said before (their notes come after them: read first)
    const torn: string[] = []; // torn lines said now for the first time
    const newer = new Map<string, number>(); // lines of kinds a newer hey writes: how many of each
    const found: Message[] = []; // newest first; a summary's message where its range was
    const cut = new Set<string>(); // messages too long to load, loaded as their start
    const summaries: Summary[] = [];
    const ending = new Map<string, Summary>(); // summaries not folded in yet, by their last message (the latest one ending there)
    const wanted = new Set<string>(); // the calls whose results the read_file notes read point at, not met yet (pointed-at.ts)
    const pointedAt: Message[] = []; // those results, met inside a folded summary's range
    let skip: { first: string; at: number; markers?: Buffer[] } | undefined; // inside a folded summary's range: its first message, where the range ends, the ids it looks for
    let gaveUp = false; // the range began further back than resume looks
    let model: LoadedSession["model"];
    const learned: Pick<LoadedSession, "windows" | "outputCaps"> = {}; // by `provider/model`, read newest first
    let lastAt: number | undefined; // when the last request was made
    let runFrom: { id?: string; met?: true } | undefined; // the message the last run's history began with after the first prompt, and whether it was read
    let modelRun = true; // still among the latest model's own entries (each run names its model again): one may hold its window
    const cache = cacheStart(); // where the prompt cache began (see LoadedSession.cache)
    let tokensPerChar: number | undefined;
    let prompt: PromptRecord | undefined; // the newest usage line's that holds one (see LoadedSession.prompt)
    let streamed: { id: string; text: string } | undefined; // the partial lines after the last message
    let endedJobs: string[] | undefined; // the newest jobs line after the last message
    let plan: boolean | undefined;
    const answers = new Map<string, Answered>(); // see LoadedSession.cache
    let unrated: Answered[] = []; // the answers read since the last usage entry read: the ratio is the newest before them
    let used: Answered | undefined; // the usage entry read just now: the answer read next is its request's
    const usageAt = (e: Extract<SessionEntry, { type: "usage" }>) => {
      tokensPerChar ??= e.tokens_per_char;
      prompt ??= e.system_prompt;
      if (e.tokens_per_char !== undefined) for (const a of unrated) a.ratio = e.tokens_per_char;
      unrated = [];
      used = {
        at: idTime(e.id),
        ...(e.fixed_hash ? { fixed: e.fixed_hash } : {}),
        ...(e.summary_failed ? { failed: true } : {}),
        ...(e.rebuilt === undefined ? {} : { rebuilt: e.rebuilt }),
        ...(e.task_note === undefined ? {} : { note: e.task_note }),
      };
      lastAt ??= used.at;
      if (e.rebuilt !== undefined) runFrom ??= e.history_from === undefined ? {} : { id: e.history_from }; // the newest request's that says
      cache.usage(found.length);
    };
    const modelAt = (e: Extract<SessionEntry, { type: "model" }>) => {
      const m = modelOf(e);
      cache.model(m);
      if (m.window !== undefined) (learned.windows ??= {})[`${m.provider}/${m.model}`] ??= m.window;
      if (e.output_cap) (learned.outputCaps ??= {})[`${m.provider}/${m.model}`] ??= e.output_cap;
      if (!model) model = m;
      // an earlier entry may hold the window; the effort is the latest entry's (an /effort after it)
      else if (modelRun && model.window === undefined && !model.limit && m.provider === model.provider && m.model === model.model)
        model = { ...withoutEffort(m), ...(model.effort === undefined ? {} : { effort: model.effort }) };
      else modelRun = false; // before another model: what that run learned says nothing about this one
    };
    let fromEnd = 0;
    let before = 0; // where the tail read stopped; 0 = it reached the header
    let from: number | undefined; // where the window starts, once it holds `window` messages: the lines from there are read
    let keptAt: number | undefined; // where the compaction line read before (the file's next line, if it is) starts
    const summaryAt = (e: Extract<SessionEntry, { type: "compaction" }>, line: TailLine) => {
      // a pointer past a user message (context/view.ts summaryParts) stands only with its summary on the line after it: a crash or a
      // full disk between the two would replace the work before the message by a pointer to nothing, where it is sent whole
      if (e.summary === SUMMARIZED_BELOW && keptAt !== line.offset + (line.oversized ? line.oversized.bytes : line.end - line.start) + 1) return;
      keptAt = line.offset;
      const s = { fromId: e.from_id, toId: e.to_id, text: e.summary };
      summaries.unshift(s);
      if (!ending.has(s.toId)) ending.set(s.toId, s); // an earlier one ending there too lies inside the later one
      if (skip) skip.markers = undefined;
    };
    for (const line of linesBackward(fd, size)) {
      fromEnd++;
      if (line.offset === 0) break; // the header
      plan ??= planSaid(line); // the newest note: read backward
      if (skip) {
        // the messages a summary covers come back as its summary: only other summaries, models, the range's first message
        // and the results that read_file notes after it point at matter
        if (skip.at - line.offset > SCAN_LIMIT) {
          before = line.offset + (line.oversized ? line.oversized.bytes : line.end - line.start);
          gaveUp = true;
          break;
        }
        skip.markers ??= [skip.first, ...ending.keys()].map(idMarker);
        // one look per line for the results notes point at, not one per note (240 notes over 30 MB took 0.4–0.8 s)
        const covered = coveredEntry(line, skip.markers, (bytes) => wanted.size > 0 && wanted.has(resultCallId(bytes) ?? ""));
        if (covered?.type === "compaction") summaryAt(covered, line);
        else if (covered?.type === "model") modelAt(covered);
        else if (covered?.type === "message") {
          const m = covered.message;
          if (m.role === "tool" && m.toolCallId && wanted.delete(m.toolCallId)) {
            pointedAt.push(m);
          }
          if (ending.delete(m.id)) skip.markers = undefined; // a summary that ends inside the range is part of it
          // a range that starts at a result goes back to its call: a call is never parted from its results
          if (m.id === skip.first && m.role === "tool" && m.toolCallId) skip = { first: m.toolCallId, at: skip.at };
          else if (m.id === skip.first || m.toolCalls?.some((c) => c.id === skip!.first)) skip = undefined;
        }
        continue;
      }
      // ...and on to the stride's boundary before them (WINDOW_STRIDE), at most MAX_WINDOWS windows
      const end = line.offset + (line.oversized ? line.oversized.bytes : line.end - line.start);
      if (found.length >= window && from === undefined) {
        const fit = stride > 0 ? strideFor((size - line.offset) / found.length, stride) : 0; // the window's own bytes, usage lines too
        from = fit > 0 ? Math.floor((end + 1) / fit) * fit : end + 1;
        // the last run's requests sent its history from an earlier message (a live run's from the first): from there, so the
        // first request goes on from theirs, within LOOK_BACK_MOST messages and MAX_WINDOWS strides of the end (else the stride's, where the
        // next run starts): the replay of the cache goes over each of the run's requests (1,000 messages of 5 MB: 2–8 s)
        const [most, least] = [Math.min(MAX_WINDOWS * window, LOOK_BACK_MOST) - found.length - 1, size - MAX_WINDOWS * stride];
        const at = runFrom?.id && !runFrom.met ? messageLineBefore(fd, end + 1, least, runFrom.id, most, firstUser?.id) : undefined;
        if (at !== undefined) from = at;
      }
      if (from !== undefined && (line.offset < from || found.length >= MAX_WINDOWS * window)) {
        before = end;
        break;
      }
      if (line.start === line.end && !line.oversized) continue;
      const parsed = entryOf(line.oversized ? "" : line.buf.toString("utf8", line.start, line.end), line.terminated, line.oversized, noted);
      if (!parsed.ok) {
        const callId = line.oversized ? undefined : resultCallId(line.buf.subarray(line.start, line.end));
        if (parsed.reason) warnings.push({ offset: line.offset, fromEnd, ...parsed, ...(callId && { callId }) });
        if ("key" in parsed && parsed.key !== undefined) torn.push(parsed.key);
        if ("newer" in parsed && parsed.newer !== undefined) newer.set(parsed.newer, (newer.get(parsed.newer) ?? 0) + 1);
        continue;
      }
      const e = parsed.entry;
      if (e.type === "message") {
        // the latest summary that ends here stands for its whole range, as the requests before sent it
        const s = ending.get(e.message.id);
        ending.delete(e.message.id);
        const first = s && rangeStart(s.fromId);
        // not one that would part a call from its results: the requests never applied such a one either
        if (s && first && found.at(-1)?.role !== "tool" && !(first === e.message.id && e.message.role === "tool")) {
          found.push(summaryMessage(s));
          if (e.message.toolCallId && wanted.delete(e.message.toolCallId)) pointedAt.push(e.message); // a result a note after the range points at
          if (first !== e.message.id) skip = { first, at: line.offset };
          continue;
        }
        if (line.oversized) cut.add(e.message.id);
        if (runFrom?.id === e.message.id) runFrom.met = true;
        found.push(e.message);
        const answer: Answered = used ?? {};
        if (e.message.role === "assistant") answers.set(e.message.id, answer) && unrated.push(answer) && cache.answer(answer);
        used = undefined;
        notePointers(e.message, wanted);
      } else if (e.type === "model") modelAt(e);
      else if (e.type === "usage") usageAt(e);
      // the words of an answer hey stopped in (streamed.ts): only its lines after the last message, which no message superseded
      else if (e.type === "partial" && found.length === 0 && (streamed ??= { id: e.id, text: "" }).id === e.id) streamed.text = e.text + streamed.text;
      else if (e.type === "jobs" && found.length === 0) endedJobs ??= e.ended;
      else if (e.type === "compaction") {
        cache.summary(found.length);
        summaryAt(e, line);
      }
    }
    let older: Summary | undefined; // the latest summary before the messages read, when none was among them
    if (before > 0 && (summaries.length === 0 || !model)) {
      const entries = lastEntriesBefore(fd, before, SCAN_LIMIT, [
        ...(summaries.length === 0 ? ["compaction" as const] : []),
        ...(model ? [] : ["model" as const]),
      ]);
      if (entries.compaction?.type === "compaction" && entries.compaction.summary !== SUMMARIZED_BELOW)
        // the latest is a pointer: its summary is lost
        summaries.push((older = { fromId: entries.compaction.from_id, toId: entries.compaction.to_id, text: entries.compaction.summary }));
      if (entries.model?.type === "model") model = modelOf(entries.model);
    }
    model ??= firstModel;

    const chronological = found.reverse();
    const recent = chronological.slice(alignWindow(chronological, chronological.length)); // no result without its call
    const withFirst = firstUser && !recent.some((m) => m.id === firstUser.id) ? [firstUser, ...recent] : recent;
    const whereOf = (w: (typeof warnings)[number]) => (before === 0 ? `line ${fromEnd - w.fromEnd + 1}` : `the line at byte ${w.offset}`);
    const lost = new Map(warnings.flatMap((w) => (w.callId ? [[w.callId, whereOf(w)] as const] : [])));
    const closed = closeOpenEnds(withFirst, () => newId(), streamed?.text, lost); // what a hey stopped mid-turn left open
    const { appended } = closed;
    if (firstCut && firstUser) cut.add(firstUser.id);
    const cutNote =
      cut.size === 0
        ? []
        : [
            `${path}: ${cut.size === 1 ? "a message" : `${cut.size} messages`} over ${formatSize(MAX_LINE_BYTES)} loaded as ${cut.size === 1 ? "its" : "their"} start only (the file keeps ${cut.size === 1 ? "it" : "them"} whole)`,
          ];
    // a summary that ends before the messages read (none of them met its last message) goes after the first prompt
    const messages = foldSummary(closed.messages, gaveUp ? [] : older ? [older] : [...ending.values()].reverse(), before > 0);
    // what the read_file notes left point at that the summaries took: the view finds it with them
    const results = pointedAtIn(messages, [...pointedAt, ...chronological]);
    const head = before === 0 && !gaveUp;
    const { upTo, starts } = cache.end(head, messages.length - appended.length); // counted from the end: what follows a start was read whole
    if (head) for (const a of unrated) a.ratio = DEFAULT_TOKENS_PER_CHAR; // the session's first requests
    requestTimes(messages, answers);
    return {
      header: { ...header, id: basename(path, ".jsonl") }, // the file's name is the id: a copy's header names the original
      messages,
      summaries: withResults(summaries, results),
      ...(model ? { model } : {}),
      ...learned,
      warnings: [
        ...cutNote,
        ...(newer.size > 0 ? [newerNote(path, newer)] : []),
        ...warnings.reverse().map((w) => skippedWarning(path, w, whereOf(w), before === 0 ? `line ${fromEnd - w.fromEnd}` : `byte ${w.offset}`)),
      ],
      appended,
      torn,
      path,
      bytes: size,
      ...(upTo !== undefined && upTo > 0 && lastAt !== undefined ? { cache: { upTo, at: lastAt, answers, ...(starts ? { starts } : {}) } } : {}),
      ...(tokensPerChar !== undefined ? { tokensPerChar } : {}),
      ...(prompt ? { prompt } : {}),
      ...(endedJobs ? { endedJobs } : {}),
      ...(plan === undefined ? {} : { plan }),
    };
  } finally {
    closeSync(fd);
  }
}

/** A model entry as read, less its effort. */
function withoutEffort(m: NonNullable<LoadedSession["model"]>): NonNullable<LoadedSession["model"]> {
  const { effort: _effort, ...rest } = m;
  return rest;
}

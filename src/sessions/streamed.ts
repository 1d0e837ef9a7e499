// The words of an answer still streaming, kept in the session as `partial` lines (SPEC §19): a hey
// killed mid-answer (kill -9, a power cut) keeps what was on the screen, and its resume sends it on
// marked unfinished (open-ends.ts). A line at most every PARTIAL_EVERY_MS, each with the text since
// the one before, never one per delta; the first is synced (in the background: the words on the
// screen never wait on the disk), the others with the turn's end. The answer's message
// supersedes them: written next, it takes them off the end of the file first;
// when another line came after them they stay, and a resume passes over them (only partial lines
// after the last message count), so no reader shows an answer twice. Pure: the session writer
// (writer.ts) does the I/O.
import { toLine } from "./format.ts";

/** How often the words of a streaming answer are written at most, in ms: a kill loses at most this much of what was shown. */
export const PARTIAL_EVERY_MS = 1000;

/** What the lines are written with; the writer's own errors stay the writer's (it never throws). */
export interface StreamedIo {
  /** the file's size, or undefined while no line may be written to it (no file yet, a full disk) */
  size(): number | undefined;
  /** appends `line` to the file; `first`: the answer's first line, synced (the question and its first words survive a power cut) */
  write(line: string, first: boolean): void;
  /** cuts the file back to `size` bytes */
  cut(size: number): void;
}

/** When the lines are written: `later` runs `fn` once after `ms` (never keeping the process alive) and returns how to cancel it. Injected for tests. */
export interface StreamedClock {
  later(ms: number, fn: () => void): () => void;
  now(): number;
}

const systemClock: StreamedClock = {
  later: (ms, fn) => clearTimeout.bind(null, setTimeout(fn, ms).unref()),
  now: Date.now,
};

export interface StreamedAnswer {
  /** a `text_delta` of the answer streaming now */
  delta(text: string): void;
  /**
   * The stream is over. `superseded`: its message is written next, so its partial lines are taken
   * off the file when nothing came after them; else (the run ends without one) they stay.
   */
  end(superseded: boolean): void;
}

export function streamedAnswer(io: StreamedIo, makeId: () => string, clock: StreamedClock = systemClock): StreamedAnswer {
  let id: string | undefined; // the answer's partial lines', from the first one on
  let pending = ""; // text not written yet
  let from: number | undefined; // where its first line starts
  let to: number | undefined; // where its last line ends
  let last = Number.NEGATIVE_INFINITY; // when the last line was written
  let cancel: (() => void) | undefined;
  const flush = () => {
    cancel?.();
    cancel = undefined;
    const at = io.size();
    if (at === undefined || pending === "" || (id === undefined && pending.trim() === "")) return; // nothing worth a line yet
    const first = id === undefined;
    id ??= makeId();
    io.write(toLine({ type: "partial", id, text: pending }), first);
    pending = "";
    last = clock.now();
    from ??= at;
    to = io.size();
  };
  return {
    delta(text) {
      pending += text;
      const wait = last + PARTIAL_EVERY_MS - clock.now();
      if (wait <= 0) flush();
      else cancel ??= clock.later(wait, flush);
    },
    end(superseded) {
      cancel?.();
      if (superseded && from !== undefined && to !== undefined && io.size() === to) io.cut(from);
      id = from = to = cancel = undefined;
      pending = "";
      last = Number.NEGATIVE_INFINITY;
    },
  };
}

// The words of a streaming answer as `partial` lines (sessions/streamed.ts), with a scripted clock:
// never a line per delta, at most one a second with the text since the one before, the rest
// written when the second is up, and taken off the file when the answer's message comes.
import { expect, test } from "bun:test";
import { PARTIAL_EVERY_MS, streamedAnswer, type StreamedClock } from "../../src/sessions/streamed.ts";

/** A file as a string, a clock the test moves, and the lines written (their texts). */
function scripted(opts: { writable?: () => boolean } = {}) {
  let file = "";
  const synced: string[] = []; // the lines written to be synced at once
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const clock: StreamedClock = {
    now: () => now,
    later: (ms, fn) => {
      const t = { at: now + ms, fn };
      timers.push(t);
      return () => void timers.splice(timers.indexOf(t) >>> 0, 1);
    },
  };
  const io = {
    size: () => (opts.writable?.() === false ? undefined : file.length),
    write: (line: string, first: boolean) => {
      file += line;
      if (first) synced.push(line);
    },
    cut: (size: number) => void (file = file.slice(0, size)),
  };
  let n = 0;
  const answer = streamedAnswer(io, () => `p${++n}`, clock);
  return {
    answer,
    other: (line: string) => void (file += line),
    texts: () =>
      file
        .split("\n")
        .filter((l) => l.startsWith('{"type":"partial"'))
        .map((l) => (JSON.parse(l) as { text: string }).text),
    file: () => file,
    synced,
    /** moves the clock on by `ms`, running the timers that come due */
    wait(ms: number) {
      now += ms;
      for (const t of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    },
  };
}

test("the first words at once, then at most a line a second with the text since the last; a stalled stream's words when its second is up", () => {
  const s = scripted();
  s.answer.delta("\n");
  expect(s.texts()).toEqual([]); // nothing worth a line yet
  s.answer.delta("w0");
  expect(s.texts()).toEqual(["\nw0"]);
  for (const w of [" w1", " w2", " w3"]) {
    s.wait(100);
    s.answer.delta(w);
  }
  expect(s.texts()).toEqual(["\nw0"]);
  s.wait(PARTIAL_EVERY_MS); // the stream stalls: the timer writes what came
  expect(s.texts()).toEqual(["\nw0", " w1 w2 w3"]);
  s.wait(PARTIAL_EVERY_MS);
  s.answer.delta(" w4");
  expect(s.texts()).toEqual(["\nw0", " w1 w2 w3", " w4"]);
  expect(s.synced).toHaveLength(1); // the first line, with the question before it: a power cut keeps them
});

test("the answer's message takes its lines off the file; after another line, or with no message, they stay", () => {
  const s = scripted();
  s.other("question\n");
  s.answer.delta("w0");
  s.wait(PARTIAL_EVERY_MS);
  s.answer.delta(" w1");
  s.answer.end(true);
  expect(s.file()).toBe("question\n");
  s.answer.delta("v0");
  s.other("another line\n");
  s.answer.end(true);
  expect(s.texts()).toEqual(["v0"]); // the resume passes over it: a message follows
  s.answer.delta("u0 u1");
  s.answer.delta(" u2");
  s.answer.end(false); // the run ends without the message: what was written stays, nothing more is
  s.wait(PARTIAL_EVERY_MS);
  expect(s.texts()).toEqual(["v0", "u0 u1"]);
});

test("while no line may be written (no file yet, a full disk) the words wait, and go with the next line", () => {
  let writable = false;
  const s = scripted({ writable: () => writable });
  s.answer.delta("w0");
  s.wait(PARTIAL_EVERY_MS);
  expect(s.texts()).toEqual([]);
  writable = true;
  s.answer.delta(" w1");
  expect(s.texts()).toEqual(["w0 w1"]);
});

// Where a session's prompt cache began (sessions/cache-start.ts), as `hey -c` replays it from: the
// session's first request, a summary, another model or a window learned — and not each run's start,
// which went on from the run before it (x134 finding 2), nor a pause: the replay rebuilds there itself,
// keeping what the requests before it cut.
import { expect, test } from "bun:test";
import { cacheStart } from "../../src/sessions/cache-start.ts";

/**
 * One line of a session, oldest first: a request made at minute `ask` (no start here: replay-cache.ts reads times) after a message, with its answer
 * (and, `summary`, the summary it asked for first); or a run's (a switch's, a window's) model entry.
 */
type Line = { ask: number; summary?: true } | { model: string; window?: number };

/** How many messages (a user message, then each request's answer) the cache's start leaves before it, and the total. */
function started(lines: Line[]): { upTo: number | undefined; total: number } {
  const messages = lines.filter((l) => "ask" in l).length * 2;
  const start = cacheStart();
  let found = 0; // messages read, newest first
  for (const line of [...lines].reverse()) {
    if ("ask" in line) {
      start.usage(found); // the usage entry follows the answer, the summary's line comes before it
      if (line.summary) start.summary(found + 1);
      found += 2;
    } else start.model({ provider: "p", model: line.model, ...(line.window === undefined ? {} : { window: line.window }) });
  }
  const epoch = start.end(true);
  return { upTo: epoch === undefined ? undefined : messages - epoch, total: messages };
}

test.each([
  ["one run: its first request", [{ model: "a" }, { ask: 0 }, { ask: 1 }], 1],
  [
    "three hey -c runs of one model: still the session's first request",
    [{ model: "a" }, { ask: 0 }, { model: "a" }, { ask: 1 }, { model: "a" }, { ask: 2 }],
    1,
  ],
  [
    "a pause past the cache's lifetime between runs: still the first (the replay rebuilds there)",
    [{ model: "a" }, { ask: 0 }, { model: "a" }, { ask: 9 }, { ask: 10 }],
    1,
  ],
  ["another model: its first request", [{ model: "a" }, { ask: 0 }, { model: "b" }, { ask: 1 }, { model: "b" }, { ask: 2 }], 3],
  ["a summary: the request it was made for", [{ model: "a" }, { ask: 0 }, { ask: 1 }, { ask: 2, summary: true }, { model: "a" }, { ask: 3 }], 5],
  [
    "a window a local server states each run: not a new start",
    [{ model: "a" }, { model: "a", window: 8192 }, { ask: 0 }, { model: "a" }, { model: "a", window: 8192 }, { ask: 1 }],
    1,
  ],
  [
    "a window a context-length error taught: the first request after it",
    [{ model: "a" }, { ask: 0 }, { model: "a", window: 8192 }, { ask: 1 }, { model: "a" }, { ask: 2 }],
    3,
  ],
] as [string, Line[], number][])("%s", (_, lines, upTo) => {
  expect(started(lines).upTo).toBe(upTo);
});

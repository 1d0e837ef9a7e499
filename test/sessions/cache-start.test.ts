// Where a session's prompt cache began (sessions/cache-start.ts), as `hey -c` replays it from: the
// session's first request, a summary or a window learned — not another model (the replay keeps each
// model's cache apart), nor each run's start,
// which went on from the run before it (x134 finding 2), nor a pause: the replay rebuilds there itself,
// keeping what the requests before it cut.
import { expect, test } from "bun:test";
import { cacheStart } from "../../src/sessions/cache-start.ts";

/**
 * One line of a session, oldest first: a request made at minute `ask` (no start here: replay-cache.ts reads times) after a message, with its answer
 * (and, `summary`, the summary it asked for first); or a run's (a switch's, a window's) model entry.
 */
type Line = { ask: number; summary?: true } | { model: string; window?: number };

/** How many messages (a user message, then each request's answer) the cache's start of `model` leaves before it, and the total. */
function started(lines: Line[], model = "a"): { upTo: number | undefined; total: number } {
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
  const { upTo, starts } = start.end(true, messages);
  return { upTo: starts?.[`p/${model}`] ?? upTo, total: messages };
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
  // each model's cache is its own: the replay passes over other models' requests and starts a model not used before cold (x146 #2)
  ["another model: still the first request", [{ model: "a" }, { ask: 0 }, { model: "b" }, { ask: 1 }, { model: "b" }, { ask: 2 }], 1],
  ["a fallback's request and the return: still the first request", [{ model: "a" }, { ask: 0 }, { model: "b" }, { ask: 1 }, { model: "a" }, { ask: 2 }], 1],
  [
    "a window another model states: no start for the one the session ends on",
    [{ model: "a" }, { ask: 0 }, { model: "b", window: 8192 }, { ask: 1 }, { model: "b", window: 4096 }, { model: "a" }, { ask: 2 }],
    1,
  ],
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

test("each answer is named with the model it was sent to: the newest model entry before it", () => {
  const start = cacheStart();
  const [a1, b1, a2] = [{}, {}, {}] as { model?: string }[];
  // newest first: a2, the return to a, b1 (a fallback's), the switch to b, a1, the run's model
  start.answer(a2!);
  start.model({ provider: "p", model: "a" });
  start.answer(b1!);
  start.model({ provider: "p", model: "b" });
  start.answer(a1!);
  start.model({ provider: "p", model: "a" });
  expect([a1!.model, b1!.model, a2!.model]).toEqual(["p/a", "p/b", "p/a"]);
});

test("a window the model the session ends on states starts its cache, not another model's (x154 #2: hey -c -m back to it started cold)", () => {
  const session: Line[] = [{ model: "a" }, { ask: 0 }, { ask: 1 }, { model: "b", window: 8192 }, { ask: 2 }];
  expect(started(session, "b").upTo).toBe(5); // its first request: what came before it is not known to have fit its window
  expect(started(session, "a").upTo).toBe(1); // model a's cache began with the session, and its requests are replayed
});

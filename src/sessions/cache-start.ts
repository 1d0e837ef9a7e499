// Where a session's prompt cache began (reader.ts LoadedSession.cache), told from its lines read
// newest first: the session's first request, a summary, or for one model a window it learned. Not
// another model: the replay keeps each model's cache apart, as the runs did (x146 #2). Not a
// pause past the cache's lifetime: the replay rebuilds there as the run did, keeping what it cut.
// Not each run's start: `hey -c` goes on from the request before it (x134:
// counting from there, the replay rebuilt a run's first request with rewrites it never made, and the
// next run's first request followed it: 26–44 % of the prefix reused). Pure.
import type { Message } from "../kernel/ir.ts";
import { idTime } from "./ids.ts";

/** A request the session recorded an answer to (LoadedSession.cache), by what its usage entry and the messages say. */
export interface Answered {
  /** when the answer came: its usage entry's id time, written once the answer ended */
  at?: number;
  /** when the request was made: the id time of its last message (requestTimes) */
  made?: number;
  /** the estimate's ratio the request was built with */
  ratio?: number;
  /** the request's system prompt and tools (context/window.ts fixedHash); sessions before it lack it */
  fixed?: string;
  /** its summary was asked for and failed: the trim stood (sessions without `fixed` do not say) */
  failed?: true;
  /** its earlier messages went with every rewrite due up to it (Output `usage` rebuilt); older sessions do not say */
  rebuilt?: boolean;
  /** the model it was sent to, `provider/model`: the newest model entry before it (unset before any) */
  model?: string;
  /** the `.hey/task.md` text it took anew ("" for none), held by the requests after it (context/held-note.ts) */
  note?: string;
}

/**
 * Sets when each answered request of `messages` was made: the id time of the message it answered
 * (the prompt or the tool result appended just before it), not the answer's, which came after its
 * stream — a four-minute answer is no pause (x141 #2). A message without a time (a summary's) leaves it unset.
 */
export function requestTimes(messages: readonly Message[], answers: ReadonlyMap<string, Answered>): void {
  for (let i = 1; i < messages.length; i++) {
    const answer = messages[i]!.role === "assistant" ? answers.get(messages[i]!.id) : undefined;
    const made = answer && idTime(messages[i - 1]!.id);
    if (answer && made !== undefined && (answer.at === undefined || made <= answer.at)) answer.made = made;
  }
}

/** `back`: how many of the messages read so far (newest first) came after the line. */
export interface CacheStart {
  /** a request's usage entry (it follows the request's answer) */
  usage(back: number): void;
  /** a model entry (each run writes one, a switch, a window learned or stated) */
  model(m: { provider: string; model: string; window?: number }): void;
  /** an answer's message (its model is the one the next model entry read names: Answered.model) */
  answer(a: Answered): void;
  /** a summary's line: the request after it began a new prefix */
  summary(back: number): void;
  /**
   * after the last line read (`head`: the read reached the session's header), of the `count` messages read: how many come
   * before the newest start found for every model (`upTo`), and by `provider/model` before a later one of that model's
   * own (another window: `starts`); undefined where the lines read do not tell
   */
  end(head: boolean, count: number): { upTo?: number; starts?: Record<string, number> };
}

export function cacheStart(): CacheStart {
  let epoch: number | undefined; // messages after the newest start found
  const models = new Map<string, number>(); // messages after each model's newest start of its own
  const newer = (back: number | undefined, than: number | undefined) => back !== undefined && (than === undefined || back < than);
  const began = (back: number | undefined) => {
    if (newer(back, epoch)) epoch = back;
  };
  const beganFor = (key: string, back: number | undefined) => {
    if (newer(back, models.get(key))) models.set(key, back!);
  };
  let runFirst: number | undefined; // the oldest request read since the last model entry read: the first after it
  // the model entry read last, with the first request after it; and each model's newest window entry not yet known to repeat
  // an older one's (a local server's window is stated again each run): each run names its model again, starting no new cache.
  // Nor does another model: each model's cache is its own, and the replay keeps them apart as the runs did (context/replay-cache.ts);
  // a model's window is its replay's budget, so only its own window entries start its cache anew (x154 #2: another's started it cold)
  let run: { first: number | undefined } | undefined;
  const stated = new Map<string, { window: number; first: number | undefined }>();
  let unnamed: Answered[] = []; // the answers read since the last model entry read
  const read: Answered[] = []; // every answer read, newest first
  return {
    answer(a) {
      unnamed.push(a);
      read.push(a);
    },
    usage(back) {
      runFirst = back + 1; // its answer, read already, came after the request
    },
    model(m) {
      const key = `${m.provider}/${m.model}`;
      const first = runFirst ?? run?.first;
      runFirst = undefined;
      for (const a of unnamed) a.model = key;
      unnamed = [];
      const window = stated.get(key);
      if (m.window !== undefined) {
        if (window && m.window !== window.window) beganFor(key, window.first); // another budget
        stated.set(key, window?.window === m.window ? { ...window, first } : { window: m.window, first });
      }
      run = { first };
    },
    summary: began,
    end(head, count) {
      coldSwitches(read);
      // the oldest run and window read: the session's first, or ones whose model and window before are not known
      began(run?.first);
      for (const [key, window] of stated) beganFor(key, window.first);
      if (head) began(runFirst); // requests before any model entry: the session's first is among them
      if (epoch === undefined) return {};
      const later = [...models].filter(([, back]) => back < epoch!).map(([key, back]) => [key, count - back] as const);
      return { upTo: count - epoch, ...(later.length > 0 ? { starts: Object.fromEntries(later) } : {}) };
    },
  };
}

/**
 * The hey before usage lines said `rebuilt` gave a run's cache only to the model the session ended on: a run resumed
 * with another (`hey -c -m A` after a run on B) started it cold, its first request rewriting everything due. The replay
 * cannot tell that from the messages (x163 #1: it took such a request as A going on, and the next `hey -c -m A` sent
 * back a result A's cache held rewritten: 34 % of the prefix reused, where that hey reused 58 %). So an answer whose
 * usage line does not say is taken as rebuilt where the answer before it was another model's. `newestFirst`: as read.
 * A return to a model within one run (`/model B`, then `/model A`), which that hey kept warm, is taken so too (x167 #4):
 * those files mark no run's start (each run's model entry reads like a `/model` one), and either guess costs the next
 * run one cache write, so the resumed case x163 #1 measured keeps its fix. Files with `rebuilt` never reach this guess.
 */
export function coldSwitches(newestFirst: readonly Answered[]): void {
  for (let i = 0; i + 1 < newestFirst.length; i++) {
    const [a, before] = [newestFirst[i]!, newestFirst[i + 1]!];
    const unsaid = a.at !== undefined && a.rebuilt === undefined; // a usage line of that hey's
    if (unsaid && a.model !== undefined && before.model !== undefined && a.model !== before.model) a.rebuilt = true;
  }
}

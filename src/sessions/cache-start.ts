// Where a session's prompt cache began (reader.ts LoadedSession.cache), told from its lines read
// newest first: the session's first request, a summary, another model or a window learned. Not a
// pause past the cache's lifetime: the replay rebuilds there as the run did, keeping what it cut.
// Not each run's start: `hey -c` goes on from the request before it (x134:
// counting from there, the replay rebuilt a run's first request with rewrites it never made, and the
// next run's first request followed it: 26–44 % of the prefix reused). Pure.

/** `back`: how many of the messages read so far (newest first) came after the line. */
export interface CacheStart {
  /** a request's usage entry (it follows the request's answer) */
  usage(back: number): void;
  /** a model entry (each run writes one, a switch, a window learned or stated) */
  model(m: { provider: string; model: string; window?: number }): void;
  /** a summary's line: the request after it began a new prefix */
  summary(back: number): void;
  /** the messages after the newest start found, after the last line read; `head`: the read reached the session's header */
  end(head: boolean): number | undefined;
}

export function cacheStart(): CacheStart {
  let epoch: number | undefined; // messages after the newest start found
  const began = (back: number | undefined) => {
    if (back !== undefined && (epoch === undefined || back < epoch)) epoch = back;
  };
  let runFirst: number | undefined; // the oldest request read since the last model entry read: the first after it
  // the model entry read last, with the first request after it; and the newest window entry not yet known to repeat an
  // older one's (a local server's window is stated again each run): each run names its model again, starting no new cache
  let run: { key: string; first: number | undefined } | undefined;
  let stated: { key: string; window: number; first: number | undefined } | undefined;
  return {
    usage(back) {
      runFirst = back + 1; // its answer, read already, came after the request
    },
    model(m) {
      const key = `${m.provider}/${m.model}`;
      const first = runFirst ?? run?.first;
      runFirst = undefined;
      if (run && run.key !== key) began(run.first); // another model: its cache is not this one's
      if (stated && (stated.key !== key || (m.window !== undefined && m.window !== stated.window))) began(stated.first); // another budget
      if (stated && stated.key !== key) stated = undefined;
      if (m.window !== undefined) stated = stated?.window === m.window ? { ...stated, first } : { key, window: m.window, first };
      run = { key, first };
    },
    summary: began,
    end(head) {
      // the oldest run and window read: the session's first, or ones whose model and window before are not known
      began(run?.first);
      began(stated?.first);
      if (head) began(runFirst); // requests before any model entry: the session's first is among them
      return epoch;
    },
  };
}

// What a loaded session (reader.ts) gives the agent that goes on with it: pure choices about which
// of what the session learned still holds for the model the resumed run uses.
import { isWithin } from "../fs/within.ts";
import type { ConfigFlags, ProviderSettings } from "../config/settings.ts";
import type { LoadedSession } from "./reader.ts";
import { heyNote } from "../kernel/user-notes.ts";
import { callPath } from "../fs/user-path.ts";
import { cacheLifetimeOf } from "../providers/cache-lifetime.ts";
import { writtenPaths } from "./open-ends.ts";

/**
 * What a resumed session gives the agent (agent.ts AgentParts) when it goes on with
 * `provider`/`model`: the windows a context-length error taught its models (this one's first); the
 * estimate's corrected ratio in any case, as a `/model` switch within a run keeps it. The prompt
 * cache's state whichever model the session ended on: the agent replays the requests of each model
 * before its first request in the run, other models' passed over (context/replay-cache.ts), so
 * `hey -c -m A` after a run on B goes on from A's last request as a `/model` back to A within a run
 * does (agent.ts switchModel), cached within the lifetime, else rebuilt; a model the session never
 * used starts cold, its first request rewriting what was deferred (x154 #2: A started cold).
 */
export function resumedParts(session: LoadedSession, provider: string, model: string) {
  const window = learnedWindow(session, provider, model);
  return {
    history: session.messages,
    summaries: session.summaries,
    ...(window ? { window } : {}),
    ...(session.model?.limit && session.model.provider === provider && session.model.model === model ? { requestLimit: session.model.limit } : {}),
    ...(session.windows ? { windows: session.windows } : {}),
    ...(session.outputCaps ? { outputCaps: session.outputCaps } : {}),
    ...(session.cache ? { cache: session.cache } : {}),
    ...(session.tokensPerChar !== undefined ? { tokensPerChar: session.tokensPerChar } : {}),
  };
}

/**
 * What a resumed session gives the system prompt (prompt/source.ts): the files its write_file and edit calls named
 * (`home`: for their `~/…`), and, when its last request was made within the prompt cache's lifetime (the endpoint's) of `now`, what that
 * request's system prompt was built from (`sentWith`), so the first request goes on from it (x4 #3, #4). Past the lifetime
 * the provider's cache is gone: the prompt is built afresh, as for a session that has no record (an older hey's).
 */
export function promptParts(
  session: LoadedSession,
  home: string,
  now: number,
  provider: Pick<ProviderSettings, "protocol" | "baseUrl" | "compat">,
  model: string,
) {
  const lifetime = cacheLifetimeOf({ ...provider, model, cacheControl: provider.compat?.cacheControl }); // the endpoint's (context/cache.ts)
  const live = session.prompt && session.cache && now - session.cache.at <= lifetime;
  return {
    written: writtenPaths(session.messages).map((path) => callPath(path, session.header.cwd, home)),
    ...(live ? { sentWith: session.prompt } : {}),
  };
}

/** The context window `session` learned for this model, whichever it used last; undefined when it learned none. */
export function learnedWindow(session: LoadedSession, provider: string, model: string): number | undefined {
  const last = session.model;
  return (last && last.provider === provider && last.model === model ? last.window : undefined) ?? session.windows?.[`${provider}/${model}`];
}

/**
 * The note a resumed run tells the model once, with its first request, when the run before it
 * ended jobs its commands had left running (`python3 -m http.server 8000 &`): the history still
 * says they run. Undefined when there were none: the first request is then as it would be. Pure.
 */
export function endedJobsNote(session: LoadedSession): string | undefined {
  const jobs = session.endedJobs;
  if (!jobs?.length) return undefined;
  const named = jobs.map((j) => `\`${j.length > 80 ? `${j.slice(0, 79)}…` : j}\``).join(", ");
  return heyNote(
    `this is a new run of hey; the job${jobs.length === 1 ? "" : "s"} the last run left running ended with it: ${named}; start again what is still needed`,
  );
}

/** The flags of a run that continues `session`: its model and effort are one more layer of the choice (ConfigFlags.session). */
export function withSession(flags: ConfigFlags, session: LoadedSession | undefined): ConfigFlags {
  const { session: _earlier, ...rest } = flags;
  if (!session?.model) return rest;
  const { provider, model, effort } = session.model;
  return { ...rest, session: { provider, model, ...(effort === undefined ? {} : { effort }) } };
}

/**
 * The working directory the system prompt names: where the session it continues (`began`: its
 * header's) began, when that is another directory of the same project (`projectOf` says a
 * directory's root), so `hey -c` from a subdirectory sends the prompt the cache holds and the
 * model hears of the move in a note (kernel/user-notes.ts movedNote); else where hey runs.
 */
export function promptDir(began: string | undefined, here: { cwd: string; root: string }, projectOf: (dir: string) => string): string {
  if (began === undefined || began === here.cwd || !isWithin(began, here.root)) return here.cwd;
  return projectOf(began) === here.root ? began : here.cwd;
}

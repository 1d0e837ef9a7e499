// What a loaded session (reader.ts) gives the agent that goes on with it: pure choices about which
// of what the session learned still holds for the model the resumed run uses.
import type { LoadedSession } from "./reader.ts";

/**
 * What a resumed session gives the agent (agent.ts AgentParts) when it goes on with
 * `provider`/`model`: the window a context-length error taught only with the same model; the
 * estimate's corrected ratio in any case, as a `/model` switch within a run keeps it.
 */
export function resumedParts(session: LoadedSession, provider: string, model: string) {
  const window = learnedWindow(session, provider, model);
  return {
    history: session.messages,
    summaries: session.summaries,
    ...(window ? { window } : {}),
    ...(session.cache ? { cache: session.cache } : {}),
    ...(session.tokensPerChar !== undefined ? { tokensPerChar: session.tokensPerChar } : {}),
  };
}

/** The context window `session` learned for this model; undefined when it learned none or used another model last. */
export function learnedWindow(session: LoadedSession, provider: string, model: string): number | undefined {
  const last = session.model;
  return last && last.provider === provider && last.model === model ? last.window : undefined;
}

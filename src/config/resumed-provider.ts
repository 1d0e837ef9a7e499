// Where `hey -c` goes on with a session when HEY_MODEL or HEY_PROVIDER is set: they are often a shell
// profile's, written before the session, not a choice made for it. One that names the session's own
// provider, or a model it serves, leaves the session there, on its own model (only -m and /model change
// that), key or no key: where that provider has none it is refused, naming the variable only where it
// named that very model; one that names another provider moves it, and that is said. Pure.
import { envValue, familyOf } from "./presets.ts";

type Env = Record<string, string | undefined>;
type Session = { provider: string; model: string };

/**
 * Whether HEY_PROVIDER and HEY_MODEL, where set, leave the resumed `session` on its own provider:
 * they name it, its model, `PROVIDER/MODEL` on it, or a model of its vendor's family (`gpt-5.1` for
 * an `openai` session). True when neither is set.
 */
export function staysWithSession(session: Session, env: Env): boolean {
  const provider = envValue(env, "HEY_PROVIDER");
  const model = envValue(env, "HEY_MODEL");
  if (provider && provider !== session.provider) return false;
  return !model || namesSessionModel(model, session) || model.startsWith(`${session.provider}/`) || familyOf(model) === session.provider;
}

/**
 * Where HEY_MODEL `spec` and HEY_PROVIDER leave a resumed `session` (staysWithSession): its
 * provider, `PROVIDER/` left out, even where a gateway's list holds the name (README: never sent to
 * the file's gateway under that name); undefined when they move it. The session keeps its own model
 * there (providers.ts); `spec` is kept only where it names that model, for the refusal to name it.
 */
export function keptOnSession(session: Session, env: Env, spec: string): { provider: string; model: string } | undefined {
  if (!staysWithSession(session, env)) return undefined;
  return { provider: session.provider, model: spec.startsWith(`${session.provider}/`) ? spec.slice(session.provider.length + 1) : spec };
}

/** Whether `spec` is the session's own model, bare or as `PROVIDER/MODEL`. */
export const namesSessionModel = (spec: string, session: Session): boolean => spec === session.model || spec === `${session.provider}/${session.model}`;

/**
 * The variable that sent a resumed session to provider `to`, for movedNotice: HEY_MODEL, but HEY_PROVIDER
 * where it named `to` and HEY_MODEL names the session's own model or one of its vendor's (alone, that
 * would have left the session where it was), and both where each may have; undefined when neither did.
 */
export function movedBy(session: Session | undefined, env: Env, to: string): string | undefined {
  const provider = envValue(env, "HEY_PROVIDER");
  const model = envValue(env, "HEY_MODEL");
  const byProvider = provider === to ? `HEY_PROVIDER=${provider}` : undefined;
  if (!model) return byProvider;
  if (!byProvider || model.startsWith(`${to}/`)) return `HEY_MODEL=${model}`;
  const stays = session && staysWithSession(session, { HEY_MODEL: model });
  return stays ? byProvider : `${byProvider} with HEY_MODEL=${model}`;
}

/**
 * The line said when a resumed session goes on with another provider than it used: `to` is
 * `PROVIDER/MODEL`, `by` the variable that chose it (`HEY_MODEL=…`, `HEY_PROVIDER=…`), undefined
 * when nothing did and the session's provider is not in this run (the default model answers).
 * `gone`: the session's provider cannot be used in this run — a built-in vendor for want of
 * `keyVar`, or one not configured at all; false: it can, and `-m` goes back to it.
 */
export function movedNotice(session: Session, to: string, by: string | undefined, gone: false | { keyVar?: string | undefined }): string {
  const { provider: p, model: m } = session;
  const why = !gone ? "" : gone.keyVar ? `, and ${gone.keyVar} is not set` : ", which is not configured in this run";
  const back = p === "cli" ? ` — pass --base-url URL -m ${m} to continue with it` : gone ? "" : ` — pass -m ${p}/${m} to continue with it`;
  if (!by) return `the session used ${p}/${m}${why}; using ${to}${p === "cli" ? back : " — pass -m PROVIDER/MODEL to choose"}`;
  return `the session used ${p}/${m}${why}; ${by} sends it to ${to}${back}`;
}

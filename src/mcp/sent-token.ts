// The access token a refused attempt sent, carried with its failure to the sign-in watch
// (sign-in-watch.ts): what is stored when the refusal is recorded may already be another hey's
// new sign-in, which the watch must not take for the refused one. Kept beside the error, not on it:
// an error's own fields end up in logs and JSON, and this is a secret. Pure: the fetch is given.
import { asksForSignIn, Unreachable } from "./http-faults.ts";

const refused = new WeakMap<Error, string>();

/** The bearer token a request carried (its Authorization header); undefined when it carried none. */
export function bearerOf(input: string | URL | Request, init?: RequestInit): string | undefined {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  return /^\s*bearer\s+(\S+)/i.exec(headers.get("authorization") ?? "")?.[1];
}

/** `error`, noted as the refusal of `token`, the access token its attempt sent (undefined: it sent none). */
export function refusing<E extends Error>(error: E, token: string | undefined): E {
  if (token !== undefined) refused.set(error, token);
  return error;
}

/** The access token `error`'s attempt sent, as `refusing` noted it; undefined when it sent none or none was noted. */
export function tokenRefused(error: unknown): string | undefined {
  return error instanceof Error ? refused.get(error) : undefined;
}

/** The answers that refuse the token a request carried: none or a wrong one (401), one without the rights (403). */
const REFUSALS = new Set([401, 403]);

/** What a remote endpoint's answers said: whether the last asks for a sign-in, and the token of the last it refused. */
export interface Answers {
  fetch: typeof fetch;
  /** the last answer was a 401 with a Bearer challenge (the client sets it back to false for each new session) */
  challenged: boolean;
  /**
   * the access token of the last request the endpoint refused (401, 403): what a refusal is of;
   * undefined once an answer is OK (the client sets it back too for each new session)
   */
  sent: string | undefined;
}

/**
 * `send` for the requests to `url`, noting its answers — unless the table's own Authorization
 * header (`own`) is what it refuses: no sign-in could help, that is a plain failure. A request that
 * got no answer at all is the server being out of reach (Unreachable), unless it or `signal` aborted.
 */
export function watchAnswers(send: typeof fetch, url: URL, signal: AbortSignal, own: boolean): Answers {
  const answers: Answers = {
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      let res: Response;
      try {
        res = await send(input, init);
      } catch (e) {
        if (init?.signal?.aborted || signal.aborted) throw e;
        throw new Unreachable(url, e);
      }
      if (!own && new URL(input instanceof Request ? input.url : input).href === url.href) {
        answers.challenged = asksForSignIn(res);
        // only these refuse a token: a 503 or a 429 says nothing of it, and a token left from one would
        // be taken for the refused one later, when a newer one is stored (x139 #6). A 400 or 500 of an
        // auth layer refuses one too, but only the client's probe tells it from a plain failure (refused-token.ts)
        if (res.ok) answers.sent = undefined;
        else if (REFUSALS.has(res.status)) answers.sent = bearerOf(input, init);
      }
      return res;
    }) as typeof fetch,
    challenged: false,
    sent: undefined,
  };
  return answers;
}

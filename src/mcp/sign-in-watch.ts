// A sign-in made outside this hey (x115 #1): `hey mcp login NAME` in a shell, or another hey's
// `/mcp login NAME`, writes the shared credential file (credentials.ts), and a server this hey
// holds as waiting for a sign-in should take it up at its next request or call, not at /reload.
// Every server at that URL takes it up: two tables may name one endpoint, sharing its file.
// A new token is not always a new sign-in: a refused attempt of another hey may have refreshed
// one the server refuses too (its authorization server still issues them, its resource server
// refuses them: a wrong audience, a role removed). Two heys taking up each other's refreshes would
// reconnect and refresh at every request without end, so a server the watch started again that is
// refused again is watched no more, until the user starts it again (`/mcp login`, /reload) or it
// answers a request. Connecting is not enough: a server may accept hey's token for its tool list and
// refuse it for every call (a role removed, an audience checked per call), and a watch that forgot
// its restart at each connect would start the ping-pong again (x124 #4).
// What the server refused is the access token its attempt sent, not what is stored when the refusal
// is recorded: another hey may have stored a new sign-in in between, which is then taken up at the
// next check rather than held for refused. (An attempt that sent none, the stored one past its
// expiry, refused what is stored.)
// Cheap: one stat of the file per check, and a read only when the file changed since the server
// was refused. Pure: the stat and the read are given.
import type { McpServer } from "./server.ts";

export interface SignInSource {
  /** what changes whenever the sign-in file of `url` is written (one stat), undefined when there is none */
  stamp(url: string): string | undefined;
  /** the sign-in of `url` (credentials.ts Credentials), undefined when there is none */
  read(url: string): { tokens?: { access_token: string } } | undefined;
}

export interface SignInWatch {
  /**
   * server `name` at `url` refused hey's sign-in, or asked for one: `sent`, the access token the
   * refused attempt sent; undefined (it sent none: none stored, or one past its expiry), what is stored now
   */
  refused(name: string, url: string, sent: string | undefined): void;
  /** whether a new sign-in of `url` was stored since server `name` was refused (the file changed and holds another access token); true once for each refusal */
  fresh(name: string, url: string): boolean;
  /** server `name` answered a request with hey's sign-in, or the user started it anew (`/mcp login`, /reload): a later refusal is watched again, with its one restart */
  cleared(name: string): void;
}

/**
 * What the watch holds of one server: the token it was refused with and the file's stamp then (null:
 * the file held another token already, read at the next check), or `spent` once the watch's
 * restart was refused too.
 */
type Mark = { stamp: string | undefined | null; token: string | undefined; restarted: boolean } | { spent: true };

export function watchSignIns(source: SignInSource): SignInWatch {
  const marks = new Map<string, Mark>();
  const token = (url: string) => source.read(url)?.tokens?.access_token;
  return {
    refused(name, url, sent) {
      const before = marks.get(name);
      const again = before !== undefined && "restarted" in before && before.restarted; // the watch's own restart: refused too
      const stamp = source.stamp(url); // before the read: a write after it changes the stamp
      const stored = token(url);
      const refused = sent ?? stored;
      marks.set(name, again ? { spent: true } : { stamp: stored === refused ? stamp : null, token: refused, restarted: false });
    },
    fresh(name, url) {
      const mark = marks.get(name);
      if (!mark || "spent" in mark || mark.restarted) return false;
      const stamp = source.stamp(url);
      if (stamp === mark.stamp) return false;
      mark.stamp = stamp; // a write that brought no new token (a refused grant dropped) is not read again
      const now = token(url);
      if (now === undefined || now === mark.token) return false;
      mark.restarted = true;
      return true;
    },
    cleared: (name) => void marks.delete(name),
  };
}

/** Starts again each of `servers` waiting for a sign-in that has a new one stored; the ones started. */
export function startSignedIn(servers: readonly McpServer[], watch: SignInWatch): McpServer[] {
  const again = servers.filter((s) => s.status().state === "auth_required" && s.settings.url !== undefined && watch.fresh(s.settings.name, s.settings.url));
  for (const s of again) s.start();
  return again;
}

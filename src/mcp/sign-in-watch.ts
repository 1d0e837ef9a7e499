// A sign-in made outside this hey (x115 #1): `hey mcp login NAME` in a shell, or another hey's
// `/mcp login NAME`, writes the shared credential file (credentials.ts), and a server this hey
// holds as waiting for a sign-in should take it up at its next request or call, not at /reload.
// Cheap: one stat of the file per check, and a read only when the file changed since the server
// refused hey's sign-in. Pure: the stat and the read are given.
import type { McpServer } from "./server.ts";

export interface SignInSource {
  /** what changes whenever the sign-in file of `url` is written (one stat), undefined when there is none */
  stamp(url: string): string | undefined;
  /** the sign-in of `url` (credentials.ts Credentials), undefined when there is none */
  read(url: string): { tokens?: { access_token: string } } | undefined;
}

export interface SignInWatch {
  /** the server at `url` refused hey's sign-in, or asked for one: what is stored now is what it refused */
  refused(url: string): void;
  /** whether a new sign-in of `url` was stored since it was refused (the file changed and holds another access token); true once */
  fresh(url: string): boolean;
}

export function watchSignIns(source: SignInSource): SignInWatch {
  const marks = new Map<string, { stamp: string | undefined; token: string | undefined }>();
  const token = (url: string) => source.read(url)?.tokens?.access_token;
  return {
    refused: (url) => void marks.set(url, { stamp: source.stamp(url), token: token(url) }),
    fresh(url) {
      const mark = marks.get(url);
      const stamp = mark && source.stamp(url);
      if (!mark || stamp === mark.stamp) return false;
      mark.stamp = stamp; // a write that brought no new token (a refused grant dropped) is not read again
      const now = token(url);
      if (now === undefined || now === mark.token) return false;
      marks.delete(url);
      return true;
    },
  };
}

/** Starts again each of `servers` waiting for a sign-in that has a new one stored; the ones started. */
export function startSignedIn(servers: readonly McpServer[], watch: SignInWatch): McpServer[] {
  const again = servers.filter((s) => s.status().state === "auth_required" && s.settings.url !== undefined && watch.fresh(s.settings.url));
  for (const s of again) s.start();
  return again;
}

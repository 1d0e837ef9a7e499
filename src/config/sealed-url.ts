// A URL as the approvals record keeps it (config/guard.ts): a password written in it
// (`http://ana:PASSWORD@host/v1`, a base_url or a [proxy] url) and the value of each
// credential-named query parameter (`?api_key=…`, `&token=…`) are replaced by their hashes, so
// approvals.json holds no secret and yet tells a changed one from the approved one. The approved URL
// is used again (a moved base_url goes back to it) only with the secrets of the file as it is now,
// when those are the ones approved. Pure.
import { credentialName } from "./secret-variables.ts";

/** `scheme://user:` and the password, up to the authority's last `@` */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*:)([^/?#]*)@/i;
const MARK = /^\[sha256:[0-9a-f]{32}\]$/;

/** node:crypto is loaded only when a URL holds a secret (guard.ts says why it waits) */
function sealOf(secret: string): string {
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return `[sha256:${createHash("sha256").update(secret).digest("hex").slice(0, 32)}]`;
}

/** A literal secret to seal: not empty, not a `${VAR}`, not sealed already. */
const sealable = (value: string | undefined): value is string => !!value && !value.includes("${") && !MARK.test(value);

/** `url`'s query split into its `name=value` pairs, with what comes before and after it. */
function queryOf(url: string): { head: string; pairs: string[]; tail: string } {
  const hash = url.indexOf("#");
  const [main, tail] = hash < 0 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
  const at = main.indexOf("?");
  return at < 0 ? { head: main, pairs: [], tail } : { head: main.slice(0, at + 1), pairs: main.slice(at + 1).split("&"), tail };
}

/** A pair's name and value: `token=abc` → ["token", "abc"]; undefined when it has no `=` or names no credential. */
function credentialPair(pair: string): [string, string] | undefined {
  const eq = pair.indexOf("=");
  return eq > 0 && credentialName(pair.slice(0, eq)) ? [pair.slice(0, eq), pair.slice(eq + 1)] : undefined;
}

/** `url` with its password and credential-named query values hashed (`http://ana:[sha256:…]@host/v1?key=[sha256:…]`); a `${VAR}` stays as written. */
export function sealedUrl(url: string): string {
  const m = USERINFO.exec(url);
  const withPassword = m && sealable(m[2]) ? m[1] + sealOf(m[2]) + url.slice(m[0].length - 1) : url;
  const { head, pairs, tail } = queryOf(withPassword);
  if (!pairs.some((p) => sealable(credentialPair(p)?.[1]))) return withPassword;
  const sealed = pairs.map((p) => {
    const named = credentialPair(p);
    return named && sealable(named[1]) ? `${named[0]}=${sealOf(named[1])}` : p;
  });
  return head + sealed.join("&") + tail;
}

/**
 * The URL `approved` (as sealedUrl keeps it) stands for, its secrets taken from `current` (the value
 * written now) when those are the approved ones; undefined when one is not (a changed password or
 * key: the approved URL cannot be used without the user).
 */
export function unsealedUrl(approved: string, current: unknown): string | undefined {
  const now = typeof current === "string" ? current : "";
  let out = approved;
  const m = USERINFO.exec(approved);
  if (m && MARK.test(m[2]!)) {
    const password = USERINFO.exec(now)?.[2];
    if (password === undefined || sealOf(password) !== m[2]) return undefined;
    out = m[1] + password + approved.slice(m[0].length - 1);
  }
  const { head, pairs, tail } = queryOf(out);
  if (!pairs.some((p) => MARK.test(credentialPair(p)?.[1] ?? ""))) return out;
  const written = new Map(queryOf(now).pairs.flatMap((p) => (credentialPair(p) ? [credentialPair(p)!] : [])));
  const unsealed: string[] = [];
  for (const p of pairs) {
    const named = credentialPair(p);
    if (!named || !MARK.test(named[1])) unsealed.push(p);
    else {
      const value = written.get(named[0]);
      if (value === undefined || sealOf(value) !== named[1]) return undefined;
      unsealed.push(`${named[0]}=${value}`);
    }
  }
  return head + unsealed.join("&") + tail;
}

/** A record's URLs sealed (an older hey kept them as written): name → URL. */
export const sealedUrls = (urls: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, sealedUrl(url)]));

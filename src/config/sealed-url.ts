// A URL as the approvals record keeps it (config/guard.ts): a password written in it
// (`http://ana:PASSWORD@host/v1`, a base_url or a [proxy] url) and the value of each
// credential-named query or fragment parameter (`?api_key=…`, `#access_token=…`) are replaced by their hashes, so
// approvals.json holds no secret and yet tells a changed one from the approved one. The approved URL
// is used again (a moved base_url goes back to it) only with the secrets of the file as it is now,
// when those are the ones approved. Pure.
import { credentialName } from "../net/credential-names.ts";

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

/**
 * `url` split where credentials may be written as `name=value` pairs: the query and the fragment
 * (`#access_token=…`, as an OAuth implicit flow hands a token over). `sections` alternate text kept
 * as written (even index) and `&`-joined pairs (odd index).
 */
function sectionsOf(url: string): string[] {
  const hash = url.indexOf("#");
  const [main, fragment] = hash < 0 ? [url, undefined] : [url.slice(0, hash), url.slice(hash + 1)];
  const at = main.indexOf("?");
  const out = at < 0 ? [main] : [main.slice(0, at + 1), main.slice(at + 1)];
  if (fragment === undefined) return out;
  if (out.length === 1) out.push("");
  return [...out, "#", fragment];
}

/** `url` with each pair of its query and fragment as `each` makes it; undefined when `each` gives undefined for one. */
function mapPairs(url: string, each: (pair: string, where: string) => string | undefined): string | undefined {
  const sections = sectionsOf(url);
  for (let i = 1; i < sections.length; i += 2) {
    const pairs = sections[i]!.split("&").map((p) => each(p, String(i)));
    if (pairs.includes(undefined)) return undefined;
    sections[i] = pairs.join("&");
  }
  return sections.join("");
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
  return mapPairs(withPassword, (p) => {
    const named = credentialPair(p);
    return named && sealable(named[1]) ? `${named[0]}=${sealOf(named[1])}` : p;
  })!;
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
  const written = new Map<string, string>();
  mapPairs(now, (p, where) => {
    const named = credentialPair(p);
    if (named) written.set(`${where} ${named[0]}`, named[1]);
    return p;
  });
  return mapPairs(out, (p, where) => {
    const named = credentialPair(p);
    if (!named || !MARK.test(named[1])) return p;
    const value = written.get(`${where} ${named[0]}`);
    return value === undefined || sealOf(value) !== named[1] ? undefined : `${named[0]}=${value}`;
  });
}

/** A record's URLs sealed (an older hey kept them as written): name → URL. */
export const sealedUrls = (urls: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, sealedUrl(url)]));

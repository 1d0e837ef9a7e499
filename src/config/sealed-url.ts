// A URL as the approvals record keeps it (config/guard.ts): a password written in it
// (`http://ana:PASSWORD@host/v1`, a base_url or a [proxy] url) is replaced by its hash, so
// approvals.json holds no secret and yet tells a changed password from the approved one. The
// approved URL is used again (a moved base_url goes back to it) only with the password of the file
// as it is now, when that is the one approved. Pure.

/** `scheme://user:` and the password, up to the authority's last `@` */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*:)([^/?#]*)@/i;
const MARK = /^\[sha256:[0-9a-f]{32}\]$/;

/** node:crypto is loaded only when a URL holds a password (guard.ts says why it waits) */
function sealOf(password: string): string {
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return `[sha256:${createHash("sha256").update(password).digest("hex").slice(0, 32)}]`;
}

/** `url` with its password hashed (`http://ana:[sha256:…]@host/v1`); as written when it has none, or one given as `${VAR}`. */
export function sealedUrl(url: string): string {
  const m = USERINFO.exec(url);
  if (!m || m[2] === "" || m[2]!.includes("${") || MARK.test(m[2]!)) return url;
  return m[1] + sealOf(m[2]!) + url.slice(m[0].length - 1);
}

/**
 * The URL `approved` (as sealedUrl keeps it) stands for, its password taken from `current` (the
 * value written now) when that password is the approved one; undefined when it is not (a changed
 * password: the approved URL cannot be used without the user).
 */
export function unsealedUrl(approved: string, current: unknown): string | undefined {
  const m = USERINFO.exec(approved);
  if (!m || !MARK.test(m[2]!)) return approved;
  const password = typeof current === "string" ? USERINFO.exec(current)?.[2] : undefined;
  if (password === undefined || sealOf(password) !== m[2]) return undefined;
  return m[1] + password + approved.slice(m[0].length - 1);
}

/** A record's URLs sealed (an older hey kept them as written): name → URL. */
export const sealedUrls = (urls: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, sealedUrl(url)]));

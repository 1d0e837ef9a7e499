// Which `${VAR}`s of a configuration are secrets: the variables whose values knownSecrets
// (secrets.ts) hides and the commands the model runs go without. A name says credential, or a
// place does (a credential header's value, a credential argument, a URL's password or key); a place
// that says where something is (a host, a path) does not. Pure.
import { VAR } from "./schema.ts";
import { credentialName } from "../net/credential-names.ts";
import { pathOrUrl } from "./secret-shapes.ts";

/**
 * The variables a configuration (merged, before `${VAR}` expansion) gives hey as secrets, by
 * name: what knownSecrets reads. A `${VAR}` is one when its own name is a credential's
 * (`${EXA_API_KEY}`, anywhere in these tables); when it is in a credential-named header or MCP `env`
 * value, not starting a path (`Cookie = "sid=${SID}"`, `Authorization = "Bearer ${ORG}.${JWT}"`); when
 * it is all of a credential-named MCP argument, maybe after `Bearer `/`Basic `/`token `
 * (`"--api-key", "${K}"`, `"--token=${K}"`, `"Authorization: Bearer ${T}"`); when it
 * is a provider's `api_key` or an MCP server's `client_secret`; or when it is a URL's password or the
 * value of a credential-named query parameter (`?api_key=${K}`). Never a URL's scheme, host or path
 * (`${OLLAMA_HOST}/v1`, `https://api.example/${API_VERSION}/mcp`), nor part of a longer value
 * (`${HOME}/.config/key.json`, `--token-file ${HOME}/.tok`, `--author=${USER}`): those say where
 * things are, and hiding them garbles every path and leaves the commands without them.
 */
export function secretVariables(raw: unknown): string[] {
  const names = new Set<string>();
  const add = (v: unknown, secret: (before: string, after: string) => boolean = () => true) => {
    if (typeof v !== "string") return;
    for (const m of v.matchAll(VAR)) if (credentialName(m[1]!) || secret(v.slice(0, m.index), v.slice(m.index + m[0].length))) names.add(m[1]!);
  };
  const credentials = (v: unknown) => {
    for (const [name, value] of entries(v)) add(value, (_, after) => credentialName(name) && inCredential(value as string, after));
  };
  const top = Object.fromEntries(entries(raw));
  for (const [, p] of entries(top.provider)) {
    const provider = Object.fromEntries(entries(p));
    add(provider.api_key);
    credentials(provider.headers);
    add(provider.base_url, urlSecret);
  }
  for (const [, s] of entries(Object.fromEntries(entries(top.mcp)).servers)) {
    const server = Object.fromEntries(entries(s));
    credentials(server.headers);
    credentials(server.env);
    add(server.client_secret);
    add(server.url, urlSecret);
    const args = Array.isArray(server.args) ? server.args : [];
    args.forEach((arg, i) => {
      const flag = typeof args[i - 1] === "string" && /^-/.test(args[i - 1]) ? args[i - 1] : "";
      add(arg, (before, after) => after === "" && (credentialName(namedBefore(before) ?? "") || (credentialName(flag) && wholeCredential(arg))));
    });
  }
  add(Object.fromEntries(entries(top.proxy)).url, urlSecret);
  return [...names];
}

/**
 * Whether a `${VAR}` followed by `after` in a credential-named header or env `value` is part of the
 * credential: any is (`sid=${SID}`, `Bearer ${ORG}.${JWT}`, `${K}`) but one that starts a path
 * (`${HOME}/.config/key.json`) and any of a value that is a path or a URL (`~/${KEYS}/a.json`).
 */
const inCredential = (value: string, after: string) => !after.startsWith("/") && !pathOrUrl(value);

/** A credential-named argument made only of `${VAR}`s, maybe after `Bearer `: `${T}`, `Bearer ${T}`, `${PART_A}${PART_B}`; not `${HOME}/key.json`. */
const wholeCredential = (value: string) => /^(?:(?:Bearer|Basic|token)[ \t]+)?$/i.test(value.replace(VAR, ""));

/** The name an argument gives what ends it: `--api-key=`, `Authorization: Bearer `, `--header=X-Api-Key: ` (`api-key`, `Authorization`, `X-Api-Key`). */
const namedBefore = (before: string) => /(?:^|[\s=])-*([A-Za-z][\w.-]*)[ \t]*[=:][ \t]*(?:(?:Bearer|Basic|token)[ \t]+)?$/i.exec(before)?.[1];

/**
 * Whether a `${VAR}` between `before` and `after` in a URL is a secret of it: its password
 * (`https://user:${PW}@host`) or all of a credential-named query value (`?api_key=${K}&…`). The scheme,
 * host, port and path say where the URL goes (`${OLLAMA_HOST}/v1`, `https://api.example/${VERSION}/mcp`).
 */
function urlSecret(before: string, after: string): boolean {
  const query = /[?&]([^=&#?]+)=$/.exec(before);
  if (query && /^(?:[&#]|$)/.test(after) && credentialName(query[1]!)) return true;
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)$/i.exec(before)?.[1];
  return userinfo?.includes(":") === true && /^[^/?#]*@/.test(after);
}

/** A table's entries; anything else has none. */
const entries = (v: unknown): [string, unknown][] => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.entries(v) : []);

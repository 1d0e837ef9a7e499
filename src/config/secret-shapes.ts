// Secrets hey does not know (issue 24): values shaped like credentials in tool results — provider
// key prefixes, PEM private keys, JWTs, and the values of `*_KEY`/`*_TOKEN`/`*_SECRET`/`PASSWORD`
// lines of dotenv-style files — become placeholders that name them (`[secret: GITHUB_TOKEN]`,
// `[secret: openai-key]`) before the model, the session file or the terminal see them. A shape is
// a guess, so each pattern is narrow: a prefix at a word boundary and a long enough tail, a
// dotenv value that is a literal (not `${VAR}`, not code). `[tools] redact_secrets = false`
// turns it off. Pure.

import { hideKeyParts } from "./key-shapes.ts";

/** A placeholder in the text: what the model sees instead of the value. */
export const placeholder = (name: string) => `[secret: ${name}]`;

/** Shorter dotenv values are not taken for secrets (`PASSWORD=changeme` is a sample, `KEY=id` a setting). */
const MIN_VALUE_CHARS = 8;

interface Shape {
  name: string;
  pattern: RegExp;
  /** a further test of the match, where the pattern alone would take ordinary words */
  accept?: (match: string) => boolean;
}

/** Mixed letters and digits, as a generated key has: `sk-learn-…` and `sk-` in prose are words. */
const keyLike = (s: string) => /\d/.test(s) && /[A-Za-z]/.test(s) && !/^[a-z-]+-\d{1,4}$/i.test(s);

const SHAPES: Shape[] = [
  // the header names the key type (RSA, EC, OPENSSH, ENCRYPTED, PGP…); a key cut short is hidden to the end
  { name: "private-key", pattern: /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----|$)/g },
  { name: "anthropic-key", pattern: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "openai-key", pattern: /(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, accept: (m) => keyLike(m.slice(3)) },
  { name: "github-token", pattern: /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: "gitlab-token", pattern: /(?<![\w-])glpat-[A-Za-z0-9_-]{20,}/g },
  { name: "slack-token", pattern: /(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,}/g, accept: (m) => /\d/.test(m) },
  { name: "aws-access-key-id", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g },
  { name: "google-api-key", pattern: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { name: "stripe-key", pattern: /(?<!\w)[sr]k_live_[0-9A-Za-z]{20,}/g },
  { name: "npm-token", pattern: /(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)/g },
  { name: "huggingface-token", pattern: /(?<!\w)hf_[A-Za-z0-9]{34,}(?!\w)/g },
  { name: "sendgrid-key", pattern: /(?<![\w.-])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  // three base64url parts, the first two JSON objects (`{"` is `eyJ`)
  { name: "jwt", pattern: /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g },
];

/** What stands for a password in a URL: a reference, `PASSWORD`/`YOUR_PASSWORD`, a placeholder already there, `***`. */
const samplePassword = (p: string) => /^[$%<{[]|^\*+$/.test(p) || sample(p, "password");
/**
 * The password of a URL written with one, `scheme://user:PASSWORD@host` (a DATABASE_URL, a
 * proxy, a git remote): only the password is replaced. A reference (`${DB_PASSWORD}`, `%s`,
 * `<password>`) is left, and so is a shorter one (`user:pw@`), as a dotenv value is.
 */
const URL_PASSWORD = /(?<![\w+.-])([a-z][a-z0-9+.-]*:\/\/[^\s:/@?#'"`]+:)([^\s/@?#'"`]+)(?=@[\w[])/gi;

/**
 * A `NAME=value` line whose name says it holds a credential: `GITHUB_TOKEN=…`, `export
 * AWS_SECRET_ACCESS_KEY=…`, `DB_PASSWORD="…"`, `aws_secret_access_key = …` (~/.aws/credentials).
 */
const SECRET_NAME =
  /^(?:[A-Za-z0-9]+_)*(?:(?:API|SECRET|ACCESS|PRIVATE|CLIENT)?_?KEY|(?:AUTH|ACCESS|REFRESH|BEARER|SESSION)?_?TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH)$|^[A-Za-z0-9]+_PWD$/i;
/** A password's or credentials' name run together, upper case as a variable's is: `PGPASSWORD`, `MYSQLPASSWD`; not `showPassword`. */
const SECRET_SUFFIX = /^[A-Z][A-Z0-9]*(?:PASSWORD|PASSWD|CREDENTIALS)$/;
/** The same names in camelCase (`clientSecret`, `apiKey`, `dbPassword`), case and all: `monkey` and `primaryKey` are no such name. */
const SECRET_CAMEL =
  /^(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*)?(?:[aA]piKey|[sS]ecretKey|[pP]rivateKey|[aA]ccessKey|[tT]oken|[sS]ecret|[pP]assword|[pP]asswd|[cC]redentials?)$/;
// a line as a tool shows it may start with its number (`12\t` from read_file or `cat -n`) or with
// `path:12:` (grep, rg); the name may be quoted (JSON: `"api_key": "…",`)
const ASSIGNMENT = /^((?:[ \t]*\d+\t|\S+?:\d+:[ \t]?)?[ \t]*(?:export[ \t]+)?)(["']?)([A-Za-z_][A-Za-z0-9_]*)\2([ \t]*[=:][ \t]*)(.*\S)?([ \t]*)$/gm; // not `(.*?)`: a lazy value before a run of blanks is tried at each of them

/**
 * The value of an assignment as written, or undefined when it is not a literal secret (a reference,
 * code, a sample). A quoted value followed by a comma under an unquoted name is an object literal's
 * member (`password: "different",`), where only a value that looks generated is taken. `jsonName`:
 * the name is quoted (`"password": …`); there, under a camelCase name, and for a quoted value under
 * any name but an environment variable's, the value is often a translation, a label or a validation
 * rule (`"password": "Passwort"`, `reset_password_token: "Token-Zuruecksetzen"` in a Rails locale,
 * `"accessToken": "Access_Token"`, `"password": "required|min:8"`), so only one that looks generated
 * or written as a key (secretText) is; `DB_PASSWORD="…"`, `POSTGRES_PASSWORD: "…"` are taken as before.
 */
function literalValue(raw: string, spaced: boolean, name: string, jsonName: boolean): { start: number; end: number } | undefined {
  const quoted = /^(["'])(.*)\1(,?)$/.exec(raw); // an object member's value ends in a comma
  const value = quoted ? quoted[2]! : raw.replace(/[ \t]+#.*$/, "");
  if (value.length < MIN_VALUE_CHARS || sample(value, name)) return undefined;
  if (/^[$%<{]|^(?:process\.env|os\.environ|os\.getenv|ENV\[|env\()/.test(value)) return undefined; // a reference, not the value
  if (!quoted && /[\s()[\]{};,]/.test(value)) return undefined; // code or prose
  if (quoted?.[3] && (/\s/.test(value) || (!jsonName && !generated(value)))) return undefined; // code: `auth: "login logout",`
  // text for people (a translation, a label) rather than a key, under any name but an environment variable's (`DB_PASSWORD="…"`)
  if ((jsonName || (quoted && !/^[A-Z][A-Z\d_]*$/.test(name)) || /[a-z][A-Z]/.test(name)) && !generated(value) && !secretText(value)) return undefined;
  // spaced and unquoted (`api_key = config.key`, `token: some_variable`) is code unless it looks generated
  if (spaced && !quoted && !generated(value) && (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(value) || !/\d/.test(value))) return undefined;
  const start = quoted ? 1 : 0;
  return { start, end: start + value.length };
}

/**
 * A value no one names a variable: 16 or more hex digits (`f3a9c1d2e4b5a697…`), letters with 4
 * digits or more (`spaced_plain_666666`), or 16 characters or more of both cases and digits and no
 * dot; `config.api_key`, `settings.API_KEY_V2`, `sha256_hash` and `token2` are names.
 */
const generated = (value: string) =>
  /^[0-9a-f]{16,}$/i.test(value) ||
  (/[A-Za-z]/.test(value) && (value.match(/\d/g)?.length ?? 0) >= 4) ||
  (value.length >= 16 && !value.includes(".") && /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value));

/** The kinds of characters in `v`, of lower case, upper case, digits and others. */
const kinds = (v: string) => [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((k) => k.test(v)).length;

/**
 * A value that could be a key someone typed rather than text for people: two kinds of characters or
 * more, ASCII only, no blank, no `|` or `:` (a validation rule such as `required|min:8`), and not a
 * word or words (`Passwort`, `E-Mail-Adresse`, `E-Mail/Password`, `Access_Token`, `required`).
 */
const secretText = (v: string) =>
  kinds(v) >= 2 && !/[^\x21-\x7e]/.test(v) && !/[|:]/.test(v) && !/^(?:[A-Z]+|[A-Z]?[a-z]+)(?:[-'./_](?:[A-Z]+|[A-Z]?[a-z]+))*[.!?]?$/.test(v);

/** What stands for a value: the name itself, a CONSTANT_NAME (`HEADER.PAYLOAD.SIGNATURE`), `your-api-key`, `xxxxxxxx`, `changeme`, a placeholder. */
const sample = (value: string, name: string) =>
  value.toLowerCase() === name.toLowerCase() ||
  /^[A-Z][A-Z0-9]*(?:[._-][A-Z0-9]+)*$/.test(value) ||
  /^(.)\1+$/.test(value) ||
  /^(?:your|my|some|example|sample|dummy|fake|test)[-_]/i.test(value) ||
  /^(?:changeme|password|passwd|secret|placeholder)$/i.test(value) ||
  /^\[(?:redacted|secret: [A-Za-z0-9_-]+)\]$/.test(value); // hidden already: `api_key = "[redacted]"` stays as the model was shown it

/**
 * The values of the variables in `env` whose names say they hold a credential (GITHUB_TOKEN,
 * AWS_SECRET_ACCESS_KEY, DB_PASSWORD: the names of SECRET_NAME) and whose values could be nothing
 * else: 8 characters or more of at least two kinds (lower case, upper case, digits, other), not a
 * path or a URL. A DB_PASSWORD of `postgres` or `1` is left: hiding every "postgres" would garble
 * what the model reads.
 */
export function environmentSecrets(env: Record<string, string | undefined>): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value && (SECRET_NAME.test(name) || SECRET_SUFFIX.test(name)) && value.length >= MIN_VALUE_CHARS && kinds(value) >= 2 && !pathOrUrl(value) ? [value] : [],
  );
}

/** A value that says where something is, a path (`/`, `~`, `.`) or a URL, rather than being a secret: `/home/ana/key.json`, `http://127.0.0.1:8080`. */
export const pathOrUrl = (value: string) => /^(?:[/~.]|[a-z][a-z0-9+.-]*:\/\/)/i.test(value);

/** Whether `name` says it holds a credential, as a dotenv or camelCase name: `GITHUB_TOKEN`, `api_key`, `clientSecret`; not `MAX_TOKENS`, `token_file`. */
export const secretName = (name: string) => SECRET_NAME.test(name) || SECRET_SUFFIX.test(name) || SECRET_CAMEL.test(name);

/**
 * `text` with every value shaped like a credential replaced by its placeholder, or by what `mask`
 * makes of the shape's name and the value (an approval shows a value's hash, to tell a changed one).
 */
export function redactShapes(text: string, mask: (name: string, value: string) => string = placeholder): string {
  if (text === "") return text;
  let out = text.replace(ASSIGNMENT, (line, lead: string, quote: string, name: string, sep: string, raw = "", trail: string) => {
    const spaced = /[ \t]/.test(sep);
    // a bare `key:` is a YAML mapping's key far more often than a credential
    if (!secretName(name) || (spaced && /^key$/i.test(name))) return line;
    const at = literalValue(raw, spaced, name, quote !== "");
    if (!at) return line;
    return `${lead}${quote}${name}${quote}${sep}${raw.slice(0, at.start)}${mask(name, raw.slice(at.start, at.end))}${raw.slice(at.end)}${trail}`;
  });
  out = out.replace(URL_PASSWORD, (m, before: string, password: string) =>
    password.length < MIN_VALUE_CHARS || samplePassword(password) ? m : `${before}${mask("url-password", password)}`,
  );
  for (const shape of SHAPES) {
    shape.pattern.lastIndex = 0;
    out = out.replace(shape.pattern, (m) => (shape.accept && !shape.accept(m) ? m : mask(shape.name, m)));
  }
  return hideKeyParts(out, mask); // a key's end, its first lines, a key in base64: what holds no BEGIN line of its own
}

/** The placeholders (`[secret: NAME]`) in `text`, each once. */
export function placeholdersIn(text: string): string[] {
  return [...new Set(text.match(/\[secret: [A-Za-z0-9_-]+\]/g) ?? [])];
}

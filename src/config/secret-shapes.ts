// Secrets hey does not know (issue 24): values shaped like credentials in tool results — provider
// key prefixes, PEM private keys, JWTs, and the values assigned to `*_KEY`/`*_TOKEN`/`*_SECRET`/`PASSWORD`
// names wherever a line holds them (a diff, a Dockerfile, grep's output, one-line JSON) — become placeholders that name them (`[secret: GITHUB_TOKEN]`,
// `[secret: openai-key]`) before the model, the session file or the terminal see them. A shape is
// a guess, so each pattern is narrow: a prefix at a word boundary and a long enough tail, a
// dotenv value that is a literal (not `${VAR}`, not code). `[tools] redact_secrets = false`
// turns it off. Pure.

import { SECRET_NAME, SECRET_SUFFIX, secretName } from "../net/credential-names.ts";
import { assignedName } from "./assigned-names.ts";
import { type Kinds, kindCount, kindsOf, type ValueReader, valueReader } from "./assigned-values.ts";
import { keySpans } from "./key-blocks.ts";
import { keyPieces } from "./key-runs.ts";
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

/** A value written to look like a key in a test or a doc: it counts up, `abcdef…` and `123456…` both (`sk-proj-abcdefghij1234567890ABCD`). */
const fixture = (m: string) => /abcdefgh|ABCDEFGH/.test(m) && /12345678|01234567/.test(m);
/** Mixed letters and digits, as a generated key has: `sk-learn-…` and `sk-` in prose are words. */
const keyLike = (s: string) => /\d/.test(s) && /[A-Za-z]/.test(s) && !/^[a-z-]+-\d{1,4}$/i.test(s);

const SHAPES: Shape[] = [
  { name: "anthropic-key", pattern: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "openai-key", pattern: /(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, accept: (m) => keyLike(m.slice(3)) && !fixture(m) },
  { name: "github-token", pattern: /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: "gitlab-token", pattern: /(?<![\w-])glpat-[A-Za-z0-9_-]{20,}/g },
  { name: "slack-token", pattern: /(?<![\w-])(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/g, accept: (m) => /\d/.test(m) },
  { name: "aws-access-key-id", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g },
  { name: "google-api-key", pattern: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { name: "stripe-key", pattern: /(?<!\w)(?:[sr]k_(?:live|test)_[0-9A-Za-z]{20,}|whsec_[0-9A-Za-z]{24,})/g },
  { name: "pypi-token", pattern: /(?<![\w-])pypi-AgE[A-Za-z0-9_-]{50,}/g },
  // the URL is the credential: whoever has it can post to the channel
  { name: "slack-webhook", pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g },
  { name: "npm-token", pattern: /(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)/g },
  { name: "huggingface-token", pattern: /(?<!\w)hf_[A-Za-z0-9]{34,}(?!\w)/g },
  { name: "sendgrid-key", pattern: /(?<![\w.-])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  // three base64url parts, the first two JSON objects (`{"` is `eyJ`)
  { name: "jwt", pattern: /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g },
];

/**
 * What each of SHAPES starts with: text holding none of these has no match of any, so one search
 * stands for their 15 (most output, a build log of 45 MB, has none: ~0.3 s less for it).
 */
const SHAPE_START = /sk-|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|xapp-|AKIA|ASIA|AIza|[sr]k_(?:live|test)_|whsec_|pypi-|hooks\.slack\.com|npm_|hf_|SG\.|eyJ/;

/**
 * An HTTP header as a script or git config writes it (`curl -H "Authorization: Bearer …"`,
 * `extraheader = AUTHORIZATION: basic …`): only the credential is replaced, after the shapes, so a
 * JWT or a known key there is named as itself.
 */
const AUTHORIZATION = /(\b(?:proxy-)?authorization:[ \t]*(?:(?:bearer|basic|token|digest)[ \t]+)?)([A-Za-z0-9._~+/-]{16,}=*)/gi;

/** What stands for a password in a URL: a reference, `PASSWORD`/`YOUR_PASSWORD`, a placeholder already there, `***`. */
const samplePassword = (p: string) => /^[$%<{[]|^\*+$/.test(p) || sample(p, "password");
/**
 * The password of a URL written with one, `scheme://user:PASSWORD@host` (a DATABASE_URL, a
 * proxy, a git remote): only the password is replaced. A reference (`${DB_PASSWORD}`, `%s`,
 * `<password>`) is left, and so is a shorter one (`user:pw@`), as a dotenv value is.
 */
const URL_PASSWORD = /(?<![\w+.-])([a-z][a-z0-9+.-]*:\/\/[^\s:/@?#'"`]+:)([^\s/@?#'"`]+)(?=@[\w[])/gi;

/** A `name`/`value` pair that names an environment variable (k8s, ECS, .NET `<add key= value=>`), on one line or two. */
const NAME_VALUE =
  /(?<![\w.])(["']?)(?:name|key)\1[ \t]*[:=][ \t]*(["']?)([A-Za-z_]\w*)\2[ \t]*(?:,[ \t]*)?(?:\r?\n[ \t-]*)?(["']?)value\4([ \t]*[:=][ \t]*)/gi;
/** Words that make a `*_KEY` or `*_TOKEN` name an identifier or something public by design: `CACHE_KEY`, `STRIPE_PUBLISHABLE_KEY`, `nextPageToken`. */
const PUBLIC_NAME = /(?:PUBLIC|PUBLISHABLE|SITE|CACHE|SORT|FOREIGN|PRIMARY|PARTITION|IDEMPOTENCY|PAGE|CURSOR)_?(?:KEY|TOKEN)$/i;
/**
 * Where a line says a value is a secret without `=` or `:`: a netrc `password` (read from the last
 * `machine` or `default` before it: read from each, a line of many and no password took seconds),
 * csh's `setenv NAME value`.
 */
const SPACED_FORMS =
  /(\b(?:machine|default)\b(?:(?!\b(?:machine|default)\b)[^\n])*?\bpassword[ \t]+|^[ \t]*password[ \t]+|\bsetenv[ \t]+([A-Za-z_]\w*)[ \t]+)(?=\S)/gm;

interface Span {
  start: number;
  end: number;
  name: string;
}

/**
 * The span of the literal secret after an assignment's separator at `at`, or undefined when there
 * is none (a reference, code, a sample). A quoted value followed by a comma is an object literal's
 * member (`password: "different",`), where only a value that looks generated is taken. `jsonName`:
 * the name is quoted (`"password": …`); there, under a camelCase name, and for a quoted value under
 * any name but an environment variable's, the value is often a translation, a label or a validation
 * rule (`"password": "Passwort"`, `reset_password_token: "Token-Zuruecksetzen"` in a Rails locale,
 * `"accessToken": "Access_Token"`, `"password": "required|min:8"`), so only one that looks generated
 * or written as a key (secretText) is; `DB_PASSWORD="…"`, `POSTGRES_PASSWORD: "…"` are taken as before.
 */
function literalAt(read: ValueReader, text: string, at: number, spaced: boolean, name: string, jsonName: boolean): { start: number; end: number } | undefined {
  const found = read(at);
  if (!found) return undefined;
  const { value, quoted, start } = found;
  let counted: Kinds | undefined;
  const k = () => (counted ??= found.kinds());
  const next = text[found.after];
  if (value.length < MIN_VALUE_CHARS || sample(value, name) || notSecret(value)) return undefined;
  if (/^[$%<{]|^(?:process\.env|os\.environ|os\.getenv|ENV\[|env\()/.test(value)) return undefined; // a reference, not the value
  if (!quoted && (next === "(" || next === "[")) return undefined; // code: a call or an index
  if (quoted && next === "," && (k().blanks > 0 || (!jsonName && !generated(value, k())))) return undefined; // code: `auth: "login logout",`
  // text for people (a translation, a label) rather than a key, under any name but an environment variable's (`DB_PASSWORD="…"`)
  if ((jsonName || (quoted && !/^[A-Z][A-Z\d_]*$/.test(name)) || /[a-z][A-Z]/.test(name)) && !generated(value, k()) && !secretText(value, k()))
    return undefined;
  // spaced and unquoted (`api_key = config.key`, `token: some_variable`) is code unless it looks generated
  if (spaced && !quoted && !generated(value, k()) && (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(value) || k().digits === 0)) return undefined;
  return { start, end: start + value.length };
}

/**
 * A value that says what it is rather than hiding it: a path (`~/.ssh/id_ed25519`,
 * `uploads/2024/report.csv`; not base64 with a `/` in it), a URL (its password is URL_PASSWORD's),
 * a name with a year in it (`v2-deps-2024-01-15`, `order-2024-0001`, `user_id_2024`), a
 * publishable key (`pk_live_…`), public by design, a checksum (`sha512-…`).
 */
const notSecret = (value: string) =>
  pathOrUrl(value) ||
  (/^(?:[\w.-]+\/)+[\w.-]+$/.test(value) && (/\.[A-Za-z0-9]{1,5}$/.test(value) || !/[A-Z]/.test(value))) ||
  (/^(?:[a-z]+\d{0,2}|\d+)(?:[-_.](?:[a-z]+\d{0,2}|\d+)){2,}$/.test(value) && /(?:^|[-_.])(?:19|20)\d\d(?:$|[-_.])/.test(value)) ||
  /^pk_(?:live|test)_/.test(value) ||
  /^(?:sha1|sha256|sha384|sha512|md5)[-:]/i.test(value); // a checksum

/** Whether only blanks stand before `at` on its line. */
const startsLine = (text: string, at: number) => {
  for (let i = at - 1; i >= 0 && text[i] !== "\n"; i--) if (text[i] !== " " && text[i] !== "\t") return false;
  return true;
};

/** Whether `name` (a dotted name's last part) holds a credential in an assignment: not a public or identifying key, and a bare `key` only as `key=` starting a line. */
const assignedSecret = (name: string, spaced: boolean, text: string, at: number) => {
  const bare = name.replace(/^_+/, ""); // npm's `_authToken`, `_auth`
  if (!secretName(bare) || PUBLIC_NAME.test(bare)) return false;
  return !/^key$/i.test(bare) || (!spaced && startsLine(text, at)); // a bare `key:` is a YAML mapping's key far more often than a credential
};

/** `text` with the spans (sorted, not overlapping) replaced by what `mask` makes of their names and values. */
function replaceSpans(text: string, spans: Span[], mask: (name: string, value: string) => string): string {
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const s of spans) {
    out += text.slice(from, s.start) + mask(s.name, text.slice(s.start, s.end));
    from = s.end;
  }
  return out + text.slice(from);
}

/** The values of assignments to credential names anywhere in `text` (config/assigned-names.ts finds the names). */
function assignments(text: string): Span[] {
  const spans: Span[] = [];
  if (!/key|token|secret|pass|pwd|auth|credential/i.test(text)) return spans; // the words assignedName looks for, sought once: most output holds none
  const read = valueReader(text);
  for (let m = assignedName(text, 0); m; ) {
    const { index, end, quote, name, sign } = m;
    let next = end;
    const spaced = /[ \t]/.test(sign);
    // `>` is XML's `<password>`; a name that is no credential's: its value is read again, for `--build-arg=NPM_TOKEN=…`
    const at =
      (sign !== ">" || text[index - 1] === "<") && assignedSecret(name, spaced, text, index)
        ? literalAt(read, text, end, spaced, name, quote !== "")
        : undefined;
    if (at) {
      spans.push({ ...at, name });
      next = at.end;
    }
    m = assignedName(text, next);
  }
  return spans;
}

/** The values of `name: DB_PASSWORD` / `value: …` pairs, of a netrc `password` and of csh's `setenv`. */
function pairs(text: string): Span[] {
  const spans: Span[] = [];
  const read = valueReader(text);
  // each form needs its word: most output holds neither, and one search for it costs less than the form's own
  if (/value/i.test(text))
    for (const m of text.matchAll(NAME_VALUE)) {
      const name = m[3]!;
      if (!secretName(name) || PUBLIC_NAME.test(name)) continue;
      const at = literalAt(read, text, m.index + m[0].length, /[ \t]/.test(m[5]!), name, false);
      if (at) spans.push({ ...at, name });
    }
  if (text.includes("password") || text.includes("setenv"))
    for (const m of text.matchAll(SPACED_FORMS)) {
      const name = m[2] ?? "password";
      if (m[2] !== undefined && !secretName(name)) continue;
      const at = literalAt(read, text, m.index + m[0].length, true, name, false);
      if (at) spans.push({ ...at, name });
    }
  return spans.sort((a, b) => a.start - b.start).filter((s, i, all) => i === 0 || s.start >= all[i - 1]!.end);
}

/**
 * A value no one names a variable: 16 or more hex digits (`f3a9c1d2e4b5a697…`), letters with 4
 * digits or more (`spaced_plain_666666`), or 16 characters or more of both cases and digits and no
 * dot; `config.api_key`, `settings.API_KEY_V2`, `sha256_hash` and `token2` are names.
 */
const generated = (value: string, k: Kinds) =>
  k.blanks === 0 && // words with a number (`Neues Passwort 2`) are text for people
  (/^[0-9a-f]{16,}$/i.test(value) ||
    (k.lower + k.upper > 0 && k.digits >= 4) ||
    (value.length >= 16 && k.dots === 0 && k.lower > 0 && k.upper > 0 && k.digits > 0));

/**
 * A value that could be a key someone typed rather than text for people: two kinds of characters or
 * more, ASCII only, no blank, no `|` or `:` (a validation rule such as `required|min:8`), and not a
 * word or words (`Passwort`, `E-Mail-Adresse`, `E-Mail/Password`, `Access_Token`, `required`).
 */
const secretText = (v: string, k: Kinds) =>
  kindCount(k) >= 2 && k.unprintable === 0 && k.ruleSigns === 0 && !/^(?:[A-Z]+|[A-Z]?[a-z]+)(?:[-'./_](?:[A-Z]+|[A-Z]?[a-z]+))*[.!?]?$/.test(v);

/** What stands for a value: the name itself, a CONSTANT_NAME (`HEADER.PAYLOAD.SIGNATURE`), `your-api-key`, `xxxxxxxx`, `changeme`, a placeholder. */
const sample = (value: string, name: string) =>
  (value.length === name.length && value.toLowerCase() === name.toLowerCase()) || // a value as long as the name only: it may be a whole run of 500 KB
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
    value && (SECRET_NAME.test(name) || SECRET_SUFFIX.test(name)) && value.length >= MIN_VALUE_CHARS && kindCount(kindsOf(value)) >= 2 && !pathOrUrl(value)
      ? [value]
      : [],
  );
}

/** A value that says where something is, a path (`/`, `~`, `.`) or a URL, rather than being a secret: `/home/ana/key.json`, `http://127.0.0.1:8080`. */
export const pathOrUrl = (value: string) => /^(?:[/~.]|[a-z][a-z0-9+.-]*:\/\/)/i.test(value);

/**
 * `text` with every value shaped like a credential replaced by its placeholder, or by what `mask`
 * makes of the shape's name and the value (an approval shows a value's hash, to tell a changed one).
 */
export function redactShapes(text: string, mask: (name: string, value: string) => string = placeholder): string {
  if (text === "") return text;
  // private keys first, whole or in parts: a key's armour line is no assignment's value (grep's `server.key:13:-----END …`)
  let out = text;
  // a key cut short (no END line) is hidden to its last whole body line (config/key-blocks.ts)
  out = replaceSpans(
    out,
    keySpans(text).map(([start, end]) => ({ name: "private-key", start, end })),
    mask,
  );
  out = hideKeyParts(out, mask);
  // what is left of a key, by its shape alone: lines from its middle, a piece of it in base64 (config/key-runs.ts)
  out = replaceSpans(
    out,
    keyPieces(out).map(([start, end]) => ({ name: "private-key", start, end })),
    mask,
  );
  out = replaceSpans(out, assignments(out), mask);
  out = replaceSpans(out, pairs(out), mask);
  if (out.includes("://"))
    out = out.replace(URL_PASSWORD, (m, before: string, password: string) =>
      password.length < MIN_VALUE_CHARS || samplePassword(password) ? m : `${before}${mask("url-password", password)}`,
    );
  if (SHAPE_START.test(out))
    for (const shape of SHAPES) {
      shape.pattern.lastIndex = 0;
      out = out.replace(shape.pattern, (m) => (shape.accept && !shape.accept(m) ? m : mask(shape.name, m)));
    }
  if (!/authorization:/i.test(out)) return out;
  return out.replace(AUTHORIZATION, (m, head: string, token: string) =>
    /\d/.test(token) && /[A-Za-z]/.test(token) ? `${head}${mask("authorization", token)}` : m,
  );
}

/** The placeholders (`[secret: NAME]`) in `text`, each once. */
export function placeholdersIn(text: string): string[] {
  return [...new Set(text.match(/\[secret: [A-Za-z0-9_-]+\]/g) ?? [])];
}

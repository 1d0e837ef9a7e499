// What the approval of an MCP server shows and covers (a red-team report): the question named a
// server's env keys but not their values, so `NODE_OPTIONS=--require=evil.cjs` read the same as the
// harmless value approved before, and removing `exclude_tools` brought a tool back unasked. A
// server is shown with its values (a `${VAR}` as written, a literal that looks like a secret
// masked), a changed one with each changed part old → new, and its tool selection is part of what
// the user approved: one that offers a tool the approved one left out waits for a yes, one that
// offers fewer applies at once. Pure.
import { globMatch } from "../permission/match.ts";
import { sealedUrl } from "./sealed-url.ts";
import { pathOrUrl, redactShapes } from "./secret-shapes.ts";
import { secretName } from "../net/credential-names.ts";
import { credentialName } from "../net/credential-names.ts";
import { isTable, type Table } from "./table.ts";

/** A server's tool selection as the user approved it: `tools` (or `enabled_tools`), `exclude_tools` (or `disabled_tools`). */
export interface ApprovedSelection {
  /** undefined: every tool the server offers */
  tools?: string[];
  exclude?: string[];
}

const quote = (s: string) => JSON.stringify(s);

/** A URL with the user and password it may carry hidden. */
export const hideCredentials = (url: string) => url.replace(/\/\/[^/@]*@/, "//***@");

/** Headers whose value is a credential whatever it looks like. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$/i;

/**
 * An env or header value as the approval shows it: as written when it names a variable
 * (`${GITHUB_TOKEN}`, `Bearer ${TOKEN}`); a literal under a credential's name or shaped like one
 * becomes `[secret #…]`, a short hash, so a changed secret reads as changed without being shown
 * (the record keeps the same form, never the value). Any credential shape inside is masked as well.
 */
function shownValue(name: string, value: unknown, header: boolean): string {
  const text = String(value);
  const literal = !text.includes("${");
  if (literal && (secretName(name) || (header && SECRET_HEADER.test(name)) || redactShapes(text) !== text)) return hashed(text);
  return quote(redactShapes(text));
}

/** A secret as the approval keeps it: `[secret #…]`, its short hash (shown as `[secret]`). */
const hashed = (value: string) => `[secret #${shortHash(value)}]`;

/** `text` with each credential shape in it (`ghp_…`, `sk-…`, `API_TOKEN=…`) as its hash. */
const hashedShapes = (text: string) => redactShapes(text, (_name, value) => hashed(value));

/**
 * A URL as the approval shows it and its record keeps it: the password written in it and each
 * credential-named query value (`?token=…`, `&apiKey=…`) as their hashes (sealed as the endpoints
 * record seals them), a user name given alone (`https://ghp_…@github.com` is a token as often as a
 * name) and any credential shape elsewhere (a key in the path) likewise. A `${VAR}` stays as written.
 */
export function shownUrl(url: string): string {
  const sealed = sealedUrl(url)
    .replace(/\[sha256:([0-9a-f]{8})[0-9a-f]*\]/g, "[secret #$1]")
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#:@[]+)@/i, (m, scheme: string, user: string) => (user.includes("${") ? m : `${scheme}${hashed(user)}@`));
  return hashedShapes(sealed);
}

/** A name followed by `=` or `:` where a word or a shell script may set a credential: `--api-key=`, `TOKEN=`, `Authorization: `. */
const NAMED = /(?<![\w.-])-*([A-Za-z][\w.-]*)[ \t]*[=:][ \t]*/g;

/** A credential-named flag and the spaces before its value, inside a shell script: `--token `, `-p `. */
const FLAG = /(?<![\w.-])(-+[A-Za-z][\w.-]*)[ \t]+/g;

/**
 * Where the value starting at `at` ends: a quoted value at its closing quote, a bare one at the
 * first character a shell would end it with (space, `;`, `&`, `|`, a quote, a bracket), so a script
 * after `TOKEN=x;` stays on screen. [start, end) of the value, inside its quotes.
 */
function valueAt(text: string, at: number): [number, number] {
  const q = text[at];
  if (q === '"' || q === "'") {
    const close = text.indexOf(q, at + 1);
    return [at + 1, close < 0 ? text.length : close];
  }
  return [at, at + /^[^\s;&|'"()<>`]*/.exec(text.slice(at))![0].length];
}

/** Whether a value is a literal to hide: not empty, not a variable (`${X}`, `$X`), a path, a URL or a hash already. */
const literal = (value: string) => value !== "" && !value.includes("${") && !/^(?:\$|\[secret$)/.test(value) && !pathOrUrl(value);

/** `text` with each [start, end) range given as its hash, the rest as written. */
function hashRanges(text: string, ranges: [number, number][]): string {
  let out = "";
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + hashed(text.slice(start, end));
    from = end;
  }
  return out + text.slice(from);
}

/**
 * Each literal after a credential's name in a word or a shell script as its hash, and only that
 * value: `--api-key=…`, `API_TOKEN=…`, `Authorization: Bearer …`, `--header=X-Api-Key: …`; not a
 * path or a URL (`--token-file=…` names no credential), nor a variable. In `sh -c "TOKEN=x; curl …"`
 * the script after `x` is what runs, so it stays as written.
 */
function hashedNamed(word: string): string {
  const ranges: [number, number][] = [];
  NAMED.lastIndex = 0;
  for (let m = NAMED.exec(word); m; m = NAMED.exec(word)) {
    if (!credentialName(m[1]!)) continue;
    const after = NAMED.lastIndex;
    const scheme = /^(?:(?:Bearer|Basic|token)[ \t]+)?/i.exec(word.slice(after))![0];
    const [start, end] = valueAt(word, after + scheme.length);
    if (literal(word.slice(start, end))) ranges.push([start, end]);
    NAMED.lastIndex = Math.max(end, after);
  }
  return hashRanges(word, ranges);
}

/** In a shell script (a word holding spaces), each literal after a credential-named flag as its hash: `node srv.js --token …`. */
function hashedFlags(script: string): string {
  if (!/\s/.test(script)) return script;
  const ranges: [number, number][] = [];
  FLAG.lastIndex = 0;
  for (let m = FLAG.exec(script); m; m = FLAG.exec(script)) {
    if (!credentialName(m[1]!) || script[FLAG.lastIndex] === "-") continue;
    const [start, end] = valueAt(script, FLAG.lastIndex);
    if (literal(script.slice(start, end))) ranges.push([start, end]);
    FLAG.lastIndex = Math.max(end, FLAG.lastIndex);
  }
  return hashRanges(script, ranges);
}

/** Each URL inside a shell script as shownUrl shows it: `curl https://host/x?token=…`. */
const scriptUrls = (script: string) => script.replace(/(?<![\w.+-])[a-z][a-z0-9+.-]*:\/\/[^\s'"<>|;&()`]+/gi, (url) => shownUrl(url));

/**
 * A command and its arguments as the approval shows them and its record keeps them, each secret as
 * its hash: a URL as shownUrl shows it, a credential's value named in the word (hashedNamed) or
 * given as the word after a credential-named flag (`--api-key`, `--token`) — in a shell script's
 * words as well — unless it is a path, a URL or a variable, and any credential shape (`ghp_…`).
 */
function shownWords(words: string[]): string[] {
  return words.map((word, i) => {
    if (/^[a-z][a-z0-9+.-]*:\/\/\S*$/i.test(word)) return shownUrl(word);
    const flag = words[i - 1];
    if (flag !== undefined && /^-/.test(flag) && credentialName(flag) && !/^-/.test(word) && word !== "" && !word.includes("${") && !pathOrUrl(word))
      return hashed(word);
    // `--password=a b c` is one argument: its value is the rest of the word, spaces and all (a shell script's `TOKEN=x; …` ends at the space)
    const joined = /^(-+([A-Za-z][\w.-]*)=)([\s\S]*\s[\s\S]*)$/.exec(word);
    if (joined && credentialName(joined[2]!) && literal(joined[3]!.trim())) return joined[1]! + hashed(joined[3]!);
    return hashedShapes(hashedFlags(hashedNamed(scriptUrls(word))));
  });
}

/** node:crypto is loaded only here, when a server holds a secret-looking value. */
function shortHash(text: string): string {
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/**
 * The parts of a server's table that decide what runs or where hey connects, as shown: `run` (the
 * command and its args), `url`, `env NAME`, `headers NAME`, `cwd`, `enabled`. What the approvals
 * record keeps of a server, to show a later change old → new.
 */
export function serverParts(s: Table): Record<string, string> {
  const plain = (w: string) => /^[\w@%+=:,./-]+$/.test(w.replace(/\[secret #[0-9a-f]+\]/g, "x"));
  const words = (list: unknown[]) => shownWords(list.map(String)).map((w) => (plain(w) ? w : quote(w)));
  const args = Array.isArray(s.args) ? s.args : [];
  const out: Record<string, string> = {};
  if (typeof s.command === "string") out.run = words([s.command, ...args]).join(" ");
  else if (s.args !== undefined) out.run = `args ${words(args).join(" ")}`;
  if (typeof s.url === "string") out.url = shownUrl(s.url);
  if (isTable(s.env)) for (const [k, v] of Object.entries(s.env)) out[`env ${k}`] = shownValue(k, v, false);
  if (isTable(s.headers)) for (const [k, v] of Object.entries(s.headers)) out[`headers ${k}`] = shownValue(k, v, true);
  if (typeof s.cwd === "string") out.cwd = `in ${s.cwd}`;
  if (s.enabled === true) out.enabled = "enabled";
  return out;
}

/** A part's value on screen: a secret's hash stays in the record. */
const onScreen = (v: string) => v.replace(/\[secret #[0-9a-f]+\]/g, "[secret]");

/** A URL as a question shows it (a provider's base_url, the proxy): its password, a credential-named query value and any key's shape as `[secret]`. */
export const urlOnScreen = (url: string) => onScreen(shownUrl(url));

/** One part as a server's line shows it: `env NODE_OPTIONS="--require=x"`, `run` and the others as their value. */
const partText = (key: string, value: string) => (/^(env|headers) /.test(key) ? `${key}=${onScreen(value)}` : onScreen(value));

/**
 * A server as its approval line shows it: what it runs or where it connects, with every env and
 * header value (secrets masked). `was`: the parts the user approved (serverParts), when the record
 * keeps them — each part that differs is then said old → new, a secret that changed as
 * `[secret] → [another secret]`.
 */
export function describeServer(s: Table, was?: Record<string, string>): string {
  const now = serverParts(s);
  const shown = Object.entries(now)
    .map(([k, v]) => partText(k, v))
    .join("; ");
  if (was === undefined) return shown;
  const changes: string[] = [];
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    const before = was[key] === undefined ? undefined : recorded(key, was[key]);
    const after = now[key];
    if (before === after) continue;
    changes.push(before === undefined ? `${key} added` : `${key} ${onScreen(before)} → ${after === undefined ? "(removed)" : changed(before, after)}`);
  }
  return changes.length ? `${shown} (changed: ${changes.join(", ")})` : shown;
}

/** A part as `after` shows it beside `before`: a secret that is not one of `before`'s (where it held any) as `[another secret]`. */
function changed(before: string, after: string): string {
  const had: string[] = before.match(/\[secret #[0-9a-f]+\]/g) ?? [];
  return after.replace(/\[secret #[0-9a-f]+\]/g, (h) => (had.length && !had.includes(h) ? "[another secret]" : "[secret]"));
}

/**
 * A recorded part as this hey would record it: a record an earlier hey wrote kept a command's
 * arguments and a URL's query as written (a token among them), so they are masked before they are
 * shown again.
 */
function recorded(key: string, value: string): string {
  if (value.includes("[secret #")) return value;
  if (key === "url") return shownUrl(value);
  if (key === "run") return shownWords(value.split(" ")).join(" ");
  return value;
}

/** A server table's tool selection, or undefined when it offers every tool. */
export function selectionOf(s: Table): ApprovedSelection | undefined {
  const list = (a: unknown, b: unknown) =>
    Array.isArray(a) || Array.isArray(b) ? [...new Set([...((a as string[]) ?? []), ...((b as string[]) ?? [])])] : undefined;
  const tools = list(s.tools, s.enabled_tools);
  const exclude = list(s.exclude_tools, s.disabled_tools);
  if (tools === undefined && (exclude === undefined || exclude.length === 0)) return undefined;
  return { ...(tools ? { tools } : {}), ...(exclude?.length ? { exclude } : {}) };
}

/**
 * Weighs a server's tool selection `now` against the approved one `was` (undefined: every tool).
 * Wider: a `tools` list gone or naming a tool the approved one does not cover, an approved
 * `exclude_tools` entry no longer there (nor covered by a wildcard that is). Returns what each
 * widening is, in the file's words, and the selection to use: the file's, or where it widens, the
 * approved list in its place, with every exclusion of either.
 */
export function weighSelection(was: ApprovedSelection | undefined, now: ApprovedSelection | undefined): { widenings: string[]; used?: ApprovedSelection } {
  const widenings: string[] = [];
  const covers = (glob: string, name: string) => glob === name || (!name.includes("*") && globMatch(glob, name));
  let tools = now?.tools;
  if (was?.tools) {
    const more = tools === undefined ? undefined : tools.filter((t) => !was.tools!.some((w) => covers(w, t)));
    if (more === undefined) widenings.push(`tools ${was.tools.map(quote).join(", ")} removed: every tool of the server would be offered`);
    else if (more.length) widenings.push(`tools adds ${more.map(quote).join(", ")}`);
    if (more === undefined || more.length) tools = was.tools;
  }
  const nowExclude = now?.exclude ?? [];
  const back = (was?.exclude ?? []).filter((e) => !nowExclude.some((n) => covers(n, e)));
  if (back.length) widenings.push(`exclude_tools no longer leaves out ${back.map(quote).join(", ")}`);
  const exclude = [...new Set([...nowExclude, ...back])];
  const used = tools === undefined && exclude.length === 0 ? undefined : { ...(tools ? { tools } : {}), ...(exclude.length ? { exclude } : {}) };
  return { widenings, ...(used ? { used } : {}) };
}

/** `s` with its tool selection set to `sel`, in hey's own key names (a Codex spelling dropped). */
export function withSelection(s: Table, sel: ApprovedSelection | undefined): Table {
  const { tools: _t, enabled_tools: _e, exclude_tools: _x, disabled_tools: _d, ...rest } = s;
  return { ...rest, ...(sel?.tools ? { tools: sel.tools } : {}), ...(sel?.exclude ? { exclude_tools: sel.exclude } : {}) };
}

// The values hey knows to be secret (issue 13 rows 9–10), and what follows from knowing them: they
// are replaced by REDACTED in everything hey prints or saves, and the variables that held the API
// keys, headers and other secrets hey consumed are left out of the environment of the commands the
// model runs. Pure.
import type { Message } from "../kernel/ir.ts";
import type { Output } from "../kernel/output.ts";
import type { Tool } from "../kernel/tool.ts";
import { environmentSecrets, pathOrUrl, placeholdersIn, redactShapes } from "./secret-shapes.ts";
import { credentialName } from "../net/credential-names.ts";
import { placeholderRefusal } from "./written-placeholders.ts";
import type { McpServerSettings, Settings } from "./settings.ts";

export { secretVariables } from "./secret-variables.ts";

export const REDACTED = "[redacted]";

/** Shorter values are not treated as secrets: redacting "abc" everywhere would garble output, and no real key is that short. */
export const MIN_SECRET_CHARS = 8;

/** Variables that may carry a proxy URL, whose password is a secret. */
const PROXY_VARS = ["HEY_PROXY", "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"];

/**
 * Every secret value of these settings: each provider's API key, header values with credential
 * names (providers and MCP servers), MCP `env` values with such names, MCP `client_secret`s, the passwords of the
 * URLs in play (`--proxy`, `[proxy] url`, the proxy variables, a provider's `base_url`, an MCP server's `url`) and the
 * latter two's credential-named query values, the value of each variable secretVariables names, and the values of
 * environment variables named as credentials (environmentSecrets); of the configuration's, none that is a path or a
 * URL (where a key is, not the key). Longest first.
 */
export function knownSecrets(settings: Settings, env: Record<string, string | undefined>, cliProxy?: string): string[] {
  return secretSpellings([...secretValues(settings, env, cliProxy), ...environmentSecrets(env)]); // the commands keep the variables of the latter
}

/** The secret values of knownSecrets as configured, without their other spellings; in no order. */
function secretValues(settings: Settings, env: Record<string, string | undefined>, cliProxy?: string): (string | undefined)[] {
  const found: (string | undefined)[] = [];
  for (const p of settings.providers) {
    found.push(p.apiKey, ...urlPassword(p.baseUrl), ...urlKeys(p.baseUrl)); // `https://user:PASSWORD@host/v1`: fetch sends it as Basic auth
    found.push(...credentialValues(p.headers));
  }
  found.push(...serverSecrets([...settings.mcp.servers, ...(settings.heldServers ?? [])]));
  for (const url of [cliProxy, settings.proxy, ...PROXY_VARS.map((v) => env[v])]) found.push(...urlPassword(url));
  for (const name of settings.secretVars ?? []) found.push(env[name]); // a `${VAR}` in a secret place: `?api_key=${K}`, `"--token", "${T}"`
  return found.filter((v) => v === undefined || !pathOrUrl(v)); // `GOOGLE_APPLICATION_CREDENTIALS = "/home/ana/key.json"` says where a key is
}

/**
 * The secret values of MCP servers' settings, as written (no other spellings): credential-named header and `env`
 * values (also without `Bearer `), `client_secret`s, a url's password and credential-named query values — none that
 * is a path or a URL. The CLI's (knownSecrets) and createMcp's alike.
 */
export function serverSecrets(servers: readonly McpServerSettings[]): string[] {
  const found: (string | undefined)[] = [];
  for (const s of servers) {
    found.push(...credentialValues(s.headers), ...credentialValues(s.env), s.oauthClient?.secret, ...urlPassword(s.url), ...urlKeys(s.url));
  }
  return found.filter((v): v is string => v !== undefined && !pathOrUrl(v));
}

/** The values of a header or `env` table under credential names, each also without `Bearer `/`Basic `/`token `. */
function credentialValues(table: Record<string, string>): string[] {
  return Object.entries(table).flatMap(([name, value]) => (credentialName(name) ? [value, value.replace(/^(Bearer|Basic|token)\s+/i, "")] : []));
}

/** `used` with the secrets of `written` (the files with the parts not approved yet): an MCP server waiting for a yes keeps
 * its `env`'s and arguments' secrets out of the commands' environment and of everything hey shows, as once approved. */
export function withWrittenSecrets(used: Settings, written: Settings): Settings {
  const same = new Set(used.mcp.servers.map((s) => JSON.stringify(s)));
  const heldServers = written.mcp.servers.filter((s) => !same.has(JSON.stringify(s)));
  return { ...used, secretVars: [...new Set([...(used.secretVars ?? []), ...(written.secretVars ?? [])])], heldServers };
}

/** What redaction looks for of `values`: each of MIN_SECRET_CHARS or more, and its base64 spellings; longest first. */
export function secretSpellings(values: readonly (string | undefined)[]): string[] {
  const plain = values.filter((v): v is string => v !== undefined && v.length >= MIN_SECRET_CHARS);
  // `base64 < somefile` must not carry a key past redaction either: its three base64 spellings
  const encoded = plain.filter((v) => v.length >= MIN_BASE64_SOURCE_CHARS).flatMap(base64Cores);
  const unique = new Set([...plain, ...encoded]);
  return [...unique].sort((a, b) => b.length - a.length);
}

/** Shorter secrets get no base64 spellings: their cores would be a few characters that occur by chance. */
const MIN_BASE64_SOURCE_CHARS = 16;

/**
 * The base64 text that `value` becomes inside any longer base64 output, for each of the three
 * byte offsets it can start at: the characters that depend on its bytes alone (the first ones and
 * the last ones also carry the bytes around it, so they are left out).
 */
export function base64Cores(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const out: string[] = [];
  for (const pad of [0, 1, 2]) {
    const padded = new Uint8Array(pad + bytes.length);
    padded.set(bytes, pad);
    const text = btoa(String.fromCharCode(...padded)).replace(/=+$/, "");
    const skip = [0, 2, 3][pad]!; // characters that carry pad bytes
    const whole = Math.floor(padded.length / 3) * 4 + [0, 1, 2][padded.length % 3]!; // characters that carry no later byte
    out.push(text.slice(skip, whole));
  }
  return out;
}

/** The password of a URL with credentials (a proxy, a base_url, an MCP server's url), as written and decoded. */
function urlPassword(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const password = new URL(url.includes("://") ? url : `http://${url}`).password;
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}

/** The values of a URL's query parameters with a credential's name (`?api_key=…`, `&exaApiKey=…`), as written and decoded. */
function urlKeys(url: string | undefined): string[] {
  const query = url === undefined ? undefined : url.split("#")[0]!.split("?")[1];
  if (!query) return [];
  return query.split("&").flatMap((pair) => {
    const eq = pair.indexOf("=");
    const [name, value] = eq < 0 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
    if (!credentialName(name) || !value) return [];
    try {
      return [value, decodeURIComponent(value)];
    } catch {
      return [value];
    }
  });
}

/** `text` with every secret replaced by REDACTED. */
export function redact(text: string, secrets: readonly string[]): string {
  for (const s of secrets) if (text.includes(s)) text = text.split(s).join(REDACTED);
  return text;
}

/** Text with `secrets` replaced and values shaped like credentials hidden: what a log file may keep (net/debug-log.ts). */
export function hideSecrets(secrets: () => readonly string[]): (text: string) => string {
  return (text) => redactShapes(redact(text, secrets()));
}

/** A copy of `value` (an event, a message) with REDACTED for secrets in every string; `value` itself when nothing changed. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v, secrets);
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.some((x, i) => x !== v[i]) ? out : v;
    }
    if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        out[k] = walk(x);
        changed ||= out[k] !== x;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * The environment for the commands the model runs: `env` without the variables that hold a secret
 * hey consumed — by name, each `${VAR}` the configuration gives a secret place (secretVariables:
 * an `api_key`, an `Authorization` header, an MCP server's token…), and by value, any variable
 * holding an API key hey uses (`OPENAI_API_KEY`, `HEY_API_KEY`) or another secret it knows of 8
 * characters or more — except those listed in `keep` (`[tools] keep_env`).
 */
export function toolEnvironment(env: Record<string, string | undefined>, settings: Settings, keep: readonly string[]): Record<string, string | undefined> {
  const named = new Set((settings.secretVars ?? []).filter((name) => !pathOrUrl(env[name] ?? "")));
  const values = secretValues(settings, env).filter((v) => v !== undefined && v.length >= MIN_SECRET_CHARS);
  const kept = withoutSecrets(env, [...settings.providers.map((p) => p.apiKey), ...values], keep);
  return Object.fromEntries(Object.entries(kept).filter(([name]) => !named.has(name) || keep.includes(name)));
}

/** `env` without the variables whose value is one of `secrets`, but those named in `keep`: the environment of the model's commands (the CLI's, an embedded agent's). */
export function withoutSecrets(
  env: Record<string, string | undefined>,
  secrets: readonly (string | undefined)[],
  keep: readonly string[] = [],
): Record<string, string | undefined> {
  const hidden = new Set(secrets.filter((s) => !!s));
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) if (value === undefined || !hidden.has(value) || keep.includes(name)) out[name] = value;
  return out;
}

/**
 * Redacts text that arrives in pieces (a streamed answer): `push` returns what can be shown now,
 * holding back the longest tail that could be the start of a secret (at most the longest secret's
 * length − 1 characters) until the next piece decides it; `flush` returns what is held, at the
 * end of the block. So a secret split across pieces is never shown, and ordinary text passes at once.
 */
export interface StreamRedactor {
  push(piece: string): string;
  flush(): string;
}

export function streamRedactor(secrets: () => readonly string[]): StreamRedactor {
  let held = "";
  return {
    push(piece) {
      const known = secrets();
      const text = redact(held + piece, known);
      const keep = secretStartAtEnd(text, known);
      held = text.slice(text.length - keep);
      return text.slice(0, text.length - keep);
    },
    flush() {
      const out = held;
      held = "";
      return out;
    },
  };
}

/** The length of the longest end of `text` that is a proper beginning of one of `secrets`. */
function secretStartAtEnd(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const s of secrets)
    for (let n = Math.min(s.length - 1, text.length); n > longest; n--)
      if (s.startsWith(text.slice(text.length - n))) {
        longest = n;
        break;
      }
  return longest;
}

/**
 * `output` seeing every event with the current secrets redacted (display, JSON stream, session
 * file). Text and thinking deltas go through a StreamRedactor, flushed when the block changes or
 * any other event comes (a tool call, the message, done, an error).
 */
export function redactingOutput(output: Output, secrets: () => readonly string[]): Output {
  const stream = streamRedactor(secrets);
  let streaming: "text_delta" | "thinking_delta" | undefined;
  const flush = () => {
    const rest = stream.flush();
    if (streaming && rest !== "") output.emit({ type: streaming, text: rest });
    streaming = undefined;
  };
  return {
    emit: (event) => {
      if (event.type !== "text_delta" && event.type !== "thinking_delta") {
        flush();
        output.emit(redactDeep(event, secrets()));
        return;
      }
      if (streaming !== event.type) flush();
      streaming = event.type;
      const shown = stream.push(event.text);
      if (shown !== "") output.emit({ type: event.type, text: shown });
    },
  };
}

/** How tools' results are cleaned (redactingTool). */
export interface Redaction {
  /** the secrets hey knows now */
  secrets(): readonly string[];
  /** whether values shaped like credentials are hidden too (`[tools] redact_secrets`) */
  shapes(): boolean;
  /** the placeholders shown so far this run in tool results and prompt text, `[secret: NAME]`s and REDACTED (redactingTool and redactText add to it) */
  shown: Set<string>;
  /** what the check of a write reads beyond `shown` (written-placeholders.ts); absent: no file holds a placeholder as text */
  writes?: WriteCheck;
}

/** What the check that no placeholder is written in place of a value reads, when a write holds one. */
export interface WriteCheck {
  /** a file's text now: undefined when there is no such file, "" when it cannot be read; never throws */
  fileText(path: string, cwd: string): string | undefined;
  /** the conversation: a placeholder in a user's message (its @files) counts as shown (tool results count as they are redacted) */
  history(): readonly Message[];
}

/**
 * Text that reaches the model or the screen from outside a tool (a `!` command's output, a
 * full-output file shown by /last): the secrets hey knows replaced and, when on, values shaped like
 * credentials, their placeholders recorded as a tool result's are.
 */
export function redactText(text: string, r: Redaction): string {
  const known = redact(text, r.secrets());
  if (known !== text) r.shown.add(REDACTED);
  if (!r.shapes()) return known;
  const hidden = redactShapes(known);
  for (const p of placeholdersIn(hidden)) r.shown.add(p);
  return hidden;
}

/** A run's Redaction; every placeholder in `resumed` (the session it goes on with, saved redacted) counts as shown. */
export function createRedaction(secrets: () => readonly string[], shapes: () => boolean, writes?: WriteCheck, resumed?: readonly Message[]): Redaction {
  return { secrets, shapes, shown: new Set(placeholdersOf(resumed ?? [])), ...(writes ? { writes } : {}) };
}

/** The placeholders in `messages`, REDACTED among them. */
function placeholdersOf(messages: readonly Message[]): string[] {
  const text = JSON.stringify(messages);
  return [...placeholdersIn(text), ...(text.includes(REDACTED) ? [REDACTED] : [])];
}

/** `text` as redactText and redactingTool show it, its placeholders not recorded: to find a text in what the model was sent. */
export function redactedForm(text: string, r: Redaction): string {
  const known = redact(text, r.secrets());
  return r.shapes() ? redactShapes(known) : known;
}

/**
 * `tool` whose results reach the model (and everything after it) with the secrets hey knows
 * redacted and, when on, values shaped like credentials replaced by placeholders (text only:
 * images pass). A write_file or edit that would write a placeholder shown this run into a file in
 * place of its value is refused (placeholderRefusal), so a file read with its secrets hidden is never
 * written back without them.
 */
export function redactingTool(tool: Tool, r: Redaction): Tool {
  return {
    ...tool,
    run: async (args, ctx) => {
      // the conversation and the file are read only when a write holds a placeholder
      const path = typeof args.path === "string" ? args.path : undefined;
      const file = () => (path && r.writes ? r.writes.fileText(path, ctx.cwd) : "");
      const refused = placeholderRefusal(
        tool.name,
        args,
        (p) => r.shown.has(p) || placeholdersOf(r.writes?.history().filter((m) => m.role === "user") ?? []).includes(p),
        file,
      );
      if (refused) return { isError: true, output: refused };
      const raw = await tool.run(args, ctx);
      const result = redactDeep(raw, r.secrets());
      if (result !== raw) r.shown.add(REDACTED); // hidden here: "[redacted]" the file itself holds is text (a document)
      if (!r.shapes()) return result;
      const output = redactShapes(result.output);
      if (output === result.output) return result;
      for (const p of placeholdersIn(output)) r.shown.add(p);
      return { ...result, output };
    },
  };
}

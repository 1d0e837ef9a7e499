// The values hey knows to be secret (issue 13 rows 9–10), and what follows from knowing them: they
// are replaced by REDACTED in everything hey prints or saves, and the variables that held the API
// keys are left out of the environment of the commands the model runs. Pure.
import type { Output } from "../kernel/output.ts";
import type { Tool } from "../kernel/tool.ts";
import type { Settings } from "./settings.ts";

export const REDACTED = "[redacted]";

/** Shorter values are not treated as secrets: redacting "abc" everywhere would garble output, and no real key is that short. */
const MIN_SECRET_CHARS = 8;

/** Header (and MCP env) names whose values are credentials: `Authorization`, `X-Api-Key`, `X-Auth-Token`, `Cookie`… */
const SECRET_NAME = /authorization|auth|api[-_]?key|token|secret|password|passwd|cookie|credential|(^|[-_])key$/i;

/** Variables that may carry a proxy URL, whose password is a secret. */
const PROXY_VARS = ["HEY_PROXY", "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"];

/**
 * Every secret value of these settings: each provider's API key, header values with credential
 * names (providers and MCP servers), MCP `env` values with such names, MCP `client_secret`s, and the passwords of the
 * proxy URLs in play (`--proxy`, `[proxy] url`, the proxy variables). Longest first.
 */
export function knownSecrets(settings: Settings, env: Record<string, string | undefined>, cliProxy?: string): string[] {
  const found: (string | undefined)[] = [];
  const credentials = (table: Record<string, string>) => {
    for (const [name, value] of Object.entries(table)) if (SECRET_NAME.test(name)) found.push(value, value.replace(/^(Bearer|Basic|token)\s+/i, ""));
  };
  for (const p of settings.providers) {
    found.push(p.apiKey);
    credentials(p.headers);
  }
  for (const s of settings.mcp.servers) {
    credentials(s.headers);
    credentials(s.env);
    found.push(s.oauthClient?.secret);
  }
  for (const url of [cliProxy, settings.proxy, ...PROXY_VARS.map((v) => env[v])]) found.push(...proxyPassword(url));
  const unique = new Set(found.filter((v): v is string => v !== undefined && v.length >= MIN_SECRET_CHARS));
  return [...unique].sort((a, b) => b.length - a.length);
}

function proxyPassword(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const password = new URL(url.includes("://") ? url : `http://${url}`).password;
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}

/** `text` with every secret replaced by REDACTED. */
export function redact(text: string, secrets: readonly string[]): string {
  for (const s of secrets) if (text.includes(s)) text = text.split(s).join(REDACTED);
  return text;
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
 * The environment for the commands the model runs: `env` without the variables whose value is
 * one of the API keys hey uses (`OPENAI_API_KEY`, `HEY_API_KEY`, a `${VAR}` an api_key names…),
 * except those listed in `keep` (`[tools] keep_env`).
 */
export function toolEnvironment(env: Record<string, string | undefined>, settings: Settings, keep: readonly string[]): Record<string, string | undefined> {
  const keys = new Set(settings.providers.map((p) => p.apiKey).filter((k) => k !== undefined && k !== ""));
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) if (value === undefined || !keys.has(value) || keep.includes(name)) out[name] = value;
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

/** `tool` whose results reach the model (and everything after it) with the current secrets redacted. */
export function redactingTool(tool: Tool, secrets: () => readonly string[]): Tool {
  return { ...tool, run: async (args, ctx) => redactDeep(await tool.run(args, ctx), secrets()) };
}

// `--verbose` / HEY_LOG=debug (issue 16): every HTTP request and response of the run — method, URL,
// proxy, status, timings, headers with secrets masked, bodies cut to their first few KB — and every
// retry decision, appended to one file (0600) in the state directory. Loaded only when asked for:
// a run without it never imports this file.
import { join } from "node:path";
import { appendOwnFile } from "../fs/own-files.ts";
import type { Output } from "../kernel/output.ts";
import { PROXY_ORIGIN, redactProxyUrl, type RoutedInit } from "./proxy.ts";
import { errorText } from "../kernel/errors.ts";

/** How much of each body is kept: enough for an error message or a request's start, not a whole conversation. */
export const BODY_LOG_BYTES = 4096;
type HeadersInit = ConstructorParameters<typeof Headers>[0];

/** Header names whose values are never written: keys, tokens, cookies, any authorization. */
const SECRET_HEADER = /authorization|api-key|apikey|token|secret|password|cookie|session|(^|-)key$/i;
/** Query parameters that carry keys (Gemini accepts `?key=`). */
const SECRET_PARAM = /^(key|api[-_]?key|token|access[-_]?token|secret|password|sig|signature)$/i;

export interface DebugLog {
  /** the file written to */
  path: string;
  /** false once a write failed (said on stderr with the path): the path is not announced as a log */
  readonly ok: boolean;
  /** `base` (the fetch under the proxy logic), logging each request and its response */
  wrap(base: typeof fetch): typeof fetch;
  /** retry decisions and errors, as the loop emits them */
  output: Output;
  /** from now on, every line is written through `hide` (config/secrets.ts's hideSecrets: the secrets hey knows, MCP sign-ins' tokens included) */
  hide(hide: (text: string) => string): void;
}

/**
 * A log in `dir` named by the start time and pid, created at once with a first line: the path a run
 * announces exists even when the run makes no request (`hey --verbose -p /usage`). Every
 * line is written through `hide`, which replaces the values hey knows to be secret and values
 * shaped like credentials (issue 24): an error body that echoes the key does not keep it on disk.
 */
export function openDebugLog(dir: string, hide: (text: string) => string, now: () => Date = () => new Date()): DebugLog {
  const path = join(dir, `${now().toISOString().replace(/[:.]/g, "-")}-${process.pid}.log`);
  let failed = false;
  let hidden = hide;
  const write = (lines: string[]) => {
    if (failed) return;
    try {
      appendOwnFile(path, `${now().toISOString()} ${hidden(lines.join("\n  "))}\n`);
    } catch (e) {
      failed = true; // a log that cannot be written must not stop the run; the path was printed
      process.stderr.write(`hey: cannot write the debug log ${path}: ${errorText(e)}\n`);
    }
  };
  let counter = 0;
  write([`hey debug log, pid ${process.pid}: the run's HTTP requests and retry decisions follow`]);
  return {
    path,
    get ok() {
      return !failed;
    },
    wrap(base) {
      const logged = async (input: string | URL | Request, init?: RoutedInit): Promise<Response> => {
        const n = ++counter;
        const started = performance.now();
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        const method = init?.method ?? (input instanceof Request ? input.method : "GET");
        write([
          `#${n} → ${method} ${maskUrl(url)}`,
          ...routeLines(init),
          `headers: ${maskHeaders(init?.headers ?? (input instanceof Request ? input.headers : undefined))}`,
          ...bodyLines(init?.body),
        ]);
        let res: Response;
        try {
          res = await base(input, init);
        } catch (e) {
          const code = (e as { code?: unknown }).code;
          const message = errorText(e);
          const shownCode = typeof code === "string" && !message.includes(code) ? ` ${code}` : "";
          write([`#${n} ✗ ${(e as Error).name ?? "Error"}${shownCode}: ${maskText(message)} after ${ms(started)}`]);
          throw e;
        }
        write([`#${n} ← ${res.status} ${res.statusText} in ${ms(started)}`, `headers: ${maskHeaders(res.headers)}`]);
        return res.body ? watchBody(res, (end) => write([`#${n} ← body ${end} after ${ms(started)}`])) : res;
      };
      return Object.assign(logged, { preconnect: base.preconnect });
    },
    hide(next) {
      hidden = next;
    },
    output: {
      emit(e) {
        if (e.type === "retry") write([`retry ${e.attempt} in ${e.delay_ms} ms after: ${maskText(e.error)}`]);
        else if (e.type === "error") write([`no retry: ${e.kind}: ${maskText(e.message)}`]);
        else if (e.type === "debug") write([e.message]);
      },
    },
  };
}

/** The same response, its body passed through unchanged while its first bytes and its size are noted for `done`. */
function watchBody(res: Response, done: (end: string) => void): Response {
  const reader = res.body!.getReader();
  const head: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  const summary = (how: string) =>
    `${how}, ${total} bytes${total > kept ? ` (first ${kept})` : ""}:\n  ${indent(maskTokens(new TextDecoder().decode(Buffer.concat(head))))}`;
  let ended = false; // the first of complete, failed and cancelled is the one logged
  const end = (how: string) => {
    if (!ended) done(summary(how));
    ended = true;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (ended) return; // cancelled while this read was pending: the controller is closed
        if (finished) {
          end("complete");
          return controller.close();
        }
        total += value.length;
        if (kept < BODY_LOG_BYTES) {
          const piece = value.subarray(0, BODY_LOG_BYTES - kept);
          head.push(piece);
          kept += piece.length;
        }
        controller.enqueue(value);
      } catch (e) {
        if (ended) return;
        end(`failed (${maskText(errorText(e))})`);
        controller.error(e);
      }
    },
    cancel(reason) {
      end("cancelled by the reader");
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * Which proxy and TLS settings the request went with; a proxy's credentials never appear. The proxy
 * is named as the user set it (PROXY_ORIGIN, from hey's fetch); for SOCKS5, the loopback bridge that
 * carries the request to it is the detail after.
 */
function routeLines(init: RoutedInit | undefined): string[] {
  const lines: string[] = [];
  const proxy = init?.proxy;
  const origin = init?.[PROXY_ORIGIN];
  const headers = proxy && typeof proxy === "object" && "url" in proxy && proxy.headers ? ` with headers ${maskHeaders(proxy.headers as HeadersInit)}` : "";
  if (origin)
    lines.push(`proxy: ${origin.shown} (from ${origin.source})${headers}${typeof proxy === "string" ? `, through hey's SOCKS5 bridge ${proxy}` : ""}`);
  else if (typeof proxy === "string") lines.push(`proxy: ${redactProxyUrl(proxy)}`);
  else if (proxy && typeof proxy === "object" && "url" in proxy) lines.push(`proxy: ${redactProxyUrl(String(proxy.url))}${headers}`);
  else if (proxy === false) lines.push("proxy: none (direct)");
  const tls = init?.tls;
  if (tls?.ca) lines.push(`tls: ${Array.isArray(tls.ca) ? tls.ca.length : 1} trusted CA certificates (the default store + [network] ca_file)`);
  if (tls?.rejectUnauthorized === false) lines.push("tls: certificate NOT verified (insecure = true)");
  return lines;
}

function bodyLines(body: unknown): string[] {
  if (body === undefined || body === null) return [];
  if (typeof body === "string")
    return [
      `body, ${Buffer.byteLength(body)} bytes${body.length > BODY_LOG_BYTES ? ` (first ${BODY_LOG_BYTES} characters)` : ""}:\n  ${indent(maskTokens(body.slice(0, BODY_LOG_BYTES)))}`,
    ];
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return [`body: ${body.byteLength} bytes (binary)`];
  return ["body: a stream"];
}

/** Headers as one JSON object, secret values replaced by `***`. */
export function maskHeaders(headers: HeadersInit | undefined): string {
  const out: Record<string, string> = {};
  if (headers) for (const [name, value] of new Headers(headers)) out[name] = SECRET_HEADER.test(name) ? "***" : value;
  return JSON.stringify(out);
}

/** A URL with its credentials and key-like query values replaced by `***`. */
export function maskUrl(url: string): string {
  if (!URL.canParse(url)) return maskText(url);
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()]) if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, "***");
  if (parsed.username || parsed.password) {
    parsed.username = "***";
    parsed.password = "";
  }
  return parsed.href.replace(/%2A%2A%2A/g, "***");
}

/** OAuth fields that are credentials (a token endpoint's answer, a refresh or code exchange, a registration's secret). */
const TOKEN_FIELDS = "access_token|refresh_token|id_token|client_secret|code_verifier|client_assertion";

/** A body with the values of OAuth credential fields replaced by `***`: JSON (`"access_token":"…"`) and forms (`refresh_token=…`). */
export function maskTokens(text: string): string {
  return text
    .replace(new RegExp(`("(?:${TOKEN_FIELDS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "g"), '$1"***"')
    .replace(new RegExp(`(^|&)((?:${TOKEN_FIELDS}|code)=)[^&\\s]*`, "g"), "$1$2***"); // a form's `code` is an authorization code; JSON's is an error code
}

/** Any `scheme://user:pass@` in free text shown as `scheme://***@`. */
function maskText(text: string): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, redactProxyUrl);
}

function indent(text: string): string {
  return text.replace(/\n/g, "\n  ");
}

function ms(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

// A loopback HTTP server that replays recorded (or hand-made) responses to the real vendor SDKs
// and records what they sent (STYLE.md "Tests"). Bytes are replayed exactly: `event:` lines,
// CRLF framing and `:` comment lines survive. On every request it checks the protocol's
// tool-call invariant (each call answered exactly once), like codex's mock server.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicToolPairs, anthropicTurnContent } from "./invariants-anthropic.ts";
import { googleToolPairs } from "./invariants-google.ts";
import { responsesToolPairs } from "./invariants-responses.ts";

/** Recorded vendor responses, copied from test/fixtures/wire (see its README for provenance). */
export const WIRE_DIR = join(import.meta.dir, "..", "fixtures", "wire");

export interface RecordedRequest {
  method: string;
  /** pathname + search, e.g. "/v1/chat/completions" */
  path: string;
  /** lower-case names */
  headers: Record<string, string>;
  /** parsed JSON, or the raw text when it is not JSON */
  body: unknown;
}

/** One queued response. Build it with `fixture`, `sseReply`, `jsonReply` or `cutAfter`. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** written in order, `delayMs` apart */
  chunks: Uint8Array[];
  delayMs?: number;
  /** close the connection abruptly (a reset, not a clean end) after this many body bytes */
  cutAfterBytes?: number;
  /** after the last chunk keep the connection open, silent, until the client or stop() ends it */
  hang?: boolean;
  /**
   * the chunks from index `at` on wait until `until` resolves (or the client or stop() ends the
   * stream): a turn that is still running for as long as the test needs, however loaded the
   * machine (`at: 1` until the client has made an event of the first chunk: the rest in a read of
   * its own, which a delay cannot promise where the client may read late and get both at once). A
   * function is called when the stream gets there (something the test does mid-stream).
   */
  hold?: { at: number; until: Promise<void> | (() => Promise<void>) };
}

export interface ReplayServer {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: RecordedRequest[];
  /** tool-call invariant violations seen so far; a test asserts this stays empty */
  violations: string[];
  enqueue(...replies: Reply[]): void;
  stop(): void;
}

// ---------------------------------------------------------------------------------------------
// Tool-call invariants, one per protocol (the others live in invariants-*.ts).

export interface InvariantCheck {
  name: string;
  applies(path: string): boolean;
  /** problems found in one request body, each naming the offending id */
  check(body: unknown): string[];
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null;

/** OpenAI chat: each assistant tool_calls[].id has exactly one later tool message, and every tool message answers an earlier call. */
export const openaiChatToolPairs: InvariantCheck = {
  name: "openai-chat",
  applies: (path) => path.endsWith("/chat/completions"),
  check(body) {
    const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
    const answers = new Map<string, number>();
    const problems: string[] = [];
    for (const m of messages) {
      if (!isObject(m)) continue;
      if (m.role === "assistant" && Array.isArray(m.tool_calls))
        for (const tc of m.tool_calls) {
          const id = isObject(tc) ? String(tc.id) : String(tc);
          if (answers.has(id)) problems.push(`tool call id ${id} is used by two calls`);
          answers.set(id, 0);
        }
      if (m.role === "tool") {
        const id = String(m.tool_call_id);
        const n = answers.get(id);
        if (n === undefined) problems.push(`tool message ${id} answers no earlier tool call`);
        else answers.set(id, n + 1);
      }
    }
    for (const [id, n] of answers) if (n !== 1) problems.push(`tool call ${id} has ${n} results, expected exactly 1`);
    return problems;
  },
};

/** Checked on every request by default: each protocol's check applies to its own request paths. */
export const INVARIANTS: InvariantCheck[] = [openaiChatToolPairs, responsesToolPairs, anthropicToolPairs, anthropicTurnContent, googleToolPairs];

// ---------------------------------------------------------------------------------------------
// Replies

const encoder = new TextEncoder();
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8" };
/** Hop-by-hop or body-encoding headers from recordings that Bun.serve sets itself. */
const DROPPED = new Set(["transfer-encoding", "connection", "content-length", "content-encoding", "keep-alive"]);

/**
 * A recorded response: `<name>.sse` or `<name>.json` under WIRE_DIR, with status and headers
 * from `<name>.headers.json` when present (else 200 + text/event-stream for .sse). With
 * `delayMs` the body is written one SSE event at a time (split after each blank line, bytes
 * unchanged), `delayMs` apart.
 */
export function fixture(name: string, opts: { delayMs?: number } = {}): Reply {
  const base = join(WIRE_DIR, name);
  const isSse = existsSync(`${base}.sse`);
  const body = readFileSync(isSse ? `${base}.sse` : `${base}.json`);
  let status = 200;
  let headers: Record<string, string> = isSse ? { ...SSE_HEADERS } : { "content-type": "application/json" };
  if (existsSync(`${base}.headers.json`)) {
    const side = JSON.parse(readFileSync(`${base}.headers.json`, "utf8")) as { status: number; headers: Record<string, string | string[]> };
    status = side.status;
    headers = {};
    for (const [k, v] of Object.entries(side.headers)) if (!DROPPED.has(k.toLowerCase())) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  const chunks = opts.delayMs === undefined ? [new Uint8Array(body)] : splitEvents(body.toString("utf8"));
  return { status, headers, chunks, ...(opts.delayMs !== undefined ? { delayMs: opts.delayMs } : {}) };
}

/** Splits after each blank line (LF or CRLF framing), keeping every byte. */
function splitEvents(text: string): Uint8Array[] {
  return (text.match(/[\s\S]*?(\r?\n\r?\n|$)/g) ?? []).filter((s) => s.length > 0).map((s) => encoder.encode(s));
}

/** A hand-made SSE body, as one string or as pieces written separately. */
export function sseReply(body: string | string[], opts: { delayMs?: number; hang?: boolean; status?: number; headers?: Record<string, string> } = {}): Reply {
  const pieces = typeof body === "string" ? [body] : body;
  return {
    status: opts.status ?? 200,
    headers: { ...SSE_HEADERS, ...opts.headers },
    chunks: pieces.map((p) => encoder.encode(p)),
    ...(opts.delayMs !== undefined ? { delayMs: opts.delayMs } : {}),
    ...(opts.hang ? { hang: true } : {}),
  };
}

/** A JSON (error) response. */
export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "content-type": "application/json", ...headers }, chunks: [encoder.encode(JSON.stringify(body))] };
}

/** The same reply, reset after `bytes` bytes of its body. */
export function cutAfter(reply: Reply, bytes: number): Reply {
  return { ...reply, cutAfterBytes: bytes };
}

// ---------------------------------------------------------------------------------------------
// Server

/**
 * With `tls` the server speaks HTTPS: its `url` is https://127.0.0.1:PORT. With `models` a GET of
 * `…/models` answers that list (OpenAI's shape), as a server that lists its models does; `models`
 * as a string is that page as HTML, as a server whose /models is its web front end answers.
 */
export function startReplayServer(
  checks: InvariantCheck[] = INVARIANTS,
  opts: { tls?: { cert: string; key: string }; models?: string[] | string } = {},
): ReplayServer {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const hanging = new Set<() => void>();

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    // Bun.serve cuts a quiet streaming response after 10 s by default (sdk-facts §5.7).
    idleTimeout: 0,
    ...(opts.tls ? { tls: opts.tls } : {}),
    async fetch(req) {
      const url = new URL(req.url);
      // hey's GET of the model list (`/model NAME`, and a run's after its first answer) is no model request: not recorded
      if (req.method === "GET" && url.pathname.endsWith("/models"))
        return typeof opts.models === "string"
          ? new Response(opts.models, { headers: { "content-type": "text/html" } })
          : opts.models
            ? Response.json({ object: "list", data: opts.models.map((id) => ({ id, object: "model", owned_by: "replay" })) })
            : new Response("replay server: only POST is served", { status: 405 });
      // hey's ask of an Ollama's own API before the first request (server-window.ts): no model request; answered as a server that is no Ollama
      if (url.pathname === "/api/ps" || url.pathname === "/api/show") return new Response("404 page not found", { status: 404 });
      const text = await req.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      const path = url.pathname + url.search;
      requests.push({ method: req.method, path, headers: Object.fromEntries(req.headers), body });

      const problems = checks.filter((c) => c.applies(path)).flatMap((c) => c.check(body));
      if (problems.length > 0) {
        violations.push(...problems);
        const message = `replay server: tool-call invariant violated: ${problems.join("; ")}`;
        return Response.json({ error: { message, type: "invalid_request_error" } }, { status: 400 });
      }
      if (req.method !== "POST") return new Response("replay server: only POST is served", { status: 405 });
      const reply = queue.shift();
      if (!reply) return new Response("replay server: no response queued", { status: 500 });
      return new Response(replayBody(reply, hanging), { status: reply.status, headers: reply.headers });
    },
  });

  return {
    url: `${opts.tls ? "https" : "http"}://127.0.0.1:${server.port}`,
    requests,
    violations,
    enqueue: (...replies) => void queue.push(...replies),
    stop: () => {
      for (const release of hanging) release();
      server.stop(true);
    },
  };
}

function replayBody(reply: Reply, hanging: Set<() => void>): ReadableStream<Uint8Array> {
  let cancelled = false;
  let release = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let budget = reply.cutAfterBytes ?? Number.POSITIVE_INFINITY;
      /** waits until the client or stop() ends the stream, or `until` resolves */
      const wait = async (until?: Promise<void>) => {
        await new Promise<void>((resolve) => {
          release = resolve;
          hanging.add(resolve);
          void until?.then(resolve);
        });
        hanging.delete(release);
      };
      for (const [i, chunk] of reply.chunks.entries()) {
        if (i > 0 && reply.delayMs) await Bun.sleep(reply.delayMs);
        if (reply.hold?.at === i) await wait(typeof reply.hold.until === "function" ? reply.hold.until() : reply.hold.until);
        if (cancelled) return;
        const piece = chunk.subarray(0, Math.min(chunk.length, budget));
        if (piece.length > 0) controller.enqueue(piece);
        budget -= piece.length;
        if (budget <= 0) {
          // Erroring with no reason makes Bun reset the connection without logging (ECONNRESET on the
          // client). A reset discards what the client's kernel holds unread, so the client gets time
          // to read what was sent first: 5 ms lost the deltas on a loaded machine (CI saw it once).
          await Bun.sleep(100);
          return controller.error(undefined);
        }
      }
      if (reply.hang) {
        await wait();
        if (cancelled) return;
      }
      controller.close();
    },
    cancel() {
      cancelled = true;
      release();
    },
  });
}

// A remote MCP server for the faults a real one shows only by accident: the MCP SDK's own server
// (McpServer over its web-standard Streamable HTTP transport, stateful: one session per client)
// in a loopback Bun.serve of the test process, which the test can take down (the port refuses),
// bring back on the same port (a restarted server: every session is gone, so a request with an
// old Mcp-Session-Id is answered 404 as the spec says), give another tool while a client is
// connected (the SDK sends notifications/tools/list_changed), and slow down (initialize waits).
// Tools: `echo` ({ text } → "LABEL: text") and whatever `addTool` adds. What it saw is recorded.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import * as z from "zod/v4";

export interface RemoteMcp {
  /** the MCP endpoint, http://127.0.0.1:PORT/mcp (the same across restarts) */
  url: string;
  /** each JSON-RPC method POSTed, in order (`initialize`, `tools/call echo`, …), with the session id it carried ("" none) */
  seen: { method: string; session: string }[];
  /** how many times `initialize` was answered */
  initializes(): number;
  /** sessions open now */
  sessions(): number;
  /** adds a tool to every session (and to later ones): each connected client is sent tools/list_changed */
  addTool(name: string): void;
  /** initialize is answered this much later from now on */
  delayInit(ms: number): void;
  /** event streams (GET) a client opened */
  streams(): number;
  /** the port stops answering: connections are refused */
  down(): Promise<void>;
  /** a new server on the same port: the old sessions are gone */
  up(): void;
  stop(): Promise<void>;
}

/** `slowPrompts`: the server offers a prompt, and answers prompts/list this many ms late. */
export function startRemoteMcp(opts: { label?: string; port?: number; slowPrompts?: number } = {}): RemoteMcp {
  const label = opts.label ?? "remote";
  const seen: RemoteMcp["seen"] = [];
  const extra: string[] = [];
  let initDelay = 0;
  let initializes = 0;
  let streams = 0;
  let sessions = new Map<string, { server: McpServer; transport: WebStandardStreamableHTTPServerTransport }>();

  const newServer = () => {
    const server = new McpServer({ name: "remote-fake", version: "1" }, { capabilities: { tools: { listChanged: true } } });
    server.registerTool("echo", { description: `echoes text (${label})`, inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: "text", text: `${label}: ${text}` }],
    }));
    for (const name of extra) addTo(server, name);
    if (opts.slowPrompts !== undefined) server.registerPrompt("hello", { description: "says hello" }, () => ({ messages: [] }));
    return server;
  };
  const addTo = (server: McpServer, name: string) =>
    server.registerTool(name, { description: `added later (${label})`, inputSchema: {} }, async () => ({ content: [{ type: "text", text: `${name} ran` }] }));

  async function handle(req: Request): Promise<Response> {
    if (new URL(req.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
    const session = req.headers.get("mcp-session-id") ?? "";
    let body: unknown;
    if (req.method === "POST") {
      body = await req.json();
      const m = body as { method?: string; params?: { name?: string } };
      if (m.method) seen.push({ method: m.method === "tools/call" ? `tools/call ${m.params?.name}` : m.method, session });
      if (m.method === "initialize" && initDelay > 0) await Bun.sleep(initDelay);
      if (m.method === "prompts/list" && opts.slowPrompts) await Bun.sleep(opts.slowPrompts);
    }
    if (req.method === "GET") streams++;
    const open = session ? sessions.get(session) : undefined;
    if (open) return flushed(await open.transport.handleRequest(req, { parsedBody: body }));
    if (session) return Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });
    if ((body as { method?: string } | undefined)?.method !== "initialize")
      return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null }, { status: 400 });
    const server = newServer();
    const mine = sessions;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void mine.set(id, { server, transport }),
      onsessionclosed: (id) => void mine.delete(id),
    });
    await server.connect(transport);
    initializes++;
    return transport.handleRequest(req, { parsedBody: body });
  }

  /**
   * An event stream begun with a comment, so its head goes out now: Bun.serve holds a streamed
   * response's head until its first bytes, where a Node server (as real ones run) sends it at once.
   */
  const flushed = (res: Response): Response => {
    if (req0(res) || !res.body) return res;
    const opening = new TextEncoder().encode(": open\n\n");
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          controller.enqueue(opening);
        },
      }),
    );
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const req0 = (res: Response) => !(res.headers.get("content-type") ?? "").startsWith("text/event-stream");

  const listen = (port: number) => Bun.serve({ hostname: "127.0.0.1", port, idleTimeout: 0, fetch: handle });
  let http: ReturnType<typeof Bun.serve> | undefined = listen(opts.port ?? 0);
  const port = http.port!;
  const closeSessions = async () => {
    const old = sessions;
    sessions = new Map();
    await Promise.all([...old.values()].map((s) => s.server.close().catch(() => {})));
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    initializes: () => initializes,
    streams: () => streams,
    sessions: () => sessions.size,
    addTool(name) {
      extra.push(name);
      for (const s of sessions.values()) addTo(s.server, name);
    },
    delayInit(ms) {
      initDelay = ms;
    },
    async down() {
      await http?.stop(true);
      http = undefined;
      await closeSessions();
    },
    up() {
      if (!http) http = listen(port);
    },
    async stop() {
      await http?.stop(true);
      http = undefined;
      await closeSessions();
    },
  };
}

export interface LegacyMcp {
  /** the event-stream endpoint, http://127.0.0.1:PORT/sse */
  url: string;
  /**
   * the server restarts and is slow to come back: every event stream ends (hey's session with it),
   * and from now on a new stream is accepted but never names its endpoint, while a POST to an old
   * session is never answered (as server-everything's SSE mode leaves one it does not know), or
   * with `gone`, answered 404 (as the spec says)
   */
  restartSlow(oldSessions?: "unanswered" | "gone"): void;
  /** event streams opened since restartSlow, each waiting for an endpoint that never comes */
  stalled(): number;
  stop(): Promise<void>;
}

/**
 * A legacy SSE server (protocol 2024-11-05): the MCP SDK's McpServer over its SSEServerTransport
 * in a loopback node:http server, answering a Streamable HTTP initialize with 405 as such servers
 * do. Tool: `echo` ({ text } → "legacy: text").
 */
export async function startLegacyMcp(): Promise<LegacyMcp> {
  const { createServer } = await import("node:http");
  const { SSEServerTransport } = await import("@modelcontextprotocol/sdk/server/sse.js");
  const sessions = new Map<string, InstanceType<typeof SSEServerTransport>>();
  const held = new Set<import("node:http").ServerResponse>(); // responses left open: ended at stop
  let slow = false;
  let gone = false;
  let stalled = 0;
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      if (slow) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).write(": starting\n\n");
        stalled++;
        return void held.add(res);
      }
      const transport = new SSEServerTransport("/message", res);
      sessions.set(transport.sessionId, transport);
      held.add(res);
      const server = new McpServer({ name: "legacy-fake", version: "1" });
      server.registerTool("echo", { description: "echoes text", inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: "text", text: `legacy: ${text}` }],
      }));
      return void server.connect(transport);
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/message" && transport) return void transport.handlePostMessage(req, res);
    if (req.method === "POST" && url.pathname === "/message") return void (gone ? res.writeHead(404).end("Session not found") : held.add(res));
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as { port: number }).port;
  const endAll = () => {
    for (const res of held) res.end();
    held.clear();
    sessions.clear();
  };
  return {
    url: `http://127.0.0.1:${port}/sse`,
    restartSlow(oldSessions = "unanswered") {
      slow = true;
      gone = oldSessions === "gone";
      endAll();
    },
    stalled: () => stalled,
    async stop() {
      endAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

// A fake OAuth-protected MCP server for the faults the SDK's example cannot show (it issues no
// refresh tokens, and answers a revoked token with 500 where the spec says 401): one loopback
// Bun.serve that is both the authorization server (RFC 8414 metadata, RFC 7591 registration,
// authorize that approves at once, token with authorization_code and refresh_token grants) and the
// MCP server (JSON-RPC by hand: one tool, `whoami`, that answers with the Authorization header it
// got — so a test can see which token a call carried, and that hey redacts it). What it issued,
// refreshed and saw is recorded. It can also behave as the SDK's example does after a restart:
// forget its registrations (its authorize page then refuses them, 400 invalid_client, and does
// not redirect) and answer a token it does not know with the SDK bearer middleware's 500.
export interface OAuthFake {
  /** the MCP endpoint */
  url: string;
  /** grant types the token endpoint answered, in order */
  grants: string[];
  /** the bearer token of each MCP request, in order ("" for none) */
  seen: string[];
  /** every access token issued */
  issued: string[];
  /** forgets every token: MCP answers 401 (or `revokedStatus`), a refresh is invalid_grant */
  revokeAll(): void;
  /** the access tokens issued so far run out (MCP answers 401); their refresh tokens still hold */
  expireAll(): void;
  /** forgets every client it registered: authorize refuses them (400 invalid_client) */
  forgetClients(): void;
  /** MCP refuses every token from now on (401), new ones too, while the token endpoint goes on issuing them (a wrong audience, a role removed) */
  refuseTokens(): void;
  /** MCP refuses every tools/call from now on (401), while it still answers initialize and tools/list with the same tokens (a role checked per call) */
  refuseCalls(): void;
  stop(): void;
}

export interface OAuthFakeOptions {
  /** expires_in of each access token (seconds) */
  expiresIn?: number;
  /** how long a refresh grant takes to answer (ms), as a real token endpoint's may: heys starting together then overlap */
  refreshDelayMs?: number;
  /** issue refresh tokens (default true) */
  refresh?: boolean;
  /** answer registration with this status (a failing registration) */
  registerStatus?: number;
  /**
   * answer a token it does not know with this status and `{"error":"server_error"}` instead of a
   * 401 (the SDK's bearer middleware does so when its verifier throws, as the SDK's example's does)
   */
  revokedStatus?: number;
  /** answer every tools/call (with a token it knows) with this status and an OAuth-shaped `{"error":"server_error"}` of its own: a failure that is no sign-in's */
  callStatus?: number;
  /** answer initialize (with a token it knows) with this status and an error page that shows the Authorization header it got */
  initStatus?: number;
}

export function startOAuthFake(opts: OAuthFakeOptions = {}): OAuthFake {
  const grants: string[] = [];
  const seen: string[] = [];
  const issued: string[] = [];
  let access = new Set<string>();
  let refresh = new Set<string>();
  const codes = new Map<string, string>(); // code → redirect_uri
  const registered = new Set<string>();
  const forgotten = new Set<string>();
  let n = 0;
  let refusing = false;
  let refusingCalls = false;
  const token = () => {
    const t = `at-${++n}-${crypto.randomUUID()}`;
    access.add(t);
    issued.push(t);
    const r = opts.refresh === false ? undefined : `rt-${n}-${crypto.randomUUID()}`;
    if (r) refresh.add(r);
    return Response.json({ access_token: t, token_type: "Bearer", expires_in: opts.expiresIn ?? 3600, ...(r ? { refresh_token: r } : {}) });
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      const base: string = `http://127.0.0.1:${server.port}`;
      if (u.pathname === "/.well-known/oauth-protected-resource/mcp") return Response.json({ resource: `${base}/mcp`, authorization_servers: [base] });
      if (u.pathname === "/.well-known/oauth-authorization-server")
        return Response.json({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
          grant_types_supported: ["authorization_code", "refresh_token"],
        });
      if (u.pathname === "/register") {
        if (opts.registerStatus)
          return Response.json({ error: "invalid_client_metadata", error_description: "registration is closed" }, { status: opts.registerStatus });
        const id = `client-${crypto.randomUUID()}`;
        registered.add(id);
        return Response.json({ ...((await req.json()) as object), client_id: id }, { status: 201 });
      }
      if (u.pathname === "/authorize") {
        if (forgotten.has(u.searchParams.get("client_id") ?? ""))
          return Response.json({ error: "invalid_client", error_description: "Invalid client_id" }, { status: 400 });
        const code = crypto.randomUUID();
        codes.set(code, u.searchParams.get("redirect_uri")!);
        const to = new URL(u.searchParams.get("redirect_uri")!);
        to.searchParams.set("code", code);
        to.searchParams.set("state", u.searchParams.get("state") ?? "");
        return Response.redirect(to.href, 302);
      }
      if (u.pathname === "/token") {
        const form = new URLSearchParams(await req.text());
        const grant = form.get("grant_type") ?? "";
        grants.push(grant);
        if (grant === "refresh_token" && opts.refreshDelayMs) await Bun.sleep(opts.refreshDelayMs);
        if (grant === "authorization_code" && codes.delete(form.get("code") ?? "")) return token();
        if (grant === "refresh_token" && refresh.delete(form.get("refresh_token") ?? "")) return token();
        return Response.json({ error: "invalid_grant", error_description: "unknown or revoked" }, { status: 400 });
      }
      if (u.pathname === "/mcp") return mcp(req, base);
      return new Response("not found", { status: 404 });
    },
  });
  async function mcp(req: Request, base: string): Promise<Response> {
    const auth = req.headers.get("authorization") ?? "";
    const bearer = auth.replace(/^Bearer\s+/i, "");
    seen.push(bearer);
    if (bearer && !access.has(bearer) && opts.revokedStatus)
      return Response.json({ error: "server_error", error_description: "Internal Server Error" }, { status: opts.revokedStatus });
    const refused = () =>
      Response.json(
        { error: "invalid_token" },
        { status: 401, headers: { "www-authenticate": `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` } },
      );
    if (!access.has(bearer) || refusing) return refused();
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const msg = (await req.json()) as { id?: number; method: string };
    if (msg.method === "tools/call" && refusingCalls) return refused();
    if (msg.id === undefined) return new Response(null, { status: 202 });
    if (msg.method === "initialize" && opts.initStatus) return Response.json({ error: `internal: auth=${auth}` }, { status: opts.initStatus });
    if (msg.method === "tools/call" && opts.callStatus)
      return Response.json({ error: "server_error", error_description: "the database is down" }, { status: opts.callStatus });
    const result =
      msg.method === "initialize"
        ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "oauth-fake", version: "1" } }
        : msg.method === "tools/list"
          ? { tools: [{ name: "whoami", description: "the Authorization header this call carried", inputSchema: { type: "object", properties: {} } }] }
          : msg.method === "tools/call"
            ? { content: [{ type: "text", text: `you sent: ${auth}` }] }
            : undefined;
    return Response.json(result ? { jsonrpc: "2.0", id: msg.id, result } : { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "no such method" } });
  }
  return {
    url: `http://127.0.0.1:${server.port}/mcp`,
    grants,
    seen,
    issued,
    revokeAll() {
      access = new Set();
      refresh = new Set();
    },
    expireAll() {
      access = new Set();
    },
    forgetClients() {
      for (const id of registered) forgotten.add(id);
    },
    refuseTokens() {
      refusing = true;
    },
    refuseCalls() {
      refusingCalls = true;
    },
    stop: () => void server.stop(true),
  };
}

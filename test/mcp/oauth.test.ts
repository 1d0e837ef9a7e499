// Sign-in faults against a fake OAuth-protected server (test/helpers/oauth-server.ts), through the
// real SDK client auth: a server never signed in to is auth_required, not failed; a token close to
// its expiry is refreshed before it is used; a revoked sign-in (and a refresh refused) is
// auth_required again, never a crash; a sign-in that fails or is cancelled names its step.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { connectServer } from "../../src/mcp/client.ts";
import { createCredentialStore, watchStore } from "../../src/mcp/credentials.ts";
import { authCommand, cancelledNote, signIn, signOut } from "../../src/mcp/login.ts";
import { signedIn } from "../../src/mcp/oauth.ts";
import { createMcpManager } from "../../src/mcp/manager.ts";
import { createToolStore } from "../../src/mcp/store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { freePort, serverSettings } from "../helpers/mcp.ts";
import { startOAuthFake, type OAuthFake, type OAuthFakeOptions } from "../helpers/oauth-server.ts";
import { until } from "../helpers/wait.ts";

setDefaultTimeout(30_000);

const BROWSER = `node ${join(import.meta.dir, "..", "fixtures", "mcp", "browser.mjs")}`;
let dir: ReturnType<typeof tempDir>;
const fakes: OAuthFake[] = [];
const cleanup: (() => Promise<void>)[] = [];
beforeEach(() => {
  dir = tempDir("hey-oauth-");
});
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
  for (const f of fakes.splice(0)) f.stop();
  dir.remove();
});

const fake = (opts?: OAuthFakeOptions) => {
  const f = startOAuthFake(opts);
  fakes.push(f);
  return f;
};
const store = () => createCredentialStore(join(dir.path, "config"));
const printed: string[] = [];
const login = (
  url: string,
  env: Record<string, string> = { BROWSER, PATH: process.env.PATH ?? "" },
  signal = new AbortController().signal,
  state?: () => string | undefined, // the server's state in the hey signing in (/mcp login); absent: hey mcp login in a shell
) => signIn(serverSettings("remote", { url }), { store: store(), fetch, env, print: (t) => void printed.push(t), signal, timeoutMs: 10_000, state });

/** A manager over the real client, with hey's background OAuth provider. */
function manager(url: string, headers: Record<string, string> = {}) {
  const events: { state: string; error?: string }[] = [];
  const creds = store();
  const m = createMcpManager(
    { servers: [serverSettings("remote", { url, headers })], startupWaitMs: 10_000, off: false },
    {
      connect: (s, hooks, signal) =>
        connectServer(s, hooks, { version: "test", env: {}, fetch, auth: (s, refresh) => signedIn(s, creds, Date.now, refresh) }, signal),
      store: createToolStore(join(dir.path, "cache")),
      missingCommand: () => undefined,
      report: (e) => void events.push(e),
      warn: () => {},
      refused: () => false,
      budget: () => 40_000,
      signIns: watchStore(() => creds),
      now: Date.now,
    },
  );
  cleanup.push(() => m.close());
  const call = async () => {
    const tool = (await m.tools([], new AbortController().signal)).find((t) => t.name === "whoami");
    return tool ? (await tool.run({}, { signal: new AbortController().signal, cwd: dir.path })).output : "(no whoami offered)";
  };
  return { m, events, call };
}

test("never signed in: auth_required (not failed), no tool offered; after a sign-in (0600 file) the call carries the token", async () => {
  const f = fake();
  const before = manager(f.url);
  expect(await before.call()).toBe("(no whoami offered)");
  expect(before.events).toEqual([{ type: "mcp", server: "remote", state: "auth_required", error: "it answers HTTP 401 without one" }] as never);
  expect(store().read(f.url)).toBeUndefined(); // nothing was registered in the background

  const r = await login(f.url);
  expect(r).toMatchObject({ ok: true });
  const file = store().pathOf(f.url);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(file, "..")).mode & 0o777).toBe(0o700);
  expect(f.grants).toEqual(["authorization_code"]);

  expect(await before.m.restart("remote")).toBe(true);
  expect(await before.call()).toBe(`you sent: Bearer ${f.issued[0]}`);
});

test("a token that expires within a minute is refreshed before it is used, and the new one is kept", async () => {
  const f = fake({ expiresIn: 3600 });
  expect((await login(f.url)).ok).toBe(true);
  const s = store();
  const c = s.read(f.url)!;
  await s.write({ ...c, tokens: { ...c.tokens!, expires_at: Date.now() + 20_000 } }); // 59 minutes 40 seconds later
  const { call } = manager(f.url);
  expect(await call()).toBe(`you sent: Bearer ${f.issued[1]}`);
  expect(f.grants.slice(0, 2)).toEqual(["authorization_code", "refresh_token"]);
  expect(f.seen).not.toContain(f.issued[0]); // the old one was never sent
  expect(store().read(f.url)!.tokens!.access_token).toBe(f.issued.at(-1)!);
});

/** The stored access token's stated expiry put in the past, and the server's copy of it run out too. */
async function expire(f: OAuthFake): Promise<void> {
  const s = store();
  const c = s.read(f.url)!;
  await s.write({ ...c, tokens: { ...c.tokens!, expires_at: Date.now() - 1000 } });
  f.expireAll();
}

test("a token past its expiry with a refresh token is refreshed, at start and mid-session (one refresh for calls at once): no sign-in asked", async () => {
  const f = fake({ expiresIn: 3600 });
  expect((await login(f.url)).ok).toBe(true);
  await expire(f); // the next day
  const { m, events, call } = manager(f.url);
  // before: auth_required, "hey's sign-in to it has run out and could not be refreshed", and no refresh tried
  expect(await call()).toBe(`you sent: Bearer ${f.issued[1]}`);
  expect(events).toEqual([{ type: "mcp", server: "remote", state: "connected", tools: 1 }] as never);
  expect(f.grants).toEqual(["authorization_code", "refresh_token"]);
  expect(store().read(f.url)!.tokens!.access_token).toBe(f.issued[1]!);

  await expire(f); // a session idle past the token's life
  expect(await Promise.all([call(), call()])).toEqual([`you sent: Bearer ${f.issued[2]}`, `you sent: Bearer ${f.issued[2]}`]);
  expect(f.grants).toEqual(["authorization_code", "refresh_token", "refresh_token"]);
  expect(m.status()[0]).toMatchObject({ state: "connected" });
});

test("a revoked sign-in whose refresh is refused: auth_required again, and a call says how to sign in", async () => {
  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  const { m, events, call } = manager(f.url);
  expect(await call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  f.revokeAll();
  const tool = (await m.tools([], new AbortController().signal)).find((t) => t.name === "whoami")!;
  const r = await tool.run({}, { signal: new AbortController().signal, cwd: dir.path });
  expect(r).toEqual({ output: expect.stringContaining("MCP server remote needs a sign-in"), isError: true });
  // the user signs in, not the agent: a model told to "run hey mcp login" ran it through bash, opening the user's browser
  expect(r.output).toContain("the user signs in with /mcp login remote; do not run it (or hey mcp login) yourself");
  expect(r.output).not.toContain("run hey mcp login");
  expect(f.grants).toContain("refresh_token"); // the SDK tried to refresh first
  expect(events.at(-1)).toMatchObject({ state: "auth_required" });
  expect(m.status()[0]!.state).toBe("auth_required");
  // the refused refresh dropped the tokens; the next run offers nothing of the server (its cached list is gone too) and says so
  expect(store().read(f.url)!.tokens).toBeUndefined();
  // this run ends before the next starts: its close waits for the cached list's removal, which is
  // still being written when the call returns (a next run started before it saw the list, under load)
  await m.close();
  const next = manager(f.url);
  expect(await next.call()).toBe("(no whoami offered)");
  expect(next.events).toEqual([{ type: "mcp", server: "remote", state: "auth_required", error: "it answers HTTP 401 without one" }] as never);
});

test("a token past its stated expiry with no refresh token is not sent: auth_required", async () => {
  const f = fake({ refresh: false });
  expect((await login(f.url)).ok).toBe(true);
  const s = store();
  const c = s.read(f.url)!;
  await s.write({ ...c, tokens: { ...c.tokens!, expires_at: Date.now() - 1000 } });
  const { events, call } = manager(f.url);
  expect(await call()).toBe("(no whoami offered)");
  expect(events).toEqual([
    { type: "mcp", server: "remote", state: "auth_required", error: "hey's sign-in to it has run out and could not be refreshed" },
  ] as never);
  expect(f.seen).not.toContain(f.issued[0]);
});

test("a failed registration names its step; a cancelled wait names the browser step and keeps the earlier sign-in", async () => {
  const closed = fake({ registerStatus: 400 });
  const r = await login(closed.url);
  expect(r).toEqual({
    ok: false,
    step: "client registration",
    text: expect.stringMatching(/^sign-in to remote failed at client registration \(registering hey with the authorization server\): .*registration is closed/),
  });

  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  const kept = store().read(f.url)!.tokens!.access_token;
  const abort = new AbortController();
  const waiting = printed.length;
  const pending = login(f.url, { BROWSER: "true", PATH: process.env.PATH ?? "" }, abort.signal); // a browser that never comes back
  // Ctrl-C once hey waits for the browser (a fixed 500 ms could land in discovery on a loaded machine)
  await until(() => printed.slice(waiting).some((t) => t.startsWith("Waiting for the browser to come back")), "the sign-in waiting for the browser");
  abort.abort();
  const cancelled = await pending;
  expect(cancelled).toEqual({
    ok: false,
    step: "browser sign-in",
    text: "sign-in to remote cancelled at the browser sign-in (waiting for the browser to come back): Ctrl-C; the earlier sign-in is still stored; whether the server takes it is not known",
  });
  expect(store().read(f.url)!.tokens!.access_token).toBe(kept);
});

test("/mcp login cancelled for a server that refused the stored token says it stays signed out, though the token has not run out", async () => {
  const f = fake({ refresh: false });
  expect((await login(f.url)).ok).toBe(true);
  const { m, call } = manager(f.url);
  expect(await call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  f.expireAll(); // the server no longer takes it (revoked, restarted); the file still holds it, unexpired
  expect(await call()).toContain("needs a sign-in");
  expect(m.status()[0]!.state).toBe("auth_required");
  const cancel = async (state: () => string | undefined) => {
    const abort = new AbortController();
    const waiting = printed.length;
    const pending = login(f.url, { BROWSER: "true", PATH: process.env.PATH ?? "" }, abort.signal, state);
    await until(() => printed.slice(waiting).some((t) => t.startsWith("Waiting for the browser to come back")), "the sign-in waiting for the browser");
    abort.abort();
    return (await pending).text;
  };
  expect(await cancel(() => m.status()[0]!.state)).toEndWith("Ctrl-C; not signed in: remote stays signed out, its tools left out");
  expect(m.status()[0]!.state).toBe("auth_required");
  expect(await cancel(() => "connected")).toEndWith("Ctrl-C; the earlier sign-in still holds"); // a server that takes it
});

test("a cancelled /mcp login of a connected server whose stored token ran out (no refresh_token) says it stays connected, not that its tools are left out", () => {
  expect(cancelledNote("remote", "connected", false)).toBe(
    "remote stays connected, its tools offered; the stored sign-in has run out, so its next connection will ask for one",
  );
  expect(cancelledNote("remote", "connected", true)).toBe("the earlier sign-in still holds");
  expect(cancelledNote("remote", "auth_required", true)).toBe("not signed in: remote stays signed out, its tools left out");
});

test("a cancelled sign-in with no usable sign-in stored says the server stays signed out, never that an earlier one holds", async () => {
  const f = fake();
  for (const earlier of ["none", "revoked"] as const) {
    if (earlier === "revoked") {
      expect((await login(f.url)).ok).toBe(true);
      const s = store();
      const { tokens: _, ...rest } = s.read(f.url)!; // a refused grant drops the tokens, keeping the registration
      await s.write(rest);
    }
    const abort = new AbortController();
    const waiting = printed.length;
    const pending = login(f.url, { BROWSER: "true", PATH: process.env.PATH ?? "" }, abort.signal);
    await until(() => printed.slice(waiting).some((t) => t.startsWith("Waiting for the browser to come back")), "the sign-in waiting for the browser");
    abort.abort();
    expect((await pending).text).toBe(
      "sign-in to remote cancelled at the browser sign-in (waiting for the browser to come back): Ctrl-C; not signed in: remote stays signed out, its tools left out",
    );
  }
});

test("a sign-in made by another hey (hey mcp login in a shell) while this one waits for it is taken up at the next request: no /reload", async () => {
  const f = fake();
  const { m, events, call } = manager(f.url);
  expect(await call()).toBe("(no whoami offered)");
  expect(m.status()[0]!.state).toBe("auth_required");
  expect(await call()).toBe("(no whoami offered)"); // nothing new stored: no reconnect, no request to the server
  const asked = f.seen.length;
  expect((await login(f.url)).ok).toBe(true); // its own store, as another process's
  expect(await call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  expect(events.at(-1)).toMatchObject({ state: "connected", tools: 1 });
  expect(f.seen.length).toBeGreaterThan(asked);
});

test("a call through a tool of a server whose sign-in was revoked works again once a sign-in is made elsewhere", async () => {
  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  const { m, call } = manager(f.url);
  expect(await call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  const tool = (await m.tools([], new AbortController().signal)).find((t) => t.name === "whoami")!; // as the model holds it from the last request
  f.revokeAll();
  const run = () => tool.run({}, { signal: new AbortController().signal, cwd: dir.path });
  expect((await run()).output).toContain("needs a sign-in");
  expect((await run()).output).toContain("needs a sign-in"); // still: nothing new stored
  expect((await login(f.url)).ok).toBe(true);
  expect(await run()).toEqual({ output: `you sent: Bearer ${f.issued.at(-1)}` });
  expect(m.status()[0]!.state).toBe("connected");
});

test("a server that cannot be reached, or has no OAuth metadata, fails at discovery; one that asks for nothing needs no sign-in; logout forgets", async () => {
  const plain = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname === "/mcp"
        ? new Response("no", { status: 401, headers: { "www-authenticate": "Bearer" } })
        : new Response("nope", { status: 404 }),
  });
  cleanup.push(async () => void plain.stop(true));
  const gone = freePort();
  expect(await login(`http://127.0.0.1:${gone}/mcp`)).toEqual({
    ok: false,
    step: "discovery",
    text: `sign-in to remote failed at discovery (finding the server's authorization server): cannot reach 127.0.0.1:${gone} (connection refused)`,
  });
  const r = await login(`http://127.0.0.1:${plain.port}/mcp`);
  expect(r.ok).toBe(false);
  expect(r).toMatchObject({ step: expect.stringMatching(/discovery|client registration/) });

  const open = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ jsonrpc: "2.0", id: 0, result: {} }) });
  cleanup.push(async () => void open.stop(true));
  expect(await login(`http://127.0.0.1:${open.port}/mcp`)).toEqual({
    ok: true,
    text: `MCP server remote answered without asking for a sign-in (HTTP 200); nothing to do`,
  });

  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  const s = serverSettings("remote", { url: f.url });
  expect(signOut(s, store())).toMatchObject({ ok: true, text: expect.stringContaining("signed out of remote") });
  expect(store().read(f.url)).toBeUndefined();
  expect(signOut(s, store())).toEqual({ ok: true, text: "not signed in to remote; nothing to remove" });
});

test("client_id from the table: no registration (the server refuses any), and the authorization URL names that client", async () => {
  const f = fake({ registerStatus: 403 });
  const log = join(dir.path, "browser.log");
  const r = await signIn(serverSettings("remote", { url: f.url, oauthClient: { id: "my-app" } }), {
    store: store(),
    fetch,
    env: { BROWSER, BROWSER_LOG: log, PATH: process.env.PATH ?? "" },
    print: () => {},
    signal: new AbortController().signal,
    timeoutMs: 10_000,
  });
  expect(r).toMatchObject({ ok: true });
  expect(new URL(readFileSync(log, "utf8").trim()).searchParams.get("client_id")).toBe("my-app");
  expect(store().read(f.url)!.client).toBeUndefined(); // nothing registered, nothing stored for the client
  expect(f.grants).toEqual(["authorization_code"]);
});

test("a 401 to the table's own Authorization header is a plain failure: no sign-in could help", async () => {
  const f = fake();
  const { events, call } = manager(f.url, { Authorization: "Bearer not-a-token-of-it" });
  expect(await call()).toBe("(no whoami offered)");
  expect(events).toEqual([{ type: "mcp", server: "remote", state: "failed", error: expect.stringMatching(/^HTTP 401: /) }] as never);
  expect(f.seen).toEqual(["not-a-token-of-it"]);
});

test("a server that answers a token it no longer knows with 500 server_error (the SDK's bearer middleware) wants a sign-in, said so mid-session and at the next start", async () => {
  const f = fake({ revokedStatus: 500, refresh: false });
  expect((await login(f.url)).ok).toBe(true);
  const { m, call } = manager(f.url);
  expect(await call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  f.revokeAll(); // the server restarted: its tokens are gone
  const why = "it refused hey's sign-in with HTTP 500 server_error (Internal Server Error) and asks for a new one";
  expect(await call()).toBe(
    `MCP server remote needs a sign-in (${why}): the user signs in with /mcp login remote; do not run it (or hey mcp login) yourself: ask the user to, then call again`,
  );
  expect(m.status()[0]).toMatchObject({ state: "auth_required", error: why });
  await m.close(); // the run ends (its cache writes with it); then the next one starts
  const next = manager(f.url);
  expect(await next.call()).toBe("(no whoami offered)");
  expect(next.events).toEqual([{ type: "mcp", server: "remote", state: "auth_required", error: why }] as never);
});

test("a signed-in server's own 500 with an OAuth-shaped body is the call's failure, not a sign-in that ran out", async () => {
  const f = fake({ callStatus: 500, refresh: false });
  expect((await login(f.url)).ok).toBe(true);
  const { m, call } = manager(f.url);
  // before: "MCP server remote needs a sign-in (it refused hey's sign-in with HTTP 500 server_error …)"
  expect(await call()).toBe('whoami failed: HTTP 500: {"error":"server_error","error_description":"the database is down"}');
  expect(m.status()[0]).toMatchObject({ state: "connected" });
});

test("a sign-in whose registration the authorization server has forgotten registers hey again, instead of sending the browser to an error page", async () => {
  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  const before = store().read(f.url)!.client!.client_id;
  f.forgetClients(); // the authorization server restarted
  f.revokeAll();
  printed.length = 0;
  expect(await login(f.url)).toMatchObject({ ok: true });
  expect(printed).toContain("  the authorization server no longer knows hey's registration (HTTP 400 invalid_client): registering hey again");
  const after = store().read(f.url)!;
  expect(after.client!.client_id).not.toBe(before);
  expect(after.tokens!.access_token).toBe(f.issued.at(-1)!);
});

test("/mcp login in a hey the agent's command started (hey -p '/mcp login o' through bash) refuses at once: no browser, no request", async () => {
  const f = fake();
  let restarted = false;
  const r = await authCommand("login", "remote", {
    servers: [serverSettings("remote", { url: f.url })],
    store: store(),
    fetch,
    env: { BROWSER, PATH: process.env.PATH ?? "", HEY_AGENT_SESSION: "s-1" },
    print: (t) => void printed.push(t),
    signal: new AbortController().signal,
    restart: async () => (restarted = true),
  });
  expect(r).toEqual({
    ok: false,
    text: "hey: running under an agent's command (HEY_AGENT_SESSION): the user signs in at their own terminal, with /mcp login remote in hey or hey mcp login remote in a shell",
  });
  expect(f.grants).toEqual([]);
  expect(store().read(f.url)).toBeUndefined();
  expect(restarted).toBe(false);
});

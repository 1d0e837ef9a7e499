// hey's OAuthClientProvider (issue 27): pure parts and the two modes, over an in-memory store.
import { expect, test } from "bun:test";
import { browserCommands } from "../../src/mcp/browser.ts";
import type { CredentialStore, Credentials } from "../../src/mcp/credentials.ts";
import { clientMetadata, createOAuthProvider, dueForRefresh, registeredPort, signedIn, withExpiry } from "../../src/mcp/oauth.ts";
import { serverSettings } from "../helpers/mcp.ts";

const URL_ = "https://mcp.example.com/mcp";
function memory(initial?: Credentials): CredentialStore & { data: Credentials | undefined } {
  const s = {
    data: initial,
    pathOf: () => "/x",
    read: () => s.data,
    write: async (c: Credentials) => void (s.data = c),
    locked: <T>(_url: string, fn: () => Promise<T>) => fn(),
    remove: () => ((s.data = undefined), true),
    secrets: () => [],
  };
  return s;
}

test.each([
  [{ access_token: "a", token_type: "Bearer", refresh_token: "r", expires_in: 3600, expires_at: 1_000_000 + 30_000 }, true], // 30 s left of an hour
  [{ access_token: "a", token_type: "Bearer", refresh_token: "r", expires_in: 3600, expires_at: 1_000_000 + 120_000 }, false],
  [{ access_token: "a", token_type: "Bearer", refresh_token: "r", expires_in: 30, expires_at: 1_000_000 + 29_000 }, false], // a 30 s token: half its life
  [{ access_token: "a", token_type: "Bearer", refresh_token: "r", expires_in: 30, expires_at: 1_000_000 + 10_000 }, true],
  [{ access_token: "a", token_type: "Bearer", expires_in: 3600, expires_at: 1_000_000 + 30_000 }, false], // nothing to refresh with
  [{ access_token: "a", token_type: "Bearer", refresh_token: "r" }, false], // no stated expiry
  [undefined, false],
] as const)("dueForRefresh(%j) at t=1e6 → %p", (tokens, want) => {
  expect(dueForRefresh(tokens as never, 1_000_000)).toBe(want);
});

test("tokens keep when they expire; a registration's loopback port is found; hey registers as a public client unless a secret is configured", () => {
  expect(withExpiry({ access_token: "a", token_type: "Bearer", expires_in: 60 }, 1000)).toEqual({
    access_token: "a",
    token_type: "Bearer",
    expires_in: 60,
    expires_at: 61_000,
  });
  expect(withExpiry({ access_token: "a", token_type: "Bearer" }, 1000)).toEqual({ access_token: "a", token_type: "Bearer" });
  expect(registeredPort({ url: URL_, client: { client_id: "c", redirect_uris: ["http://127.0.0.1:4567/callback"] } })).toBe(4567);
  expect(registeredPort({ url: URL_, client: { client_id: "c", redirect_uris: ["https://example.com/cb"] } })).toBeUndefined();
  expect(clientMetadata("http://127.0.0.1:1/callback", false)).toMatchObject({
    client_name: "hey",
    redirect_uris: ["http://127.0.0.1:1/callback"],
    token_endpoint_auth_method: "none",
  });
  expect(clientMetadata("http://127.0.0.1:1/callback", true)).toMatchObject({ token_endpoint_auth_method: "client_secret_post" });
});

test("background: never registers; a flow that needs the browser only records it; an expired token is not sent", async () => {
  const store = memory({
    url: URL_,
    client: { client_id: "c1", redirect_uris: ["http://127.0.0.1:4567/callback"] },
    tokens: { access_token: "a", token_type: "Bearer", expires_at: 500 },
  });
  const p = createOAuthProvider({ url: URL_, store, now: () => 1000 });
  expect(p.saveClientInformation).toBeUndefined();
  expect(p.redirectUrl).toBe("http://127.0.0.1:4567/callback");
  expect(p.clientInformation()).toEqual(store.data!.client);
  expect(await p.tokens()).toBeUndefined(); // past expires_at
  expect(p.needsSignIn).toBe(true);
  await p.redirectToAuthorization(new URL("https://auth.example.com/authorize"));
  expect(store.data!.tokens!.access_token).toBe("a"); // nothing dropped by merely being asked
});

test("sign-in: registers anew when the stored registration has another redirect URL; asks for a new sign-in, not a refresh; rediscovers", async () => {
  const store = memory({
    url: URL_,
    client: { client_id: "old", redirect_uris: ["http://127.0.0.1:1111/callback"] },
    tokens: { access_token: "a", token_type: "Bearer", refresh_token: "r" },
    discovery: { authorizationServerUrl: "https://old-auth.example.com/" },
  });
  const opened: string[] = [];
  const p = createOAuthProvider({
    url: URL_,
    store,
    now: () => 0,
    signIn: { redirectUrl: "http://127.0.0.1:2222/callback", state: "s1", open: (u) => void opened.push(u.href) },
  });
  expect(p.clientInformation()).toBeUndefined();
  expect(await p.tokens()).toBeUndefined();
  expect(p.discoveryState()).toBeUndefined();
  expect(p.state()).toBe("s1");
  await p.saveDiscoveryState({ authorizationServerUrl: "https://auth.example.com/" });
  expect(p.step).toBe("client registration");
  expect(p.discoveryState()).toEqual({ authorizationServerUrl: "https://auth.example.com/" });
  await p.saveClientInformation!({ client_id: "new", redirect_uris: ["http://127.0.0.1:2222/callback"] });
  expect(p.step).toBe("authorization request");
  expect(p.clientInformation()).toMatchObject({ client_id: "new" });
  await p.redirectToAuthorization(new URL("https://auth.example.com/authorize?x=1"));
  expect(p.step).toBe("browser sign-in");
  expect(opened).toEqual(["https://auth.example.com/authorize?x=1"]);
  await p.saveTokens({ access_token: "b", token_type: "Bearer", expires_in: 10 });
  expect(store.data!.tokens).toEqual({ access_token: "b", token_type: "Bearer", expires_in: 10, expires_at: 10_000 });
  await p.invalidateCredentials("tokens");
  expect(store.data).toMatchObject({ client: { client_id: "new" } });
  expect(store.data!.tokens).toBeUndefined();
});

test("a client_id from the table is used as is and never replaced by a registration", () => {
  const p = createOAuthProvider({
    url: URL_,
    store: memory(),
    client: { id: "mine", secret: "shh" },
    now: () => 0,
    signIn: { redirectUrl: "http://127.0.0.1:1/callback", state: "s", open: () => {} },
  });
  expect(p.clientInformation()).toEqual({ client_id: "mine", client_secret: "shh" });
  expect(p.saveClientInformation).toBeUndefined();
});

test("signedIn: only a remote server with stored tokens and no Authorization header of its own", () => {
  const withTokens = memory({ url: URL_, tokens: { access_token: "a", token_type: "Bearer" } });
  const refresh = async () => {};
  expect(signedIn(serverSettings("r", { url: URL_ }), withTokens, Date.now, refresh)).toBeDefined();
  expect(signedIn(serverSettings("r", { url: URL_ }), memory(), Date.now, refresh)).toBeUndefined();
  expect(signedIn(serverSettings("r", { url: URL_, headers: { authorization: "Bearer mine" } }), withTokens, Date.now, refresh)).toBeUndefined();
  expect(signedIn(serverSettings("l", { command: "x" }), withTokens, Date.now, refresh)).toBeUndefined();
});

test.each([
  [
    { BROWSER: "firefox" },
    "linux",
    [
      ["sh", "-c", 'firefox "$1"', "sh", "U"],
      ["xdg-open", "U"],
    ],
  ],
  [
    { BROWSER: "w3m %s:lynx" },
    "linux",
    [
      ["sh", "-c", 'w3m "$1"', "sh", "U"],
      ["sh", "-c", 'lynx "$1"', "sh", "U"],
      ["xdg-open", "U"],
    ],
  ],
  [{}, "darwin", [["open", "U"]]],
  [{}, "linux", [["xdg-open", "U"]]],
] as const)("browser commands for %j on %s", (env, platform, want) => {
  expect(browserCommands("U", env, platform)).toEqual(want.map((a) => [...a]));
});

test("on Windows the URL is escaped for cmd.exe: & stays part of it", () => {
  expect(browserCommands("https://a/authorize?x=1&y=2", {}, "win32")).toEqual([["cmd", "/c", "start", '""', "https://a/authorize?x=1^&y=2"]]);
});

// One sign-in shared by several heys (x61 #1): what a refused grant drops, and a refresh that finds,
// once it holds the lock, that another hey has refreshed already. Over an in-memory store whose
// lock lets a test play the other hey.
import { expect, test } from "bun:test";
import type { CredentialStore, Credentials, StoredTokens } from "../../src/mcp/credentials.ts";
import { createOAuthProvider, invalidated } from "../../src/mcp/oauth.ts";

const URL_ = "https://mcp.example.com/mcp";
const t = (access: string, refresh: string, expires_at = 10_000_000): StoredTokens => ({
  access_token: access,
  token_type: "Bearer",
  refresh_token: refresh,
  expires_in: 3600,
  expires_at,
});
const client = { client_id: "c1", redirect_uris: ["http://127.0.0.1:4567/callback"] };

/** A store whose lock, once taken, first runs `meanwhile`: what another hey did while this one waited for it. */
function shared(initial: Credentials) {
  const s = {
    data: initial as Credentials | undefined,
    meanwhile: () => {},
    pathOf: () => "/x",
    read: () => s.data,
    write: async (c: Credentials) => void (s.data = c),
    locked: async <T>(_url: string, fn: () => Promise<T>) => {
      s.meanwhile();
      s.meanwhile = () => {};
      return fn();
    },
    remove: () => ((s.data = undefined), true),
    secrets: () => [],
  };
  return s satisfies CredentialStore;
}

test.each([
  ["tokens", { tokens: t("a1", "r1") }, { client, discovery: { x: 1 } }],
  ["tokens", { tokens: t("a0", "r0") }, { client, tokens: t("a1", "r1"), discovery: { x: 1 } }], // another hey's newer ones stay
  ["tokens", {}, { client, tokens: t("a1", "r1"), discovery: { x: 1 } }], // a sign-in's refused code: the earlier sign-in stays
  ["all", { tokens: t("a1", "r1"), clientId: "c1" }, {}],
  ["all", { clientId: "c0" }, { client, tokens: t("a1", "r1") }], // a registration made since by hey mcp login stays, with its tokens
  ["client", { clientId: "c1" }, { tokens: t("a1", "r1"), discovery: { x: 1 } }],
  ["discovery", { tokens: t("a1", "r1") }, { client, tokens: t("a1", "r1") }],
] as const)("invalidated(%s, used %j) keeps %j", (scope, used, kept) => {
  const c: Credentials = { url: URL_, client, tokens: t("a1", "r1"), discovery: { x: 1 } };
  expect(invalidated(c, scope, used)).toEqual({ url: URL_, ...kept });
});

test("a due token that another hey refreshed while this one waited for the lock: its tokens are used, no second refresh", async () => {
  const store = shared({ url: URL_, client, tokens: t("a1", "r1", 1000) });
  store.meanwhile = () => void (store.data = { ...store.data!, tokens: t("a2", "r2") });
  let refreshes = 0;
  const p = createOAuthProvider({ url: URL_, store, now: () => 1000, refresh: async () => void refreshes++ });
  expect((await p.tokens())?.access_token).toBe("a2");
  expect(refreshes).toBe(0);
  expect(p.needsSignIn).toBe(false);
});

test("a refresh refused (invalid_grant) after another hey stored new tokens: those stay, and this hey goes on with them", async () => {
  const store = shared({ url: URL_, client, tokens: t("a1", "r1", 1000) });
  const p = createOAuthProvider({
    url: URL_,
    store,
    now: () => 1000,
    // as the SDK does: reads the tokens, the server refuses the refresh token, it invalidates them
    refresh: async (view) => {
      expect((await view.tokens())?.refresh_token).toBe("r1");
      store.data = { ...store.data!, tokens: t("a2", "r2") }; // another hey (one without the lock: an older version, or a 401's own refresh)
      await view.invalidateCredentials("tokens");
    },
  });
  expect((await p.tokens())?.access_token).toBe("a2");
  expect(store.data?.tokens?.refresh_token).toBe("r2");
  // the tokens it used itself do go when refused
  await p.invalidateCredentials("tokens");
  expect(store.data?.tokens).toBeUndefined();
  expect(store.data?.client).toEqual(client);
});
